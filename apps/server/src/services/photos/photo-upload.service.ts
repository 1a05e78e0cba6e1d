import { createHash, createHmac } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import {
  guestUploadError,
  kioskMediaError,
  photoTagsFor,
  UPLOAD_ATTENDEE_SEPARATOR,
  type ParsedBodyOf,
  type Photo,
  type PhotoUploadResult,
  type photoUploadComplete,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { ImageEngine } from '../../repositories/photos/image-engine.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { VideoEngine } from '../../repositories/photos/video-engine.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { AccessControl, EventGrant } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { protectedPhotoFolder } from './photo-files.ts';
import { inspectUpload, type PrecheckRefusal } from './upload-media.ts';
import type { Quotas } from '../operations/quotas.ts';
import { presentOperatorPhoto, presentRobotUpload } from '../../presenters/photo.presenter.ts';
import { photoDelay } from './photo-delay.ts';
import { heldForModeration } from './moderation.ts';
import type { Audience } from './photo-downloads.ts';
import type { PhotoUrls } from './photo-urls.ts';
import type { GuestUploadShape } from './guest-upload-rules.ts';
import type { InstantLinks } from './instant-links.ts';
import { attachOthers, type AttendeeUploads } from './upload-attendees.ts';

/**
 * `tmp/<event code>/<uuid>/[att_<attendee id>[-<attendee id>…]/]<file name>`. The attendee ids
 * travel inside the key, which the signed POST policy fixes: the uploader cannot change them after
 * the grant. Normalised ids hold no dash, so the dash separates them.
 */
const TMP_KEY =
  /^tmp\/([A-Z0-9]{4})\/[0-9a-f-]{36}\/(?:att_([A-Z0-9_.]{1,100}(?:-[A-Z0-9_.]{1,100})*)\/)?[^/]+$/;

/** One completion: the stored upload, whom it is for, and the rules its caller adds. */
interface UploadRequest {
  event: EventRecord;
  robotId: number | null;
  key: string;
  attendeeUids: readonly string[];
  /** A caller's own rule of size and type (kiosk media, guest uploads), checked first. */
  precheck?: ((size: number) => PrecheckRefusal | null) | undefined;
  originalPhotoId?: number | null;
  sentTags?: readonly string[];
  markedAs360?: boolean;
  uploader: Audience;
  /** A guest upload's box and tags (the event's shape). */
  fit?: GuestUploadShape | undefined;
}

/** What an upload did: a new photo, the same photo for more attendees, or nothing new. */
type UploadResult = PhotoUploadResult['upload_result'];

/**
 * Photo uploads, the completion (idempotent by content; albums spec §3): the stored upload made a
 * photo, its attendees given it, its derivatives enqueued once. The grant before it is
 * `photo-upload-grant.service.ts`; what the bytes are, `upload-media.ts`.
 */
export class PhotoUploadService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      access: AccessControl;
      storage: StorageRepository;
      urls: PhotoUrls;
      images: ImageEngine;
      /** Probes clips at upload (headers only); the encodes run in the `video.renditions` job. */
      videos: Pick<VideoEngine, 'withInput' | 'probe'>;
      bus: SignalEmitter;
      clock: Clock;
      uidSecret: Buffer;
      /** Creates or links the attendees an upload names and adds it to their albums. */
      attendeeUploads?: AttendeeUploads;
      /** Concurrent completions per organisation (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'uploadSlot'>;
      /** Whether a derivatives (or renditions) job of the photo is queued or running. */
      derivativesPending?: (photoId: number) => Promise<boolean>;
      /** Notes photos held back by their tags (the delay settings are logged, albums spec §3). */
      logger?: Pick<Logger, 'info'>;
      /** The photo's guest page, told when its upload arrived or failed (instant links). */
      instantLinks?: Pick<InstantLinks, 'completed' | 'failed'>;
    },
  ) {}

  /**
   * Turns an uploaded file into a photo. Every step can be retried: the uid comes from the event
   * and the bytes, the copy and the insert are idempotent, and a finished upload is remembered.
   */
  async completeUpload(
    principal: Principal,
    input: ParsedBodyOf<typeof photoUploadComplete>,
  ): Promise<Photo & PhotoUploadResult> {
    const match = TMP_KEY.exec(input.key);
    if (!match) throw new AppError('not_found', 'key');
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.upload', {
      eventName: match[1]!,
    });
    // An edited copy: its original must be a photo of this event the caller may curate.
    let originalPhotoId: number | null = null;
    if (input.original_photo_id !== undefined) {
      const original = await this.deps.photos.findById(input.original_photo_id);
      if (!original || original.eventId !== caller.event.row.id)
        throw new AppError('not_found', 'original_photo_id');
      await this.deps.access.requireEventAccess(principal, 'photo.curate', {
        photo: original,
        field: 'original_photo_id',
      });
      originalPhotoId = original.id;
    }
    const { photo, result } = await this.register({
      event: caller.event,
      robotId: caller.robotId,
      key: input.key,
      attendeeUids: match[2]?.split(UPLOAD_ATTENDEE_SEPARATOR) ?? [],
      originalPhotoId,
      sentTags: input.tags ?? [],
      markedAs360: input.is_360 === 1,
      uploader: caller.audience,
    });
    return { ...this.present(photo, caller), upload_result: result };
  }

  /**
   * A custom photo from a kiosk camera: an upload under `kioskMedia/` that the caller's
   * kiosk key already proved belongs to `event`. The stored bytes must pass the kiosk media rule
   * (jpg/jpeg at most 1.5 MB, mp4 at most 4 MB) before anything else happens.
   */
  async completeKioskUpload(
    event: EventRecord,
    key: string,
    attendeeUid: string | null,
  ): Promise<{ photo_uid: string; attendee_uid: string | null }> {
    const { photo } = await this.register({
      event,
      robotId: null,
      key,
      attendeeUids: attendeeUid ? [attendeeUid] : [],
      precheck: (size) => kioskMediaError(key, size),
      // The kiosk's camera: a guest's own photo.
      uploader: 'private',
    });
    // The kiosk's attendee: the same bytes may already be a photo uploaded for someone else.
    return { photo_uid: photo.uid, attendee_uid: attendeeUid };
  }

  /**
   * A guest's own picture (GuestUploadService has checked the key, the event's settings and the
   * key's folder): the kiosk's rule of size and type is the guests' (`guestUploadError`), the
   * event's shape fits and tags it, and the guest's audience decides moderation.
   */
  async completeGuestUpload(
    event: EventRecord,
    key: string,
    attendeeUid: string | null,
    uploader: Audience,
    shape: GuestUploadShape,
  ): Promise<{ photo: PhotoRow; result: UploadResult }> {
    return this.register({
      event,
      robotId: null,
      key,
      attendeeUids: attendeeUid ? [attendeeUid] : [],
      precheck: (size) => guestUploadError(key, size),
      uploader,
      fit: shape,
    });
  }

  private async register(request: UploadRequest) {
    // At most so many completions of one organisation at a time, across processes: each reads
    // its file and may decode it.
    const slot = this.deps.quotas;
    const work = () => this.registerNow(request);
    return this.claimed(request.key, () =>
      slot ? slot.uploadSlot(request.event.row.organisationId, work) : work(),
    );
  }

  /** While a completion works on an upload, the upload sweep leaves its object alone. */
  private async claimed<T>(key: string, work: () => Promise<T>): Promise<T> {
    await this.deps.photos.claimUpload(key, this.deps.clock.now());
    try {
      return await work();
    } finally {
      await this.deps.photos.releaseUpload(key);
    }
  }

  private async registerNow(
    request: UploadRequest,
  ): Promise<{ photo: PhotoRow; result: UploadResult }> {
    const { key, attendeeUids, fit, uploader } = request;
    const originalPhotoId = request.originalPhotoId ?? null;
    const startedAt = this.deps.clock.now();
    const event = request.event.row;

    const done = await this.deps.photos.photoForUpload(key);
    if (done && done.eventId === event.id) {
      // A retry after a crash between storing the photo and enqueueing its derivatives: enqueue
      // them now, unless a completion already claimed that enqueue.
      await this.enqueueDerivativesOnce(done, startedAt);
      // Bytes sent again to a key already completed (a kiosk that reloaded) are not kept.
      await this.deps.storage.delete(key);
      // The first attempt may have stopped before the other attendees' albums had it.
      const attached = await attachOthers(
        this.deps.attendeeUploads,
        request.event,
        done,
        attendeeUids,
      );
      await this.deps.instantLinks?.completed(key, done.id);
      return { photo: done, result: attached > 0 ? 'attached' : 'already_uploaded' };
    }

    const object = await this.deps.storage.get(key);
    if (!object) {
      // A completion of the same upload running beside this one may have finished meanwhile.
      const finished = await this.deps.photos.photoForUpload(key);
      if (finished && finished.eventId === event.id)
        return { photo: finished, result: 'already_uploaded' };
      throw new AppError('not_found', 'key');
    }
    const inspected = await inspectUpload(this.deps, key, object.body, {
      precheck: request.precheck,
      fit,
      markedAs360: request.markedAs360 ?? false,
    });
    if ('refused' in inspected) {
      // Nothing a refused upload sent is kept; its instant page says it did not arrive.
      await this.deps.storage.delete(key);
      await this.deps.instantLinks?.failed(key);
      throw new AppError(inspected.refused, 'key');
    }
    const { read, media, width, height, durationMs, is360, fitted } = inspected;
    const sha256 = fitted ? createHash('sha256').update(fitted).digest('hex') : read.sha256;
    const uid = createHmac('sha256', this.deps.uidSecret)
      .update(`${event.id}:${sha256}`)
      .digest('hex')
      .slice(0, 24);
    // The original goes straight into protected space (ADR 0006): whatever ACL the upload carried,
    // the copy is private on S3 and refused without a signature locally.
    const storageKey = `${protectedPhotoFolder(event.name, uid)}original.${media.ext}`;
    if (!(await this.deps.storage.head(storageKey))) {
      if (fitted) await this.deps.storage.put(storageKey, fitted, media.contentType);
      else await this.deps.storage.copy(key, storageKey);
    }

    // The attendees are created or linked first: the photo is in their albums once it is ready.
    // The first one is the photo's own attendee; the others have it attached (below).
    for (const uid of attendeeUids)
      await this.deps.attendeeUploads?.claimUploadedId(request.event, uid);
    const attendeeUid = attendeeUids[0] ?? null;
    const now = this.deps.clock.now();
    const fileName = key.split('/').pop() ?? 'photo';
    const tags = photoTagsFor(
      [...(request.sentTags ?? []), ...(fit?.tags ?? [])],
      event.hash_tag,
      event.opts.forcedIndexTags,
    );
    const delay = photoDelay(event.opts, { attendeeUid, tags });
    const { photo, created } = await this.deps.photos.insertOrGet({
      uid,
      eventId: event.id,
      sha256,
      storageKey,
      fileName,
      contentType: media.contentType,
      mediaType: media.mediaType,
      width,
      height,
      durationMs,
      is360: is360 ? 1 : 0,
      sizeBytes: fitted ? fitted.length : read.size,
      robotId: request.robotId,
      attendeeUid,
      // What stock-image policies, tag unlocks and the delay by tags look for (albums spec §3, §4).
      tags,
      ...(originalPhotoId !== null ? { isOriginal: 0, originalPhotoId } : {}),
      status: 'processing',
      createdAt: now,
      availableAt: new Date(now.getTime() + delay.minutes * 60_000),
      moderation: heldForModeration(event.opts, uploader) ? 'pending' : 'approved',
      ...(fit?.albumOnly ? { albumOnly: 1 } : {}),
    });
    if (delay.reason === 'tags' && created)
      this.deps.logger?.info(
        { photoId: photo.id, eventId: event.id, tags: delay.tags, minutes: delay.minutes },
        'photo held by its tags',
      );
    // Before the photo is announced: its `photo.ready` then finds every album that holds it. The
    // same bytes sent for another attendee land here too, as the photo that already exists.
    const attached = await attachOthers(
      this.deps.attendeeUploads,
      request.event,
      photo,
      attendeeUids,
    );
    await this.deps.photos.recordUpload(key, photo.id);
    // The same bytes sent twice: the instant page shows the photo that already exists.
    await this.deps.instantLinks?.completed(key, photo.id);
    await this.deps.storage.delete(key);
    // Listeners enqueue the derivatives (photo.listeners.ts). Had the process died before this
    // line, the stuck-photo sweep (jobs/photos-stuck.job.ts) enqueues them later.
    if (created || photo.status === 'processing')
      await this.enqueueDerivativesOnce(photo, startedAt);
    return {
      photo,
      result: created ? 'uploaded' : attached > 0 ? 'attached' : 'already_uploaded',
    };
  }

  /**
   * Emits `photo.uploaded` (its listener enqueues the derivatives) for the one completion that
   * claims it: two processes completing the same upload at once send one job, not two.
   */
  private async enqueueDerivativesOnce(photo: PhotoRow, startedAt: Date): Promise<void> {
    if (photo.status !== 'processing') return;
    const now = this.deps.clock.now();
    if (!(await this.deps.photos.claimDerivatives(photo.id, now))) {
      // Claimed before. A twin that began with this completion claims while it runs: leave it.
      // A claim made before this completion began, whose job is nowhere, was left by a process
      // that died between the claim and the send: take it over, so the client's retry after a
      // restart enqueues at once.
      if (!(await this.deps.photos.reclaimDerivatives(photo.id, now, startedAt))) return;
      if (!this.deps.derivativesPending || (await this.deps.derivativesPending(photo.id))) return;
    }
    await this.deps.bus.emit('photo.uploaded', { photoId: photo.id, eventId: photo.eventId });
  }

  /** The registered photo, as its uploader sees it (a robot: `presentRobotUpload`). */
  private present(row: PhotoRow, caller?: Pick<EventGrant, 'audience' | 'robotId'>): Photo {
    return caller?.audience === 'robot'
      ? presentRobotUpload(row, this.deps.urls, caller.robotId)
      : presentOperatorPhoto(row, this.deps.urls);
  }
}
