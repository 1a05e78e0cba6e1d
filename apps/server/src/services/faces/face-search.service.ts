import type { FaceMatch, ParsedBodyOf, searchByFace } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { FaceRepository } from '../../repositories/face.repository.ts';
import type {
  DetectedFace,
  FaceEngineProvider,
} from '../../repositories/face-engine/face-engine-provider.ts';
import type { PhotoRepository } from '../../repositories/photo.repository.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import { readAll } from '../photos/photo-files.ts';
import { distanceForSimilarity, similarityFromDistance } from './face-similarity.ts';
import { storageKeyOfReference } from './reference-photos.ts';

/** Reference photos are previews, selfies or originals: at most this many bytes are read. */
const MAX_REFERENCE_BYTES = 40 * 1024 * 1024;
/** At most this many matching faces are considered per reference face. */
const MAX_MATCHES = 5000;

const parseDate = (value: string | undefined, field: string): Date | undefined => {
  if (!value) return undefined;
  const normalised = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}:00Z`
    : value;
  const date = new Date(normalised);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_value', field);
  return date;
};

/**
 * Search by face (issue 13, docs/domains/faces.md). The reference photos are objects of this
 * server's storage (never fetched by URL); each one's largest face is searched for, like
 * Rekognition's SearchFacesByImage, with an exact distance search over the event's indexed faces.
 */
export class FaceSearchService {
  constructor(
    private readonly deps: {
      faces: FaceRepository;
      photos: PhotoRepository;
      listing: Pick<PhotoListingService, 'present'>;
      storage: StorageRepository;
      engine: FaceEngineProvider;
      access: AccessControl;
    },
  ) {}

  /** `flashbulb-owner/photo/search-by-face`. */
  async searchByOwner(
    principal: Principal,
    input: ParsedBodyOf<typeof searchByFace>,
  ): Promise<{ photos: FaceMatch[]; searched_faces: number }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'face.search', {
      eventId: input.event_id,
    });
    const start = parseDate(input.start_date, 'start_date');
    const end = parseDate(input.end_date, 'end_date');
    if (start && end && end < start) throw new AppError('date_range_invalid', 'end_date');
    // Every reference is checked before any is read: one foreign URL refuses the whole call.
    const keys = input.photo_url_list.map((reference) => {
      const key = storageKeyOfReference(this.deps.storage, reference, event.row.name);
      if (!key) throw new AppError('invalid_url', 'photo_url_list');
      return key;
    });
    if (event.row.enable_facial_recognition !== 1) throw new AppError('face_recognition_off');
    const references: DetectedFace[] = [];
    for (const key of keys) references.push(await this.largestFace(key));

    const { engine } = this.deps;
    const maxDistance = distanceForSimilarity(input.face_match_threshold);
    const best = new Map<number, { distance: number; faceId: number }>();
    for (const reference of references) {
      const matches = await this.deps.faces.nearest({
        eventId: event.row.id,
        model: engine.model,
        descriptor: reference.embedding,
        maxDistance,
        limit: MAX_MATCHES,
        visibleOnly: false,
      });
      for (const match of matches) {
        const seen = best.get(match.photoId);
        if (!seen || match.distance < seen.distance)
          best.set(match.photoId, { distance: match.distance, faceId: match.faceId });
      }
    }
    const rows = await this.deps.photos.findByIds([...best.keys()]);
    const boxes = await this.deps.faces.boxesOf([...best.values()].map((b) => b.faceId));
    const photos: FaceMatch[] = [];
    for (const row of rows) {
      if (start && row.createdAt < start) continue;
      if (end && row.createdAt > end) continue;
      const match = best.get(row.id)!;
      const similarity = similarityFromDistance(match.distance);
      // The SQL cut-off is a distance; the threshold is on the rounded similarity.
      if (similarity < input.face_match_threshold) continue;
      const box = boxes.get(match.faceId);
      if (!box) continue;
      photos.push({ ...this.deps.listing.present(row, 'owner'), similarity, face_box: box });
    }
    photos.sort((a, b) => b.similarity - a.similarity || b.id - a.id);
    return { photos, searched_faces: references.length };
  }

  /** The largest face of a stored reference photo; `face_not_found` when it has none. */
  private async largestFace(key: string): Promise<DetectedFace> {
    const object = await this.deps.storage.get(key);
    if (!object) throw new AppError('not_found', 'photo_url_list');
    const bytes = await readAll(object.body, MAX_REFERENCE_BYTES).catch(() => {
      throw new AppError('unsupported_media_size', 'photo_url_list');
    });
    let faces: DetectedFace[];
    try {
      faces = await this.deps.engine.detect(bytes, { maxFaces: 1 });
    } catch (error) {
      if (error instanceof ProviderError && error.permanent)
        throw new AppError('unsupported_picture_format', 'photo_url_list');
      throw error;
    }
    const [face] = faces;
    if (!face) throw new AppError('face_not_found', 'photo_url_list');
    return face;
  }
}
