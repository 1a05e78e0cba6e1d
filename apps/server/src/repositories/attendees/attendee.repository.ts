import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  attendeeBatches,
  attendeeEvents,
  attendeePhotos,
  attendeeUnlocks,
  attendees,
  photos,
} from '../../db/schema.ts';
import { escapeLike, idList } from '../sql-helpers.ts';
import { releasedSql } from '../photos/photo-visibility.ts';

export type AttendeeRow = typeof attendees.$inferSelect;
export type NewAttendeeRow = typeof attendees.$inferInsert;

/** An attendee with the events their album spans, the most recently linked first. */
export interface AttendeeRecord {
  row: AttendeeRow;
  eventIds: number[];
  /** Events whose whole album was unlocked for this attendee (a desk sale or a payment). */
  unlockedEventIds?: number[];
  /** Single photos bought (unlock scope `photo:<uid>`). */
  unlockedPhotoUids?: string[];
  /** Tagged parts of an event's album bought (unlock scope `tag:<t>`): photos carrying the tag. */
  unlockedTags?: { eventId: number; tag: string }[];
}

/**
 * Who attached a photo; `upload`: an upload that named several attendees, or the same bytes again;
 * `purchase`: bought from a public or private album into the buyer's personal album.
 */
export type AttachSource = 'owner' | 'kiosk' | 'qr_scan' | 'group' | 'face' | 'upload' | 'purchase';

/** Attendees of a generation still being written are nobody's yet (see `attendeeBatches`). */
const visible: SQL = sql`(${attendees.batchId} is null or exists (
  select 1 from attendee_batches b where b.id = ${attendees.batchId} and b.status = 'ready'))`;

/** Attendees, the events they span and the photos attached to them. Data access only. */
export class AttendeeRepository {
  constructor(private readonly db: Db) {}

  private async eventIdsOf(attendeeIds: number[]): Promise<Map<number, number[]>> {
    const map = new Map<number, number[]>(attendeeIds.map((id) => [id, []]));
    if (attendeeIds.length === 0) return map;
    const rows = await this.db
      .select({ attendeeId: attendeeEvents.attendeeId, eventId: attendeeEvents.eventId })
      .from(attendeeEvents)
      .where(inArray(attendeeEvents.attendeeId, attendeeIds))
      .orderBy(desc(attendeeEvents.createdAt), desc(attendeeEvents.eventId));
    for (const row of rows) map.get(row.attendeeId)?.push(row.eventId);
    return map;
  }

  private async withEvents(rows: AttendeeRow[]): Promise<AttendeeRecord[]> {
    const ids = rows.map((r) => r.id);
    const events = await this.eventIdsOf(ids);
    const unlocked = new Map<number, number[]>();
    const photosBought = new Map<number, string[]>();
    const tagsBought = new Map<number, { eventId: number; tag: string }[]>();
    if (ids.length > 0) {
      const unlocks = await this.db
        .select({
          attendeeId: attendeeUnlocks.attendeeId,
          eventId: attendeeUnlocks.eventId,
          scope: attendeeUnlocks.scope,
        })
        .from(attendeeUnlocks)
        .where(inArray(attendeeUnlocks.attendeeId, ids));
      for (const u of unlocks) {
        if (u.scope === '*')
          unlocked.set(u.attendeeId, [...(unlocked.get(u.attendeeId) ?? []), u.eventId]);
        else if (u.scope.startsWith('photo:'))
          photosBought.set(u.attendeeId, [
            ...(photosBought.get(u.attendeeId) ?? []),
            u.scope.slice('photo:'.length),
          ]);
        else if (u.scope.startsWith('tag:'))
          tagsBought.set(u.attendeeId, [
            ...(tagsBought.get(u.attendeeId) ?? []),
            { eventId: u.eventId, tag: u.scope.slice('tag:'.length) },
          ]);
      }
    }
    return rows.map((row) => ({
      row,
      eventIds: events.get(row.id) ?? [],
      unlockedEventIds: unlocked.get(row.id) ?? [],
      unlockedPhotoUids: photosBought.get(row.id) ?? [],
      unlockedTags: tagsBought.get(row.id) ?? [],
    }));
  }

  async findByUid(uid: string): Promise<AttendeeRecord | undefined> {
    const [row] = await this.db
      .select()
      .from(attendees)
      .where(and(eq(attendees.uid, uid), visible));
    if (!row) return undefined;
    const [record] = await this.withEvents([row]);
    return record;
  }

  async findById(id: number): Promise<AttendeeRow | undefined> {
    const [row] = await this.db.select().from(attendees).where(eq(attendees.id, id));
    return row;
  }

  async findByUids(uids: string[]): Promise<AttendeeRow[]> {
    if (uids.length === 0) return [];
    return this.db
      .select()
      .from(attendees)
      .where(and(inArray(attendees.uid, uids), visible));
  }

