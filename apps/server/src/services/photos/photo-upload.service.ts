import { createHash, createHmac, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger as Logger } from 'fastify';
import {
  extensionOf,
  guestUploadError,
  kioskMediaError,
  photoTagsFor,
  uploadAttendeeIds,
  UPLOAD_ATTENDEE_SEPARATOR,
  MEDIA_CONTENT_TYPES,
  PHOTO_EXTENSIONS,
  PHOTO_MAX_BYTES,
  type ParsedBodyOf,
  type Photo,
  type PhotoUploadResult,
  type photoUploadAccess,
  type photoUploadComplete,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { sniffMedia } from '../../lib/media-sniff.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { ImageEngine } from '../../repositories/photos/image-engine.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { VideoEngine } from '../../repositories/photos/video-engine.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { AccessControl, EventGrant } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { IMAGE_MAX_BYTES, protectedPhotoFolder, readUpload } from './photo-files.ts';
import type { Quotas } from '../operations/quotas.ts';
import { presentOperatorPhoto, presentRobotUpload } from '../../presenters/photo.presenter.ts';
import { photoDelay } from './photo-delay.ts';
import { heldForModeration } from './moderation.ts';
import type { Audience } from './photo-downloads.ts';
import type { PhotoUrls } from './photo-urls.ts';
import { guestUploadFit, type GuestUploadShape } from './guest-upload-rules.ts';
import type { InstantLinks } from './instant-links.ts';

/**
 * `tmp/<event code>/<uuid>/[att_<attendee id>[-<attendee id>…]/]<file name>`. The attendee ids
 * travel inside the key, which the signed POST policy fixes: the uploader cannot change them after
 * the grant. Normalised ids hold no dash, so the dash separates them.
 */
const TMP_KEY =
  /^tmp\/([A-Z0-9]{4})\/[0-9a-f-]{36}\/(?:att_([A-Z0-9_.]{1,100}(?:-[A-Z0-9_.]{1,100})*)\/)?[^/]+$/;

/** What a check of the stored size may refuse before the file is decoded. */
type PrecheckRefusal =
  'unsupported_picture_format' | 'unsupported_media_size' | 'guest_upload_too_large';

/** What an upload did: a new photo, the same photo for more attendees, or nothing new. */
type UploadResult = PhotoUploadResult['upload_result'];

/** What uploads naming attendees need of the attendees domain. */
export interface AttendeeUploads {
  /** Creates or links the attendee an uploaded id names, where the event's rules allow. */
  claimUploadedId(event: EventRecord, uid: string): Promise<void>;
  /**
   * Adds the photo to the albums of these attendees (ids the photo is not uploaded with); answers
   * how many had not had it.
   */
  attachUploaded(
    event: EventRecord,
    photo: Pick<PhotoRow, 'id' | 'uid' | 'eventId'>,
    uids: readonly string[],
  ): Promise<number>;
}

/** A file name as upload keys hold it: no spaces, nothing outside `[A-Za-z0-9._-]`, 200 at most. */
export const safeFileName = (name: string): string =>
  name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 200) || 'photo';

