import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { indexIgnoreFaces } from '../../db/schema.ts';

export type IgnoredFaceRow = typeof indexIgnoreFaces.$inferSelect;

/** Faces face search ignores, per event. I/O only. */
export class IgnoredFaceRepository {
  constructor(private readonly db: Db) {}

  /** Adding a face twice answers the row that is already there. */
  async create(eventId: number, fullPath: string): Promise<IgnoredFaceRow> {
    const [row] = await this.db
      .insert(indexIgnoreFaces)
      .values({ eventId, fullPath })
      .onConflictDoNothing()
      .returning();
    if (row) return row;
    const [existing] = await this.db
      .select()
      .from(indexIgnoreFaces)
      .where(and(eq(indexIgnoreFaces.eventId, eventId), eq(indexIgnoreFaces.fullPath, fullPath)));
    if (!existing) throw new Error('Ignored face vanished');
    return existing;
  }

  async list(eventId: number): Promise<IgnoredFaceRow[]> {
    return this.db
      .select()
      .from(indexIgnoreFaces)
      .where(eq(indexIgnoreFaces.eventId, eventId))
      .orderBy(asc(indexIgnoreFaces.id));
  }

  /** Deletes only faces of this event; answers how many went. */
  async delete(eventId: number, ids: number[]): Promise<number> {
    const rows = await this.db
      .delete(indexIgnoreFaces)
      .where(and(eq(indexIgnoreFaces.eventId, eventId), inArray(indexIgnoreFaces.id, ids)))
      .returning({ id: indexIgnoreFaces.id });
    return rows.length;
  }
}
