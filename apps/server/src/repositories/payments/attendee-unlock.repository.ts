import { and, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { attendeeUnlocks, type UnlockSource } from '../../db/schema.ts';

export type AttendeeUnlockRow = typeof attendeeUnlocks.$inferSelect;

/** The whole album (as opposed to a partial-unlock tag). */
export const WHOLE_ALBUM = '*';

/** What unlocked which attendee's album at which event. Data access only. */
export class AttendeeUnlockRepository {
  constructor(private readonly db: Db) {}

  /**
   * Records an unlock once per attendee, event and scope: the first is kept (who sold it), a
   * repeat answers the existing row with `created: false`.
   */
  async unlock(input: {
    attendeeId: number;
    eventId: number;
    scope: string;
    source: UnlockSource;
    employeeName?: string | null;
    paymentId?: number | null;
    now: Date;
  }): Promise<{ row: AttendeeUnlockRow; created: boolean }> {
    const [inserted] = await this.db
      .insert(attendeeUnlocks)
      .values({
        attendeeId: input.attendeeId,
        eventId: input.eventId,
        scope: input.scope,
        source: input.source,
        employeeName: input.employeeName ?? null,
        paymentId: input.paymentId ?? null,
        createdAt: input.now,
      })
      .onConflictDoNothing()
      .returning();
    if (inserted) return { row: inserted, created: true };
    const [existing] = await this.db
      .select()
      .from(attendeeUnlocks)
      .where(
        and(
          eq(attendeeUnlocks.attendeeId, input.attendeeId),
          eq(attendeeUnlocks.eventId, input.eventId),
          eq(attendeeUnlocks.scope, input.scope),
        ),
      );
    if (!existing) throw new Error('unlock row vanished');
    return { row: existing, created: false };
  }

  async forAttendee(attendeeId: number): Promise<AttendeeUnlockRow[]> {
    return this.db
      .select()
      .from(attendeeUnlocks)
      .where(eq(attendeeUnlocks.attendeeId, attendeeId))
      .orderBy(attendeeUnlocks.id);
  }

  /** Events whose whole album each attendee has unlocked. */
  async wholeAlbumEvents(attendeeIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>(attendeeIds.map((id) => [id, []]));
    if (attendeeIds.length === 0) return map;
    const rows = await this.db
      .select({ attendeeId: attendeeUnlocks.attendeeId, eventId: attendeeUnlocks.eventId })
      .from(attendeeUnlocks)
      .where(
        and(
          inArray(attendeeUnlocks.attendeeId, attendeeIds),
          eq(attendeeUnlocks.scope, WHOLE_ALBUM),
        ),
      );
    for (const row of rows) map.get(row.attendeeId)?.push(row.eventId);
    return map;
  }

  /** Removes what a payment unlocked (a refund); answers how many rows went. */
  async deleteForPayment(paymentId: number): Promise<number> {
    const rows = await this.db
      .delete(attendeeUnlocks)
      .where(eq(attendeeUnlocks.paymentId, paymentId))
      .returning({ id: attendeeUnlocks.id });
    return rows.length;
  }
}
