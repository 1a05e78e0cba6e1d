import { timingSafeEqual } from 'node:crypto';
import {
  isAttendeeIdShape,
  normaliseAttendeeId,
  Role,
  splitAttendeeKey,
  type PublicKeyType,
} from '@flashbulb/shared';
import { AppError } from '../lib/app-error.ts';
import type { Clock } from '../lib/clock.ts';
import { hashToken } from '../lib/secret-box.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
} from '../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRepository } from '../repositories/events/event.repository.ts';
import type { RobotRepository } from '../repositories/events/robot.repository.ts';
import type { SignedInUser } from './signed-in-user.ts';
import {
  allows,
  keySubject,
  WRONG_KEY_TYPE,
  type Permission,
  type Subject,
} from './permissions.ts';
import type { AttendeeRefusal, BadKeyPrincipal, KeyPrincipal, Principal } from './principal.ts';
import type { AttendeeLookupLimits } from './attendee-lookup-limits.ts';
import { attendeeRefusal, canSeeEvent } from './rules.ts';

/**
 * How much of an event a caller sees (photo lists, presenters). A robot sees its own uploads and
 * their status only: no attendee ids (each opens an album) and no original or unwatermarked URLs.
 */
export type Audience = 'owner' | 'private' | 'public' | 'attendee' | 'robot';

const AUDIENCE_OF_KEY: Record<PublicKeyType, Audience> = {
  event_owner: 'owner',
  robot: 'robot',
  private: 'private',
  public: 'public',
  attendee: 'attendee',
};

const ROLE_SUBJECT: Record<Role, Subject> = {
  [Role.SUPER_USER]: 'super_user',
  [Role.ADMIN]: 'admin',
  [Role.EVENT_OWNER]: 'event_owner',
};

/** What the call is about. */
export type EventTarget =
  /** An event by id (owner calls; a key's event_id must be its own). */
  | { eventId: number; field?: string }
  /** An event by its code (uploads, editor helpers): a key for another event is `invalid_key`. */
  | { eventName: string; field?: string }
  /**
   * The event the key alone names (album links). A key that opens nothing hears
   * `unauthorized_user`, or `invalid_key` where the caller asks about the key itself (`aboutKey`).
   */
  | { keyEvent: true; aboutKey?: true }
  /** A photo: its event must be reachable (an attendee key: the photo must be in the album). */
  | { photo: { id: number; eventId: number; attendeeUid: string | null }; field: string };

/** What `requireEventAccess` grants: the event, the audience, and who is behind the call. */
export interface EventGrant {
  event: EventRecord;
  audience: Audience;
  /** The key presented, or null for a signed-in operator. */
  keyType: PublicKeyType | null;
  robotId: number | null;
  /** The attendee behind an attendee key: the album is theirs, across their events. */
  attendee: AttendeeRecord | null;
  /** The operator, or null for a key. */
  actor: SignedInUser | null;
}

const sameHash = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

const eventCode = (name: string): string => name.trim().toUpperCase();

/**
 * The one access layer: resolves keys into principals (the route layer calls `resolveKey`) and
 * decides every event-scoped call from the permission table (`requireEventAccess`).
 */
export class AccessControl {
  constructor(
    private readonly deps: {
      events: EventRepository;
      robots: RobotRepository;
      attendees: AttendeeRepository;
      clock: Clock;
      /** Budgets on attendee-id lookups (per client address and event); none in unit set-ups. */
      attendeeLookups?: AttendeeLookupLimits;
      /** The event's display token (services/events/event-settings.ts `displayTokenOf`). */
      displayToken?: (eventId: number) => string;
    },
  ) {}

  // ---- principals ------------------------------------------------------------------------------

  /**
   * The attendee a guest's or kiosk's attendee key names, with the reason it opens nothing (or
   * null when it is open). A booth-chosen id (`custom_uid`) opens only with its private id
   * (`<id>~<private id>`, splitAttendeeKey); without it the id is as unknown as a wrong one.
   * Every lookup is under the attendee-lookup budgets (per client address, and per `eventId`
   * when the call names its event); failures count.
   */
  async attendeeById(
    rawKey: string,
    options: { eventId?: number } = {},
  ): Promise<{ record: AttendeeRecord | undefined; refusal: AttendeeRefusal | null }> {
    await this.deps.attendeeLookups?.before(options.eventId);
    const { id, privateId } = splitAttendeeKey(rawKey);
    let record = await this.findAttendee(id);
    if (record?.row.customUid === 1) {
      const expected = record.row.privateId ? normaliseAttendeeId(record.row.privateId) : '';
      const given = privateId === null ? '' : normaliseAttendeeId(privateId);
      if (!expected || !sameHash(given, expected)) record = undefined;
    }
    const refusal = attendeeRefusal(record, this.deps.clock.now());
    if (!record) await this.deps.attendeeLookups?.failed(options.eventId);
    return { record, refusal };
  }

