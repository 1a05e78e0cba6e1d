import type { createRobot, ParsedBodyOf, robotSchema } from '@flashbulb/shared';
import type { z } from 'zod';
import { AppError } from '../lib/app-error.ts';
import { hashToken, randomToken } from '../lib/secret-box.ts';
import type { OrganisationRepository } from '../repositories/organisation.repository.ts';
import type { RobotRepository, RobotWithEvent } from '../repositories/robot.repository.ts';
import type { Actor } from './actor.ts';
import { administersOrganisation, organisationScope } from '../access/rules.ts';

type Robot = z.infer<typeof robotSchema>;

const mapRobot = (row: RobotWithEvent): Robot => ({
  id: row.id,
  name: row.name,
  organisation_id: row.organisationId,
  event_id: row.eventId,
  event_name: row.eventName,
});

/** Robots: everyone lists their organisation's; super users and its admins create them. */
export class RobotService {
  constructor(
    private readonly robots: RobotRepository,
    private readonly organisations: OrganisationRepository,
  ) {}

  async list(actor: Actor, organisationId: number | undefined): Promise<{ robots: Robot[] }> {
    const scope = organisationScope(actor, organisationId);
    if (scope === null) return { robots: [] };
    return { robots: (await this.robots.list(scope)).map(mapRobot) };
  }

  /** The key is shown only in this reply; we keep its hash. */
  async create(
    actor: Actor,
    input: ParsedBodyOf<typeof createRobot>,
  ): Promise<Robot & { api_key: string }> {
    if (!administersOrganisation(actor, input.organisation_id))
      throw new AppError('forbidden', 'organisation_id');
    if (!(await this.organisations.findById(input.organisation_id)))
      throw new AppError('organisation_not_found', 'organisation_id');
    const key = `fbr_${randomToken(30)}`;
    const row = await this.robots.create({
      name: input.name,
      organisationId: input.organisation_id,
      keyHash: hashToken(key),
      keyPrefix: key.slice(0, 10),
    });
    return { ...mapRobot({ ...row, eventName: null }), api_key: key };
  }
}
