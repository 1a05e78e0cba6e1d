import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { printJobs, printStations } from '../../db/schema.ts';
import type { PrintJobRow } from './print-job.repository.ts';

export type PrintStationRow = typeof printStations.$inferSelect;

/** The job while an agent prints it under the lease `token` (a stale token matches nothing). */
const heldUnder = (jobId: number, token: string) =>
  and(eq(printJobs.id, jobId), eq(printJobs.state, 'printing'), eq(printJobs.leaseToken, token));

/** Print stations (agent keys) and the agents' leases on print jobs. Data access only. */
export class PrintStationRepository {
  constructor(private readonly db: Db) {}

  async insert(row: typeof printStations.$inferInsert): Promise<PrintStationRow> {
    const [inserted] = await this.db.insert(printStations).values(row).returning();
    if (!inserted) throw new Error('no print station row');
    return inserted;
  }

  async byKeyHash(keyHash: string): Promise<PrintStationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(printStations)
      .where(and(eq(printStations.keyHash, keyHash), isNull(printStations.revokedAt)));
    return row;
  }

  async forEvent(eventId: number): Promise<PrintStationRow[]> {
    return this.db
      .select()
      .from(printStations)
      .where(eq(printStations.eventId, eventId))
      .orderBy(printStations.id);
  }

  /** Whether a pool of the event is printed by an agent (an unrevoked station). */
  async poolHasStation(eventId: number, pool: string): Promise<boolean> {
    const [row] = await this.db
      .select({ id: printStations.id })
      .from(printStations)
      .where(
        and(
          eq(printStations.eventId, eventId),
          eq(printStations.pool, pool),
          isNull(printStations.revokedAt),
        ),
      )
      .limit(1);
    return row !== undefined;
  }

  async revoke(eventId: number, id: number, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(printStations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(printStations.id, id),
          eq(printStations.eventId, eventId),
          isNull(printStations.revokedAt),
        ),
      )
      .returning({ id: printStations.id });
    return rows.length > 0;
  }

  async seen(id: number, printers: PrintStationRow['printers'], now: Date): Promise<void> {
    await this.db
      .update(printStations)
      .set({ printers, lastSeenAt: now })
      .where(eq(printStations.id, id));
  }

  /**
   * Leases the oldest sheet of the pool waiting for an agent (`sent`), or one whose lease ran
   * out (its agent died): it moves to `printing` with a new token. One agent wins each row.
   */
  async lease(
    eventId: number,
    pool: string,
    token: string,
    now: Date,
    until: Date,
  ): Promise<PrintJobRow | undefined> {
    const [row] = await this.db
      .update(printJobs)
      .set({ state: 'printing', leaseToken: token, leaseUntil: until, updatedAt: now })
      .where(
        sql`${printJobs.id} = (select id from print_jobs where event_id = ${eventId} and pool = ${pool}
          and sheet_key is not null
          and not exists (select 1 from print_pool_pauses pp where pp.event_id = ${eventId} and pp.pool = ${pool})
          and (state = 'sent' or (state = 'printing' and lease_until < ${now.toISOString()}))
          order by id limit 1 for update skip locked)`,
      )
      .returning();
    return row;
  }

  /** The agent still prints the sheet: its lease runs on (a stale token changes nothing). */
  async renew(
    jobId: number,
    token: string,
    until: Date,
    changes: { printer: string | null; error: string | null },
    now: Date,
  ): Promise<PrintJobRow | undefined> {
    const [row] = await this.db
      .update(printJobs)
      .set({ leaseUntil: until, ...changes, updatedAt: now })
      .where(heldUnder(jobId, token))
      .returning();
    return row;
  }

  /** The agent's report under its lease; a stale token changes nothing. */
  async report(
    jobId: number,
    token: string,
    to: 'printed' | 'failed' | 'cancelled' | 'sent',
    changes: { printer: string | null; error: string | null },
    now: Date,
  ): Promise<PrintJobRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(printJobs)
        .set({ state: to, ...changes, leaseToken: null, leaseUntil: null, updatedAt: now })
        .where(heldUnder(jobId, token))
        .returning();
      if (!row || to !== 'printed') return row;
      for (const photoId of row.photoIds)
        await tx.execute(
          sql`update photos set printed = 1, print_count = print_count + ${row.copies} where id = ${photoId}`,
        );
      return row;
    });
  }
}
