import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { storageDeletions } from '../../db/schema.ts';

export type StorageDeletionRow = typeof storageDeletions.$inferSelect;

/** Storage deletes owed after a commit (rows written in the transaction that made them due). */
export class StorageDeletionRepository {
  constructor(private readonly db: Db) {}

  /** The oldest owed deletes, or only those of `ids`. */
  async due(limit: number, ids?: number[]): Promise<StorageDeletionRow[]> {
    const query = this.db.select().from(storageDeletions);
    return (ids ? query.where(inArray(storageDeletions.id, ids)) : query)
      .orderBy(asc(storageDeletions.id))
      .limit(limit);
  }

  async done(id: number): Promise<void> {
    await this.db.delete(storageDeletions).where(eq(storageDeletions.id, id));
  }

  async failed(id: number): Promise<void> {
    await this.db
      .update(storageDeletions)
      .set({ attempts: sql`${storageDeletions.attempts} + 1` })
      .where(eq(storageDeletions.id, id));
  }
}
