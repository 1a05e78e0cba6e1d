import {
  ROBOT_ACTIVITY_CURSOR,
  type createRobot,
  type ParsedBodyOf,
  type RobotActivity,
  type robotActivityList,
  type robotSchema,
} from '@flashbulb/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { hashToken, randomToken } from '../../lib/secret-box.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { RobotRepository } from '../../repositories/events/robot.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import {
  administersOrganisation,
  organisationScope,
  robotActivityScope,
  seesOrganisationRobots,
} from '../../access/rules.ts';
import { isSuperUser } from '../../access/roles.ts';
import { robotActivityForOperator, robotForOperator } from '../../presenters/robot.presenter.ts';
import type { AccessControl } from '../../access/access-control.ts';
import { userPrincipal, type Principal } from '../../access/principal.ts';

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
      ...robotForOperator({
        ...row,
        eventName: event?.name ?? null,
        lastUploadAt: null,
        uploadCount: 0,
      }),
      api_key: key,
    };
  }

  /**
   * The robot behind a robot key and the event it feeds: the robot client's first call, so it can
   * say where the photos go — or that the key feeds no event (`robot_not_attached`) or is
   * nobody's (`invalid_key`) — before it sends anything.
   */
  async whoami(principal: Principal): Promise<{
    robot: { id: number; name: string };
    event: { id: number; name: string; full_name: string };
  }> {
    const grant = await this.access.requireEventAccess(principal, 'robot.whoami', {
      keyEvent: true,
      aboutKey: true,
    });
    const robot = grant.robotId === null ? undefined : await this.robots.findById(grant.robotId);
    if (!robot) throw new AppError('invalid_key');
    const event = grant.event.row;
    return {
      robot: { id: robot.id, name: robot.name },
      event: { id: event.id, name: event.name, full_name: event.full_name },
    };
  }

  /**
   * The activity log: what robots uploaded and what their booths reported, newest first. Naming
   * an event needs the right to manage it; without one, the organisation's (its admins, super
   * users). A robot the caller cannot see is not there.
   */
  async activity(
    actor: SignedInUser,
    input: ParsedBodyOf<typeof robotActivityList>,
  ): Promise<{ entries: RobotActivity[]; next_cursor: string | null }> {
    let eventId: number | undefined;
    let organisationId: number | undefined;
    if (input.event_id !== undefined) {
      const grant = await this.access.requireEventAccess(userPrincipal(actor), 'event.manage', {
        eventId: input.event_id,
        field: 'event_id',
      });
      eventId = grant.event.row.id;
    } else {
      organisationId = robotActivityScope(actor, input.organisation_id);
    }
    if (input.robot_id !== undefined) {
      const robot = await this.robots.findById(input.robot_id);
      if (!robot || !seesOrganisationRobots(actor, robot.organisationId))
        throw new AppError('robot_not_found', 'robot_id');
    }
    const cursor = input.cursor ? ROBOT_ACTIVITY_CURSOR.exec(input.cursor) : null;
    const rows = await this.robots.activity({
      eventId,
      organisationId,
      robotId: input.robot_id,
      from: input.from ? new Date(input.from) : undefined,
      to: input.to ? new Date(input.to) : undefined,
      after: cursor
        ? { at: cursor[1]!, kind: cursor[2] as 'upload' | 'activity', id: Number(cursor[3]) }
        : undefined,
      // One more than asked: whether there is a next page.
      limit: input.limit + 1,
    });
    const page = rows.slice(0, input.limit);
    const last = page.at(-1);
    return {
      entries: page.map(robotActivityForOperator),
      next_cursor:
        rows.length > input.limit && last ? `${last.atExact}~${last.kind}~${last.id}` : null,
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
