import {
  and,
  count,
  desc,
  eq,
  gt,
  gte,
  inArray,
  isNull,
  lt,
  lte,
  or,
  getTableColumns,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { attendeePhotoScope } from '../attendees/attendee.repository.ts';
import { rowsOf } from '../raw-rows.ts';
import { escapeLike } from '../sql-helpers.ts';
import { inEventAlbumSql, shownToGuestsSql } from './photo-visibility.ts';
import {
  activities,
  events as eventsTable,
  photoAudit,
  photos,
  photoUploads,
  uploadClaims,
} from '../../db/schema.ts';

export type PhotoRow = typeof photos.$inferSelect;
export type NewPhotoRow = typeof photos.$inferInsert;

/**
 * The audit trail's rows for photos that change for good (deleted, erased, moderated): who, what,
 * why, and the photo's names, which stay after its row is gone.
 */
export const photoAuditRows = (
  rows: PhotoRow[],
  entry: { action: string; reason: string | null; actorUserId: number | null },
): (typeof photoAudit.$inferInsert)[] =>
  rows.map((r) => ({
    eventId: r.eventId,
    photoId: r.id,
    photoUid: r.uid,
    fileName: r.fileName,
    ...entry,
  }));

/** Each photo column: its property, its database name, and whether it is a timestamp. */
const photoColumns = Object.entries(getTableColumns(photos)).map(([key, column]) => ({
  key,
  name: column.name,
  isDate: column.columnType === 'PgTimestamp',
}));

/** A photo row as `row_to_json` writes it (database names, timestamps as text) → a PhotoRow. */
const photoFromJson = (json: Record<string, unknown>): PhotoRow => {
  const row: Record<string, unknown> = {};
  for (const { key, name, isDate } of photoColumns) {
    const value = json[name] ?? null;
    row[key] = isDate && typeof value === 'string' ? new Date(value) : value;
  }
  return row as PhotoRow;
};

/** Newest first, as the list is ordered (created_at desc, id desc). */
const byListOrder = (a: PhotoRow, b: PhotoRow): number =>
  b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;

export interface PhotoFilter {
  eventId: number;
  /** An attendee's album instead of the event: their photos across all their events. */
  attendeeAlbum?: { attendeeId: number; uid: string };
  /** With `attendeeAlbum`: only its photos of `eventId` (what a sale at that event covers). */
  albumEventOnly?: boolean;
  /** Only photos albums may show now (shown to guests, photo-visibility.ts, and past their delay). */
  publishedOnly?: boolean;
  includeDelayed?: boolean;
  /**
   * A VIP token was given (albums §2.4): with `publishedOnly`, photos uploaded at or before this
   * moment are shown even while their own photo delay runs (the VIP delay has passed for them).
   */
  vipUploadedBy?: Date;
  now: Date;
  createdAfter?: Date;
  createdBefore?: Date;
  isVisible?: 0 | 1;
  isKiosk?: 0 | 1;
  isCuratable?: 0 | 1;
  isCurated?: 0 | 1;
  isOriginal?: 0 | 1;
  printable?: 0 | 1;
  printed?: 0 | 1;
  imageProcessId?: number;
  fileNameContains?: string;
  attendeeUid?: string;
  /** Only the uploads of this robot (what a robot key lists). */
  robotId?: number;
  /** Keyset paging: photos after this one in the list order (newest first). */
  beforeId?: number;
  /** Only these photos (search by face: the matches a key's audience may see). */
  ids?: number[];
}

/** Photos, their audit trail and robot activities: data access only. */
export class PhotoRepository {
  constructor(private readonly db: Db) {}

  /** Inserts unless the same bytes are already in the event; answers the row either way. */
  async insertOrGet(row: NewPhotoRow): Promise<{ photo: PhotoRow; created: boolean }> {
    const [inserted] = await this.db.insert(photos).values(row).onConflictDoNothing().returning();
    if (inserted) return { photo: inserted, created: true };
    const [existing] = await this.db
      .select()
      .from(photos)
      .where(and(eq(photos.eventId, row.eventId), eq(photos.sha256, row.sha256)));
    if (!existing) throw new Error('photo conflict without a matching row');
    return { photo: existing, created: false };
  }

  async photoForUpload(uploadKey: string): Promise<PhotoRow | undefined> {
    const [row] = await this.db
      .select({ photo: photos })
      .from(photoUploads)
      .innerJoin(photos, eq(photos.id, photoUploads.photoId))
      .where(eq(photoUploads.uploadKey, uploadKey));
    return row?.photo;
  }

  async recordUpload(uploadKey: string, photoId: number): Promise<void> {
    await this.db.insert(photoUploads).values({ uploadKey, photoId }).onConflictDoNothing();
  }

  /**
   * Claims the enqueue of a photo's derivatives for its upload completion: true for exactly one
   * caller, however many processes complete the same upload at once (one conditional update).
   */
  async claimDerivatives(photoId: number, at: Date): Promise<boolean> {
    const claimed = await this.db
      .update(photos)
      .set({ derivativesQueuedAt: at })
      .where(and(eq(photos.id, photoId), isNull(photos.derivativesQueuedAt)))
      .returning({ id: photos.id });
    return claimed.length > 0;
  }

  /** Takes over a claim made before `staleBefore` (its process may have died before the send). */
  async reclaimDerivatives(photoId: number, at: Date, staleBefore: Date): Promise<boolean> {
    const claimed = await this.db
      .update(photos)
      .set({ derivativesQueuedAt: at })
      .where(and(eq(photos.id, photoId), lt(photos.derivativesQueuedAt, staleBefore)))
      .returning({ id: photos.id });
    return claimed.length > 0;
  }

  /** A completion starts work on an upload object (the sweep leaves it while the claim is fresh). */
  async claimUpload(uploadKey: string, at: Date): Promise<void> {
    await this.db
      .insert(uploadClaims)
      .values({ uploadKey, claimedAt: at })
      .onConflictDoUpdate({ target: uploadClaims.uploadKey, set: { claimedAt: at } });
  }

  async releaseUpload(uploadKey: string): Promise<void> {
    await this.db.delete(uploadClaims).where(eq(uploadClaims.uploadKey, uploadKey));
  }

  /** The upload keys a completion claimed at or after `since` (work in progress). */
  async uploadsClaimedSince(since: Date): Promise<Set<string>> {
    const rows = await this.db
      .select({ key: uploadClaims.uploadKey })
      .from(uploadClaims)
      .where(gte(uploadClaims.claimedAt, since));
    return new Set(rows.map((r) => r.key));
  }

  /** Claims older than `before`: left by a process that died mid-completion. */
  async deleteUploadClaimsBefore(before: Date): Promise<number> {
    const rows = await this.db
      .delete(uploadClaims)
      .where(lt(uploadClaims.claimedAt, before))
      .returning({ key: uploadClaims.uploadKey });
    return rows.length;
  }

  /** Every variant image processes made of a photo. */
  async variantsOf(originalPhotoId: number): Promise<PhotoRow[]> {
    return this.db.select().from(photos).where(eq(photos.originalPhotoId, originalPhotoId));
  }

  /** The variant an image process made of a photo, if any. */
  async findVariant(
    originalPhotoId: number,
    imageProcessId: number,
  ): Promise<PhotoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(photos)
      .where(
        and(eq(photos.originalPhotoId, originalPhotoId), eq(photos.imageProcessId, imageProcessId)),
      )
      .limit(1);
    return row;
  }

  async findById(id: number): Promise<PhotoRow | undefined> {
    const [row] = await this.db.select().from(photos).where(eq(photos.id, id));
    return row;
  }

  /** The photo of this event with this uid (the uid names its storage folder). */
  async findByEventUid(eventId: number, uid: string): Promise<PhotoRow | undefined> {
    const [row] = await this.db
      .select()
      .from(photos)
      .where(and(eq(photos.uid, uid), eq(photos.eventId, eventId)));
    return row;
  }

  async findByIds(ids: number[]): Promise<PhotoRow[]> {
    if (ids.length === 0) return [];
    return this.db.select().from(photos).where(inArray(photos.id, ids));
  }

  private conditions(f: PhotoFilter): SQL[] {
    const c: (SQL | undefined)[] = [
      f.attendeeAlbum
        ? attendeePhotoScope(f.attendeeAlbum.attendeeId, f.attendeeAlbum.uid)
        : eq(photos.eventId, f.eventId),
      f.attendeeAlbum && f.albumEventOnly ? eq(photos.eventId, f.eventId) : undefined,
    ];
    if (f.publishedOnly) {
      // A guest's photo kept to its uploader's album is in that album only.
      if (!f.attendeeAlbum) c.push(inEventAlbumSql);
      c.push(
        shownToGuestsSql,
        f.vipUploadedBy
          ? or(lte(photos.availableAt, f.now), lte(photos.createdAt, f.vipUploadedBy))
          : lte(photos.availableAt, f.now),
      );
    } else if (!f.includeDelayed) {
      c.push(lte(photos.availableAt, f.now));
    }
    if (f.createdAfter) c.push(gte(photos.createdAt, f.createdAfter));
    if (f.createdBefore) c.push(lte(photos.createdAt, f.createdBefore));
    if (f.isVisible !== undefined) c.push(eq(photos.isVisible, f.isVisible));
    if (f.isKiosk !== undefined) c.push(eq(photos.isKiosk, f.isKiosk));
    if (f.isCuratable !== undefined) c.push(eq(photos.isCuratable, f.isCuratable));
    if (f.isCurated !== undefined) c.push(eq(photos.isCurated, f.isCurated));
    if (f.isOriginal !== undefined) c.push(eq(photos.isOriginal, f.isOriginal));
    if (f.printable !== undefined) c.push(eq(photos.printable, f.printable));
    if (f.printed !== undefined) c.push(eq(photos.printed, f.printed));
    if (f.imageProcessId !== undefined) c.push(eq(photos.imageProcessId, f.imageProcessId));
    if (f.robotId !== undefined) c.push(eq(photos.robotId, f.robotId));
    if (f.ids !== undefined) c.push(f.ids.length ? inArray(photos.id, f.ids) : sql`false`);
    if (f.attendeeUid !== undefined) {
      // Uploaded with the id, or attached to that attendee's album (owner, kiosk, QR scan).
      c.push(
        sql`(${photos.attendeeUid} = ${f.attendeeUid} or ${photos.id} in (
          select ap.photo_id from attendee_photos ap join attendees a on a.id = ap.attendee_id
          where a.uid = ${f.attendeeUid}))`,
      );
    }
    if (f.beforeId !== undefined) {
      c.push(
        sql`(${photos.createdAt}, ${photos.id}) < (select p2.created_at, p2.id from photos p2 where p2.id = ${f.beforeId})`,
      );
    }
    if (f.fileNameContains) {
      c.push(sql`${photos.fileName} ilike ${`%${escapeLike(f.fileNameContains)}%`} escape '\\'`);
    }
    return c.filter((x): x is SQL => x !== undefined);
  }

  /**
   * A page of photos in list order. The page comes back as one JSON text (`json_agg`), not as 100
   * rows of 35 columns: PGlite decodes rows field by field in JavaScript, and this hottest read
   * took twice as long that way (bench:ingest's list, docs/performance.md).
   */
  async list(f: PhotoFilter, limit: number, offset: number): Promise<PhotoRow[]> {
    const where = and(...this.conditions(f));
    // Written as SQL, not with the select builder: the builder walks all of the table's columns on
    // every call, a third of a millisecond of this hottest read's CPU (docs/performance.md).
    // A deep page skips rows on ids only (an index-only scan of photos_event_order_idx, migration
    // 0018), then reads the whole rows of the one page. Five times faster at 50,000 rows deep.
    const page =
      offset === 0
        ? sql`select * from ${photos} where ${where}
            order by ${photos.createdAt} desc, ${photos.id} desc limit ${limit}`
        : sql`select ${photos}.* from ${photos} join (
            select ${photos.id} as page_id from ${photos} where ${where}
            order by ${photos.createdAt} desc, ${photos.id} desc limit ${limit} offset ${offset}
          ) page on page.page_id = ${photos.id}`;
    const result = await this.db.execute(
      sql`select coalesce(json_agg(p), '[]')::text as page from (${page}) p`,
    );
    const text = rowsOf(result)[0]?.page;
    const json = JSON.parse(typeof text === 'string' ? text : '[]') as Record<string, unknown>[];
    return json.map(photoFromJson).sort(byListOrder);
  }

  /**
   * Which of `tags` (lower case) the photos matching `f` carry, compared without case: what a
   * stock image's include/exclude policy asks of an album.
   */
  async tagsFound(f: PhotoFilter, tags: string[]): Promise<Set<string>> {
    if (tags.length === 0) return new Set();
    const wanted = sql.join(
      tags.map((t) => sql`${t}`),
      sql`, `,
    );
    const rows = await this.db
      .selectDistinct({ tag: sql<string>`lower(t.tag)` })
      .from(photos)
      .innerJoin(sql`lateral jsonb_array_elements_text(${photos.tags}) as t(tag)`, sql`true`)
      .where(and(...this.conditions(f), sql`lower(t.tag) in (${wanted})`));
    return new Set(rows.map((r) => r.tag));
  }

  async count(f: PhotoFilter): Promise<number> {
    const [row] = await this.db
      .select({ n: count() })
      .from(photos)
      .where(and(...this.conditions(f)));
    return row?.n ?? 0;
  }

  /**
   * How many photos match `f`, counted no further than `limit` + 1: the count walks the list's
   * own order (photos_event_order_idx) and stops there, so a first page of a 100,000-photo album
   * does not read every row to say "1000+" (a full count is a scan of the event's photos).
   */
  async countUpTo(f: PhotoFilter, limit: number): Promise<number> {
    const where = and(...this.conditions(f));
    const result = await this.db.execute(
      sql`select count(*)::int as n from (select 1 from ${photos} where ${where}
        order by ${photos.createdAt} desc, ${photos.id} desc limit ${limit + 1}) counted`,
    );
    return Number(rowsOf(result)[0]?.n ?? 0);
  }

  async countInfo(eventId: number, from: Date | undefined, to: Date | undefined) {
    const window = and(
      eq(photos.eventId, eventId),
      from ? gte(photos.createdAt, from) : undefined,
      to ? lte(photos.createdAt, to) : undefined,
    );
    const [row] = await this.db
      .select({
        total: count(),
        visible: sql<number>`count(*) filter (where ${photos.isVisible} = 1)`.mapWith(Number),
        originals: sql<number>`count(*) filter (where ${photos.isOriginal} = 1)`.mapWith(Number),
        printed: sql<number>`count(*) filter (where ${photos.printed} = 1)`.mapWith(Number),
        processing: sql<number>`count(*) filter (where ${photos.status} = 'processing')`.mapWith(
          Number,
        ),
      })
      .from(photos)
      .where(window);
    return row ?? { total: 0, visible: 0, originals: 0, printed: 0, processing: 0 };
  }

  async update(id: number, changes: Partial<NewPhotoRow>): Promise<PhotoRow | undefined> {
    const [row] = await this.db.update(photos).set(changes).where(eq(photos.id, id)).returning();
    return row;
  }

  async updateMany(
    eventIds: number[],
    ids: number[],
    changes: Partial<NewPhotoRow>,
  ): Promise<number> {
    const rows = await this.db
      .update(photos)
      .set(changes)
      .where(and(inArray(photos.id, ids), inArray(photos.eventId, eventIds)))
      .returning({ id: photos.id });
    return rows.length;
  }

  /** Deletes the rows and records why, in one transaction. */
  async deleteWithAudit(
    rows: PhotoRow[],
    reason: string | null,
    actorUserId: number | null,
    action = 'delete',
  ): Promise<number> {
    if (rows.length === 0) return 0;
    return this.db.transaction(async (tx) => {
      await tx.insert(photoAudit).values(photoAuditRows(rows, { action, reason, actorUserId }));
      const deleted = await tx
        .delete(photos)
        .where(
          inArray(
            photos.id,
            rows.map((r) => r.id),
          ),
        )
        .returning({ id: photos.id });
      return deleted.length;
    });
  }

  async auditFor(eventId: number) {
    return this.db
      .select()
      .from(photoAudit)
      .where(eq(photoAudit.eventId, eventId))
      .orderBy(desc(photoAudit.id));
  }

  async addActivities(values: (typeof activities.$inferInsert)[]): Promise<number[]> {
    if (values.length === 0) return [];
    const rows = await this.db.insert(activities).values(values).returning({ id: activities.id });
    return rows.map((r) => r.id);
  }

  /** Originals older than `before` not yet archived, a batch at a time. */
  async dueForArchive(eventId: number, before: Date, limit: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(
        and(eq(photos.eventId, eventId), lt(photos.createdAt, before), isNull(photos.archivedAt)),
      )
      .limit(limit);
  }

  /** Photos still `processing` that were uploaded before `before`, by id after `afterId`. */
  async stuckInProcessing(before: Date, afterId: number, limit: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(
        and(eq(photos.status, 'processing'), lt(photos.createdAt, before), gt(photos.id, afterId)),
      )
      .orderBy(photos.id)
      .limit(limit);
  }

  /**
   * The photos of an event guests are shown (ready, not an image-process variant) and how many
   * of them have a protected preview named `fileName` (the current version's).
   */
  async protectedPreviewProgress(
    eventId: number,
    fileName: string,
  ): Promise<{ total: number; done: number }> {
    const [row] = await this.db
      .select({
        total: count(),
        done: sql<number>`count(*) filter (where ${this.hasProtectedPreview(fileName)})`.mapWith(
          Number,
        ),
      })
      .from(photos)
      .where(this.shownToGuests(eventId));
    return { total: Number(row?.total ?? 0), done: row?.done ?? 0 };
  }

  /** The next photos (by id, after `afterId`) shown to guests without the protected preview `fileName`. */
  async withoutProtectedPreview(
    eventId: number,
    fileName: string,
    afterId: number,
    limit: number,
  ): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(
        and(
          this.shownToGuests(eventId),
          gt(photos.id, afterId),
          sql`not (${this.hasProtectedPreview(fileName)})`,
        ),
      )
      .orderBy(photos.id)
      .limit(limit);
  }

  /**
   * Sets one derivative of a photo, leaving the others as they are now (a concurrent change to
   * another derivative — curation, the storage move — is kept). Undefined when the row is gone.
   */
  async setDerivative(id: number, variant: string, key: string): Promise<PhotoRow | undefined> {
    const [row] = await this.db
      .update(photos)
      .set({
        derivatives: sql`${photos.derivatives} || jsonb_build_object(${variant}::text, ${key}::text)`,
      })
      .where(eq(photos.id, id))
      .returning();
    return row;
  }

  private shownToGuests(eventId: number): SQL | undefined {
    return and(
      eq(photos.eventId, eventId),
      eq(photos.status, 'ready'),
      isNull(photos.imageProcessId),
    );
  }

  /**
   * A photo protected for a paid event: it carries the protected preview `fileName`, and none of
   * its full-size watermarked variants lies in public space (`events/…`).
   */
  private hasProtectedPreview(fileName: string): SQL {
    const d = photos.derivatives;
    return sql`(coalesce(${d}->>'protector_watermark', '') like ${`%/${escapeLike(fileName)}`} escape '\\'
      and coalesce(${d}->>'photo_watermark', '') not like 'events/%'
      and coalesce(${d}->>'live_view_watermark', '') not like 'events/%'
      and coalesce(${d}->>'video_watermark', '') not like 'events/%')`;
  }

  async dueForDeletion(eventId: number, before: Date, limit: number): Promise<PhotoRow[]> {
    return this.db
      .select()
      .from(photos)
      .where(and(eq(photos.eventId, eventId), lt(photos.createdAt, before)))
      .limit(limit);
  }
}

/** Events with a retention rule: the input of the scheduled archive / auto-delete job. */
export const retentionEventsQuery = (db: Db) =>
  db
    .select({
      id: eventsTable.id,
      name: eventsTable.name,
      instantArchiveDays: eventsTable.instant_archive_days,
      autoDeleteDays: eventsTable.photo_auto_delete_days,
    })
    .from(eventsTable)
    .where(
      sql`${eventsTable.instant_archive_days} is not null or ${eventsTable.photo_auto_delete_days} is not null`,
    );
