import { createHash, createHmac, randomUUID } from 'node:crypto';
import {
  extensionOf,
  isAttendeeIdShape,
  normaliseAttendeeId,
  MEDIA_CONTENT_TYPES,
  PHOTO_EXTENSIONS,
  PHOTO_MAX_BYTES,
  type Photo,
  type PublicKeyType,
} from '@flashbulb/shared';
import type { FastifyBaseLogger as Logger } from 'fastify';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { asFlag } from '../lib/flag.ts';
import { sniffMedia } from '../lib/media-sniff.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { AttendeeRecord, AttendeeRepository } from '../repositories/attendee.repository.ts';
import type { EventRecord, EventRepository, EventRow } from '../repositories/event.repository.ts';
import type { ImageEngine, WatermarkKind } from '../repositories/image-engine.ts';
import type { PhotoFilter, PhotoRepository, PhotoRow } from '../repositories/photo.repository.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';
import type { AccessControl, Audience, EventGrant } from '../access/access-control.ts';
import type { Principal } from '../access/principal.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * `tmp/<event code>/<uuid>/[att_<attendee id>/]<file name>`. The attendee id travels inside the
 * key, which the signed POST policy fixes: the uploader cannot change it after the grant.
 */
const TMP_KEY = /^tmp\/([A-Z0-9]{4})\/[0-9a-f-]{36}\/(?:att_([A-Z0-9_.]{1,100})\/)?[^/]+$/;
const WATERMARK_KINDS: WatermarkKind[] = [
  'live_view_watermark',
  'photo_watermark',
  'protector_watermark',
];
const RETENTION_BATCH = 200;

export type { Audience };

/** What a key opens: its event, how much of it, and for an attendee key whose album. */
export type KeyAccess = Pick<EventGrant, 'event' | 'audience' | 'attendee'>;

/** Attendee originals: prepaid or unlocked attendees, or a free or unlocked event. */
export const attendeeMayDownload = (
  attendee: AttendeeRecord,
  event: Pick<EventRow, 'is_free' | 'unlocked'> | undefined,
): boolean =>
  attendee.row.isPrepaid === 1 ||
  attendee.row.unlocked === 1 ||
  event?.is_free === 1 ||
  event?.unlocked === 1;

interface KeyInput {
  key_type?: PublicKeyType | undefined;
  key_value?: string | undefined;
}

const readAll = async (body: NodeJS.ReadableStream, limit: number): Promise<Buffer> => {
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

const safeFileName = (name: string): string =>
  name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 200) || 'photo';

