import type { ParsedBodyOf, PreviewProtection, previewProtectionStatus } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { JobBacklog, JobSender } from '../../jobs/job-sender.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { IMMUTABLE, photoFolder, protectedPhotoFolder, readAll } from './photo-files.ts';
import {
  FULL_SIZE_WATERMARKS,
  needsProtectedPreviews,
  protectedPreviewKey,
  protectedPreviewName,
  type ProtectorMarks,
} from './protector-mark.ts';

/** Photos protected per batch (one query each); a crash loses at most the batch's work. */
const BATCH = 50;
/** A preview read into memory at most (2000 px JPEGs are a few MB). */
const PREVIEW_MAX_BYTES = 64 * 1024 * 1024;
/** A protected preview file of a photo: the old unversioned name or a versioned one. */
const PROTECTED_FILE = /\/protector-watermark(?:-[0-9a-f]{12})?\.jpg$/;

/**
 * Protected previews of photos already stored (docs/domains/photos.md, "Protected previews"): an
 * event turned paid, or a paid event whose mark changed (its protector image, or its name when it
 * has none), gets every photo's protected preview made again by the job
 * `photos.protect-previews`. The progress is read from the photos themselves (how many carry the
 * current version), so it is true after a crash, a retry or a second run.
 */
export class PreviewProtectionService {
  constructor(
    private readonly deps: {
      photos: Pick<
        PhotoRepository,
        'protectedPreviewProgress' | 'withoutProtectedPreview' | 'setDerivative'
      >;
      events: Pick<EventRepository, 'findById'>;
      access: Pick<AccessControl, 'requireEventAccess'>;
      storage: StorageRepository;
      protector: Pick<ProtectorMarks, 'protect' | 'versionOf'>;
      jobs: JobSender & JobBacklog;
      logger: Logger;
    },
  ) {}

  /** `event.updated`: a paid event with photos not carrying the current mark gets the job. */
  async onEventUpdated(eventId: number): Promise<void> {
    const event = await this.deps.events.findById(eventId);
    if (!event || !needsProtectedPreviews(event)) return;
    const { total, done } = await this.progressOf(event);
    if (done < total) await this.deps.jobs.send('photos.protect-previews', { eventId });
  }

  /**
   * Job `photos.protect-previews`: every photo of the event shown to guests without the current
   * protected preview gets it, in batches by id. Idempotent and resumable: a photo already done is
   * not selected again, so a retried or repeated run continues where the last one stopped. The
   * mark is read again before each batch; when it changed meanwhile the run starts over (what was
   * made with the newest mark is skipped). A photo that cannot be protected (its preview missing
   * or unreadable) is logged and counted; the console shows the event as not fully protected.
   */
  async protectEvent(eventId: number): Promise<{ protected: number; failed: number }> {
    const result = { protected: 0, failed: 0 };
    let version: string | null = null;
    let afterId = 0;
    for (;;) {
      const event = await this.deps.events.findById(eventId);
      // Turned free meanwhile: guests see the clean preview again; nothing to make.
      if (!event || !needsProtectedPreviews(event)) break;
      const current = this.deps.protector.versionOf(event);
      if (current !== version) {
        version = current;
        afterId = 0;
      }
      const batch = await this.deps.photos.withoutProtectedPreview(
        eventId,
        protectedPreviewName(version),
        afterId,
        BATCH,
      );
      if (batch.length === 0) break;
      for (const photo of batch) {
        if (await this.protectPhoto(event, photo)) result.protected += 1;
        else result.failed += 1;
      }
      afterId = batch[batch.length - 1]!.id;
    }
    if (result.protected + result.failed > 0)
      this.deps.logger.info({ eventId, ...result }, 'protected previews made');
    return result;
  }

  /**
   * One photo: its protected preview made from its preview (unless it carries the current one),
   * stored, switched to, the old one gone; then its full-size watermarked variants moved out of
   * public space (FULL_SIZE_WATERMARKS).
   */
  private async protectPhoto(event: EventRecord, photo: PhotoRow): Promise<boolean> {
    const current = protectedPreviewName(this.deps.protector.versionOf(event));
    const done = photo.derivatives.protector_watermark?.endsWith(`/${current}`) ?? false;
    if (!done && !(await this.makeProtectedPreview(event, photo))) return false;
    return this.hideWatermarks(event, photo);
  }

