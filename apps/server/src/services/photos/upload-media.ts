import { PHOTO_MAX_BYTES } from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import { sniffMedia, type SniffedMedia } from '../../lib/media-sniff.ts';
import type { ImageEngine, ImageProblem } from '../../repositories/photos/image-engine.ts';
import type { VideoEngine, VideoProblem } from '../../repositories/photos/video-engine.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { IMAGE_MAX_BYTES, readUpload, type ReadUpload } from './photo-files.ts';
import { guestUploadFit, type GuestUploadShape } from './guest-upload-rules.ts';

/** What a check of the stored size may refuse before the file is decoded. */
export type PrecheckRefusal =
  'unsupported_picture_format' | 'unsupported_media_size' | 'guest_upload_too_large';

/** Why an upload's bytes are not taken (its stored object is then deleted). */
export type UploadRefusal = PrecheckRefusal | ImageProblem | VideoProblem;

/** What an uploaded file is: its bytes read and hashed, its kind, size on screen and length. */
export interface InspectedUpload {
  read: ReadUpload;
  media: SniffedMedia;
  width: number | null;
  height: number | null;
  durationMs: number | null;
  is360: boolean;
  /** A guest's picture fitted to the event's box: stored instead of the bytes sent. */
  fitted: Buffer | null;
}

/**
 * Reads an uploaded object once and says what it is, by its bytes, never its name: a picture
 * the image engine can read (fitted to a guest upload's box where the event sets one), or a clip
 * with a picture and a length; anything else is a refusal. Nothing is stored or deleted here.
 */
export const inspectUpload = async (
  deps: {
    storage: Pick<StorageRepository, 'get'>;
    images: Pick<ImageEngine, 'inspect' | 'fitTo'>;
    videos: Pick<VideoEngine, 'withInput' | 'probe'>;
  },
  key: string,
  body: NodeJS.ReadableStream,
  options: {
    precheck: ((size: number) => PrecheckRefusal | null) | undefined;
    fit: GuestUploadShape | undefined;
    markedAs360: boolean;
  },
): Promise<InspectedUpload | { refused: UploadRefusal }> => {
  // Streamed: a video is hashed as it goes by, only an image is held (the engine checks it).
  const read = await readUpload(
    body,
    { limit: PHOTO_MAX_BYTES, wholeLimit: IMAGE_MAX_BYTES },
    (head) => sniffMedia(head)?.mediaType === 'image',
  );

  const refuse = (refused: UploadRefusal) => ({ refused });
  const early = options.precheck?.(read.size);
  if (early) return refuse(early);
  const media = sniffMedia(read.head);
  if (!media) return refuse('unsupported_picture_format');
  // Guests add pictures, not clips, whatever the file is called.
  if (options.fit && media.mediaType !== 'image') return refuse('unsupported_picture_format');
  let width: number | null = null;
  let height: number | null = null;
  let durationMs: number | null = null;
  let is360 = false;
  /** A guest's picture fitted to the event's box: stored instead of the bytes sent. */
  let fitted: Buffer | null = null;
  if (media.mediaType === 'image') {
    if (!read.bytes) return refuse('unsupported_picture_format');
    const info = await deps.images.inspect(read.bytes);
    if (typeof info === 'string') return refuse(info);
    width = info.width;
    height = info.height;
    is360 = info.is360 || (options.markedAs360 && media.ext !== 'gif');
    // A GIF goes as it is: resizing would flatten its animation.
    const size = options.fit && media.ext !== 'gif' ? guestUploadFit(info, options.fit) : null;
    if (size) {
      fitted = await deps.images.fitTo(read.bytes, size.width, size.height);
      width = size.width;
      height = size.height;
    }
  } else {
    // A clip: ffprobe reads its headers (a bounded, fast look); what is not a clip with a
    // picture and a length is refused like any file that is not a picture.
    // The clip was hashed as it streamed by, not kept: read it again, straight to disk.
    const again = await deps.storage.get(key);
    if (!again) throw new AppError('not_found', 'key');
    const info = await deps.videos.withInput(again.body, (file) => deps.videos.probe(file));
    if (typeof info === 'string') return refuse(info);
    width = info.width;
    height = info.height;
    durationMs = info.durationMs;
  }
  return { read, media, width, height, durationMs, is360, fitted };
};
