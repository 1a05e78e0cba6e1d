import { and, eq, inArray, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { instantLinks } from '../../db/schema.ts';

export type InstantLinkRow = typeof instantLinks.$inferSelect;

/** Instant links: a photo's guest page handed out with its upload grant (services/photos). */
export class InstantLinkRepository {
  constructor(private readonly db: Db) {}

  /** Stores a link; false when the event already has this code (the caller draws another). */
  async tryCreate(link: {
    eventId: number;
    code: string;
    uploadKey: string;
    expiresAt: Date;
  }): Promise<boolean> {
    const rows = await this.db
      .insert(instantLinks)
      .values(link)
      .onConflictDoNothing()
      .returning({ id: instantLinks.id });
    return rows.length > 0;
  }

  async findByCode(eventId: number, code: string): Promise<InstantLinkRow | undefined> {
    const [row] = await this.db
      .select()
      .from(instantLinks)
      .where(and(eq(instantLinks.eventId, eventId), eq(instantLinks.code, code)));
    return row;
  }

  async findByIds(eventId: number, ids: readonly number[]): Promise<InstantLinkRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(instantLinks)
      .where(and(eq(instantLinks.eventId, eventId), inArray(instantLinks.id, [...ids])));
  }

  async findByCodes(eventId: number, codes: readonly string[]): Promise<InstantLinkRow[]> {
    if (codes.length === 0) return [];
    return this.db
      .select()
      .from(instantLinks)
      .where(and(eq(instantLinks.eventId, eventId), inArray(instantLinks.code, [...codes])));
  }

  /** The upload became this photo (a retried completion sets the same). Answers the link, if any. */
  async completed(uploadKey: string, photoId: number): Promise<InstantLinkRow | undefined> {
    const [row] = await this.db
      .update(instantLinks)
      .set({ photoId, failedAt: null })
      .where(eq(instantLinks.uploadKey, uploadKey))
      .returning();
    return row;
  }

  /** The completion refused the upload's file. Answers the link, if any. */
  async failed(uploadKey: string, at: Date): Promise<InstantLinkRow | undefined> {
    const [row] = await this.db
      .update(instantLinks)
      .set({ failedAt: at })
      .where(and(eq(instantLinks.uploadKey, uploadKey), isNull(instantLinks.photoId)))
      .returning();
    return row;
  }
}
