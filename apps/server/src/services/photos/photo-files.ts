import { createHash } from 'node:crypto';
import type { Signals } from '../../signals/signals.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { photoFolder, protectedPhotoFolder } from '../../storage/key-space.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/** Cache header of derivatives: their key changes whenever their content would. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The storage folders of one photo (ADR 0006): `photoFolder` holds its public files (thumbnail,
 * watermarked variants), `protectedPhotoFolder` its original and unwatermarked preview.
 */
export { photoFolder, protectedPhotoFolder } from '../../storage/key-space.ts';

/**
 * Bytes of an image an upload completion holds in memory at most (the image engine checks the
 * whole file). Videos are never held: they are hashed as they stream by.
 */
export const IMAGE_MAX_BYTES = 64 * 1024 * 1024;

/** What an upload completion needs of the stored file, read once as a stream. */
export interface ReadUpload {
  size: number;
  sha256: string;
  /** The first bytes (at most 16): what the media sniffer reads. */
  head: Buffer;
  /** The whole file, only when `keepWhole` said so for its head (images), else null. */
  bytes: Buffer | null;
}

/**
 * Streams an uploaded file: size and sha-256 as it goes; the whole file is kept only while
 * `keepWhole(head)` holds and it stays within `wholeLimit`. Larger than `limit`, or a kept file
 * larger than `wholeLimit`: `unsupported_media_size` (413).
 */
export const readUpload = async (
  body: NodeJS.ReadableStream,
  limits: { limit: number; wholeLimit: number },
  keepWhole: (head: Buffer) => boolean,
): Promise<ReadUpload> => {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let head = Buffer.alloc(0);
  let keep: boolean | null = null;
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > limits.limit) throw new AppError('unsupported_media_size');
    hash.update(buffer);
    if (head.length < 16) head = Buffer.concat([head, buffer.subarray(0, 16 - head.length)]);
    if (keep === null && head.length >= 16) keep = keepWhole(head);
    if (keep === false) {
      kept.length = 0;
      continue;
    }
    if (size > limits.wholeLimit) throw new AppError('unsupported_media_size');
    kept.push(buffer);
  }
  if (keep === null) keep = keepWhole(head);
  return {
    size,
    sha256: hash.digest('hex'),
    head,
    bytes: keep ? Buffer.concat(kept) : null,
  };
};

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
    for (const prefix of photoFilePrefixes(row)) await storage.deletePrefix(prefix);
  }
};

/**
 * The storage folders holding a photo's files: public files, protected files, and archives from
 * before and after ADR 0006. The original may have been archived: its key is
 * `archive/[protected/]events/<code>/…` then.
 */
export const photoFilePrefixes = (row: Pick<PhotoRow, 'storageKey' | 'uid'>): string[] => {
  const code = /(?:^|\/)events\/([^/]+)\//.exec(row.storageKey)?.[1];
  if (!code) return [];
  const folder = photoFolder(code, row.uid);
  const hidden = protectedPhotoFolder(code, row.uid);
  return [folder, hidden, `archive/${folder}`, `archive/${hidden}`];
};

/** The `photo.deleted` payload of a deleted row. */
export const deletedEvent = (
  row: PhotoRow,
  reason: Signals['photo.deleted']['reason'],
): Signals['photo.deleted'] => ({
  photoId: row.id,
  eventId: row.eventId,
  uid: row.uid,
  storageKey: row.storageKey,
  reason,
});
