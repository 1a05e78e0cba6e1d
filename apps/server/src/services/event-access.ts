import { timingSafeEqual } from 'node:crypto';
import {
  isAttendeeIdShape,
  normaliseAttendeeId,
  Role,
  type PublicKeyType,
} from '@flashbulb/shared';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { hashToken } from '../lib/secret-box.ts';
import type { AttendeeRecord, AttendeeRepository } from '../repositories/attendee.repository.ts';
import type { EventRecord, EventRepository, EventRow } from '../repositories/event.repository.ts';
import type { RobotRepository } from '../repositories/robot.repository.ts';
import type { Actor } from './actor.ts';

/**
 * Who may see and change an event (owner-console §6 leaves server rules to us):
 * super users every event; admins the events of their organisation; event owners the events
 * they created. Anyone else is told the event does not exist, so ids and codes leak nothing.
 */
export const canSeeEvent = (
  actor: Actor,
  event: Pick<EventRow, 'organisationId' | 'ownerUserId'>,
): boolean => {
  switch (actor.role) {
    case Role.SUPER_USER:
      return true;
    case Role.ADMIN:
      return actor.organisationId !== null && actor.organisationId === event.organisationId;
    case Role.EVENT_OWNER:
      return (
        event.ownerUserId === actor.userId &&
        actor.organisationId !== null &&
        actor.organisationId === event.organisationId
      );
  }
};

/** Super users, and admins of the organisation: robots, templates, secure fields. */
export const administersOrganisation = (actor: Actor, organisationId: number | null): boolean =>
  actor.role === Role.SUPER_USER ||
  (actor.role === Role.ADMIN && organisationId !== null && actor.organisationId === organisationId);

/**
 * The organisation a list call is about. Super users: the one asked for, or every one (undefined).
 * Others: their own; asking for another is refused.
 */
export const organisationScope = (
  actor: Actor,
  requested: number | undefined,
): number | undefined | null => {
  if (actor.role === Role.SUPER_USER) return requested;
  if (requested !== undefined && requested !== actor.organisationId)
    throw new AppError('forbidden', 'organisation_id');
  return actor.organisationId;
};

const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

export interface ResolvedEventKey {
  event: EventRecord;
  keyType: PublicKeyType;
  /** The robot behind a `robot` key. */
  robotId: number | null;
  /** The attendee behind an `attendee` key (their album spans `attendee.eventIds`). */
  attendee: AttendeeRecord | null;
}

/** Why an attendee id opens nothing (the attendee calls name it; keys answer `invalid_key`). */
export type AttendeeRefusal = 'invalid_attendee_id' | 'attendee_locked' | 'attendee_expired';

/** Whether an attendee album is open now: not locked by the owner and not expired. */
export const attendeeRefusal = (
  record: AttendeeRecord | undefined,
  now: Date,
): AttendeeRefusal | null => {
  if (!record) return 'invalid_attendee_id';
  if (record.row.lockedAt) return 'attendee_locked';
  if (record.row.expiresAt && record.row.expiresAt.getTime() <= now.getTime())
    return 'attendee_expired';
  return null;
};

/** Loads events for the owner calls and resolves the keys of the public twins, in one place. */
export class EventAccess {
  constructor(
    private readonly events: EventRepository,
    private readonly robots: RobotRepository,
    private readonly attendees?: { rows: AttendeeRepository; clock: Clock },
  ) {}

  /** The attendee an id names, with the reason it opens nothing (or null when it is open). */
  async attendeeById(
    rawId: string,
  ): Promise<{ record: AttendeeRecord | undefined; refusal: AttendeeRefusal | null }> {
    const uid = normaliseAttendeeId(rawId);
    const record =
      this.attendees && isAttendeeIdShape(uid)
        ? await this.attendees.rows.findByUid(uid)
        : undefined;
    return { record, refusal: attendeeRefusal(record, this.attendees?.clock.now() ?? new Date()) };
  }