  /**
   * The attendee an id names, by the id alone, for signed-in operators of its organisation (and a
   * kiosk's card check, which has matched the private id already); no lookup budget.
   */
  async attendeeByUid(
    rawId: string,
  ): Promise<{ record: AttendeeRecord | undefined; refusal: AttendeeRefusal | null }> {
    const record = await this.findAttendee(splitAttendeeKey(rawId).id);
    return { record, refusal: attendeeRefusal(record, this.deps.clock.now()) };
  }

  private async findAttendee(rawId: string): Promise<AttendeeRecord | undefined> {
    const uid = normaliseAttendeeId(rawId);
    return isAttendeeIdShape(uid) ? await this.deps.attendees.findByUid(uid) : undefined;
  }

  /**
   * A presented key: what it opens, or `bad_key` (never throws for a wrong key). A private key
   * with its event's display token (`display`, compared in equal time) is the kiosk.
   */
  async resolveKey(keyType: PublicKeyType, keyValue: string, display?: string): Promise<Principal> {
    const bad = (refusal: AttendeeRefusal | null = null): Principal => ({
      kind: 'bad_key',
      keyType,
      attendeeRefusal: refusal,
    });
    if (!keyValue) return bad(keyType === 'attendee' ? 'invalid_attendee_id' : null);
    if (keyType === 'attendee') {
      const { record, refusal } = await this.attendeeById(keyValue);
      if (!record || refusal) return bad(refusal ?? 'invalid_attendee_id');
      const firstEvent = record.eventIds[0];
      const event = firstEvent ? ((await this.deps.events.findById(firstEvent)) ?? null) : null;
      return { kind: 'key', keyType, event, robotId: null, attendee: record, kiosk: false };
    }
    const hash = hashToken(keyValue);
    let eventId: number | null | undefined;
    let robotId: number | null = null;
    if (keyType === 'robot') {
      const robot = await this.deps.robots.findByKeyHash(hash);
      eventId = robot?.eventId;
      robotId = robot?.id ?? null;
    } else {
      const kind = keyType === 'event_owner' ? 'owner' : keyType;
      const row = await this.deps.events.findByKeyHash(kind, hash);
      // Equal-time comparison of the stored hash, as a by-name check would do.
      eventId =
        row &&
        sameHash(
          kind === 'owner'
            ? row.ownerKeyHash
            : kind === 'private'
              ? row.privateKeyHash
              : row.publicKeyHash,
          hash,
        )
          ? row.id
          : undefined;
    }
    const event = eventId ? await this.deps.events.findById(eventId) : undefined;
    if (!event) {
      // A robot's right key whose robot feeds no event: said apart, so the booth can be told
      // how to fix it (a wrong key still learns nothing).
      if (robotId !== null)
        return { kind: 'bad_key', keyType, attendeeRefusal: null, robotUnattached: true };
      return bad();
    }
    const kiosk = keyType === 'private' && this.isDisplayToken(event.row.id, display);
    return { kind: 'key', keyType, event, robotId, attendee: null, kiosk };
  }

  private isDisplayToken(eventId: number, display: string | undefined): boolean {
    const want = this.deps.displayToken?.(eventId);
    if (!want || !display) return false;
    // Compared as bytes: any text may arrive here, and unequal lengths never reach the comparison.
    const a = Buffer.from(want);
    const b = Buffer.from(display.trim());
    return a.length === b.length && timingSafeEqual(a, b);
  }

  // ---- decisions -------------------------------------------------------------------------------

  /**
   * The one check of every event-scoped call: whether `principal` holds `permission` on the
   * target, by the table in permissions.ts. Answers the grant, or throws the refusal the call has
   * always answered (see WRONG_KEY_TYPE and the comments below).
   */
  async requireEventAccess(
    principal: Principal,
    permission: Permission,
    target: EventTarget,
  ): Promise<EventGrant> {
    switch (principal.kind) {
      case 'anonymous':
        throw new AppError('unauthorized_user');
      case 'user':
        return this.forUser(principal.actor, permission, target);
      case 'bad_key':
      case 'key':
        return this.forKey(principal, permission, target);
    }
  }

  /** The attendee behind an attendee key (their album), or the reason the id opens nothing. */
  requireAttendee(principal: Principal, permission: Permission): AttendeeRecord {
    if (principal.kind === 'anonymous' || principal.kind === 'user')
      throw new AppError('unauthorized_user');
    if (!allows(permission, subjectOf(principal)))
      throw wrongKeyType(permission, subjectOf(principal));
    if (principal.kind === 'bad_key' || !principal.attendee)
      throw new AppError(
        principal.kind === 'bad_key'
          ? (principal.attendeeRefusal ?? 'invalid_attendee_id')
          : 'invalid_attendee_id',
        'key_value',
      );
    return principal.attendee;
  }

