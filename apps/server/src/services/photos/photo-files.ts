import type { DomainEvents } from '../../events/domain-events.ts';
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

/** The `photo.deleted` payload of a deleted row. */
export const deletedEvent = (
  row: PhotoRow,
  reason: DomainEvents['photo.deleted']['reason'],
): DomainEvents['photo.deleted'] => ({
  photoId: row.id,
  eventId: row.eventId,
  uid: row.uid,
  storageKey: row.storageKey,
  reason,
});
