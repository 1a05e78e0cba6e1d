import { and, asc, eq, gt, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { miniAlbums, photos, photoShares } from '../../db/schema.ts';
import type { PhotoRow } from '../photos/photo.repository.ts';

export type MiniAlbumRow = typeof miniAlbums.$inferSelect;
export type NewMiniAlbumRow = typeof miniAlbums.$inferInsert;

/** Album reads and writes beyond the photo list: mini-albums, shares, photos by uid. Data access only. */
export class AlbumRepository {
  constructor(private readonly db: Db) {}

  async photoByUid(uid: string): Promise<PhotoRow | undefined> {
    const [row] = await this.db.select().from(photos).where(eq(photos.uid, uid));
    return row;
  }

  async photosByUids(eventId: number, uids: string[]): Promise<PhotoRow[]> {
    if (uids.length === 0) return [];
    return this.db
      .select()
      .from(photos)
      .where(and(eq(photos.eventId, eventId), inArray(photos.uid, uids)));
  }

  /** Photos of the event given by id, in the order asked. */
  async photosByIds(eventId: number, ids: number[]): Promise<PhotoRow[]> {
    if (ids.length === 0) return [];
    const rows = await this.db
      .select()
      .from(photos)
      .where(and(eq(photos.eventId, eventId), inArray(photos.id, ids)));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.map((id) => byId.get(id)).filter((r): r is PhotoRow => r !== undefined);
  }

  /** Ready photos still waiting for their photo delay: a live stream shows them when due. */
  async delayedPhotos(eventId: number, now: Date, limit = 500): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(
        and(eq(photos.eventId, eventId), eq(photos.status, 'ready'), gt(photos.availableAt, now)),
      )
      .orderBy(asc(photos.availableAt))
      .limit(limit);
  }

  async createMiniAlbum(row: NewMiniAlbumRow): Promise<MiniAlbumRow> {
    const [created] = await this.db.insert(miniAlbums).values(row).returning();
    if (!created) throw new Error('mini-album insert returned nothing');
    return created;
  }

  async miniAlbumByTokenHash(tokenHash: string): Promise<MiniAlbumRow | undefined> {
    const [row] = await this.db
      .select()
      .from(miniAlbums)
      .where(eq(miniAlbums.tokenHash, tokenHash));
    return row;
  }

  async addShare(row: typeof photoShares.$inferInsert): Promise<number> {
    const [created] = await this.db
      .insert(photoShares)
      .values(row)
      .returning({ id: photoShares.id });
    if (!created) throw new Error('share insert returned nothing');
    return created.id;
  }

  async sharesOf(eventId: number) {
    return this.db.select().from(photoShares).where(eq(photoShares.eventId, eventId));
  }
}