  /** Inserts unless the uid is taken; answers the row either way. */
  async insertOrGet(row: NewAttendeeRow): Promise<AttendeeRow> {
    const [inserted] = await this.db
      .insert(attendees)
      .values(row)
      .onConflictDoNothing()
      .returning();
    if (inserted) return inserted;
    const [existing] = await this.db.select().from(attendees).where(eq(attendees.uid, row.uid));
    if (!existing) throw new Error('attendee conflict without a matching row');
    return existing;
  }

  /** A generation starts `pending`: its attendees stay invisible until `readyBatch`. */
  async createBatch(organisationId: number, requestedCount: number, now: Date): Promise<number> {
    const [row] = await this.db
      .insert(attendeeBatches)
      .values({ organisationId, requestedCount, status: 'pending', createdAt: now })
      .returning({ id: attendeeBatches.id });
    if (!row) throw new Error('no attendee batch row');
    return row.id;
  }

  /**
   * One chunk of a generation in its own short transaction: the attendees (a uid already taken is
   * skipped; the caller makes more) and their events. Answers the rows inserted.
   */
  async insertChunk(rows: NewAttendeeRow[], eventIds: number[]): Promise<AttendeeRow[]> {
    return this.db.transaction(async (tx) => {
      const inserted = await tx.insert(attendees).values(rows).onConflictDoNothing().returning();
      if (inserted.length > 0) {
        await tx.execute(
          sql`insert into attendee_events (attendee_id, event_id)
              select a.id, e.id from attendees a cross join events e
              where a.id in (${idList(inserted.map((r) => r.id))}) and e.id in (${idList(eventIds)})
              on conflict do nothing`,
        );
      }
      return inserted;
    });
  }

  /** Every attendee of the batch becomes visible at once (one row changes). */
  async readyBatch(batchId: number): Promise<void> {
    await this.db
      .update(attendeeBatches)
      .set({ status: 'ready' })
      .where(eq(attendeeBatches.id, batchId));
  }

  /** A failed generation leaves nothing: the batch and (cascading) its attendees go. */
  async deleteBatch(batchId: number): Promise<void> {
    await this.db.delete(attendeeBatches).where(eq(attendeeBatches.id, batchId));
  }

  /** Batches still pending since before `cutoff` were abandoned by a crash; answers how many. */
  async deleteAbandonedBatches(cutoff: Date): Promise<number> {
    const rows = await this.db
      .delete(attendeeBatches)
      .where(
        and(eq(attendeeBatches.status, 'pending'), sql`${attendeeBatches.createdAt} < ${cutoff}`),
      )
      .returning({ id: attendeeBatches.id });
    return rows.length;
  }

  /** The newest visible attendee of an event with this e-mail address (case-insensitive). */
  async findByEmailInEvent(eventId: number, email: string): Promise<AttendeeRow | undefined> {
    const [row] = await this.db
      .select({ attendee: attendees })
      .from(attendees)
      .innerJoin(attendeeEvents, eq(attendeeEvents.attendeeId, attendees.id))
      .where(
        and(
          eq(attendeeEvents.eventId, eventId),
          sql`lower(${attendees.email}) = ${email.toLowerCase()}`,
          visible,
        ),
      )
      .orderBy(desc(attendees.createdAt))
      .limit(1);
    return row?.attendee;
  }

  async linkEvent(attendeeId: number, eventId: number): Promise<void> {
    await this.db.insert(attendeeEvents).values({ attendeeId, eventId }).onConflictDoNothing();
  }

