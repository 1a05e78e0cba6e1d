import { and, desc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { attendeeFavourites } from '../../db/schema.ts';

/** The photos attendees marked as favourites in their albums. Data access only. */
export class AttendeeFavouritesRepository {
  constructor(private readonly db: Db) {}

  /** The attendee's favourites, the newest mark first. */
  async list(attendeeId: number): Promise<number[]> {
    const rows = await this.db
      .select({ photoId: attendeeFavourites.photoId })
      .from(attendeeFavourites)
      .where(eq(attendeeFavourites.attendeeId, attendeeId))
      .orderBy(desc(attendeeFavourites.createdAt), desc(attendeeFavourites.photoId));
    return rows.map((r) => r.photoId);
  }

  /** Marks the photos (a photo marked already keeps its first mark). */
  async add(attendeeId: number, photoIds: readonly number[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.db
      .insert(attendeeFavourites)
      .values(photoIds.map((photoId) => ({ attendeeId, photoId })))
      .onConflictDoNothing();
  }

  async remove(attendeeId: number, photoIds: readonly number[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.db
      .delete(attendeeFavourites)
      .where(
        and(
          eq(attendeeFavourites.attendeeId, attendeeId),
          inArray(attendeeFavourites.photoId, [...photoIds]),
        ),
      );
  }
}
