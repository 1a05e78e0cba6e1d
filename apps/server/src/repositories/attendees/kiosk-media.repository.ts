import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { attendeeProfilePhotos, events } from '../../db/schema.ts';

export type ProfilePhotoRow = typeof attendeeProfilePhotos.$inferSelect;
export type NewProfilePhotoRow = typeof attendeeProfilePhotos.$inferInsert;

/** Kiosk media: attendees' profile photos and the event's pass-code list. Data access only. */
export class KioskMediaRepository {
  constructor(private readonly db: Db) {}

  /** Inserts the row, or answers the one already registered for this storage key (idempotent). */
  async insertProfilePhoto(row: NewProfilePhotoRow): Promise<ProfilePhotoRow> {
    const [inserted] = await this.db
      .insert(attendeeProfilePhotos)
      .values(row)
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
    const [existing] = await this.db
      .select()
      .from(attendeeProfilePhotos)
      .where(eq(attendeeProfilePhotos.storageKey, row.storageKey));
    return existing!;
  }

  async profilePhotos(attendeeId: number): Promise<ProfilePhotoRow[]> {
    return this.db
      .select()
      .from(attendeeProfilePhotos)
      .where(eq(attendeeProfilePhotos.attendeeId, attendeeId))
      .orderBy(desc(attendeeProfilePhotos.id))
      .limit(100);
  }

  /** Deletes the attendee's photo `id`; answers the deleted row, or undefined when not theirs. */
  async deleteProfilePhoto(attendeeId: number, id: number): Promise<ProfilePhotoRow | undefined> {
    const [row] = await this.db
      .delete(attendeeProfilePhotos)
      .where(
        and(eq(attendeeProfilePhotos.attendeeId, attendeeId), eq(attendeeProfilePhotos.id, id)),
      )
      .returning();
    return row;
  }

  /**
   * Writes the event's `secret_code_list` only if the event still carries `expectedUpdatedAt`
   * (one statement: two editors cannot both win). False = stale or gone; nothing changed.
   */
  async writeSecretCodeList(
    eventId: number,
    expectedUpdatedAt: Date,
    list: string,
    now: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(events)
      .set({
        secret_code_list: list,
        updatedAt: sql`greatest(${now.toISOString()}::timestamptz, ${events.updatedAt} + interval '1 millisecond')`,
      })
      .where(and(eq(events.id, eventId), eq(events.updatedAt, expectedUpdatedAt)))
      .returning({ id: events.id });
    return rows.length === 1;
  }
}
