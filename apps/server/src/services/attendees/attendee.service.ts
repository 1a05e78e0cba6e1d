import { ownerPatternMatches } from '../../lib/owner-pattern.ts';
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  ATTENDEE_GENERATE_INLINE,
  ATTENDEE_ID_ALPHABET,
  ATTENDEE_ID_LENGTH,
  ATTENDEE_PRIVATE_ID_LENGTH,
  cardCodeFromScan,
  attendeeKeyOf,
  ATTENDEE_KEY_SEPARATOR,
  formatAttendeeId,
  isAttendeeIdShape,
  isValidEmail,
  normaliseAttendeeId,
  kioskCardCode,
  type Attendee,
  type AttendeeAlbum,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { Quotas } from '../operations/quotas.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { attendsEvent, organisationScope } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { asFlag } from '../../lib/flag.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttachSource,
  AttendeeRecord,
  AttendeeRepository,
  AttendeeRow,
  NewAttendeeRow,
} from '../../repositories/attendees/attendee.repository.ts';
import type {
  EventRecord,
  EventRepository,
  EventRow,
} from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { attendeeMayDownload } from '../photos/photo-presenter.ts';
import type { AlbumMailService } from '../messaging/album-mail.service.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';

/** Owner-console §5: cards whose account is older than this cannot be grouped at a kiosk. */
export const GROUP_MAX_AGE_MS = 3 * 24 * 60 * 60_000;

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
/** A public twin's body without its key: the principal already carries it. */
/** Rows per insert when generating: well under PostgreSQL's 65,535 parameters per statement. */
const GENERATE_CHUNK = 2000;

const randomCode = (length: number): string => {
  let code = '';
  for (let i = 0; i < length; i += 1)
    code += ATTENDEE_ID_ALPHABET[randomInt(ATTENDEE_ID_ALPHABET.length)];
  return code;
};

/** Equal-time comparison of two codes of any length (hashed first, so lengths leak nothing). */
const sameCode = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * Attendee albums (albums spec §2.3, §3, §7.2; owner-console §5): generated card lists, the
 * owner's attach / unlink / lock, and the kiosk calls. Ids are bearer secrets: never logged.
 */
export class AttendeeService {
  constructor(
    private readonly deps: {
      attendees: AttendeeRepository;
      events: EventRepository;
      photos: PhotoRepository;
      albums: AlbumRepository;
      access: AccessControl;
      clock: Clock;
      publicUrl: string;
      /** `attendee.photos_attached`: the attendee's live stream shows the photos. */
      bus?: SignalEmitter;
      /** The album link mail of update-by-kiosk (the one album mail renderer, through the outbox). */
      albumMail?: () => Pick<AlbumMailService, 'send'>;
      /** Queues the generated list's mail to the generate call's `email` (job `attendees.mail-list`). */
      mailList?: (job: { batchId: number; email: string; eventIds: number[] }) => Promise<void>;
      /** Attendees per call and per organisation per day (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'attendees'>;
      /** Public thumbnail URLs of an attendee's visible photos, for the album mail. */
      thumbnails?: (event: EventRow, attendeeId: number, limit: number) => Promise<string[]>;
    },
  ) {}

  private albumUrl(
    row: Pick<AttendeeRow, 'uid' | 'urlPrefix' | 'privateId' | 'customUid'>,
  ): string {
    const base = trimSlash(row.urlPrefix ?? this.deps.publicUrl);
    return `${base}/?attId=${encodeURIComponent(attendeeKeyOf(row))}`;
  }

  private present(record: AttendeeRecord, photoCount: number): Attendee {
    const row = record.row;
    return {
      id: row.id,
      uid: row.uid,
      display_uid: formatAttendeeId(row.uid),
      private_id: row.privateId,
      organisation_id: row.organisationId,
      event_ids: record.eventIds,
      email: row.email,
      is_prepaid: asFlag(row.isPrepaid),
      unlocked: asFlag(row.unlocked),
      partial_unlock_tag: row.partialUnlockTag,
      is_locked: row.lockedAt ? 1 : 0,
      expires_date: row.expiresAt?.toISOString() ?? null,
      created_date: row.createdAt.toISOString(),
      photo_count: photoCount,
      album_url: this.albumUrl(row),
    };
  }

