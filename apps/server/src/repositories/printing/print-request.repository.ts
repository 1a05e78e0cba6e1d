import { and, desc, eq } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { printRequests } from '../../db/schema.ts';

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

  /**
   * Inserts unless the event already has a request with this client request id; answers the row
   * and whether it is new (a retried unlock-and-print stores nothing twice).
   */
  async insertOnce(
    row: NewPrintRequestRow & { clientRequestId: string },
  ): Promise<{ row: PrintRequestRow; created: boolean }> {
    const [inserted] = await this.db
      .insert(printRequests)
      .values(row)
      .onConflictDoNothing()
      .returning();
    if (inserted) return { row: inserted, created: true };
    const existing = await this.findByClientRequestId(row.eventId, row.clientRequestId);
    if (!existing) throw new Error('print request vanished');
    return { row: existing, created: false };
  }

  async findByClientRequestId(
    eventId: number,
    clientRequestId: string,
  ): Promise<PrintRequestRow | undefined> {
    const [row] = await this.db
      .select()
      .from(printRequests)
      .where(
        and(eq(printRequests.eventId, eventId), eq(printRequests.clientRequestId, clientRequestId)),
      );
    return row;
  }

  async forEvent(eventId: number): Promise<PrintRequestRow[]> {
    return this.db
      .select()
      .from(printRequests)
      .where(eq(printRequests.eventId, eventId))
      .orderBy(desc(printRequests.id));
  }
}
