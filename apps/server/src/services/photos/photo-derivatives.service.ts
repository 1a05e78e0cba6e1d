import { PHOTO_MAX_BYTES } from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { JobBacklog, JobSender } from '../../jobs/job-sender.ts';
import type { Clock } from '../../lib/clock.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { ImageEngine, WatermarkKind } from '../../repositories/photos/image-engine.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import type { PrintTemplateRepository } from '../../repositories/printing/print-template.repository.ts';
import {
  renditionSize,
  type VideoEngine,
  type VideoInfo,
} from '../../repositories/photos/video-engine.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { templateWatermark, watermarkImage } from './event-watermarks.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { IMMUTABLE, photoFolder, protectedPhotoFolder, readAll } from './photo-files.ts';
import {
  needsProtectedPreviews,
  protectedPreviewKey,
  type ProtectorMarks,
} from './protector-mark.ts';
import { announcesReady } from './moderation.ts';

/** A photo still `processing` this long after its upload without a pending job is stuck. */
export const STUCK_AFTER_MS = 5 * 60_000;
const STUCK_BATCH = 500;
/** A paid event's protected preview of a clip: its first seconds, watermarked. */
export const PROTECTED_PREVIEW_SECONDS = 5;
/** The poster frame: a second in, or a third of a shorter clip. */
const posterAtMs = (durationMs: number): number => Math.min(1000, Math.floor(durationMs / 3));
/** The event's full-size watermarked variants (the protector's is the protected preview). */
const WATERMARK_KINDS: WatermarkKind[] = ['live_view_watermark', 'photo_watermark'];

/**
 * Derivatives of an uploaded photo: preview, thumbnail and the event's watermarked variants
 * (the watermarks themselves: `event-watermarks.ts`). Making the variants, the clip renditions
 * and the stuck-photo sweep stay one unit: all three decide from the same state (the photo's
 * status and its pending derivative jobs); the sweep may only requeue what this service would not
 * finish on its own.
 */
