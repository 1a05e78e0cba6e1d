import { and, asc, desc, eq, gte, inArray, isNull, like, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  orders,
  photos,
  printJobs,
  printPoolPauses,
  printRequests,
  type PrintJobState,
} from '../../db/schema.ts';
import { releasedSql } from '../photos/photo-visibility.ts';

export type PrintJobRow = typeof printJobs.$inferSelect;
export type NewPrintJobRow = typeof printJobs.$inferInsert;
export type TagStoryCandidate = Pick<
  typeof photos.$inferSelect,
  'id' | 'attendeeUid' | 'robotId' | 'tags' | 'createdAt'
>;

/** The request-key prefix of the stories made from `lookForTagsInImages` (ADR 0009 addendum). */
export const TAG_STORY_KEY = 'tag-story:';

/** Rolls back a request whose prints no order pays for. */
class NotPaid extends Error {}

/** Print jobs (one sheet each) and the photos' print marks. Data access only. */
export class PrintJobRepository {
  constructor(private readonly db: Db) {}

  /**
   * Inserts the sheets of one request in one transaction. With a request key, sheets already
   * stored for it are kept (a retried request inserts nothing) and `replayed` says so.
   *
   * With `spend`, new sheets are paid from one of the orders named (tried in turn): its
   * `prints_used` moves by `spend.prints` in one conditional update that never passes the prints
   * the order bought, so two kiosks printing at once cannot print more. When no order has enough
   * left nothing is stored and `paid` is false. A replayed request spends nothing again.
   */
  async insertSheets(
    rows: NewPrintJobRow[],
    after?: { printRequestId: number },
    spend?: { orderIds: readonly number[]; prints: number },
  ): Promise<{ jobs: PrintJobRow[]; replayed: boolean; paid: boolean }> {
    try {
      return await this.db.transaction(async (tx) => {
        const inserted = await tx.insert(printJobs).values(rows).onConflictDoNothing().returning();
        if (after)
          await tx
            .update(printRequests)
            .set({ status: 'sent' })
            .where(eq(printRequests.id, after.printRequestId));
        if (inserted.length === rows.length) {
          if (spend && !(await this.spendPrints(tx, spend))) throw new NotPaid();
          return { jobs: inserted, replayed: false, paid: true };
        }
        const first = rows[0];
        if (!first?.requestKey)
          throw new Error('print job insert conflicted without a request key');
        const existing = await tx
          .select()
          .from(printJobs)
          .where(
            and(eq(printJobs.eventId, first.eventId), eq(printJobs.requestKey, first.requestKey)),
          )
          .orderBy(printJobs.sheetIndex);
        return { jobs: existing, replayed: inserted.length === 0, paid: true };
      });
    } catch (error) {
      if (error instanceof NotPaid) return { jobs: [], replayed: false, paid: false };
      throw error;
    }
  }

  private async spendPrints(
    tx: Parameters<Parameters<Db['transaction']>[0]>[0],
    spend: { orderIds: readonly number[]; prints: number },
  ): Promise<boolean> {
    for (const orderId of spend.orderIds) {
      const moved = await tx
        .update(orders)
        .set({ printsUsed: sql`${orders.printsUsed} + ${spend.prints}` })
        .where(
          and(
            eq(orders.id, orderId),
            eq(orders.status, 'paid'),
            sql`${orders.printsUsed} + ${spend.prints} <= jsonb_array_length(${orders.items} -> 'prints')`,
          ),
        )
        .returning({ id: orders.id });
      if (moved.length > 0) return true;
    }
    return false;
  }

  /**
   * Automatic stories (ADR 0009 addendum): under a lock per event (two workers of one event wait
   * for each other), `pick` gets the event's printable, ready originals uploaded since `since`
   * that no automatic story holds yet, and answers the stories to store; they are inserted in the
   * same transaction (each keyed by its first photo: a replay inserts nothing). Answers the
   * stories inserted.
   */
  async insertTagStories(
    eventId: number,
    since: Date,
    pick: (candidates: TagStoryCandidate[]) => NewPrintJobRow[],
  ): Promise<PrintJobRow[]> {
    return this.db.transaction(async (tx) => {
      // 872012: this lock's class ("tag stories"), the event id its key.
      await tx.execute(sql`select pg_advisory_xact_lock(872012, ${eventId}::int)`);
      const held = await tx
        .select({ photoIds: printJobs.photoIds })
        .from(printJobs)
        .where(
          and(eq(printJobs.eventId, eventId), like(printJobs.requestKey, `${TAG_STORY_KEY}%`)),
        );
      const claimed = new Set(held.flatMap((r) => r.photoIds));
      const rows = await tx
        .select({
          id: photos.id,
          attendeeUid: photos.attendeeUid,
          robotId: photos.robotId,
          tags: photos.tags,
          createdAt: photos.createdAt,
        })
        .from(photos)
        .where(
          and(
            eq(photos.eventId, eventId),
            eq(photos.status, 'ready'),
            releasedSql,
            eq(photos.mediaType, 'image'),
            eq(photos.printable, 1),
            isNull(photos.imageProcessId),
            isNull(photos.archivedAt),
            gte(photos.createdAt, since),
          ),
        )
        .orderBy(asc(photos.createdAt), asc(photos.id));
      const stories = pick(rows.filter((r) => !claimed.has(r.id)));
      if (stories.length === 0) return [];
      return tx.insert(printJobs).values(stories).onConflictDoNothing().returning();
    });
  }

