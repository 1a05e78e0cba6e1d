import { AppError } from '../../lib/app-error.ts';
import type { PhotoRow } from '../../repositories/photo.repository.ts';
import { photoFolder, protectedPhotoFolder } from '../../storage/key-space.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/** Cache header of derivatives: their key changes whenever their content would. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The storage folders of one photo (ADR 0006): `photoFolder` holds its public files (thumbnail,
 * watermarked variants), `protectedPhotoFolder` its original and unwatermarked preview.
 */
export { photoFolder, protectedPhotoFolder } from '../../storage/key-space.ts';

export const readAll = async (body: NodeJS.ReadableStream, limit: number): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limit) throw new AppError('unsupported_media_size');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks);
};

/** Removes the files of deleted photos (live and archived). */
export const removePhotoFiles = async (
  storage: StorageRepository,
  rows: PhotoRow[],
): Promise<void> => {
  for (const row of rows) {
    // The original may have been archived: its key is `archive/[protected/]events/<code>/…` then.
    const code = /(?:^|\/)events\/([^/]+)\//.exec(row.storageKey)?.[1];
    if (!code) continue;
    const folder = photoFolder(code, row.uid);
    const hidden = protectedPhotoFolder(code, row.uid);
    // Public files, protected files, and archives from before and after ADR 0006.
    for (const prefix of [folder, hidden, `archive/${folder}`, `archive/${hidden}`]) {
      await storage.deletePrefix(prefix);
    }
  }
};

/** Told when a photo becomes ready or visible (live album streams, albums §2.1 kiosk stream). */
export interface PhotoNotices {
  photoReady(event: { photoId: number; eventId: number }): Promise<void>;
}

/** Live streams learn of new photos; a failed notice must not fail the job or the call. */
export const announcePhotos = async (
  notices: PhotoNotices | undefined,
  logger: { warn(obj: object, msg: string): void },
  photos: { id: number; eventId: number }[],
): Promise<void> => {
  for (const photo of photos) {
    try {
      await notices?.photoReady({ photoId: photo.id, eventId: photo.eventId });
    } catch (error) {
      logger.warn({ err: error, photoId: photo.id }, 'photo notice failed');
    }
  }
};
