import { Role } from '@flashbulb/shared';
import type { SignedInUser } from './signed-in-user.ts';

// What an operator's role lets them do outside one event's permission row: the organisations and
// users they reach, and the roles they may give. Services ask these by name; only access/ compares
// roles (flashbulb/server-layers).

/** Super users reach every organisation: they list, name and create across all of them. */
export const isSuperUser = (actor: SignedInUser): boolean => actor.role === Role.SUPER_USER;

/** Event owners see only the events they created; admins and super users see more. */
export const seesOnlyOwnEvents = (actor: SignedInUser): boolean => actor.role === Role.EVENT_OWNER;

/** Event owners manage no users; admins and super users do (owner console §6, our rules). */
export const managesUsers = (actor: SignedInUser): boolean => actor.role !== Role.EVENT_OWNER;

/** Who may add a user: the operator at the command line (null), super users and admins. */
export const createsUsers = (actor: SignedInUser | null): boolean =>
  actor === null || actor.role === Role.SUPER_USER || actor.role === Role.ADMIN;

/** A user shown in a list: super users see everyone; admins never see a super user. */
export const seesUser = (actor: SignedInUser, user: { role: number }): boolean =>
  isSuperUser(actor) || user.role !== Role.SUPER_USER;

/**
 * A user the actor may change: super users any; admins the non-super users of their own
 * organisation. (The caller refuses event owners first, and the actor's own account.)
 */
export const reachesUser = (
  actor: SignedInUser,
  user: { role: number; organisationId: number | null },
): boolean =>
  isSuperUser(actor) ||
  (actor.organisationId !== null &&
    user.organisationId === actor.organisationId &&
    user.role !== Role.SUPER_USER);

/** Only super users (or the command line, null) make a super user. */
export const mayGrantRole = (actor: SignedInUser | null, role: number): boolean =>
  actor === null || isSuperUser(actor) || role !== Role.SUPER_USER;

/** Every role but super user belongs to an organisation. */
export const roleNeedsOrganisation = (role: number): boolean => role !== Role.SUPER_USER;

/**
 * The organisation's insight (every event added up, money included): super users and the
 * organisation's admins; an event owner sees the insight of the events they own, one by one.
 */
export const seesOrganisationInsight = (actor: SignedInUser): boolean =>
  actor.role === Role.SUPER_USER || actor.role === Role.ADMIN;
