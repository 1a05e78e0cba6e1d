import {
  ATTENDEE_KEY_SEPARATOR,
  attendeeKeyOf,
  kioskCardCode,
  normaliseAttendeeId,
  type AttendeeAlbum,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { attendeeAlbumForGuest } from '../../presenters/attendee.presenter.ts';
import type { AttendeeRepository } from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { attendeeMayDownload } from '../photos/photo-downloads.ts';
import { sameCode } from './attendee-support.ts';

/** The contract's parsed request body of an endpoint. */
type Body<E extends EndpointName> = ParsedBodyOf<Endpoints[E]>;

/**
 * Attendee albums and cards (albums spec §2.3, §3): the guest's own album as their key opens
 * it, and the card checks of the kiosk and its entry page. Never says why a card fails; codes
 * are compared in equal time.
 */
export class AttendeeCardService {
  constructor(
    private readonly deps: {
      attendees: Pick<AttendeeRepository, 'findByPrivateId'>;
      events: Pick<EventRepository, 'findById'>;
      photos: Pick<PhotoRepository, 'count'>;
      access: AccessControl;
      clock: Clock;
    },
  ) {}

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
    return attendeeAlbumForGuest(
      record,
      events.map((e) => e.row),
      photoCount,
      attendeeMayDownload(record, events[0]?.row),
    );
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
}
