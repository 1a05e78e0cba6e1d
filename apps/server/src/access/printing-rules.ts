import { Role } from '@flashbulb/shared';
import type { SignedInUser } from './signed-in-user.ts';

/**
 * Print templates (owner-console §6): watermark templates are admin business — event owners do
 * not load that list nor open one.
 */
export const mayUseWatermarkTemplates = (actor: SignedInUser): boolean =>
  actor.role !== Role.EVENT_OWNER;

/** Public print templates (no organisation) belong to super users. */
export const mayOwnPublicTemplates = (actor: SignedInUser): boolean =>
  actor.role === Role.SUPER_USER;

/**
 * A print template an operator may see: public ones everyone, a private one its organisation (and
 * super users); another organisation's private template does not exist as far as they know.
 */
export const seesPrintTemplate = (
  actor: SignedInUser,
  template: { organisationId: number | null },
): boolean =>
  template.organisationId === null ||
  actor.role === Role.SUPER_USER ||
  actor.organisationId === template.organisationId;
