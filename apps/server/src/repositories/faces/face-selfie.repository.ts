import { and, eq, gt, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  events,
  faceDataDeletions,
  faceSelfies,
  indexIgnoreFaces,
  photoFaces,
  photoFaceScans,
} from '../../db/schema.ts';
import { rowsOf } from '../raw-rows.ts';

export type FaceSelfieRow = typeof faceSelfies.$inferSelect;
export type NewFaceSelfie = typeof faceSelfies.$inferInsert;

/** Why face data was deleted (the owner's deletion counts). */
export type FaceDeletionReason = 'selfie_expired' | 'owner_deleted_all';

/** Guests' selfies with their consent, and the record of deleted face data. I/O only. */
export class FaceSelfieRepository {
  constructor(private readonly db: Db) {}

  async add(row: NewFaceSelfie): Promise<FaceSelfieRow> {
    const [stored] = await this.db.insert(faceSelfies).values(row).returning();
    return stored!;
  }

  /** The event's selfie stored under `key`, when it has not expired at `now`. */
  async findLive(eventId: number, key: string, now: Date): Promise<FaceSelfieRow | undefined> {
    const [row] = await this.db
      .select()
      .from(faceSelfies)
      .where(
        and(
          eq(faceSelfies.eventId, eventId),
          eq(faceSelfies.storageKey, key),
          gt(faceSelfies.expiresAt, now),
        ),
      );
    return row;
  }

  /** The descriptor of the selfie's face, kept for association (first search only). */
  async describe(id: number, model: string, descriptor: Float32Array): Promise<void> {
    await this.db
      .update(faceSelfies)
      .set({ model, descriptor: Array.from(descriptor) })
      .where(eq(faceSelfies.id, id));
  }

  /**
   * Selfies due for deletion at `now`: their own expiry, or — measured from the consent, with the
   * event's current settings, so shortening them takes effect — the event's selfie expiration or
   * its photo retention (`photo_auto_delete_days`).
   */
  async due(now: Date, limit: number): Promise<{ id: number; eventId: number; key: string }[]> {
    const at = now.toISOString();
    const result = await this.db.execute(sql`
      select s.id, s.event_id, s.storage_key from face_selfies s
      join events e on e.id = s.event_id
      where s.expires_at <= ${at}::timestamptz
        or (jsonb_typeof(e.opts -> 'selfieExpirationMinutes') = 'number'
            and s.consented_at + ((e.opts ->> 'selfieExpirationMinutes')::int * interval '1 minute')
              <= ${at}::timestamptz)
        or (e.photo_auto_delete_days is not null
            and s.consented_at + (e.photo_auto_delete_days * interval '1 day') <= ${at}::timestamptz)
      order by s.id
      limit ${limit}
    `);
    return rowsOf(result).map((row) => ({
      id: Number(row.id),
      eventId: Number(row.event_id),
      key: String(row.storage_key),
    }));
  }

