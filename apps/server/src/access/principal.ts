import type { PublicKeyType } from '@flashbulb/shared';
import type { AttendeeRecord } from '../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../repositories/events/event.repository.ts';
import type { SignedInUser } from './signed-in-user.ts';

/** Why an attendee id opens nothing (the attendee calls name it; other calls answer the key error). */
export type AttendeeRefusal = 'invalid_attendee_id' | 'attendee_locked' | 'attendee_expired';

/**
 * Who is calling, resolved once per request in the route layer (http/register-endpoints.ts):
 * - `user`: a signed-in operator (`Authorization` header);
 * - `key`: a public twin's key (`key_type` + `key_value` in the body) that matched: the event it
 *   names, the robot behind a robot key, the attendee behind an attendee key, and whether it is
 *   the kiosk (a private key with the event's display token, `display` in the body);
 * - `bad_key`: a key was presented but opens nothing (services answer the call's key error);
 * - `anonymous`: neither.
 * Services never look at credentials themselves: they ask `requireEventAccess`.
 */
export type Principal = UserPrincipal | KeyPrincipal | BadKeyPrincipal | AnonymousPrincipal;

export interface UserPrincipal {
  kind: 'user';
  actor: SignedInUser;
}

export interface KeyPrincipal {
  kind: 'key';
  keyType: PublicKeyType;
  /**
   * The event the key names. An attendee key names the most recently linked of the attendee's
   * events (its album spans them all); null only for an attendee linked to no event yet.
   */
  event: EventRecord | null;
  robotId: number | null;
  attendee: AttendeeRecord | null;
  /**
   * The organiser's kiosk: a private key presented with its event's display token (`display`),
   * which only the organiser's kiosk links carry. A guest's private-album link is the key alone.
   */
  kiosk: boolean;
}

export interface BadKeyPrincipal {
  kind: 'bad_key';
  keyType: PublicKeyType;
  /** For an attendee key: why the id opens nothing. */
  attendeeRefusal: AttendeeRefusal | null;
  /** A robot's own key whose robot feeds no event: the key is right, the set-up is not. */
  robotUnattached?: boolean;
}

export interface AnonymousPrincipal {
  kind: 'anonymous';
}

export const ANONYMOUS: AnonymousPrincipal = { kind: 'anonymous' };

export const userPrincipal = (actor: SignedInUser): UserPrincipal => ({ kind: 'user', actor });

/** The signed-in actor behind a principal (owner calls), or null. */
export const signedInUserOf = (principal: Principal): SignedInUser | null =>
  principal.kind === 'user' ? principal.actor : null;

/**
 * A signed-in operator (not a key): names the event in its calls, and answers to no guest budget
 * or recipient cap.
 */
export const isOperator = (principal: Principal): principal is UserPrincipal =>
  principal.kind === 'user';

/** The key type of a key that opened something, or null (operators, bad keys, nobody). */
export const keyTypeOf = (principal: Principal): PublicKeyType | null =>
  principal.kind === 'key' ? principal.keyType : null;

/** The event a key opened (its own event), or null (operators, bad keys, nobody). */
export const keyEventOf = (principal: Principal): EventRecord | null =>
  principal.kind === 'key' ? principal.event : null;

/** The attendee behind an attendee key, or null. */
export const attendeeOf = (principal: Principal): AttendeeRecord | null =>
  principal.kind === 'key' ? principal.attendee : null;

/**
 * A name for the credential behind a principal, for budgets counted per key: the attendee behind
 * an attendee key, the robot behind a robot key, the event and kind of an event key, the user.
 */
export const credentialName = (principal: Principal): string => {
  switch (principal.kind) {
    case 'user':
      return `user:${principal.actor.userId}`;
    case 'key':
      if (principal.attendee) return `attendee:${principal.attendee.row.id}`;
      if (principal.robotId !== null) return `robot:${principal.robotId}`;
      return `${principal.keyType}:${principal.event?.row.id ?? 0}`;
    case 'bad_key':
      return `bad:${principal.keyType}`;
    case 'anonymous':
      return 'anonymous';
  }
};