  /** Attendees of an event, newest first, optionally by uid prefix. */
  async listByEvent(
    eventId: number,
    uidPrefix: string | undefined,
    limit: number,
    offset: number,
  ): Promise<{ records: AttendeeRecord[]; total: number }> {
    const where = and(
      eq(attendeeEvents.eventId, eventId),
      visible,
      uidPrefix ? sql`${attendees.uid} like ${`${escapeLike(uidPrefix)}%`} escape '\\'` : undefined,
    );
    const rows = await this.db
      .select({ attendee: attendees })
      .from(attendees)
      .innerJoin(attendeeEvents, eq(attendeeEvents.attendeeId, attendees.id))
      .where(where)
      .orderBy(desc(attendees.createdAt), desc(attendees.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db
      .select({ n: count() })
      .from(attendees)
      .innerJoin(attendeeEvents, eq(attendeeEvents.attendeeId, attendees.id))
      .where(where);
    return { records: await this.withEvents(rows.map((r) => r.attendee)), total: total?.n ?? 0 };
  }

  /** Photos in each attendee's album (uploaded with their id or attached), any status. */
  /** The newest ready photos of an attendee's album at one event (for the album mail's thumbnails). */
  async recentPhotos(attendeeId: number, eventId: number, limit: number) {
    return this.db
      .select()
      .from(photos)
      .innerJoin(attendees, eq(attendees.id, attendeeId))
      .where(
        and(
          eq(photos.eventId, eventId),
          eq(photos.status, 'ready'),
          releasedSql,
          sql`(${photos.attendeeUid} = ${attendees.uid} or exists (
            select 1 from attendee_photos ap
            where ap.attendee_id = ${attendees.id} and ap.photo_id = ${photos.id}))`,
        ),
      )
      .orderBy(desc(photos.createdAt), desc(photos.id))
      .limit(limit)
      .then((rows) => rows.map((r) => r.photos));
  }

  async photoCounts(attendeeIds: number[]): Promise<Map<number, number>> {
    const map = new Map<number, number>(attendeeIds.map((id) => [id, 0]));
    if (attendeeIds.length === 0) return map;
    const rows = await this.db
      .select({
        attendeeId: attendees.id,
        n: sql<number>`count(distinct ${photos.id})`.mapWith(Number),
      })
      .from(attendees)
      .innerJoin(attendeeEvents, eq(attendeeEvents.attendeeId, attendees.id))
      .innerJoin(photos, eq(photos.eventId, attendeeEvents.eventId))
      .where(
        and(
          inArray(attendees.id, attendeeIds),
          sql`(${photos.attendeeUid} = ${attendees.uid} or exists (
            select 1 from attendee_photos ap
            where ap.attendee_id = ${attendees.id} and ap.photo_id = ${photos.id}))`,
        ),
      )
      .groupBy(attendees.id);
    for (const row of rows) map.set(row.attendeeId, row.n);
    return map;
  }

  /** Whether the photo is in the attendee's album (their events; their id or attached). */
  async ownsPhoto(
    record: AttendeeRecord,
    photo: { id: number; eventId: number; attendeeUid: string | null },
  ): Promise<boolean> {
    if (!record.eventIds.includes(photo.eventId)) return false;
    if (photo.attendeeUid === record.row.uid) return true;
    const [row] = await this.db
      .select({ photoId: attendeePhotos.photoId })
      .from(attendeePhotos)
      .where(
        and(eq(attendeePhotos.attendeeId, record.row.id), eq(attendeePhotos.photoId, photo.id)),
      );
    return row !== undefined;
  }

  /** Attaches photos (already attached ones are kept); answers how many were new. */
  async attach(attendeeId: number, photoIds: number[], source: AttachSource): Promise<number> {
    if (photoIds.length === 0) return 0;
    const rows = await this.db
      .insert(attendeePhotos)
      .values(photoIds.map((photoId) => ({ attendeeId, photoId, source })))
      .onConflictDoNothing()
      .returning({ photoId: attendeePhotos.photoId });
    return rows.length;
  }

  async detach(attendeeId: number, photoIds: number[]): Promise<number> {
    if (photoIds.length === 0) return 0;
    const rows = await this.db
      .delete(attendeePhotos)
      .where(
        and(eq(attendeePhotos.attendeeId, attendeeId), inArray(attendeePhotos.photoId, photoIds)),
      )
      .returning({ photoId: attendeePhotos.photoId });
    return rows.length;
  }

  /** Attendees of an organisation whose printed private id is this code (kiosk cards). */
  async findByPrivateId(organisationId: number, privateId: string): Promise<AttendeeRow[]> {
    return this.db
      .select()
      .from(attendees)
      .where(
        and(
          eq(attendees.organisationId, organisationId),
          eq(attendees.privateId, privateId),
          visible,
        ),
      )
      .limit(2);
  }

  /** Ids and events of every photo in an attendee's album (grouping cards at a kiosk). */
  async albumPhotos(attendeeId: number, uid: string): Promise<{ id: number; eventId: number }[]> {
    return this.db
      .select({ id: photos.id, eventId: photos.eventId })
      .from(photos)
      .where(attendeePhotoScope(attendeeId, uid));
  }

  /** For each photo, the uids of the attendees it was attached to. */
  async attachedUids(photoIds: number[]): Promise<Map<number, string[]>> {
    const map = new Map<number, string[]>();
    if (photoIds.length === 0) return map;
    const rows = await this.db
      .select({ photoId: attendeePhotos.photoId, uid: attendees.uid })
      .from(attendeePhotos)
      .innerJoin(attendees, eq(attendees.id, attendeePhotos.attendeeId))
      .where(inArray(attendeePhotos.photoId, photoIds))
      .orderBy(attendees.uid);
    for (const row of rows) map.set(row.photoId, [...(map.get(row.photoId) ?? []), row.uid]);
    return map;
  }

  async update(
    id: number,
    changes: Partial<Pick<NewAttendeeRow, 'lockedAt' | 'email'>>,
  ): Promise<AttendeeRow | undefined> {
    const [row] = await this.db
      .update(attendees)
      .set(changes)
      .where(eq(attendees.id, id))
      .returning();
    return row;
  }
}

/** The photos condition of an attendee's album, for the photo list (PhotoRepository). */
export const attendeePhotoScope = (attendeeId: number, uid: string): SQL =>
  sql`${photos.eventId} in (select ae.event_id from attendee_events ae where ae.attendee_id = ${attendeeId})
      and (${photos.attendeeUid} = ${uid} or ${photos.id} in (
        select ap.photo_id from attendee_photos ap where ap.attendee_id = ${attendeeId}))`;