  /**
   * Deletes selfie rows (their objects are deleted first by the caller) and records the deletion
   * per event, in one transaction. Answers the rows gone.
   */
  async deleteExpired(ids: number[], now: Date): Promise<number> {
    if (ids.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      const gone = await tx
        .delete(faceSelfies)
        .where(inArray(faceSelfies.id, ids))
        .returning({ eventId: faceSelfies.eventId });
      const perEvent = new Map<number, number>();
      for (const row of gone) perEvent.set(row.eventId, (perEvent.get(row.eventId) ?? 0) + 1);
      for (const [eventId, count] of perEvent)
        await tx.insert(faceDataDeletions).values({
          eventId,
          reason: 'selfie_expired' satisfies FaceDeletionReason,
          faces: 0,
          selfies: count,
          deletedAt: now,
        });
      return gone.length;
    });
  }

  /** The storage keys of every selfie of an event (the owner's "delete all face data"). */
  async keysOfEvent(eventId: number): Promise<string[]> {
    const rows = await this.db
      .select({ key: faceSelfies.storageKey })
      .from(faceSelfies)
      .where(eq(faceSelfies.eventId, eventId));
    return rows.map((r) => r.key);
  }

  /**
   * Every face, scan and selfie of an event, the ignored faces' descriptors forgotten, face
   * recognition turned off (nothing is indexed again behind the owner's back) and the deletion
   * recorded — one transaction. Answers what went.
   */
  async deleteAllOfEvent(eventId: number, now: Date): Promise<{ faces: number; selfies: number }> {
    return this.db.transaction(async (tx) => {
      await tx
        .update(events)
        .set({
          enable_facial_recognition: 0,
          updatedAt: sql`greatest(${now.toISOString()}::timestamptz, ${events.updatedAt} + interval '1 millisecond')`,
        })
        .where(eq(events.id, eventId));
      const faces = await tx
        .delete(photoFaces)
        .where(eq(photoFaces.eventId, eventId))
        .returning({ id: photoFaces.id });
      await tx.delete(photoFaceScans).where(eq(photoFaceScans.eventId, eventId));
      await tx
        .update(indexIgnoreFaces)
        .set({ model: null, descriptor: null })
        .where(eq(indexIgnoreFaces.eventId, eventId));
      const selfies = await tx
        .delete(faceSelfies)
        .where(eq(faceSelfies.eventId, eventId))
        .returning({ id: faceSelfies.id });
      await tx.insert(faceDataDeletions).values({
        eventId,
        reason: 'owner_deleted_all' satisfies FaceDeletionReason,
        faces: faces.length,
        selfies: selfies.length,
        deletedAt: now,
      });
      return { faces: faces.length, selfies: selfies.length };
    });
  }

  /** Selfies kept for the event, and the faces and selfies deleted so far. */
  async countsForEvent(
    eventId: number,
  ): Promise<{ selfies: number; deletedFaces: number; deletedSelfies: number }> {
    const [kept] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(faceSelfies)
      .where(eq(faceSelfies.eventId, eventId));
    const [deleted] = await this.db
      .select({
        faces: sql<number>`coalesce(sum(${faceDataDeletions.faces}), 0)::int`,
        selfies: sql<number>`coalesce(sum(${faceDataDeletions.selfies}), 0)::int`,
      })
      .from(faceDataDeletions)
      .where(eq(faceDataDeletions.eventId, eventId));
    return {
      selfies: kept?.n ?? 0,
      deletedFaces: deleted?.faces ?? 0,
      deletedSelfies: deleted?.selfies ?? 0,
    };
  }

  /** Attendees' selfies of an event still associating at `now`, described with `model`. */
  async associating(eventId: number, model: string, now: Date): Promise<FaceSelfieRow[]> {
    return this.db
      .select()
      .from(faceSelfies)
      .where(
        and(
          eq(faceSelfies.eventId, eventId),
          isNotNull(faceSelfies.attendeeId),
          isNotNull(faceSelfies.descriptor),
          eq(faceSelfies.model, model),
          gt(faceSelfies.associateUntil, now),
          gt(faceSelfies.expiresAt, now),
        ),
      );
  }

  /**
   * Claims the attendee's "new photos of you" message for this event at `now`: true when none
   * was sent in the last `gapMinutes` (then `now` is recorded), false otherwise. One statement,
   * so two workers never both win.
   */
  async claimNotice(
    eventId: number,
    attendeeId: number,
    now: Date,
    gapMinutes: number,
  ): Promise<boolean> {
    const at = now.toISOString();
    const result = await this.db.execute(sql`
      update face_selfies set notified_at = ${at}::timestamptz
      where id = (
        select id from face_selfies
        where event_id = ${eventId} and attendee_id = ${attendeeId}
        order by id desc limit 1
      )
      and not exists (
        select 1 from face_selfies
        where event_id = ${eventId} and attendee_id = ${attendeeId}
          and notified_at > ${at}::timestamptz - (${gapMinutes} * interval '1 minute')
      )
      returning id
    `);
    return rowsOf(result).length > 0;
  }
}
