import { and, asc, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { photoAudit, photos, robots, storageDeletions, users } from '../../db/schema.ts';
import { rowsOf } from '../raw-rows.ts';
import { photoAuditRows, type PhotoRow } from './photo.repository.ts';

/** The actions a moderation decision writes to the photo audit trail (`photo_audit.action`). */
export const MODERATION_ACTIONS = ['approve', 'reject'] as const;
export type ModerationAction = (typeof MODERATION_ACTIONS)[number];

export interface QueueFilter {
  eventId: number;
  robotId?: number;
  /** Compared without case. */
  tag?: string;
}

/** One decision of the moderation log, with who made it. */
export interface ModerationLogRow {
  id: number;
  photoId: number;
  photoUid: string;
  fileName: string;
  action: ModerationAction;
  reason: string | null;
  actorUserId: number | null;
  actorEmail: string | null;
  createdAt: Date;
}

/**
 * The moderation queue (photos `pending`), its decisions and the release of approved photos.
 * Decisions are kept in the photo audit trail (`photo_audit`, actions `approve` / `reject`):
 * a rejected photo's row is gone, its audit row stays.
 */
export class ModerationRepository {
  constructor(private readonly db: Db) {}

  /** The photos among `ids` of the event still waiting for a decision. */
  private pendingAmong(eventId: number, ids: number[]): SQL | undefined {
    return and(
      eq(photos.eventId, eventId),
      inArray(photos.id, ids),
      eq(photos.moderation, 'pending'),
    );
  }

  private queueWhere(f: QueueFilter): SQL {
    return and(
      eq(photos.eventId, f.eventId),
      eq(photos.moderation, 'pending'),
      f.robotId !== undefined ? eq(photos.robotId, f.robotId) : undefined,
      f.tag !== undefined
        ? sql`exists (select 1 from jsonb_array_elements_text(${photos.tags}) t(tag)
            where lower(t.tag) = ${f.tag.toLowerCase()})`
        : undefined,
    )!;
  }

  /** A page of the queue, oldest first (the order they came in). */
  async queue(f: QueueFilter, limit: number, offset: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(this.queueWhere(f))
      .orderBy(asc(photos.createdAt), asc(photos.id))
      .limit(limit)
      .offset(offset);
  }

  async queueCount(f: QueueFilter): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(photos).where(this.queueWhere(f));
    return row?.n ?? 0;
  }

  /** What the queue can be filtered by: the robots and the tags of the event's waiting photos. */
  async queueFacets(
    eventId: number,
  ): Promise<{ robots: { id: number; name: string }[]; tags: string[] }> {
    const robotRows = await this.db
      .selectDistinct({ id: robots.id, name: robots.name })
      .from(photos)
      .innerJoin(robots, eq(robots.id, photos.robotId))
      .where(and(eq(photos.eventId, eventId), eq(photos.moderation, 'pending')))
      .orderBy(asc(robots.name), asc(robots.id));
    const tagRows = rowsOf(
      await this.db.execute(sql`
        select distinct lower(t.tag) as tag from ${photos}
        cross join lateral jsonb_array_elements_text(${photos.tags}) t(tag)
        where ${photos.eventId} = ${eventId} and ${photos.moderation} = 'pending'
        order by 1 limit 200`),
    );
    return { robots: robotRows, tags: tagRows.map((r) => String(r.tag)) };
  }

  /** The event's photos among `ids` that wait in the queue. */
  async pendingOf(eventId: number, ids: number[]): Promise<PhotoRow[]> {
    if (ids.length === 0) return [];
    return this.db
      .select()
      .from(photos)
      .where(
        and(eq(photos.eventId, eventId), inArray(photos.id, ids), eq(photos.moderation, 'pending')),
      );
  }

  /**
   * Approves waiting photos and logs each, in one transaction. A ready photo becomes `releasing`
   * (its `photo.ready` is owed: the release job sends it); one still processing (or failed)
   * becomes `approved`, and its derivatives announce it when they are done. The condition is
   * read on the row as it is when the update takes it, so a derivatives job finishing at the same
   * moment and this approval never both announce, nor neither.
   */
  async approve(
    eventId: number,
    ids: number[],
    actorUserId: number | null,
    reason: string | null,
  ): Promise<{ releasing: number; approved: number }> {
    if (ids.length === 0) return { releasing: 0, approved: 0 };
    return this.db.transaction(async (tx) => {
      const rows = await tx
        .update(photos)
        .set({
          moderation: sql`case when ${photos.status} = 'ready' then 'releasing' else 'approved' end`,
        })
        .where(this.pendingAmong(eventId, ids))
        .returning();
      if (rows.length > 0)
        await tx.insert(photoAudit).values(
          photoAuditRows(rows, {
            action: 'approve' satisfies ModerationAction,
            reason,
            actorUserId,
          }),
        );
      const releasing = rows.filter((r) => r.moderation === 'releasing').length;
      return { releasing, approved: rows.length - releasing };
    });
  }

  /**
   * Rejects waiting photos: the audit row (who, when, why), the photo rows gone and their storage
   * owed (`storage_deletions`, deleted by job `storage.delete-pending`), all in one transaction, so
   * a crash after the commit leaves no file behind for good. Answers the rows deleted.
   */
  async reject(
    eventId: number,
    ids: number[],
    actorUserId: number | null,
    reason: string,
    prefixesOf: (row: PhotoRow) => string[],
  ): Promise<PhotoRow[]> {
    if (ids.length === 0) return [];
    return this.db.transaction(async (tx) => {
      const rows = await tx.delete(photos).where(this.pendingAmong(eventId, ids)).returning();
      if (rows.length === 0) return [];
      await tx.insert(photoAudit).values(
        photoAuditRows(rows, {
          action: 'reject' satisfies ModerationAction,
          reason,
          actorUserId,
        }),
      );
      const prefixes = rows.flatMap(prefixesOf);
      if (prefixes.length > 0)
        await tx.insert(storageDeletions).values(prefixes.map((prefix) => ({ prefix })));
      return rows;
    });
  }

  /** Approved photos whose `photo.ready` is still owed, oldest first. */
  async releasing(limit: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(eq(photos.moderation, 'releasing'))
      .orderBy(asc(photos.id))
      .limit(limit);
  }

  /** The photo's `photo.ready` went out. */
  async released(photoId: number): Promise<void> {
    await this.db
      .update(photos)
      .set({ moderation: 'approved' })
      .where(and(eq(photos.id, photoId), eq(photos.moderation, 'releasing')));
  }

  /** The event's moderation decisions, newest first. */
  async log(
    eventId: number,
    limit: number,
    offset: number,
  ): Promise<{ rows: ModerationLogRow[]; total: number }> {
    const where = and(
      eq(photoAudit.eventId, eventId),
      inArray(photoAudit.action, [...MODERATION_ACTIONS]),
    );
    const rows = await this.db
      .select({
        id: photoAudit.id,
        photoId: photoAudit.photoId,
        photoUid: photoAudit.photoUid,
        fileName: photoAudit.fileName,
        action: photoAudit.action,
        reason: photoAudit.reason,
        actorUserId: photoAudit.actorUserId,
        actorEmail: users.email,
        createdAt: photoAudit.createdAt,
      })
      .from(photoAudit)
      .leftJoin(users, eq(users.id, photoAudit.actorUserId))
      .where(where)
      .orderBy(desc(photoAudit.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ n: count() }).from(photoAudit).where(where);
    return {
      rows: rows.map((r) => ({ ...r, action: r.action as ModerationAction })),
      total: total?.n ?? 0,
    };
  }
}
