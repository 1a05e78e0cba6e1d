import type { Organisation } from '@flashbulb/shared';
import { administersOrganisation } from '../../access/rules.ts';
import { isSuperUser } from '../../access/roles.ts';
import { AppError } from '../../lib/app-error.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import { organisationForCaller } from '../../presenters/identity.presenter.ts';

export class OrganisationService {
  constructor(
    private readonly organisations: OrganisationRepository,
    /** Gives a new organisation what it starts with (default image processes). */
    private readonly onCreated: (organisationId: number) => Promise<void> = () => Promise.resolve(),
  ) {}

  /** Super users see every organisation; everyone else only their own. */
  async list(actor: SignedInUser): Promise<{ organisations: Organisation[] }> {
    if (isSuperUser(actor))
      return { organisations: (await this.organisations.list()).map(organisationForCaller) };
    if (actor.organisationId === null) return { organisations: [] };
    const own = await this.organisations.findById(actor.organisationId);
    return { organisations: own ? [organisationForCaller(own)] : [] };
  }

  /** `actor` null means the operator at the command line. */
  async create(actor: SignedInUser | null, name: string): Promise<Organisation> {
    if (actor && !isSuperUser(actor)) throw new AppError('forbidden');
    const row = await this.organisations.create(name);
    if (!row) throw new AppError('organisation_exists', 'name');
    await this.onCreated(row.id);
    return organisationForCaller(row);
  }

  /**
   * Super users rename any organisation, admins their own (owner console §6); the same call
   * changes its currency (orders already made keep theirs).
   */
  async rename(
    actor: SignedInUser,
    id: number,
    name: string,
    currency?: string,
  ): Promise<Organisation> {
    if (!administersOrganisation(actor, id)) throw new AppError('forbidden');
    const row = await this.organisations.rename(id, name, currency);
    if (row === 'exists') throw new AppError('organisation_exists', 'name');
    if (!row) throw new AppError('organisation_not_found');
    return organisationForCaller(row);
  }

  async findByIdOrName(value: string): Promise<Organisation | undefined> {
    const rows = await this.organisations.list();
    const row = rows.find(
      (o) => String(o.id) === value || o.name.toLowerCase() === value.toLowerCase(),
    );
    return row ? organisationForCaller(row) : undefined;
  }
}
