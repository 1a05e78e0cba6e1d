import { and, asc, eq, gt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { photos } from '../../db/schema.ts';
import type { PhotoRow } from './photo.repository.ts';

/**
 * The storage migration's queries (ADR 0006): photos whose original or unwatermarked preview still
 * lies where it lay before protected storage, and the conditional switch of a row to the moved keys.
 */
export class PhotoStorageRepository {
  constructor(private readonly db: Db) {}

  /** Rows with a pre-ADR-0006 key, by id after `afterId`, a batch at a time. */
  async withLegacyKeys(afterId: number, limit: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(
        and(
          gt(photos.id, afterId),
          or(
            sql`${photos.storageKey} like 'events/%'`,
            sql`${photos.storageKey} like 'archive/events/%'`,
            sql`${photos.derivatives}->>'preview' like 'events/%'`,
          ),
        ),
      )
      .orderBy(asc(photos.id))
      .limit(limit);
  }

  /**
   * Points the row at the moved keys, only if it still has the keys the move started from (a
   * retention run or another mover may have changed it meanwhile). Answers whether it did.
   */
  async switchKeys(
    row: PhotoRow,
    next: { storageKey: string; derivatives: Record<string, string> },
  ): Promise<boolean> {
    const updated = await this.db
      .update(photos)
      .set({ storageKey: next.storageKey, derivatives: next.derivatives })
      .where(
        and(
          eq(photos.id, row.id),
          eq(photos.storageKey, row.storageKey),
          sql`${photos.derivatives} = ${JSON.stringify(row.derivatives)}::jsonb`,
        ),
      )
      .returning({ id: photos.id });
    return updated.length === 1;
  }
}
