import { Role } from '@flashbulb/shared';
import { AppError } from '../lib/app-error.ts';
import type { AttendeeRecord } from '../repositories/attendees/attendee.repository.ts';
import type { EventRow } from '../repositories/events/event.repository.ts';
import type { OrganisationRepository } from '../repositories/identity/organisation.repository.ts';
import type { SignedInUser } from './signed-in-user.ts';
import type { AttendeeRefusal } from './principal.ts';

/**
 * The reach of an operator (owner-console §6 leaves server rules to us): super users every event;
 * admins the events of their organisation; event owners the events they created. Anyone else is
 * told the event does not exist, so ids and codes leak nothing.
 */
export const canSeeEvent = (
  actor: SignedInUser,
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
export const administersOrganisation = (
  actor: SignedInUser,
  organisationId: number | null,
): boolean =>
  actor.role === Role.SUPER_USER ||
  (actor.role === Role.ADMIN && organisationId !== null && actor.organisationId === organisationId);

/**
 * The organisation a call about one organisation's own settings (its payment connections, its
 * outgoing webhooks) is about: the one named, else the caller's own; refused unless the caller
 * administers it, not found unless it exists.
 */
export const requireAdministeredOrganisation = async (
  actor: SignedInUser | null,
  requested: number | undefined,
  organisations: Pick<OrganisationRepository, 'findById'>,
): Promise<number> => {
  if (!actor) throw new AppError('unauthorized_user');
  const id = requested ?? actor.organisationId;
  if (id === null) throw new AppError('organisation_not_found', 'organisation_id');
  if (!administersOrganisation(actor, id)) throw new AppError('forbidden');
  if (!(await organisations.findById(id)))
    throw new AppError('organisation_not_found', 'organisation_id');
  return id;
};

/**
 * The organisation a list call is about. Super users: the one asked for, or every one (undefined).
 * Others: their own; asking for another is refused.
 */
export const organisationScope = (
  actor: SignedInUser,
  requested: number | undefined,
): number | undefined | null => {
  if (actor.role === Role.SUPER_USER) return requested;
  if (requested !== undefined && requested !== actor.organisationId)
    throw new AppError('forbidden', 'organisation_id');
  return actor.organisationId;
};

/**
 * The organisation whose robot activity a caller reads without naming an event: super users any
 * (undefined: all), admins their own. Event owners ask per event (the events they manage).
 */
export const robotActivityScope = (
  actor: SignedInUser,
  requested: number | undefined,
): number | undefined => {
  const scope = organisationScope(actor, requested);
  if (actor.role === Role.SUPER_USER) return scope ?? undefined;
  if (scope === null || scope === undefined || !administersOrganisation(actor, scope))
    throw new AppError('forbidden', 'event_id');
  return scope;
};

/** Whether the caller sees this organisation's robots (its robot list would show them). */
export const seesOrganisationRobots = (actor: SignedInUser, organisationId: number): boolean =>
  actor.role === Role.SUPER_USER || actor.organisationId === organisationId;

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

/**
 * The kiosk's desk reaches attendees of the kiosk's own event only (not every attendee of its
 * organisation): an attendee key printed for one event is not a handle on another event's desk.
 */
export const attendsEvent = (record: AttendeeRecord, event: Pick<EventRow, 'id'>): boolean =>
  record.eventIds.includes(event.id);
