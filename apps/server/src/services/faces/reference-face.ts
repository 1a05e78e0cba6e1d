import { AppError } from '../../lib/app-error.ts';
import type {
  DetectedFace,
  FaceEngineProvider,
} from '../../repositories/faces/engine/face-engine-provider.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { readAll } from '../photos/photo-files.ts';

/** Reference photos are previews, selfies or originals: at most this many bytes are read. */
export const MAX_REFERENCE_BYTES = 40 * 1024 * 1024;
/** A selfie shows "several faces" when its second face has at least this share of the largest's area. */
const SECOND_FACE_AREA = 0.25;

/**
 * The largest face of a stored reference photo; `face_not_found` when it has none, and with
 * `single` (a guest's selfie) `several_faces` when it shows more than one person.
 */
export const largestFaceOf = async (
  deps: { storage: Pick<StorageRepository, 'get'>; engine: Pick<FaceEngineProvider, 'detect'> },
  key: string,
  options: { single?: boolean } = {},
): Promise<DetectedFace> => {
  const object = await deps.storage.get(key);
  if (!object) throw new AppError('not_found', 'photo_url_list');
  const bytes = await readAll(object.body, MAX_REFERENCE_BYTES).catch(() => {
    throw new AppError('unsupported_media_size', 'photo_url_list');
  });
  let faces: DetectedFace[];
  try {
    faces = await deps.engine.detect(bytes, { maxFaces: options.single ? 2 : 1 });
  } catch (error) {
    if (error instanceof ProviderError && error.permanent)
      throw new AppError('unsupported_picture_format', 'photo_url_list');
    throw error;
  }
  const [face] = faces;
  if (!face) throw new AppError('face_not_found', 'photo_url_list');
  // A face far smaller than the largest (someone passing behind) does not count.
  const area = (f: DetectedFace) => f.pixels.width * f.pixels.height;
  const [, second] = faces;
  if (second && area(second) >= area(face) * SECOND_FACE_AREA)
    throw new AppError('several_faces', 'photo_url_list');
  return face;
};