  private async forUser(
    actor: SignedInUser,
    permission: Permission,
    target: EventTarget,
  ): Promise<EventGrant> {
    if ('keyEvent' in target) throw new AppError('unauthorized_user');
    const event = await this.loadTarget(target);
    // Out of reach: the event (or photo) does not exist as far as this operator knows.
    if (!event || !canSeeEvent(actor, event.row)) throw notFound(target);
    if (!allows(permission, ROLE_SUBJECT[actor.role])) throw new AppError('forbidden');
    return {
      event,
      audience: 'owner',
      keyType: null,
      robotId: null,
      attendee: null,
      actor,
    };
  }

  private async forKey(
    principal: KeyPrincipal | BadKeyPrincipal,
    permission: Permission,
    target: EventTarget,
  ): Promise<EventGrant> {
    // A photo's existence is not revealed to a key that cannot act on it.
    if (!allows(permission, subjectOf(principal)))
      throw 'photo' in target ? notFound(target) : wrongKeyType(permission, subjectOf(principal));
    // A robot key that is right but feeds no event: its holder may hear so (and how to fix it).
    if (principal.kind === 'bad_key' && principal.robotUnattached)
      throw new AppError('robot_not_attached', 'key_value');
    // A key that opens nothing: calls naming the event say `invalid_key`, the others (the key
    // alone names the event) `unauthorized_user`.
    if (principal.kind === 'bad_key' || !principal.event) throw badKey(target);
    const grant = (event: EventRecord): EventGrant => ({
      event,
      audience: AUDIENCE_OF_KEY[principal.keyType],
      keyType: principal.keyType,
      robotId: principal.robotId,
      attendee: principal.attendee,
      actor: null,
    });
    const own = principal.event;
    const attendee = principal.attendee;
    if ('keyEvent' in target) return grant(own);
    if ('eventName' in target) {
      const code = eventCode(target.eventName);
      if (own.row.name === code) return grant(own);
      if (attendee) {
        const named = await this.deps.events.findByName(code);
        if (named && attendee.eventIds.includes(named.row.id)) return grant(named);
      }
      // The robot's key is right, for its own event: the booth may hear that it feeds another.
      if (principal.keyType === 'robot') throw new AppError('robot_other_event', 'event_name');
      throw new AppError('invalid_key');
    }
    if ('eventId' in target) {
      if (own.row.id === target.eventId) return grant(own);
      if (attendee && attendee.eventIds.includes(target.eventId)) {
        const other = await this.deps.events.findById(target.eventId);
        if (other) return grant(other);
      }
      throw notFound(target);
    }
    const photo = target.photo;
    if (attendee) {
      if (!(await this.deps.attendees.ownsPhoto(attendee, photo))) throw notFound(target);
      const event =
        photo.eventId === own.row.id ? own : await this.deps.events.findById(photo.eventId);
      if (!event) throw notFound(target);
      return grant(event);
    }
    if (photo.eventId !== own.row.id) throw notFound(target);
    return grant(own);
  }

  private async loadTarget(target: Exclude<EventTarget, { keyEvent: true }>) {
    if ('eventId' in target) return this.deps.events.findById(target.eventId);
    if ('eventName' in target) return this.deps.events.findByName(eventCode(target.eventName));
    return this.deps.events.findById(target.photo.eventId);
  }
}

/** The column of the permission table a presented key is read in. */
const subjectOf = (principal: KeyPrincipal | BadKeyPrincipal): Subject =>
  keySubject(principal.keyType, principal.kind === 'key' && principal.kiosk);

const notFound = (target: EventTarget): AppError => {
  if ('photo' in target) return new AppError('not_found', target.field);
  if ('eventId' in target) return new AppError('event_not_found', target.field ?? 'event_id');
  if ('eventName' in target) return new AppError('event_not_found', target.field ?? 'event_name');
  return new AppError('unauthorized_user');
};

const badKey = (target: EventTarget): AppError =>
  new AppError(
    'eventName' in target || ('keyEvent' in target && target.aboutKey)
      ? 'invalid_key'
      : 'unauthorized_user',
  );

const wrongKeyType = (permission: Permission, subject: Subject): AppError => {
  const refusal = WRONG_KEY_TYPE[permission];
  // The private key without the display token where the kiosk holds the permission: what is
  // missing is the kiosk's token (a guest's private-album link never carries it).
  if (subject === 'private_key' && allows(permission, 'kiosk'))
    return new AppError('invalid_key', 'display');
  return new AppError(refusal.key, refusal.field);
};
