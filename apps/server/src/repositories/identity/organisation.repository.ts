import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { organisations } from '../../db/schema.ts';

export type OrganisationRow = typeof organisations.$inferSelect;

export class OrganisationRepository {
  constructor(private readonly db: Db) {}

  async list(): Promise<OrganisationRow[]> {
    return this.db.select().from(organisations).orderBy(asc(organisations.name));
  }

  async findById(id: number): Promise<OrganisationRow | undefined> {
    const [row] = await this.db.select().from(organisations).where(eq(organisations.id, id));
    return row;
  }

  /** Renames; 'exists' when another organisation has the name (case-insensitive), undefined when there is no such organisation. */
  async rename(
    id: number,
    name: string,
    currency?: string,
  ): Promise<OrganisationRow | 'exists' | undefined> {
    return this.db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: organisations.id })
        .from(organisations)
        .where(sql`lower(${organisations.name}) = lower(${name}) and ${organisations.id} <> ${id}`);
      if (taken) return 'exists' as const;
      const [row] = await tx
        .update(organisations)
        .set(currency ? { name, currency } : { name })
        .where(eq(organisations.id, id))
        .returning();
      return row;
    });
  }

  /** The organisation's currency (ISO 4217); USD when there is no such organisation. */
  async currencyOf(id: number): Promise<string> {
    const [row] = await this.db
      .select({ currency: organisations.currency })
      .from(organisations)
      .where(eq(organisations.id, id));
    return row?.currency ?? 'USD';
  }

  /** undefined when the name is taken (case-insensitive). */
  async create(name: string): Promise<OrganisationRow | undefined> {
    const [row] = await this.db
      .insert(organisations)
      .values({ name })
      .onConflictDoNothing()
      .returning();
    return row;
  }
}