  /**
   * Copies each full-size watermarked variant still in the photo's public folder to its protected
   * folder, switches the row to it, then deletes the public file. A crash between two steps leaves
   * the row naming a file that exists; the next run finishes the move.
   */
  private async hideWatermarks(event: EventRecord, photo: PhotoRow): Promise<boolean> {
    const folder = photoFolder(event.row.name, photo.uid);
    const hidden = protectedPhotoFolder(event.row.name, photo.uid);
    try {
      for (const variant of FULL_SIZE_WATERMARKS) {
        const key = photo.derivatives[variant];
        if (!key?.startsWith(folder)) continue;
        const target = `${hidden}${key.slice(folder.length)}`;
        await this.deps.storage.copy(key, target);
        if (!(await this.deps.photos.setDerivative(photo.id, variant, target))) {
          await this.deps.storage.delete(target);
          return true;
        }
        await this.deps.storage.delete(key);
      }
      return true;
    } catch (error) {
      this.deps.logger.warn({ err: error, photoId: photo.id }, 'watermarked variants not moved');
      return false;
    }
  }

  private async makeProtectedPreview(event: EventRecord, photo: PhotoRow): Promise<boolean> {
    const previewKey = photo.derivatives.preview;
    try {
      const object = previewKey ? await this.deps.storage.get(previewKey) : null;
      if (!object) {
        this.deps.logger.warn({ photoId: photo.id }, 'protected preview not made: no preview');
        return false;
      }
      const made = await this.deps.protector.protect(
        event,
        await readAll(object.body, PREVIEW_MAX_BYTES),
      );
      const key = protectedPreviewKey(event.row.name, photo.uid, made.version);
      await this.deps.storage.put(key, made.data, 'image/jpeg', { cacheControl: IMMUTABLE });
      const row = await this.deps.photos.setDerivative(photo.id, 'protector_watermark', key);
      if (!row) {
        // Deleted meanwhile: its files went with it, this one goes too.
        await this.deps.storage.delete(key);
        return true;
      }
      const old = photo.derivatives.protector_watermark;
      if (
        old &&
        old !== key &&
        old.startsWith(photoFolder(event.row.name, photo.uid)) &&
        PROTECTED_FILE.test(old)
      )
        await this.deps.storage.delete(old);
      return true;
    } catch (error) {
      this.deps.logger.warn({ err: error, photoId: photo.id }, 'protected preview not made');
      return false;
    }
  }

  /** The console's progress line: how many of the event's photos carry the current mark. */
  async status(
    principal: Principal,
    input: ParsedBodyOf<typeof previewProtectionStatus>,
  ): Promise<PreviewProtection> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    return this.stateOf(event);
  }

  /** The console's "Try again": the job once more (photos done are skipped), then the state. */
  async restart(
    principal: Principal,
    input: ParsedBodyOf<typeof previewProtectionStatus>,
  ): Promise<PreviewProtection> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
      field: 'event_id',
    });
    if (needsProtectedPreviews(event))
      await this.deps.jobs.send('photos.protect-previews', { eventId: event.row.id });
    return this.stateOf(event);
  }

  private async progressOf(event: EventRecord): Promise<{ total: number; done: number }> {
    return this.deps.photos.protectedPreviewProgress(
      event.row.id,
      protectedPreviewName(this.deps.protector.versionOf(event)),
    );
  }

  private async stateOf(event: EventRecord): Promise<PreviewProtection> {
    if (!needsProtectedPreviews(event)) return { state: 'off', done: 0, total: 0 };
    const { total, done } = await this.progressOf(event);
    const pending = await this.deps.jobs.payloads('photos.protect-previews', 'pending');
    const running = pending.some(
      (data) => (data as { eventId?: unknown } | null)?.eventId === event.row.id,
    );
    if (running) return { state: 'running', done, total };
    return { state: done >= total ? 'done' : 'failed', done, total };
  }
}
