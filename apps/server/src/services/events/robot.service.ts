import { type createRobot, type ParsedBodyOf, type robotSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { RobotRepository } from '../../repositories/events/robot.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { administersOrganisation, organisationScope } from '../../access/rules.ts';
import { isSuperUser } from '../../access/roles.ts';
import { robotForOperator } from '../../presenters/robot.presenter.ts';
import type { AccessControl } from '../../access/access-control.ts';
import { userPrincipal } from '../../access/principal.ts';

type Robot = z.infer<typeof robotSchema>;

/** The caller sees robots of this organisation (its list call would show them). */
const organisationScopeAllows = (actor: SignedInUser, organisationId: number): boolean =>
  isSuperUser(actor) || actor.organisationId === organisationId;

/** Robots: everyone lists their organisation's; super users and its admins create them. */
export class RobotService {
  constructor(
    private readonly robots: RobotRepository,
    private readonly organisations: OrganisationRepository,
    private readonly access: AccessControl,
  ) {}

  async list(
    actor: SignedInUser,
    organisationId: number | undefined,
  ): Promise<{ robots: Robot[] }> {
    const scope = organisationScope(actor, organisationId);
    if (scope === null) return { robots: [] };
    return { robots: (await this.robots.list(scope)).map(robotForOperator) };
  }

  /** The key is shown only in this reply; we keep its hash. */
  async create(
    actor: SignedInUser,
    input: ParsedBodyOf<typeof createRobot>,
  ): Promise<Robot & { api_key: string }> {
    if (!administersOrganisation(actor, input.organisation_id))
      throw new AppError('forbidden', 'organisation_id');
    if (!(await this.organisations.findById(input.organisation_id)))
      throw new AppError('organisation_not_found', 'organisation_id');
    // Created from an event: the caller must manage it, and it must be the robot's organisation's.
    let event: { id: number; name: string } | null = null;
    if (input.event_id !== undefined) {
      const grant = await this.access.requireEventAccess(userPrincipal(actor), 'event.manage', {
        eventId: input.event_id,
        field: 'event_id',
      });
      if (grant.event.row.organisationId !== input.organisation_id)
        throw new AppError('event_not_found', 'event_id');
      event = { id: grant.event.row.id, name: grant.event.row.name };
    }
    const key = `fbr_${randomToken(30)}`;
    const row = await this.robots.create({
      name: input.name,
      organisationId: input.organisation_id,
      eventId: event?.id ?? null,
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, 10),
    });
    return {
      ...robotForOperator({ ...row, eventName: event?.name ?? null, lastUploadAt: null }),
      api_key: key,
    };
  }

  /** A new key, shown only in this reply; the old one stops working at once. */
  async regenerateKey(actor: SignedInUser, id: number): Promise<Robot & { api_key: string }> {
    const robot = await this.robots.findById(id);
    // Another organisation's robot is not there for this caller (ids leak nothing).
    if (!robot || !administersOrganisation(actor, robot.organisationId)) {
      if (robot && organisationScopeAllows(actor, robot.organisationId))
        throw new AppError('forbidden');
      throw new AppError('robot_not_found', 'id');
    }
    const key = `fbr_${randomToken(30)}`;
    if (!(await this.robots.replaceKey(id, hashToken(key), key.slice(0, 10))))
      throw new AppError('robot_not_found', 'id');
    return { ...robotForOperator(robot), api_key: key };
  }
}