  private async presentMany(records: AttendeeRecord[]): Promise<Attendee[]> {
    const counts = await this.deps.attendees.photoCounts(records.map((r) => r.row.id));
    return records.map((r) => this.present(r, counts.get(r.row.id) ?? 0));
  }

  /** The attendee an id names, open now; else the clear reason (the attendee calls name it). */
  private async openAttendee(rawId: string, field = 'attendee_uid'): Promise<AttendeeRecord> {
    const { record, refusal } = await this.deps.access.attendeeById(rawId);
    if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', field);
    return record;
  }

  /** Any attendee (open or not) of the event's organisation; owners may act on locked ones. */
  private async attendeeOfOrganisation(
    rawId: string,
    organisationId: number,
  ): Promise<AttendeeRecord> {
    const { record } = await this.deps.access.attendeeByUid(rawId);
    if (!record || record.row.organisationId !== organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return record;
  }

  // ---- owner calls ---------------------------------------------------------------------------

  async generate(
    principal: Principal,
    input: Body<'generateAttendeeList'>,
  ): Promise<{ count: number; attendees: Attendee[] }> {
    const eventIds = [...new Set(input.event_id_array)];
    const events: EventRecord[] = [];
    let actor = null;
    for (const id of eventIds) {
      const grant = await this.deps.access.requireEventAccess(principal, 'event.manage', {
        eventId: id,
        field: 'event_id_array',
      });
      events.push(grant.event);
      actor = grant.actor;
    }
    const organisationId = events[0]!.row.organisationId;
    if (events.some((e) => e.row.organisationId !== organisationId))
      throw new AppError('forbidden', 'event_id_array');
    if (!actor) throw new AppError('unauthorized_user');
    const scope = organisationScope(actor, input.organisation_id);
    if (scope !== undefined && scope !== organisationId)
      throw new AppError('forbidden', 'organisation_id');
    const email = input.email?.trim() || null;
    if (email && !isValidEmail(email)) throw new AppError('email_invalid', 'email');
    const urlPrefix = input.url_prefix?.trim() || null;
    if (urlPrefix) {
      let url: URL | null = null;
      try {
        url = new URL(urlPrefix);
      } catch {
        url = null;
      }
      if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
        throw new AppError('valid_url', 'url_prefix');
    }
    // Last before writing: a call refused for any other reason counts nothing.
    await this.deps.quotas?.attendees(organisationId, input.attendee_count);
    const now = this.deps.clock.now();
    const expiresAt =
      input.expiration_minutes != null
        ? new Date(now.getTime() + input.expiration_minutes * 60_000)
        : null;
    // Written in short transactions (other requests keep flowing, even on PGlite's single
    // connection), visible all at once when the batch turns ready; a failure removes the batch.
    const batchId = await this.deps.attendees.createBatch(
      organisationId,
      input.attendee_count,
      now,
    );
    const make = (): NewAttendeeRow => ({
      batchId,
      uid: randomCode(ATTENDEE_ID_LENGTH),
      privateId: randomCode(ATTENDEE_PRIVATE_ID_LENGTH),
      organisationId,
      email,
      isPrepaid: input.is_prepaid,
      partialUnlockTag: input.partial_unlock_tag?.trim() || null,
      urlPrefix: urlPrefix ? trimSlash(urlPrefix) : null,
      expiresAt,
      createdAt: now,
    });
    const rows: AttendeeRow[] = [];
    try {
      let remaining = input.attendee_count;
      let collisions = 0;
      while (remaining > 0) {
        const size = Math.min(GENERATE_CHUNK, remaining);
        const inserted = await this.deps.attendees.insertChunk(
          Array.from({ length: size }, make),
          eventIds,
        );
        collisions += size - inserted.length;
        if (collisions > Math.max(100, input.attendee_count))
          throw new Error('attendee ids keep colliding');
        for (const row of inserted) if (rows.length < ATTENDEE_GENERATE_INLINE) rows.push(row);
        remaining -= inserted.length;
        // Let requests that waited for this chunk run before the next one takes the database
        // (PGlite lets a waiting query in only if it gets there before the next transaction).
        await new Promise((resolve) => setImmediate(resolve));
      }
      await this.deps.attendees.readyBatch(batchId);
    } catch (error) {
      await this.deps.attendees.deleteBatch(batchId);
      throw error;
    }
    // The list (CSV and printable QR cards) goes to the address the call gave.
    if (email) await this.deps.mailList?.({ batchId, email, eventIds });
    return {
      count: input.attendee_count,
      attendees: rows.map((row) => this.present({ row, eventIds }, 0)),
    };
  }

  /** Generations a crash left pending for over an hour are removed (`attendees.cleanup` job). */
  async deleteAbandonedBatches(): Promise<number> {
    const cutoff = new Date(this.deps.clock.now().getTime() - 60 * 60_000);
    return this.deps.attendees.deleteAbandonedBatches(cutoff);
  }

  async list(principal: Principal, input: Body<'attendeeList'>) {
    const event = await this.ownerEvent(principal, input.event_id);
    const prefix = normaliseAttendeeId(input.attendee_uid ?? '');
    const { records, total } = await this.deps.attendees.listByEvent(
      event.row.id,
      prefix || undefined,
      input.max_size,
      (input.page_number - 1) * input.max_size,
    );
    return {
      attendees: await this.presentMany(records),
      total_count: total,
      page_number: input.page_number,
      max_size: input.max_size,
    };
  }

  /** An event the operator manages (attendee owner calls). */
  private async ownerEvent(principal: Principal, eventId: number, field = 'event_id') {
    const grant = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
      field,
    });
    return grant.event;
  }

  /** Photos by uid, each of an event the operator manages; `not_found` otherwise. */
  private async photosOfOperator(principal: Principal, uids: string[]): Promise<PhotoRow[]> {
    const rows: PhotoRow[] = [];
    const seen = new Set<number>();
    for (const uid of uids) {
      const row = await this.deps.albums.photoByUid(uid);
      if (!row) throw new AppError('not_found', 'photo_uids');
      if (!seen.has(row.eventId)) {
        await this.deps.access.requireEventAccess(principal, 'event.manage', {
          photo: row,
          field: 'photo_uids',
        });
        seen.add(row.eventId);
      }
      rows.push(row);
    }
    return rows;
  }

  async byPhotos(principal: Principal, input: Body<'attendeesByPhotos'>) {
    const uids = [...new Set(input.photo_uids)];
    const rows = await this.photosOfOperator(principal, uids);
    const attached = await this.deps.attendees.attachedUids(rows.map((r) => r.id));
    return rows.map((row) => ({
      photo_uid: row.uid,
      attendee_uids: [
        ...new Set([
          ...(row.attendeeUid ? [row.attendeeUid] : []),
          ...(attached.get(row.id) ?? []),
        ]),
      ],
    }));
  }

  /** Photos of one event by uid, all of them or `not_found`. */
  private async eventPhotos(eventId: number, uids: string[]): Promise<PhotoRow[]> {
    const unique = [...new Set(uids)];
    const rows = await this.deps.albums.photosByUids(eventId, unique);
    if (rows.length !== unique.length) throw new AppError('not_found', 'photo_uid_array');
    return rows;
  }

  private async attach(
    record: AttendeeRecord,
    event: EventRecord,
    rows: PhotoRow[],
    source: AttachSource,
  ): Promise<number> {
    await this.deps.attendees.linkEvent(record.row.id, event.row.id);
    await this.deps.attendees.attach(
      record.row.id,
      rows.map((r) => r.id),
      source,
    );
    // Listeners never fail the call: the album list shows the photos either way.
    await this.deps.bus?.emit('attendee.photos_attached', {
      attendeeId: record.row.id,
      photos: rows.map((r) => ({ photoId: r.id, eventId: r.eventId })),
    });
    return rows.length;
  }

  async ownerAttach(principal: Principal, input: Body<'ownerAttachPhotos'>) {
    const event = await this.ownerEvent(principal, input.event_id);
    const record = await this.attendeeOfOrganisation(input.attendee_uid, event.row.organisationId);
    const rows = await this.eventPhotos(event.row.id, input.photo_uid_array);
    const attached = await this.attach(record, event, rows, 'owner');
    return { attendee_uid: record.row.uid, attached_count: attached };
  }

  async unlink(principal: Principal, input: Body<'unlinkPhotos'>) {
    const eventIds = [...new Set(input.event_id_array)];
    if (eventIds.length !== 1) throw new AppError('unlink_single_event', 'event_id_array');
    const event = await this.ownerEvent(principal, eventIds[0]!, 'event_id_array');
    const record = await this.attendeeOfOrganisation(input.attendee_uid, event.row.organisationId);
    const rows = await this.eventPhotos(event.row.id, input.photo_uid_array);
    // Only attachments go; a photo uploaded with the attendee's id stays theirs.
    const unlinked = await this.deps.attendees.detach(
      record.row.id,
      rows.map((r) => r.id),
    );
    return { attendee_uid: record.row.uid, unlinked_count: unlinked };
  }

  async lock(principal: Principal, input: Body<'lockAttendee'>) {
    const event = await this.ownerEvent(principal, input.event_id);
    const record = await this.attendeeOfOrganisation(input.attendee_uid, event.row.organisationId);
    if (!record.eventIds.includes(event.row.id))
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    const row =
      (await this.deps.attendees.update(record.row.id, {
        lockedAt: input.is_locked === 1 ? (record.row.lockedAt ?? this.deps.clock.now()) : null,
      })) ?? record.row;
    const [presented] = await this.presentMany([{ row, eventIds: record.eventIds }]);
    return presented!;
  }

  // ---- public calls ----------------------------------------------------------------------------

  async retrieve(
    principal: Principal,
    input: KeylessBody<'retrieveAttendee'>,
  ): Promise<AttendeeAlbum> {
    const record = this.deps.access.requireAttendee(principal, 'attendee.album');
    if (input.organisation_id !== undefined && input.organisation_id !== record.row.organisationId)
      throw new AppError('invalid_attendee_id', 'organisation_id');
    const events: EventRecord[] = [];
    for (const id of record.eventIds) {
      const event = await this.deps.events.findById(id);
      if (event) events.push(event);
    }
    const photoCount = events.length
      ? await this.deps.photos.count({
          eventId: events[0]!.row.id,
          attendeeAlbum: { attendeeId: record.row.id, uid: record.row.uid },
          publishedOnly: true,
          now: this.deps.clock.now(),
        })
      : 0;
    const row = record.row;
    return {
      uid: row.uid,
      display_uid: formatAttendeeId(row.uid),
      organisation_id: row.organisationId,
      email: row.email,
      is_prepaid: asFlag(row.isPrepaid),
      unlocked: attendeeMayDownload(record, events[0]?.row) ? 1 : 0,
      expires_date: row.expiresAt?.toISOString() ?? null,
      events: events.map((e) => ({
        name: e.row.name,
        full_name: e.row.full_name,
        empty_album_text: e.row.empty_album_text,
        logo_full_path: e.row.logo_full_path,
      })),
      photo_count: photoCount,
    };
  }

  /** Kiosk card check: never throws for an unknown id, and compares the private id in equal time. */
  async checkUid(
    input: Body<'checkAttendeeUid'>,
  ): Promise<{ valid: boolean; attendee_uid: string | null }> {
    // A card check may give the private id apart: it completes a booth-chosen id's key.
    const key =
      input.private_id !== undefined && !input.attendee_uid.includes(ATTENDEE_KEY_SEPARATOR)
        ? `${input.attendee_uid}${ATTENDEE_KEY_SEPARATOR}${input.private_id}`
        : input.attendee_uid;
    const { record, refusal } = await this.deps.access.attendeeById(key);
    if (!record || refusal) return { valid: false, attendee_uid: null };
    if (input.private_id !== undefined) {
      const given = normaliseAttendeeId(input.private_id);
      const expected = record.row.privateId ? normaliseAttendeeId(record.row.privateId) : '';
      const matches = sameCode(given, expected);
      if (!expected || !matches) return { valid: false, attendee_uid: null };
    }
    return { valid: true, attendee_uid: record.row.uid };
  }

  /** A kiosk's key (private or event owner) and the attendee it serves, open and of its organisation. */
  private async kiosk(principal: Principal, attendeeId: string) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk', {
      keyEvent: true,
    });
    const record = await this.openAttendee(attendeeId);
    if (record.row.organisationId !== event.row.organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return { event, record };
  }

  /** The event's published photos by uid (what its kiosk shows), all of them or `not_found`. */
  private async publishedPhotos(event: EventRecord, uids: string[]): Promise<PhotoRow[]> {
    const rows = await this.eventPhotos(event.row.id, uids);
    const now = this.deps.clock.now();
    if (
      rows.some((p) => !albumDecision(p, event.row, 'private', now, { streamWindow: false }).show)
    )
      throw new AppError('not_found', 'photo_uid_array');
    return rows;
  }

  async attachByKey(principal: Principal, input: KeylessBody<'attachPhotosByKey'>) {
    const { event, record } = await this.kiosk(principal, input.attendee_uid);
    const rows = await this.publishedPhotos(event, input.photo_uid_array);
    const attached = await this.attach(record, event, rows, 'kiosk');
    return { attendee_uid: record.row.uid, attached_count: attached };
  }

  async attachByQrScan(principal: Principal, input: KeylessBody<'attachPhotosByQrScan'>) {
    const code = cardCodeFromScan(input.qr_text);
    if (!code) throw new AppError('invalid_attendee_id', 'qr_text');
    const { event, record } = await this.kiosk(principal, code);
    const rows = await this.publishedPhotos(event, input.photo_uid_array);
    const attached = await this.attach(record, event, rows, 'qr_scan');
    return {
      attendee_uid: record.row.uid,
      display_uid: formatAttendeeId(record.row.uid),
      attached_count: attached,
      album_url: this.albumUrl(record.row),
    };
  }

  /**
   * The kiosk's desk (`attendee.kiosk_desk`: the private key with the event's display token) and
   * the open attendee of the kiosk's own event an id names.
   */
  private async desk(principal: Principal, attendeeId: string, field = 'attendee_uid') {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const record = await this.openAttendee(attendeeId, field);
    if (!attendsEvent(record, event.row)) throw new AppError('invalid_attendee_id', field);
    return { event, record };
  }

  /**
   * A kiosk visitor leaves the address their album link goes to. The kiosk proves itself with its
   * private key and the event's display token (a guest's private-album link is refused), and
   * reaches only attendees of its event: a printed attendee id alone changes nothing.
   */
  async updateByKiosk(principal: Principal, input: KeylessBody<'updateAttendeeByKiosk'>) {
    const { event, record } = await this.desk(principal, input.attendee_uid);
    const email = input.email_address.trim();
    if (!isValidEmail(email)) throw new AppError('email_invalid', 'email_address');
    await this.deps.attendees.update(record.row.id, { email });
    // A kiosk that retries with its request id (a reload between our answer and the kiosk
    // hearing it) gets the same answer and no second mail: the outbox keeps one per key.
    const onceKey = input.client_request_id
      ? `kiosk:${record.row.uid}:${input.client_request_id}`
      : undefined;
    await this.sendAlbumLink(event, record.row, email, onceKey);
    return { attendee_uid: record.row.uid, email };
  }

  /**
   * The album link, mailed with the event's album mail (`renderAlbumMail`: `email_subject`,
   * `email_body_template` with `{user_name}` and `{image_url}`, `email_from_name` and the verified
   * `email_from_address`, the event's logo, thumbnails of the album's photos, wording for their
   * number) through the outbox.
   */
  private async sendAlbumLink(
    event: EventRecord,
    row: AttendeeRow,
    to: string,
    onceKey?: string,
  ): Promise<void> {
    const albumMail = this.deps.albumMail?.();
    if (!albumMail) return;
    const count = (await this.deps.attendees.photoCounts([row.id])).get(row.id) ?? 0;
    const thumbnails = count > 0 ? await this.albumThumbnails(event, row.id) : [];
    await albumMail.send(
      event.row,
      { email: to, name: to.split('@')[0] ?? to },
      this.albumUrl(row),
      { kind: 'attendee_album_link', count, thumbnails, onceKey },
    );
  }

  /** Public thumbnail URLs of up to six of an attendee's photos shown in the event's album. */
  private async albumThumbnails(event: EventRecord, attendeeId: number): Promise<string[]> {
    const thumbnails = this.deps.thumbnails;
    if (!thumbnails) return [];
    return thumbnails(event.row, attendeeId, 6);
  }

  /**
   * The kiosk entry page's card check (albums §2.3): the code after `=` of the scanned link,
   * dashes removed, against the private id printed on the card; only an open attendee of the
   * kiosk's organisation, and only when exactly one has that code. Never says why a card fails.
   */
  async checkCard(principal: Principal, input: KeylessBody<'checkKioskCard'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk', {
      keyEvent: true,
    });
    const invalid = { valid: false, attendee_uid: null };
    const code = kioskCardCode(input.card_code);
    if (!code) return invalid;
    const rows = await this.deps.attendees.findByPrivateId(event.row.organisationId, code);
    if (rows.length !== 1 || !rows[0]!.privateId || !sameCode(rows[0]!.privateId, code))
      return invalid;
    // The private id matched: the id is looked up by itself, and answered as the album's key.
    const { record, refusal } = await this.deps.access.attendeeByUid(rows[0]!.uid);
    if (!record || refusal) return invalid;
    // A booth-chosen id answers as its key (with the private id): the kiosk opens the album by it.
    return {
      valid: true,
      attendee_uid: record.row.customUid === 1 ? attendeeKeyOf(record.row) : record.row.uid,
    };
  }

  /**
   * Several cards into one album (owner-console §5): the first id keeps the album and gains every
   * photo of the others' albums. The kiosk only (private key + display token). All ids must be
   * open attendees of the kiosk's event created
   * at most 3 days ago (`attendee_group_too_old` otherwise); checked all before anything changes.
   */
  async checkAndGroup(principal: Principal, input: KeylessBody<'checkAndGroupAttendees'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const now = this.deps.clock.now().getTime();
    const records: AttendeeRecord[] = [];
    const seen = new Set<number>();
    for (const raw of input.attendee_uid_list) {
      const record = await this.openAttendee(raw, 'attendee_uid_list');
      if (!attendsEvent(record, event.row))
        throw new AppError('invalid_attendee_id', 'attendee_uid_list');
      if (seen.has(record.row.id)) continue;
      seen.add(record.row.id);
      if (now - record.row.createdAt.getTime() > GROUP_MAX_AGE_MS)
        throw new AppError('attendee_group_too_old', 'attendee_uid_list');
      records.push(record);
    }
    if (records.length < 2) throw new AppError('attendee_group_needs_two', 'attendee_uid_list');
    const [primary, ...others] = records as [AttendeeRecord, ...AttendeeRecord[]];
    await this.deps.attendees.linkEvent(primary.row.id, event.row.id);
    let attached = 0;
    for (const other of others) {
      for (const eventId of other.eventIds)
        await this.deps.attendees.linkEvent(primary.row.id, eventId);
      const photos = await this.deps.attendees.albumPhotos(other.row.id, other.row.uid);
      attached += await this.deps.attendees.attach(
        primary.row.id,
        photos.map((p) => p.id),
        'group',
      );
      if (photos.length)
        await this.deps.bus?.emit('attendee.photos_attached', {
          attendeeId: primary.row.id,
          photos: photos.map((p) => ({ photoId: p.id, eventId: p.eventId })),
        });
    }
    return {
      attendee_uid: primary.row.uid,
      grouped_uids: others.map((o) => o.row.uid),
      attached_count: attached,
      album_url: this.albumUrl(primary.row),
    };
  }

  // ---- uploads ---------------------------------------------------------------------------------

  /**
   * A photo arrived with an attendee id (normalised): a new id the event's `attendeeIdRegex`
   * accepts (or any, without a pattern) becomes an attendee of the event's organisation; a known
   * attendee of the same organisation gains the event. Otherwise the id stays on the photo only.
   */
  async claimUploadedId(event: EventRecord, uid: string): Promise<void> {
    if (!isAttendeeIdShape(uid)) return;
    const organisationId = event.row.organisationId;
    let record = await this.deps.attendees.findByUid(uid);
    if (!record) {
      const pattern = event.row.opts.attendeeIdRegex;
      // An operator's pattern: RE2 only (lib/owner-pattern.ts); one RE2 cannot run accepts nothing.
      if (pattern && !ownerPatternMatches(pattern, uid)) return;
      // A booth-chosen id may be guessable (a wristband number): its album opens only with the
      // private id made here (attendeeKeyOf, AccessControl.attendeeById).
      const row = await this.deps.attendees.insertOrGet({
        uid,
        organisationId,
        customUid: 1,
        privateId: randomCode(ATTENDEE_PRIVATE_ID_LENGTH),
        createdAt: this.deps.clock.now(),
      });
      record = { row, eventIds: [] };
      if (row.organisationId === organisationId) {
        await this.deps.attendees.linkEvent(row.id, event.row.id);
        // A race with another upload of the same id emits twice: webhooks keep one per attendee.
        await this.deps.bus?.emit('attendee.created', {
          attendeeId: row.id,
          uid: row.uid,
          eventId: event.row.id,
        });
        return;
      }
    }
    if (record.row.organisationId === organisationId)
      await this.deps.attendees.linkEvent(record.row.id, event.row.id);
  }
}
