import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { printRequests } from '../db/schema.ts';

export type PrintRequestRow = typeof printRequests.$inferSelect;
export type NewPrintRequestRow = typeof printRequests.$inferInsert;

/** Stored print requests (the printing issue sends them to printers). Data access only. */
export class PrintRequestRepository {
  constructor(private readonly db: Db) {}

  async insert(row: NewPrintRequestRow): Promise<PrintRequestRow> {
    const [inserted] = await this.db.insert(printRequests).values(row).returning();
    if (!inserted) throw new Error('no print request row');
    return inserted;
  }

  async forEvent(eventId: number): Promise<PrintRequestRow[]> {
    return this.db
      .select()
      .from(printRequests)
      .where(eq(printRequests.eventId, eventId))
      .orderBy(desc(printRequests.id));
  }
}