export class PhotoDerivativesService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      events: EventRepository;
      storage: StorageRepository;
      images: ImageEngine;
      videos: Pick<VideoEngine, 'withInput' | 'probe' | 'poster' | 'rendition'>;
      templates: Pick<PrintTemplateRepository, 'findById'>;
      protector: Pick<ProtectorMarks, 'protect'>;
      logger: Logger;
      bus: SignalEmitter;
      jobs: JobSender & JobBacklog;
      clock: Clock;
    },
  ) {}

  /** Job `photo.derivatives`: preview, thumbnail and the watermarked variants the event asks for. */
  async makeDerivatives(photoId: number): Promise<void> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo || photo.status === 'ready') return;
    const event = await this.deps.events.findById(photo.eventId);
    if (!event) return;
    if (photo.mediaType === 'video') {
      // Encoding takes minutes, not this job's seconds: the clip has a job of its own.
      await this.deps.jobs.send('video.renditions', { photoId: photo.id });
      return;
    }
    const original = await this.readOriginal(photo);
    if (!original) return;
    const derived = await this.imageDerivatives(photo, event, original);
    if (!derived) return;
    const ready = await this.deps.photos.update(photo.id, {
      status: 'ready',
      derivatives: derived.derivatives,
      width: derived.width,
      height: derived.height,
      failureReason: null,
    });
    if (ready) await this.ready(ready);
    // An animated GIF keeps its motion: a looping MP4 beside its first-frame pictures.
    if (photo.contentType === 'image/gif' && (await this.deps.images.frameCount(original)) > 1)
      await this.deps.jobs.send('video.renditions', { photoId: photo.id });
  }

  /**
   * Job `video.renditions`: a clip's poster frame (preview, thumbnail and watermarked pictures
   * made from it like a photo's) and its web-playable MP4s — `video` (protected, unwatermarked),
   * `video_watermark` (the event's photo watermark over it) and, for a paid event,
   * `video_protected` (its first seconds under the protector watermark, what a guest sees before
   * the unlock). A clip is `ready` when they exist. An animated GIF gets the same renditions
   * (played looping), its pictures being made already.
   */
  async makeVideoRenditions(photoId: number): Promise<void> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo) return;
    const isClip = photo.mediaType === 'video';
    if (isClip ? photo.status === 'ready' : photo.derivatives.video !== undefined) return;
    const event = await this.deps.events.findById(photo.eventId);
    if (!event) return;
    const original = await this.readOriginal(photo);
    if (!original) return;
    const fail = async (error: unknown, reason: string) => {
      this.deps.logger.warn({ err: error, photoId }, 'video renditions failed');
      // A GIF stays a picture; a clip without a playable rendition is failed (reprocess retries).
      if (isClip)
        await this.deps.photos.update(photo.id, { status: 'failed', failureReason: reason });
    };
    try {
      await this.deps.videos.withInput(original, async (file) => {
        const info = await this.deps.videos.probe(file);
        if (typeof info === 'string') return fail(info, 'not a playable clip');
        let derivatives = { ...photo.derivatives };
        let size = { width: photo.width ?? info.width, height: photo.height ?? info.height };
        if (isClip) {
          const poster = await this.deps.videos.poster(file, posterAtMs(info.durationMs));
          const derived = await this.imageDerivatives(photo, event, poster);
          if (!derived) return;
          derivatives = derived.derivatives;
          size = { width: info.width, height: info.height };
        }
        const made = await this.renditions(file, photo, event, info);
        await this.deps.photos.update(photo.id, {
          status: 'ready',
          derivatives: { ...derivatives, ...made },
          width: size.width,
          height: size.height,
          durationMs: info.durationMs,
          failureReason: null,
        });
      });
    } catch (error) {
      await fail(error, 'transcode failed');
      return;
    }
    if (isClip) {
      const now = await this.deps.photos.findById(photo.id);
      if (now?.status === 'ready') await this.ready(now);
    }
  }

  private async renditions(
    file: string,
    photo: PhotoRow,
    event: EventRecord,
    info: VideoInfo,
  ): Promise<Record<string, string>> {
    const { width, height } = renditionSize(info);
    const folder = photoFolder(event.row.name, photo.uid);
    const made: Record<string, string> = {};
    const put = async (key: string, bytes: Buffer) => {
      await this.deps.storage.put(key, bytes, 'video/mp4', { cacheControl: IMMUTABLE });
      return key;
    };
    // Unwatermarked: protected, like the photo preview (ADR 0006).
    made.video = await put(
      `${protectedPhotoFolder(event.row.name, photo.uid)}video.mp4`,
      await this.deps.videos.rendition(file, 'video', { info }),
    );
    if (event.row.photo_watermark) {
      const overlay = await this.deps.images.fitOverlay(
        await watermarkImage(this.deps, event, 'photo_watermark'),
        width,
        height,
      );
      // Full size with one mark: protected on a paid event, like the photo's.
      made.video_watermark = await put(
        `${needsProtectedPreviews(event) ? protectedPhotoFolder(event.row.name, photo.uid) : folder}video-watermark.mp4`,
        await this.deps.videos.rendition(file, 'watermark', { info, overlayPng: overlay }),
      );
    }
    if (event.row.is_free !== 1) {
      // The event's protector image, or the built-in watermark when it has none.
      const protector = await watermarkImage(this.deps, event, 'protector_watermark');
      made.video_protected = await put(
        `${folder}video-protected.mp4`,
        await this.deps.videos.rendition(file, 'protected', {
          info,
          overlayPng: await this.deps.images.fitOverlay(protector, width, height),
          maxSeconds: PROTECTED_PREVIEW_SECONDS,
        }),
      );
    }
    return made;
  }

  private async readOriginal(photo: PhotoRow): Promise<Buffer | null> {
    const object = await this.deps.storage.get(photo.storageKey);
    if (!object) {
      await this.deps.photos.update(photo.id, {
        status: 'failed',
        failureReason: 'original missing',
      });
      return null;
    }
    return readAll(object.body, PHOTO_MAX_BYTES);
  }

  /**
   * Preview, thumbnail and watermarked variants of a picture (a photo, or a clip's poster), stored;
   * null when the picture does not decode (the photo is marked failed).
   */
  private async imageDerivatives(
    photo: PhotoRow,
    event: EventRecord,
    original: Buffer,
  ): Promise<{ derivatives: Record<string, string>; width: number; height: number } | null> {
    const photoId = photo.id;
    const overlays: Partial<Record<WatermarkKind, Buffer>> = {};
    for (const kind of WATERMARK_KINDS) {
      if (!event.row[kind]) continue;
      overlays[kind] = await watermarkImage(this.deps, event, kind);
    }
    let made;
    let guarded: Awaited<ReturnType<ProtectorMarks['protect']>> | null = null;
    try {
      made = await this.deps.images.makeDerivatives(original, overlays);
      // A paid event's locked guests see the protected preview in place of the preview (ADR 0006,
      // docs/domains/photos.md "Protected previews"); made from the preview, like a reprocess.
      if (needsProtectedPreviews(event))
        guarded = await this.deps.protector.protect(event, made.preview);
    } catch (error) {
      this.deps.logger.warn({ err: error, photoId }, 'derivatives failed');
      await this.deps.photos.update(photo.id, { status: 'failed', failureReason: 'decode failed' });
      return null;
    }
    // Template mode (owner console §3: `watermark_pt_id`, no photo_watermark image): the photo
    // framed by the watermark template is the event's watermarked variant.
    if (!event.row.photo_watermark && event.row.watermark_pt_id !== null) {
      const framed = await templateWatermark(this.deps, event.row.watermark_pt_id, made);
      if (framed) made.watermarked.photo_watermark = framed;
    }
    const folder = photoFolder(event.row.name, photo.uid);
    // A paid event's full-size watermarked variants are not for locked guests: protected space,
    // so a URL built by hand from the thumbnail's finds nothing (ADR 0006).
    const markedFolder = needsProtectedPreviews(event)
      ? protectedPhotoFolder(event.row.name, photo.uid)
      : folder;
    const derivatives: Record<string, string> = {
      // The unwatermarked preview is protected (ADR 0006); thumbnail and watermarked are public.
      preview: `${protectedPhotoFolder(event.row.name, photo.uid)}preview.jpg`,
      thumbnail: `${folder}thumbnail.jpg`,
    };
    await this.deps.storage.put(derivatives.preview!, made.preview, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    await this.deps.storage.put(derivatives.thumbnail!, made.thumbnail, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    for (const [kind, buffer] of Object.entries(made.watermarked)) {
      const key = `${markedFolder}${kind.replace(/_/g, '-')}.jpg`;
      await this.deps.storage.put(key, buffer, 'image/jpeg', { cacheControl: IMMUTABLE });
      derivatives[kind] = key;
    }
    if (guarded) {
      const key = protectedPreviewKey(event.row.name, photo.uid, guarded.version);
      await this.deps.storage.put(key, guarded.data, 'image/jpeg', { cacheControl: IMMUTABLE });
      derivatives.protector_watermark = key;
    }
    return { derivatives, width: made.width, height: made.height };
  }

  /**
   * `photo.ready`, read from the row the status change answered: a photo held by moderation
   * announces nothing until its approval (moderation.ts), and an approval made while the
   * derivatives ran has flipped the row before this read, so exactly one of the two announces.
   */
  private async ready(photo: PhotoRow): Promise<void> {
    if (!announcesReady(photo)) return;
    await this.deps.bus.emit('photo.ready', { photoId: photo.id, eventId: photo.eventId });
  }

  private async derivativeJobPhotoIds(which: 'pending' | 'failed'): Promise<Set<unknown>> {
    const payloads = await this.deps.jobs.payloads('photo.derivatives', which);
    return new Set(payloads.map((data) => (data as { photoId?: unknown } | null)?.photoId));
  }

  /**
   * Job `photos.requeue-stuck`: photos `processing` for longer than STUCK_AFTER_MS with no
   * derivatives job queued or running get one (the process died between the insert and the
   * enqueue). Idempotent: a photo with a pending job is skipped. A photo whose derivatives job
   * used up its retries is marked `failed` instead (the owner may reprocess it), so a photo that
   * always breaks the job is not retried for ever.
   */
  async requeueStuck(): Promise<{ requeued: number; failed: number }> {
    const before = new Date(this.deps.clock.now().getTime() - STUCK_AFTER_MS);
    const pending = await this.derivativeJobPhotoIds('pending');
    // A clip being encoded is not stuck however long its encode takes.
    for (const data of await this.deps.jobs.payloads('video.renditions', 'pending'))
      pending.add((data as { photoId?: unknown } | null)?.photoId);
    const failedJobs = await this.derivativeJobPhotoIds('failed');
    for (const data of await this.deps.jobs.payloads('video.renditions', 'failed'))
      failedJobs.add((data as { photoId?: unknown } | null)?.photoId);
    let requeued = 0;
    let failed = 0;
    let afterId = 0;
    for (;;) {
      const batch = await this.deps.photos.stuckInProcessing(before, afterId, STUCK_BATCH);
      if (batch.length === 0) break;
      for (const photo of batch) {
        if (pending.has(photo.id)) continue;
        if (failedJobs.has(photo.id)) {
          await this.deps.photos.update(photo.id, {
            status: 'failed',
            failureReason: 'derivatives job failed',
          });
          failed += 1;
          continue;
        }
        await this.deps.jobs.send('photo.derivatives', { photoId: photo.id });
        requeued += 1;
      }
      afterId = batch[batch.length - 1]!.id;
    }
    if (requeued + failed > 0)
      this.deps.logger.warn({ requeued, failed }, 'photos stuck in processing');
    return { requeued, failed };
  }
}