  /** An open attendee with at least one event, else `invalid_key`. */
  private async attendeeKey(
    keyValue: string,
    refusal: 'invalid_key' | 'unauthorized_user',
  ): Promise<AttendeeRecord> {
    const found = await this.attendeeById(keyValue);
    if (!found.record || found.refusal || found.record.eventIds.length === 0)
      throw new AppError(refusal);
    const { record } = found;
    return record;
  }

  /** The event if the actor may see it; otherwise `event_not_found` (exists or not). */
  async visibleById(actor: Actor, eventId: number, field = 'event_id'): Promise<EventRecord> {
    const event = await this.events.findById(eventId);
    if (!event || !canSeeEvent(actor, event.row)) throw new AppError('event_not_found', field);
    return event;
  }

  async visibleByName(actor: Actor, eventName: string): Promise<EventRecord> {
    const event = await this.events.findByName(eventName.trim().toUpperCase());
    if (!event || !canSeeEvent(actor, event.row))
      throw new AppError('event_not_found', 'event_name');
    return event;
  }

  /**
   * A public twin whose body carries no event code (album links): the key alone names the event.
   * A wrong key answers `unauthorized_user` (albums issue: a wrong or missing key shows nothing).
   */
  async resolveKeyAlone(keyType: PublicKeyType, keyValue: string): Promise<ResolvedEventKey> {
    const hash = hashToken(keyValue);
    let eventId: number | null | undefined;
    let robotId: number | null = null;
    let attendee: AttendeeRecord | null = null;
    switch (keyType) {
      case 'event_owner':
        eventId = (await this.events.findByKeyHash('owner', hash))?.id;
        break;
      case 'private':
        eventId = (await this.events.findByKeyHash('private', hash))?.id;
        break;
      case 'public':
        eventId = (await this.events.findByKeyHash('public', hash))?.id;
        break;
      case 'robot': {
        const robot = await this.robots.findByKeyHash(hash);
        eventId = robot?.eventId;
        robotId = robot?.id ?? null;
        break;
      }
      case 'attendee':
        // The album spans all the attendee's events; the key names the most recently linked.
        attendee = await this.attendeeKey(keyValue, 'unauthorized_user');
        eventId = attendee.eventIds[0];
        break;
    }
    const event = eventId ? await this.events.findById(eventId) : undefined;
    if (!event) throw new AppError('unauthorized_user');
    return { event, keyType, robotId, attendee };
  }

  /**
   * Public twins (`key_type`, `key_value`): the event whose key of that type is `keyValue`, or
   * whose robot's key it is, or an open attendee of it. Any mismatch — unknown event, wrong key, a
   * robot on another event, a locked or expired attendee — answers 401 `invalid_key` alike, so
   * nothing about the event leaks.
   */
  async resolveKey(
    keyType: PublicKeyType,
    keyValue: string,
    eventName: string,
  ): Promise<ResolvedEventKey> {
    const event = await this.events.findByName(eventName.trim().toUpperCase());
    const hash = hashToken(keyValue);
    if (event) {
      const row = event.row;
      switch (keyType) {
        case 'event_owner':
          if (sameHash(row.ownerKeyHash, hash))
            return { event, keyType, robotId: null, attendee: null };
          break;
        case 'private':
          if (sameHash(row.privateKeyHash, hash))
            return { event, keyType, robotId: null, attendee: null };
          break;
        case 'public':
          if (sameHash(row.publicKeyHash, hash))
            return { event, keyType, robotId: null, attendee: null };
          break;
        case 'robot': {
          const robot = await this.robots.findByKeyHash(hash);
          if (robot && robot.eventId === row.id)
            return { event, keyType, robotId: robot.id, attendee: null };
          break;
        }
        case 'attendee': {
          const attendee = await this.attendeeKey(keyValue, 'invalid_key');
          if (attendee.eventIds.includes(row.id))
            return { event, keyType, robotId: null, attendee };
          break;
        }
      }
    }
    throw new AppError('invalid_key');
  }
}
