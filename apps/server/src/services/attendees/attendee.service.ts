import { ownerPatternMatches } from '../../lib/owner-pattern.ts';
import {
  ATTENDEE_GENERATE_INLINE,
  ATTENDEE_ID_LENGTH,
  ATTENDEE_PRIVATE_ID_LENGTH,
  isAttendeeIdShape,
  isValidEmail,
  normaliseAttendeeId,
  type Attendee,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { Quotas } from '../operations/quotas.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { organisationScope } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { attendeeForOwner } from '../../presenters/attendee.presenter.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
  AttendeeRow,
  NewAttendeeRow,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { attachPhotos, eventPhotos, randomCode } from './attendee-support.ts';

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;
/** Rows per insert when generating: well under PostgreSQL's 65,535 parameters per statement. */
const GENERATE_CHUNK = 2000;

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/**
 * The owner's attendee admin (owner-console §5): generated card lists, the owner's attach /
 * unlink / lock, and attendees made by uploads that name a new id. Ids are bearer secrets: never
 * logged. The guest's album and card checks: AttendeeCardService; the kiosk's desk:
 * KioskDeskService.
 */
export class AttendeeService {
  constructor(
    private readonly deps: {
      attendees: AttendeeRepository;
      albums: AlbumRepository;
      access: AccessControl;
      clock: Clock;
      publicUrl: string;
      /** `attendee.photos_attached`: the attendee's live stream shows the photos. */
      bus?: SignalEmitter;
      /** Queues the generated list's mail to the generate call's `email` (job `attendees.mail-list`). */
      mailList?: (job: { batchId: number; email: string; eventIds: number[] }) => Promise<void>;
      /** Attendees per call and per organisation per day (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'attendees'>;
    },
  ) {}

  private async presentMany(records: AttendeeRecord[]): Promise<Attendee[]> {
    const counts = await this.deps.attendees.photoCounts(records.map((r) => r.row.id));
    return records.map((r) => attendeeForOwner(r, counts.get(r.row.id) ?? 0, this.deps.publicUrl));
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
      attendees: rows.map((row) => attendeeForOwner({ row, eventIds }, 0, this.deps.publicUrl)),
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

  async ownerAttach(principal: Principal, input: Body<'ownerAttachPhotos'>) {
    const event = await this.ownerEvent(principal, input.event_id);
    const record = await this.attendeeOfOrganisation(input.attendee_uid, event.row.organisationId);
    const rows = await eventPhotos(this.deps.albums, event.row.id, input.photo_uid_array);
    const attached = await attachPhotos(this.deps, record, event, rows, 'owner');
    return { attendee_uid: record.row.uid, attached_count: attached };
  }

  async unlink(principal: Principal, input: Body<'unlinkPhotos'>) {
    const eventIds = [...new Set(input.event_id_array)];
    if (eventIds.length !== 1) throw new AppError('unlink_single_event', 'event_id_array');
    const event = await this.ownerEvent(principal, eventIds[0]!, 'event_id_array');
    const record = await this.attendeeOfOrganisation(input.attendee_uid, event.row.organisationId);
    const rows = await eventPhotos(this.deps.albums, event.row.id, input.photo_uid_array);
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

  /**
   * A photo uploaded for several attendees (a group photo), or the same bytes sent again for
   * another one: it joins the albums of these ids (claimed first, `claimUploadedId`) that are
   * attendees of the event's organisation at the event. Answers how many had not had it. A
   * ready photo is news to them now; one still processing is announced by its `photo.ready`,
   * which reaches every album holding it. Its state is read after attaching: a photo that turned
   * ready meanwhile is announced here (the notification is once per attendee and photo).
   */
  async attachUploaded(
    event: EventRecord,
    photo: Pick<PhotoRow, 'id' | 'uid' | 'eventId'>,
    uids: readonly string[],
  ): Promise<number> {
    const newly: number[] = [];
    for (const uid of uids) {
      const record = await this.deps.attendees.findByUid(uid);
      if (!record || record.row.organisationId !== event.row.organisationId) continue;
      if (!record.eventIds.includes(photo.eventId)) continue;
      if ((await this.deps.attendees.attach(record.row.id, [photo.id], 'upload')) > 0)
        newly.push(record.row.id);
    }
    if (newly.length === 0) return 0;
    const [now] = await this.deps.albums.photosByUids(photo.eventId, [photo.uid]);
    if (now?.status === 'ready')
      for (const attendeeId of newly)
        await this.deps.bus?.emit('attendee.photos_attached', {
          attendeeId,
          photos: [{ photoId: photo.id, eventId: photo.eventId }],
        });
    return newly.length;
  }
}