  async findById(id: number): Promise<PrintJobRow | undefined> {
    const [row] = await this.db.select().from(printJobs).where(eq(printJobs.id, id));
    return row;
  }

  async forEvent(eventId: number, pool?: string): Promise<PrintJobRow[]> {
    return this.db
      .select()
      .from(printJobs)
      .where(
        pool
          ? and(eq(printJobs.eventId, eventId), eq(printJobs.pool, pool))
          : eq(printJobs.eventId, eventId),
      )
      .orderBy(desc(printJobs.id));
  }

  /** The event's print jobs whose sheet holds the photo. */
  async withPhoto(eventId: number, photoId: number): Promise<PrintJobRow[]> {
    return this.db
      .select()
      .from(printJobs)
      .where(
        and(
          eq(printJobs.eventId, eventId),
          sql`${printJobs.photoIds} @> ${JSON.stringify([photoId])}::jsonb`,
        ),
      );
  }

  /** The job's sheet files are gone: forget where they were. */
  async forgetFiles(id: number): Promise<void> {
    await this.db
      .update(printJobs)
      .set({ sheetKey: null, output: null, updatedAt: new Date() })
      .where(eq(printJobs.id, id));
  }

  /** Compare-and-set: moves the job only from one of `from`; answers the moved row or nothing. */
  async move(
    id: number,
    from: readonly PrintJobState[],
    to: PrintJobState,
    changes: Partial<Pick<NewPrintJobRow, 'printer' | 'output' | 'error' | 'sheetKey'>> = {},
  ): Promise<PrintJobRow | undefined> {
    const [row] = await this.db
      .update(printJobs)
      .set({ ...changes, state: to, updatedAt: new Date() })
      .where(and(eq(printJobs.id, id), inArray(printJobs.state, [...from])))
      .returning();
    return row;
  }

  /**
   * The sheet is printed: the job moves to `printed` and each of its photos is marked printed
   * with its print count raised by the copies, in one transaction (once: the move is the guard).
   */
  async markPrinted(
    id: number,
    from: readonly PrintJobState[],
    changes: Pick<NewPrintJobRow, 'printer' | 'output'>,
  ): Promise<PrintJobRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(printJobs)
        .set({ ...changes, state: 'printed', error: null, updatedAt: new Date() })
        .where(and(eq(printJobs.id, id), inArray(printJobs.state, [...from])))
        .returning();
      if (!row) return undefined;
      for (const photoId of row.photoIds)
        await tx
          .update(photos)
          .set({ printed: 1, printCount: sql`${photos.printCount} + ${row.copies}` })
          .where(eq(photos.id, photoId));
      return row;
    });
  }

  /** Jobs still `queued` since before `before` (their render job may be lost). */
  async queuedBefore(before: Date): Promise<PrintJobRow[]> {
    return this.db
      .select()
      .from(printJobs)
      .where(and(eq(printJobs.state, 'queued'), lt(printJobs.updatedAt, before)))
      .orderBy(printJobs.id)
      .limit(500);
  }

  async printRequestById(id: number) {
    const [row] = await this.db.select().from(printRequests).where(eq(printRequests.id, id));
    return row;
  }

  /** Stored unlock-and-print requests not yet sent to the queue. */
  async unsentRequests(eventId?: number) {
    return this.db
      .select()
      .from(printRequests)
      .where(
        eventId === undefined
          ? eq(printRequests.status, 'queued')
          : and(eq(printRequests.status, 'queued'), eq(printRequests.eventId, eventId)),
      )
      .orderBy(printRequests.id);
  }

  /** One job of the event (null when the id is another event's). */
  async findInEvent(eventId: number, id: number): Promise<PrintJobRow | undefined> {
    const [row] = await this.db
      .select()
      .from(printJobs)
      .where(and(eq(printJobs.id, id), eq(printJobs.eventId, eventId)));
    return row;
  }

  async insertOne(row: NewPrintJobRow): Promise<PrintJobRow> {
    const [inserted] = await this.db.insert(printJobs).values(row).returning();
    if (!inserted) throw new Error('print job insert returned nothing');
    return inserted;
  }

  async pausedPools(eventId: number): Promise<string[]> {
    const rows = await this.db
      .select({ pool: printPoolPauses.pool })
      .from(printPoolPauses)
      .where(eq(printPoolPauses.eventId, eventId));
    return rows.map((r) => r.pool);
  }

  async isPaused(eventId: number, pool: string): Promise<boolean> {
    const rows = await this.db
      .select({ pool: printPoolPauses.pool })
      .from(printPoolPauses)
      .where(and(eq(printPoolPauses.eventId, eventId), eq(printPoolPauses.pool, pool)));
    return rows.length > 0;
  }

  /** Pauses or resumes a pool (idempotent). */
  async setPaused(eventId: number, pool: string, paused: boolean, now: Date): Promise<void> {
    if (paused)
      await this.db
        .insert(printPoolPauses)
        .values({ eventId, pool, pausedAt: now })
        .onConflictDoNothing();
    else
      await this.db
        .delete(printPoolPauses)
        .where(and(eq(printPoolPauses.eventId, eventId), eq(printPoolPauses.pool, pool)));
  }

  /** The pool's sheets still waiting to be rendered. */
  async queuedInPool(eventId: number, pool: string): Promise<PrintJobRow[]> {
    return this.db
      .select()
      .from(printJobs)
      .where(
        and(
          eq(printJobs.eventId, eventId),
          eq(printJobs.pool, pool),
          eq(printJobs.state, 'queued'),
        ),
      )
      .orderBy(printJobs.id);
  }
}
