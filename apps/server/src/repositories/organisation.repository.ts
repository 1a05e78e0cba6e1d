import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { organisations } from '../db/schema.ts';

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