const parseDate = (value: string | undefined, field: string): Date | undefined => {
  if (!value) return undefined;
  const normalised = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}:00Z`
    : value;
  const date = new Date(normalised);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_value', field);
  return date;
};

export interface PhotoListInput extends KeyInput {
  event_id?: number | undefined;
  event_name?: string | undefined;
  max_size: number;
  page_number: number;
  min_time_minutes?: number | undefined;
  max_time_minutes?: number | undefined;
  is_kiosk?: 0 | 1 | undefined;
  is_curatable?: 0 | 1 | undefined;
  is_curated?: 0 | 1 | undefined;
  is_original?: 0 | 1 | undefined;
  image_process_id?: number | undefined;
  printable?: 0 | 1 | undefined;
  printed?: 0 | 1 | undefined;
  file_name?: string | undefined;
  attendee_uid?: string | undefined;
  show_total_count?: 0 | 1 | undefined;
  get_from_tmp?: 0 | 1 | undefined;
  is_visible?: 0 | 1 | undefined;
  start_date?: string | undefined;
  end_date?: string | undefined;
  before_id?: number | undefined;
}

/**
 * Photos: upload grants, completion (idempotent by content), derivatives, lists with every
 * filter, curation, deletion with an audit trail, and retention. Albums spec §3, §5, §7.1, §7.2.
 */
export class PhotoService {
  constructor(
    private readonly deps: {
      photos: PhotoRepository;
      events: EventRepository;
      access: AccessControl;
      storage: StorageRepository;
      images: ImageEngine;
      jobs: JobQueue;
      clock: Clock;
      logger: Logger;
      uidSecret: Buffer;
      /** Told when a photo becomes ready or visible (live album streams, albums §2.1 kiosk stream). */
      photoEvents?: { photoReady(event: { photoId: number; eventId: number }): Promise<void> };
      /** Attendee albums: whose photo is whose (attendee keys). */
      attendeeRows?: AttendeeRepository;
      /** Creates or links the attendee an upload names (AttendeeService). */
      attendeeUploads?: { claimUploadedId(event: EventRecord, uid: string): Promise<void> };
      retentionEvents: () => Promise<
        {
          id: number;
          name: string;
          instantArchiveDays: number | null;
          autoDeleteDays: number | null;
        }[]
      >;
    },
  ) {}

  private now(): Date {
    return this.deps.clock.now();
  }

  /** Live streams learn of new photos; a failed notice must not fail the job or the call. */
  private async announce(photos: { id: number; eventId: number }[]): Promise<void> {
    for (const photo of photos) {
      try {
        await this.deps.photoEvents?.photoReady({ photoId: photo.id, eventId: photo.eventId });
      } catch (error) {
        this.deps.logger.warn({ err: error, photoId: photo.id }, 'photo notice failed');
      }
    }
  }

  /**
   * Whether a photo lies within what a key opens: its event's photos, or for an attendee key the
   * photos of their album (uploaded with their id or attached, in one of their events).
   */
  async inScope(access: KeyAccess, row: PhotoRow): Promise<boolean> {
    if (!access.attendee) return row.eventId === access.event.row.id;
    if (!this.deps.attendeeRows) return false;
    return this.deps.attendeeRows.ownsPhoto(access.attendee, row);
  }

  /** A photo as a key sees it: attendee keys get the original only when they may download. */
  async presentFor(access: KeyAccess, row: PhotoRow): Promise<Photo> {
    if (!access.attendee) return this.present(row, access.audience);
    const event =
      row.eventId === access.event.row.id
        ? access.event
        : await this.deps.events.findById(row.eventId);
    return this.present(row, access.audience, {
      original: attendeeMayDownload(access.attendee, event?.row),
    });
  }

  /** A photo the caller may change (operators and event-owner keys of its event), else `not_found`. */
  private async ownedPhoto(
    principal: Principal,
    photoId: number,
    field: string,
  ): Promise<{ photo: PhotoRow; grant: EventGrant }> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo) throw new AppError('not_found', field);
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.curate', {
      photo,
      field,
    });
    return { photo, grant };
  }

  // ---- upload -----------------------------------------------------------------------------------

  async createUploadGrant(
    principal: Principal,
    input: {
      event_name: string;
      file_name: string;
      content_type: string;
      attendee_uid?: string | undefined;
    },
  ) {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.upload', {
      eventName: input.event_name,
    });
    const attendeeUid = normaliseAttendeeId(input.attendee_uid ?? '');
    if (attendeeUid && !isAttendeeIdShape(attendeeUid))
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    const ext = extensionOf(input.file_name);
    if (!(PHOTO_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError('unsupported_picture_format', 'file_name');
    const contentType = MEDIA_CONTENT_TYPES[ext];
    if (!contentType || contentType !== input.content_type.toLowerCase()) {
      throw new AppError('unsupported_picture_format', 'content_type');
    }
    const attendeeFolder = attendeeUid ? `att_${attendeeUid}/` : '';
    const key = `tmp/${caller.event.row.name}/${randomUUID()}/${attendeeFolder}${safeFileName(input.file_name)}`;
    const expiresInSeconds = 600;
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: PHOTO_MAX_BYTES,
      expiresInSeconds,
    });
    return {
      ...grant,
      key,
      max_bytes: PHOTO_MAX_BYTES,
      expires_date: new Date(this.now().getTime() + expiresInSeconds * 1000).toISOString(),
    };
  }

  /**
   * Turns an uploaded file into a photo. Every step can be retried: the uid comes from the event
   * and the bytes, the copy and the insert are idempotent, and a finished upload is remembered.
   */
  async completeUpload(principal: Principal, input: { key: string }): Promise<Photo> {
    const match = TMP_KEY.exec(input.key);
    if (!match) throw new AppError('not_found', 'key');
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.upload', {
      eventName: match[1]!,
    });
    const event = caller.event.row;
    const attendeeUid = match[2] ?? null;

    const done = await this.deps.photos.photoForUpload(input.key);
    if (done && done.eventId === event.id) return this.present(done, 'owner');

    const object = await this.deps.storage.get(input.key);
    if (!object) throw new AppError('not_found', 'key');
    const bytes = await readAll(object.body, PHOTO_MAX_BYTES);

    const refuse = async (
      key: 'unsupported_picture_format' | 'photo_too_large' | 'photo_truncated',
    ): Promise<never> => {
      // Nothing a refused upload sent is kept.
      await this.deps.storage.delete(input.key);
      throw new AppError(key, 'key');
    };
    const media = sniffMedia(bytes.subarray(0, 16));
    if (!media) return refuse('unsupported_picture_format');
    let width: number | null = null;
    let height: number | null = null;
    if (media.mediaType === 'image') {
      const info = await this.deps.images.inspect(bytes);
      if (typeof info === 'string') return refuse(info);
      width = info.width;
      height = info.height;
    }

    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const uid = createHmac('sha256', this.deps.uidSecret)
      .update(`${event.id}:${sha256}`)
      .digest('hex')
      .slice(0, 24);
    const storageKey = `${this.photoFolder(event.name, uid)}original.${media.ext}`;
    if (!(await this.deps.storage.head(storageKey)))
      await this.deps.storage.copy(input.key, storageKey);

    // The attendee is created or linked first: the photo is in their album once it is ready.
    if (attendeeUid) await this.deps.attendeeUploads?.claimUploadedId(caller.event, attendeeUid);
    const now = this.now();
    const fileName = input.key.split('/').pop() ?? 'photo';
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
      sizeBytes: bytes.length,
      robotId: caller.robotId,
      attendeeUid,
      status: 'processing',
      createdAt: now,
      availableAt: new Date(now.getTime() + this.delayMinutes(caller.event, attendeeUid) * 60_000),
    });
    await this.deps.photos.recordUpload(input.key, photo.id);
    await this.deps.storage.delete(input.key);
    if (created || photo.status === 'processing') {
      await this.deps.jobs.send(
        'photo.derivatives',
        { photoId: photo.id },
        { singletonKey: `derive-${photo.id}` },
      );
    }
    return this.present(photo, 'owner');
  }

  private photoFolder(eventCode: string, uid: string): string {
    return `events/${eventCode}/photos/uid_${uid}_uid/`;
  }

  /** Photo delay (owner-console opts): VIP attendees and tagged photos may wait differently. */
  private delayMinutes(event: EventRecord, attendeeUid: string | null): number {
    const opts = event.row.opts;
    if (attendeeUid && opts.attendeeIdVipRegex && opts.photoDelayVipMinutes !== null) {
      try {
        if (new RegExp(opts.attendeeIdVipRegex).test(attendeeUid)) return opts.photoDelayVipMinutes;
      } catch {
        // an invalid pattern cannot be saved; ignore defensively
      }
    }
    return opts.photoDelayMinutes ?? 0;
  }

  // ---- derivatives (job) -----------------------------------------------------------------------------

  /** Job `photo.derivatives`: preview, thumbnail and the watermarked variants the event asks for. */
  async makeDerivatives(photoId: number): Promise<void> {
    const photo = await this.deps.photos.findById(photoId);
    if (!photo || photo.status === 'ready') return;
    const event = await this.deps.events.findById(photo.eventId);
    if (!event) return;
    if (photo.mediaType === 'video') {
      await this.deps.photos.update(photo.id, { status: 'ready' });
      await this.announce([photo]);
      return;
    }
    const object = await this.deps.storage.get(photo.storageKey);
    if (!object) {
      await this.deps.photos.update(photo.id, {
        status: 'failed',
        failureReason: 'original missing',
      });
      return;
    }
    const original = await readAll(object.body, PHOTO_MAX_BYTES);
    const overlays: Partial<Record<WatermarkKind, Buffer>> = {};
    for (const kind of WATERMARK_KINDS) {
      const source = event.row[kind];
      if (!source) continue;
      if (kind === 'protector_watermark' && event.row.is_free === 1) continue;
      overlays[kind] = await this.watermarkImage(source);
    }
    let made;
    try {
      made = await this.deps.images.makeDerivatives(original, overlays);
    } catch (error) {
      this.deps.logger.warn({ err: error, photoId }, 'derivatives failed');
      await this.deps.photos.update(photo.id, { status: 'failed', failureReason: 'decode failed' });
      return;
    }
    const folder = this.photoFolder(event.row.name, photo.uid);
    const derivatives: Record<string, string> = {
      preview: `${folder}preview.jpg`,
      thumbnail: `${folder}thumbnail.jpg`,
    };
    await this.deps.storage.put(derivatives.preview!, made.preview, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    await this.deps.storage.put(derivatives.thumbnail!, made.thumbnail, 'image/jpeg', {
      cacheControl: IMMUTABLE,
    });
    for (const [kind, buffer] of Object.entries(made.watermarked)) {
      const key = `${folder}${kind.replace(/_/g, '-')}.jpg`;
      await this.deps.storage.put(key, buffer, 'image/jpeg', { cacheControl: IMMUTABLE });
      derivatives[kind] = key;
    }
    await this.deps.photos.update(photo.id, {
      status: 'ready',
      derivatives,
      width: made.width,
      height: made.height,
      failureReason: null,
    });
    await this.announce([photo]);
  }

  private async watermarkImage(source: string): Promise<Buffer> {
    const key = source.replace(/^\/+/, '');
    try {
      const object = await this.deps.storage.get(key);
      if (object) return await readAll(object.body, 20 * 1024 * 1024);
    } catch {
      // not a storage key (e.g. the built-in default path): use the built-in watermark
    }
    return this.deps.images.defaultWatermark();
  }

  // ---- reading ---------------------------------------------------------------------------------------

  async list(principal: Principal, input: PhotoListInput) {
    const caller = await this.deps.access.requireEventAccess(
      principal,
      'photo.list',
      input.event_id !== undefined || principal.kind === 'user'
        ? { eventId: input.event_id ?? 0 }
        : { keyEvent: true },
    );
    const now = this.now();
    const attendee = caller.attendee;
    const filter: PhotoFilter = {
      eventId: caller.event.row.id,
      ...(attendee
        ? { attendeeAlbum: { attendeeId: attendee.row.id, uid: attendee.row.uid } }
        : {}),
      now,
      publishedOnly: caller.audience !== 'owner',
      includeDelayed: caller.audience === 'owner' && input.get_from_tmp !== 0,
      isKiosk: input.is_kiosk,
      isCuratable: input.is_curatable,
      isCurated: input.is_curated,
      isOriginal: input.is_original,
      printable: input.printable,
      printed: input.printed,
      imageProcessId: input.image_process_id,
      fileNameContains: input.file_name?.trim() || undefined,
      // An attendee key lists its own album; the filter is for the other keys.
      attendeeUid:
        attendee || input.attendee_uid === undefined
          ? undefined
          : normaliseAttendeeId(input.attendee_uid),
      ...(input.before_id !== undefined ? { beforeId: input.before_id } : {}),
      isVisible: caller.audience === 'owner' ? input.is_visible : undefined,
    };
    const after: Date[] = [];
    const before: Date[] = [];
    const start = parseDate(input.start_date, 'start_date');
    const end = parseDate(input.end_date, 'end_date');
    if (start) after.push(start);
    if (end) before.push(end);
    if (input.max_time_minutes !== undefined)
      after.push(new Date(now.getTime() - input.max_time_minutes * 60_000));
    if (input.min_time_minutes !== undefined)
      before.push(new Date(now.getTime() - input.min_time_minutes * 60_000));
    // The public stream shows photos for the event's availability window only.
    const streamMinutes = caller.event.row.photo_stream_available_minutes;
    if (caller.audience === 'public' && streamMinutes !== null)
      after.push(new Date(now.getTime() - streamMinutes * 60_000));
    if (after.length) filter.createdAfter = new Date(Math.max(...after.map((d) => d.getTime())));
    if (before.length) filter.createdBefore = new Date(Math.min(...before.map((d) => d.getTime())));

    // With a cursor the page number is ignored: the cursor already says where the page starts.
    const offset = input.before_id !== undefined ? 0 : (input.page_number - 1) * input.max_size;
    const rows = await this.deps.photos.list(filter, input.max_size, offset);
    const total = input.show_total_count === 1 ? await this.deps.photos.count(filter) : null;
    const photos: Photo[] = [];
    for (const row of rows) photos.push(await this.presentFor(caller, row));
    return {
      photos,
      total_count: total,
      page_number: input.page_number,
      max_size: input.max_size,
    };
  }

  async countInfo(
    principal: Principal,
    input: { event_id: number; start_date?: string | undefined; end_date?: string | undefined },
  ) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId: input.event_id,
    });
    const counts = await this.deps.photos.countInfo(
      event.row.id,
      parseDate(input.start_date, 'start_date'),
      parseDate(input.end_date, 'end_date'),
    );
    return { ...counts, hidden: counts.total - counts.visible };
  }

  present(row: PhotoRow, audience: Audience, options: { original?: boolean } = {}): Photo {
    const url = (key: string | undefined) => (key ? this.deps.storage.publicUrl(key) : null);
    const d = row.derivatives;
    const mayDownloadOriginal =
      audience === 'owner' || audience === 'private' || options.original === true;
    return {
      id: row.id,
      uid: row.uid,
      event_id: row.eventId,
      full_path: row.storageKey,
      file_name: row.fileName,
      content_type: row.contentType,
      media_type: row.mediaType === 'video' ? 'video' : 'image',
      width: row.width,
      height: row.height,
      size_bytes: row.sizeBytes,
      robot_id: row.robotId,
      attendee_uid: row.attendeeUid,
      category: row.category,
      is_visible: asFlag(row.isVisible),
      is_original: asFlag(row.isOriginal),
      is_curatable: asFlag(row.isCuratable),
      is_curated: asFlag(row.isCurated),
      printable: asFlag(row.printable),
      printed: asFlag(row.printed),
      image_process_id: row.imageProcessId,
      original_photo_id: row.originalPhotoId,
      status: row.status === 'ready' ? 'ready' : row.status === 'failed' ? 'failed' : 'processing',
      created_date: row.createdAt.toISOString(),
      available_date: row.availableAt.toISOString(),
      urls: {
        original: mayDownloadOriginal || row.mediaType === 'video' ? url(row.storageKey) : null,
        preview: url(d.preview),
        thumbnail: url(d.thumbnail),
        live_view_watermark: url(d.live_view_watermark),
        photo_watermark: url(d.photo_watermark),
        protector_watermark: url(d.protector_watermark),
      },
    };
  }

  // ---- changes -----------------------------------------------------------------------------------------

  /** Photos by id, each of an event the operator holds `permission` on; `not_found` otherwise. */
  private async photosOfOperator(
    principal: Principal,
    permission: 'photo.curate' | 'photo.delete',
    ids: number[],
    field: string,
  ): Promise<{ rows: PhotoRow[]; userId: number | null }> {
    const rows = await this.deps.photos.findByIds([...new Set(ids)]);
    if (rows.length !== new Set(ids).size) throw new AppError('not_found', field);
    let userId: number | null = null;
    const checked = new Set<number>();
    for (const row of rows) {
      if (checked.has(row.eventId)) continue;
      const grant = await this.deps.access.requireEventAccess(principal, permission, {
        photo: row,
        field,
      });
      userId = grant.actor?.userId ?? null;
      checked.add(row.eventId);
    }
    return { rows, userId };
  }

  async delete(
    principal: Principal,
    ids: number[],
    reason: string | null,
    field: string,
  ): Promise<number> {
    const { rows, userId } = await this.photosOfOperator(principal, 'photo.delete', ids, field);
    // Rows (with the audit entry) first: a crash then leaves unreachable files, never rows
    // pointing at missing files.
    const deleted = await this.deps.photos.deleteWithAudit(rows, reason, userId);
    await this.removeFiles(rows);
    return deleted;
  }

  private async removeFiles(rows: PhotoRow[]): Promise<void> {
    for (const row of rows) {
      // The original may have been archived: its key is `archive/events/<code>/…` then.
      const code = /(?:^|\/)events\/([^/]+)\//.exec(row.storageKey)?.[1];
      if (!code) continue;
      const folder = this.photoFolder(code, row.uid);
      await this.deps.storage.deletePrefix(folder);
      await this.deps.storage.deletePrefix(`archive/${folder}`);
    }
  }

  async update(
    principal: Principal,
    input: { id: number; category?: string | null | undefined; is_visible?: 0 | 1 | undefined },
  ): Promise<Photo> {
    const {
      rows: [row],
    } = await this.photosOfOperator(principal, 'photo.curate', [input.id], 'id');
    const updated = await this.deps.photos.update(row!.id, {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    });
    if (input.is_visible === 1 && row!.isVisible !== 1) await this.announce([row!]);
    return this.present(updated ?? row!, 'owner');
  }

  async updateMany(
    principal: Principal,
    input: {
      id_array: number[];
      category?: string | null | undefined;
      is_visible?: 0 | 1 | undefined;
    },
  ): Promise<number> {
    const { rows } = await this.photosOfOperator(
      principal,
      'photo.curate',
      input.id_array,
      'id_array',
    );
    const changes = {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    };
    if (Object.keys(changes).length === 0) return 0;
    const updated = await this.deps.photos.updateMany(
      [...new Set(rows.map((r) => r.eventId))],
      rows.map((r) => r.id),
      changes,
    );
    if (input.is_visible === 1) await this.announce(rows.filter((r) => r.isVisible !== 1));
    return updated;
  }

  /** The curation page (event-owner key of the link): hide, show or categorise; answers the photos. */
  async updateManyByKey(
    principal: Principal,
    input: {
      id_array: number[];
      category?: string | null | undefined;
      is_visible?: 0 | 1 | undefined;
    },
  ): Promise<{ photos: Photo[] }> {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.curate', {
      keyEvent: true,
    });
    const ids = [...new Set(input.id_array)];
    const rows = await this.deps.photos.findByIds(ids);
    if (rows.length !== ids.length || rows.some((r) => r.eventId !== caller.event.row.id)) {
      throw new AppError('not_found', 'id_array');
    }
    const changes = {
      ...(input.category !== undefined ? { category: input.category } : {}),
      ...(input.is_visible !== undefined ? { isVisible: input.is_visible } : {}),
    };
    if (Object.keys(changes).length > 0) {
      await this.deps.photos.updateMany([caller.event.row.id], ids, changes);
      if (input.is_visible === 1) await this.announce(rows.filter((r) => r.isVisible !== 1));
    }
    const updated = await this.deps.photos.findByIds(ids);
    return { photos: updated.map((row) => this.present(row, 'owner')) };
  }

  async curationUpdate(
    principal: Principal,
    input: {
      original_photo_id: number;
      full_path?: string | undefined;
      print_requested?: 0 | 1 | undefined;
    },
  ): Promise<Photo> {
    const { photo, grant } = await this.ownedPhoto(
      principal,
      input.original_photo_id,
      'original_photo_id',
    );
    const event = grant.event.row;
    if (input.full_path) {
      if (
        !input.full_path.startsWith(`events/${event.name}/`) ||
        !(await this.deps.storage.head(input.full_path))
      ) {
        throw new AppError('not_found', 'full_path');
      }
    }
    const updated = await this.deps.photos.update(photo.id, {
      isCurated: 1,
      ...(input.print_requested !== undefined ? { printRequested: input.print_requested } : {}),
      ...(input.full_path
        ? { derivatives: { ...photo.derivatives, curated: input.full_path } }
        : {}),
    });
    return this.present(updated ?? photo, 'owner');
  }

  async reprocess(principal: Principal, input: { photo_id: number }): Promise<Photo> {
    const { photo } = await this.ownedPhoto(principal, input.photo_id, 'photo_id');
    const updated = await this.deps.photos.update(photo.id, { status: 'processing' });
    await this.deps.jobs.send('photo.derivatives', { photoId: photo.id });
    return this.present(updated ?? photo, 'owner');
  }

  async addActivities(
    principal: Principal,
    input: {
      robot_id: number;
      photo_ids: number[];
      activity_name: string;
      type: string;
    },
  ): Promise<number[]> {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.activity', {
      keyEvent: true,
    });
    if (caller.robotId !== input.robot_id) throw new AppError('invalid_key');
    const rows = await this.deps.photos.findByIds(input.photo_ids);
    if (
      rows.length !== new Set(input.photo_ids).size ||
      rows.some((r) => r.eventId !== caller.event.row.id)
    ) {
      throw new AppError('not_found', 'photo_id');
    }
    const ids = input.photo_ids.length ? input.photo_ids : [null];
    return this.deps.photos.addActivities(
      ids.map((photoId) => ({
        eventId: caller.event.row.id,
        robotId: input.robot_id,
        photoId,
        name: input.activity_name,
        type: input.type,
      })),
    );
  }

  // ---- retention (job) ------------------------------------------------------------------------------

  /** Job `photos.retention`: archive originals after instant_archive_days, delete after photo_auto_delete_days. */
  async runRetention(): Promise<{ archived: number; deleted: number }> {
    const now = this.now().getTime();
    let archived = 0;
    let deleted = 0;
    for (const event of await this.deps.retentionEvents()) {
      if (event.autoDeleteDays !== null) {
        const before = new Date(now - event.autoDeleteDays * 86_400_000);
        for (;;) {
          const batch = await this.deps.photos.dueForDeletion(event.id, before, RETENTION_BATCH);
          if (batch.length === 0) break;
          deleted += await this.deps.photos.deleteWithAudit(
            batch,
            'photo_auto_delete_days',
            null,
            'auto_delete',
          );
          await this.removeFiles(batch);
        }
      }
      if (event.instantArchiveDays !== null) {
        const before = new Date(now - event.instantArchiveDays * 86_400_000);
        for (;;) {
          const batch = await this.deps.photos.dueForArchive(event.id, before, RETENTION_BATCH);
          if (batch.length === 0) break;
          for (const photo of batch) {
            const archiveKey = `archive/${photo.storageKey}`;
            // Copy, point the row at the copy, then remove the original: each step can be repeated.
            if (!(await this.deps.storage.head(archiveKey)))
              await this.deps.storage.copy(photo.storageKey, archiveKey);
            await this.deps.photos.update(photo.id, {
              storageKey: archiveKey,
              archivedAt: new Date(now),
            });
            await this.deps.storage.delete(photo.storageKey);
            archived += 1;
          }
        }
      }
    }
    return { archived, deleted };
  }
}
