import { createHash } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { ImageEngine, ProtectorMark } from '../../repositories/photos/image-engine.ts';
import { keyForJob } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { photoFolder, readAll } from './photo-files.ts';

/**
 * The protector mark of a paid event's previews (docs/domains/photos.md, "Protected previews"):
 * the event's own protector image when it set one (an image in its upload areas), else the
 * event's name as text. The bundled default image counts as none: it names no one, the event's
 * name does.
 */

/** Raise it when the look of protected previews changes: every one is then made again. */
const PROTECTED_PREVIEW_LOOK = 1;

/** Events whose photos need a protected preview: every event that is not free. */
export const needsProtectedPreviews = (event: EventRecord): boolean => event.row.is_free !== 1;

/**
 * A photo's full-size watermarked variants (one mark, 2000 px; the watermarked clip): what an
 * unlocked guest of a paid event sees, a mark easily cropped off. On a paid event they lie in
 * protected space and are handed out as signed URLs only to callers the access rules allow; on a
 * free event they are plain public files.
 */
export const FULL_SIZE_WATERMARKS = ['photo_watermark', 'live_view_watermark', 'video_watermark'];

/** What the mark is made of, before anything is read. */
export type ProtectorSource = { kind: 'image'; key: string } | { kind: 'text'; text: string };

/** The event's name as shown to guests: its description, else its short code. */
export const markText = (event: EventRecord): string =>
  event.row.full_name.trim() || event.row.name;

/**
 * A short fingerprint of what a protected preview shows: the look, the image key or the text.
 * It is part of the variant's storage key, so a new mark gets a new public URL (the files are
 * cached as immutable) and a photo whose key carries the current version is done.
 */
export const protectorVersion = (source: ProtectorSource): string =>
  createHash('sha256')
    .update(JSON.stringify([PROTECTED_PREVIEW_LOOK, source]))
    .digest('hex')
    .slice(0, 12);

/** The file name of a protected preview of this version (the photo's public folder). */
export const protectedPreviewName = (version: string): string =>
  `protector-watermark-${version}.jpg`;

export const protectedPreviewKey = (eventCode: string, uid: string, version: string): string =>
  `${photoFolder(eventCode, uid)}${protectedPreviewName(version)}`;

export class ProtectorMarks {
  constructor(
    private readonly deps: {
      storage: StorageRepository;
      images: Pick<ImageEngine, 'protectedPreview'>;
      logger: Logger;
    },
  ) {}

  /** The event's source of the mark (nothing read yet). */
  sourceOf(event: EventRecord): ProtectorSource {
    const key = keyForJob(
      event.row.protector_watermark,
      { organisationId: event.row.organisationId, eventCode: event.row.name },
      this.deps.storage.publicUrl('x').slice(0, -1),
      (details, message) => this.deps.logger.warn(details, message),
      { eventId: event.row.id, field: 'protector_watermark' },
    );
    return key ? { kind: 'image', key } : { kind: 'text', text: markText(event) };
  }

  /** The current version of the event's protected previews. */
  versionOf(event: EventRecord): string {
    return protectorVersion(this.sourceOf(event));
  }

  /**
   * The mark to draw and its version. An image that cannot be read is drawn as the event's name
   * (logged) under the image's version: the previews stay protected, and a fixed image is not
   * redrawn by itself (changing the setting does).
   */
  async markOf(event: EventRecord): Promise<{ version: string; mark: ProtectorMark }> {
    const source = this.sourceOf(event);
    const version = protectorVersion(source);
    if (source.kind === 'text') return { version, mark: source };
    try {
      const object = await this.deps.storage.get(source.key);
      if (object)
        return {
          version,
          mark: { kind: 'image', image: await readAll(object.body, 20 * 1024 * 1024) },
        };
    } catch (error) {
      this.deps.logger.warn({ err: error, eventId: event.row.id }, 'protector image unreadable');
    }
    this.deps.logger.warn({ eventId: event.row.id }, 'protector image missing: the name is drawn');
    return { version, mark: { kind: 'text', text: markText(event) } };
  }

  /**
   * The protected preview of `picture` (a photo's preview, or a clip's poster) and its version.
   * An image that does not decode as a mark is replaced by the event's name (logged); a picture
   * that does not decode throws.
   */
  async protect(
    event: EventRecord,
    picture: Buffer,
  ): Promise<{ version: string; data: Buffer; width: number; height: number }> {
    const { version, mark } = await this.markOf(event);
    try {
      return { version, ...(await this.deps.images.protectedPreview(picture, mark)) };
    } catch (error) {
      if (mark.kind === 'text') throw error;
      this.deps.logger.warn({ err: error, eventId: event.row.id }, 'protector image unusable');
      const text = { kind: 'text' as const, text: markText(event) };
      return { version, ...(await this.deps.images.protectedPreview(picture, text)) };
    }
  }
}