/** Photo uploads: the grant (signed POST) and the completion (idempotent by content). Albums §3. */
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
      /** The photo's guest page handed out with the grant (instant links). */
      instantLinks?: Pick<InstantLinks, 'create' | 'completed' | 'failed'>;
    },
  ) {}

  async createUploadGrant(principal: Principal, input: ParsedBodyOf<typeof photoUploadAccess>) {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.upload', {
      eventName: input.event_name,
    });
    // Every id of a list must be one: a bad entry refuses the grant, so nothing is attached.
    const attendeeUids = uploadAttendeeIds(input.attendee_uid);
    if (typeof attendeeUids === 'string') throw new AppError(attendeeUids, 'attendee_uid');
    const ext = extensionOf(input.file_name);
    if (!(PHOTO_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError('unsupported_picture_format', 'file_name');
    const contentType = MEDIA_CONTENT_TYPES[ext];
    if (!contentType || contentType !== input.content_type.toLowerCase()) {
      throw new AppError('unsupported_picture_format', 'content_type');
    }
    const attendeeFolder = attendeeUids.length
      ? `att_${attendeeUids.join(UPLOAD_ATTENDEE_SEPARATOR)}/`
      : '';
    const key = `tmp/${caller.event.row.name}/${randomUUID()}/${attendeeFolder}${safeFileName(input.file_name)}`;
    const expiresInSeconds = 600;
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: PHOTO_MAX_BYTES,
      expiresInSeconds,
    });
    const expiresAt = new Date(this.deps.clock.now().getTime() + expiresInSeconds * 1000);
    // The photo's page exists before its bytes: a booth shows its QR code while it uploads.
    const instant = this.deps.instantLinks
      ? await this.deps.instantLinks.create(caller.event.row, key, expiresAt)
      : { code: '', url: '' };
    return {
      ...grant,
      key,
      max_bytes: PHOTO_MAX_BYTES,
      expires_date: expiresAt.toISOString(),
      instant_url: instant.url,
      instant_code: instant.code,
    };
  }

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
    const { photo, result } = await this.register(
      caller.event,
      caller.robotId,
      input.key,
      match[2]?.split(UPLOAD_ATTENDEE_SEPARATOR) ?? [],
      undefined,
      originalPhotoId,
      input.tags ?? [],
      input.is_360 === 1,
      caller.audience,
    );
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
    const { photo } = await this.register(
      event,
      null,
      key,
      attendeeUid ? [attendeeUid] : [],
      (size) => kioskMediaError(key, size),
      null,
      [],
      false,
      // The kiosk's camera: a guest's own photo.
      'private',
    );
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
    return this.register(
      event,
      null,
      key,
      attendeeUid ? [attendeeUid] : [],
      (size) => guestUploadError(key, size),
      null,
      [],
      false,
      uploader,
      shape,
    );
  }

  private async register(
    callerEvent: EventRecord,
    robotId: number | null,
    key: string,
    attendeeUids: readonly string[],
    precheck: ((size: number) => PrecheckRefusal | null) | undefined,
    originalPhotoId: number | null,
    sentTags: readonly string[],
    markedAs360: boolean,
    uploader: Audience,
    fit?: GuestUploadShape,
  ) {
    // At most so many completions of one organisation at a time, across processes: each reads
    // its file and may decode it.
    const slot = this.deps.quotas;
    const work = () =>
      this.registerNow(
        callerEvent,
        robotId,
        key,
        attendeeUids,
        precheck,
        originalPhotoId,
        sentTags,
        markedAs360,
        uploader,
        fit,
      );
    return this.claimed(key, () =>
      slot ? slot.uploadSlot(callerEvent.row.organisationId, work) : work(),
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
    callerEvent: EventRecord,
    robotId: number | null,
    key: string,
    attendeeUids: readonly string[],
    precheck: ((size: number) => PrecheckRefusal | null) | undefined,
    originalPhotoId: number | null,
    sentTags: readonly string[],
    markedAs360: boolean,
    uploader: Audience,
    fit?: GuestUploadShape,
  ): Promise<{ photo: PhotoRow; result: UploadResult }> {
    const input = { key };
    const startedAt = this.deps.clock.now();
    const caller = { event: callerEvent, robotId };
    const event = caller.event.row;

    const done = await this.deps.photos.photoForUpload(input.key);
    if (done && done.eventId === event.id) {
      // A retry after a crash between storing the photo and enqueueing its derivatives: enqueue
      // them now, unless a completion already claimed that enqueue.
      await this.enqueueDerivativesOnce(done, startedAt);
      // Bytes sent again to a key already completed (a kiosk that reloaded) are not kept.
      await this.deps.storage.delete(input.key);
      // The first attempt may have stopped before the other attendees' albums had it.
      const attached = await this.attachOthers(caller.event, done, attendeeUids);
      await this.deps.instantLinks?.completed(input.key, done.id);
      return { photo: done, result: attached > 0 ? 'attached' : 'already_uploaded' };
    }

    const object = await this.deps.storage.get(input.key);
    if (!object) {
      // A completion of the same upload running beside this one may have finished meanwhile.
      const finished = await this.deps.photos.photoForUpload(input.key);
      if (finished && finished.eventId === event.id)
        return { photo: finished, result: 'already_uploaded' };
      throw new AppError('not_found', 'key');
    }
    // Streamed: a video is hashed as it goes by, only an image is held (the engine checks it).
    const read = await readUpload(
      object.body,
      { limit: PHOTO_MAX_BYTES, wholeLimit: IMAGE_MAX_BYTES },
      (head) => sniffMedia(head)?.mediaType === 'image',
    );

    const refuse = async (
      key: PrecheckRefusal | 'photo_too_large' | 'photo_truncated',
    ): Promise<never> => {
      // Nothing a refused upload sent is kept; its instant page says it did not arrive.
      await this.deps.storage.delete(input.key);
      await this.deps.instantLinks?.failed(input.key);
      throw new AppError(key, 'key');
    };
    const early = precheck?.(read.size);
    if (early) return refuse(early);
    const media = sniffMedia(read.head);
    if (!media) return refuse('unsupported_picture_format');
    // Guests add pictures, not clips, whatever the file is called.
    if (fit && media.mediaType !== 'image') return refuse('unsupported_picture_format');
    let width: number | null = null;
    let height: number | null = null;
    let durationMs: number | null = null;
    let is360 = false;
    /** A guest's picture fitted to the event's box: stored instead of the bytes sent. */
    let fitted: Buffer | null = null;
    if (media.mediaType === 'image') {
      if (!read.bytes) return refuse('unsupported_picture_format');
      const info = await this.deps.images.inspect(read.bytes);
      if (typeof info === 'string') return refuse(info);
      width = info.width;
      height = info.height;
      is360 = info.is360 || (markedAs360 && media.ext !== 'gif');
      // A GIF goes as it is: resizing would flatten its animation.
      const size = fit && media.ext !== 'gif' ? guestUploadFit(info, fit) : null;
      if (size) {
        fitted = await this.deps.images.fitTo(read.bytes, size.width, size.height);
        width = size.width;
        height = size.height;
      }
    } else {
      // A clip: ffprobe reads its headers (a bounded, fast look); what is not a clip with a
      // picture and a length is refused like any file that is not a picture.
      // The clip was hashed as it streamed by, not kept: read it again, straight to disk.
      const again = await this.deps.storage.get(input.key);
      if (!again) throw new AppError('not_found', 'key');
      const info = await this.deps.videos.withInput(again.body, (file) =>
        this.deps.videos.probe(file),
      );
      if (typeof info === 'string') return refuse(info);
      width = info.width;
      height = info.height;
      durationMs = info.durationMs;
    }

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
      else await this.deps.storage.copy(input.key, storageKey);
    }

    // The attendees are created or linked first: the photo is in their albums once it is ready.
    // The first one is the photo's own attendee; the others have it attached (below).
    for (const uid of attendeeUids)
      await this.deps.attendeeUploads?.claimUploadedId(caller.event, uid);
    const attendeeUid = attendeeUids[0] ?? null;
    const now = this.deps.clock.now();
    const fileName = input.key.split('/').pop() ?? 'photo';
    const tags = photoTagsFor(
      [...sentTags, ...(fit?.tags ?? [])],
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
      robotId: caller.robotId,
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
    const attached = await this.attachOthers(caller.event, photo, attendeeUids);
    await this.deps.photos.recordUpload(input.key, photo.id);
    // The same bytes sent twice: the instant page shows the photo that already exists.
    await this.deps.instantLinks?.completed(input.key, photo.id);
    await this.deps.storage.delete(input.key);
    // Listeners enqueue the derivatives (photo.listeners.ts). Had the process died before this
    // line, the stuck-photo sweep (jobs/photos-stuck.job.ts) enqueues them later.
    if (created || photo.status === 'processing')
      await this.enqueueDerivativesOnce(photo, startedAt);
    return {
      photo,
      result: created ? 'uploaded' : attached > 0 ? 'attached' : 'already_uploaded',
    };
  }

  /** The upload's attendees other than the photo's own: the photo joins their albums. */
  private async attachOthers(
    event: EventRecord,
    photo: PhotoRow,
    attendeeUids: readonly string[],
  ): Promise<number> {
    const others = attendeeUids.filter((uid) => uid !== photo.attendeeUid);
    if (others.length === 0 || !this.deps.attendeeUploads) return 0;
    return this.deps.attendeeUploads.attachUploaded(event, photo, others);
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
