import { and, eq, gt, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { indexIgnoreFaces, photoFaces, photoFaceScans, photos } from '../../db/schema.ts';
import { rowsOf } from '../raw-rows.ts';
import {
  inEventAlbumAs,
  inEventAlbumSql,
  releasedAs,
  releasedSql,
  shownToGuestsAs,
  shownToGuestsSql,
} from '../photos/photo-visibility.ts';

export type PhotoFaceRow = typeof photoFaces.$inferSelect;
export type PhotoFaceScanRow = typeof photoFaceScans.$inferSelect;

export interface NewPhotoFace {
  box: { x: number; y: number; width: number; height: number };
  pixels: { width: number; height: number };
  score: number;
  embedding: Float32Array | readonly number[];
}

export interface FaceMatch {
  faceId: number;
  photoId: number;
  distance: number;
}

/** A nearest-faces search: in SQL here, or over the in-memory copy (`FaceVectorSearch`). */
export interface NearestFacesQuery {
  eventId: number;
  model: string;
  descriptor: Float32Array | readonly number[];
  maxDistance: number;
  limit: number;
  visibleOnly: boolean;
}

/** A PostgreSQL array literal of finite numbers (descriptors are never user text). */
const realArray = (values: Float32Array | readonly number[]): string => {
  const parts: string[] = [];
  for (const value of values) {
    if (!Number.isFinite(value)) throw new Error('descriptor with a non-finite number');
    parts.push(String(value));
  }
  return `{${parts.join(',')}}`;
};

/** Faces of photos and the indexer's record of which photos it scanned. I/O only. */
export class FaceRepository {
  constructor(private readonly db: Db) {}

  /**
   * Replaces the faces of a photo and records the scan, in one transaction (a job that runs twice
   * leaves one set). Answers false when the photo is gone (deleted meanwhile): nothing is stored.
   */
  async replacePhotoFaces(
    photo: { id: number; eventId: number },
    scan: { model: string; minScore: number; scannedAt: Date },
    faces: NewPhotoFace[],
    /** The event's forced index tags: added to the photo's tags (those it has are kept). */
    forcedTags: readonly string[] = [],
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // Lock the photo row: a delete running now either wins (nothing is stored) or waits.
      const locked = rowsOf(
        await tx.execute(
          sql`select id, tags from photos where id = ${photo.id} and event_id = ${photo.eventId} for update`,
        ),
      );
      if (locked.length === 0) return false;
      const raw = locked[0]!.tags;
      const current = (typeof raw === 'string' ? JSON.parse(raw) : (raw ?? [])) as string[];
      const missing = forcedTags.filter(
        (tag, i) => !current.includes(tag) && forcedTags.indexOf(tag) === i,
      );
      if (missing.length > 0)
        await tx
          .update(photos)
          .set({ tags: [...current, ...missing] })
          .where(eq(photos.id, photo.id));
      await tx.delete(photoFaces).where(eq(photoFaces.photoId, photo.id));
      if (faces.length > 0) {
        await tx.insert(photoFaces).values(
          faces.map((face) => ({
            photoId: photo.id,
            eventId: photo.eventId,
            boxX: face.box.x,
            boxY: face.box.y,
            boxWidth: face.box.width,
            boxHeight: face.box.height,
            widthPx: face.pixels.width,
            heightPx: face.pixels.height,
            score: face.score,
            model: scan.model,
            descriptor: Array.from(face.embedding),
          })),
        );
      }
      const values = {
        photoId: photo.id,
        eventId: photo.eventId,
        model: scan.model,
        minScore: scan.minScore,
        faceCount: faces.length,
        scannedAt: scan.scannedAt,
      };
      await tx
        .insert(photoFaceScans)
        .values(values)
        .onConflictDoUpdate({ target: photoFaceScans.photoId, set: values });
      return true;
    });
  }

  async facesOfPhoto(photoId: number): Promise<PhotoFaceRow[]> {
    return this.db
      .select()
      .from(photoFaces)
      .where(eq(photoFaces.photoId, photoId))
      .orderBy(photoFaces.id);
  }

  async scanOf(photoId: number): Promise<PhotoFaceScanRow | undefined> {
    const [row] = await this.db
      .select()
      .from(photoFaceScans)
      .where(eq(photoFaceScans.photoId, photoId));
    return row;
  }

  /** Faces and scanned photos of an event (the owner's counts). */
  async countsForEvent(eventId: number): Promise<{ faces: number; scannedPhotos: number }> {
    const [faces] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(photoFaces)
      .where(eq(photoFaces.eventId, eventId));
    const [scans] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(photoFaceScans)
      .where(eq(photoFaceScans.eventId, eventId));
    return { faces: faces?.n ?? 0, scannedPhotos: scans?.n ?? 0 };
  }

  async ignoredFaceCount(eventId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(indexIgnoreFaces)
      .where(eq(indexIgnoreFaces.eventId, eventId));
    return row?.n ?? 0;
  }

  /**
   * Exact nearest faces of one event: the Euclidean distance of every stored descriptor of `model`
   * to `descriptor`, computed in SQL (no extension needed: PGlite and plain PostgreSQL alike),
   * within `maxDistance`, nearest first. Only faces of ready photos; `visibleOnly` also leaves out
   * hidden ones. Several faces of one photo may match: the caller keeps each photo's best.
   */
  async nearest(input: NearestFacesQuery): Promise<FaceMatch[]> {
    const query = realArray(input.descriptor);
    const result = await this.db.execute(sql`
      select f.id as face_id, f.photo_id, d.distance
      from photo_faces f
      join photos p on p.id = f.photo_id
      cross join lateral (
        select sqrt(sum((a - b) * (a - b))) as distance
        from unnest(f.descriptor, ${query}::real[]) as u(a, b)
      ) d
      where f.event_id = ${input.eventId}
        and f.model = ${input.model}
        and p.status = 'ready'
        and ${input.visibleOnly ? sql`${shownToGuestsAs('p')} and ${inEventAlbumAs('p')}` : releasedAs('p')}
        and d.distance <= ${input.maxDistance}
      order by d.distance, f.id
      limit ${input.limit}
    `);
    return rowsOf(result).map((row) => ({
      faceId: Number(row.face_id),
      photoId: Number(row.photo_id),
      distance: Number(row.distance),
    }));
  }

  /** The descriptors of the given faces, by face id. */
  async descriptorsOf(faceIds: number[]): Promise<Map<number, number[]>> {
    const descriptors = new Map<number, number[]>();
    if (faceIds.length === 0) return descriptors;
    const rows = await this.db
      .select({ id: photoFaces.id, descriptor: photoFaces.descriptor })
      .from(photoFaces)
      .where(inArray(photoFaces.id, faceIds));
    for (const row of rows) descriptors.set(row.id, row.descriptor);
    return descriptors;
  }

  /** The event's index-ignore faces with what face search learnt of each (model, descriptor). */
  async ignoredFaces(
    eventId: number,
  ): Promise<
    { id: number; fullPath: string; model: string | null; descriptor: number[] | null }[]
  > {
    return this.db
      .select({
        id: indexIgnoreFaces.id,
        fullPath: indexIgnoreFaces.fullPath,
        model: indexIgnoreFaces.model,
        descriptor: indexIgnoreFaces.descriptor,
      })
      .from(indexIgnoreFaces)
      .where(eq(indexIgnoreFaces.eventId, eventId))
      .orderBy(indexIgnoreFaces.id);
  }

  /** Records an ignored face's descriptor (null: the image has no usable face). */
  async describeIgnoredFace(
    id: number,
    model: string,
    descriptor: Float32Array | readonly number[] | null,
  ): Promise<void> {
    await this.db
      .update(indexIgnoreFaces)
      .set({ model, descriptor: descriptor ? Array.from(descriptor) : null })
      .where(eq(indexIgnoreFaces.id, id));
  }

  /** The boxes of the given faces, by face id. */
  async boxesOf(
    faceIds: number[],
  ): Promise<Map<number, { x: number; y: number; width: number; height: number }>> {
    const boxes = new Map<number, { x: number; y: number; width: number; height: number }>();
    if (faceIds.length === 0) return boxes;
    const rows = await this.db
      .select({
        id: photoFaces.id,
        x: photoFaces.boxX,
        y: photoFaces.boxY,
        width: photoFaces.boxWidth,
        height: photoFaces.boxHeight,
      })
      .from(photoFaces)
      .where(inArray(photoFaces.id, faceIds));
    for (const { id, ...box } of rows) boxes.set(id, box);
    return boxes;
  }

  /** The event's faces of `model` with an id above `afterId`, by id (the search's copy). */
  async vectorsSince(
    eventId: number,
    model: string,
    afterId: number,
  ): Promise<{ id: number; photoId: number; descriptor: number[] }[]> {
    return this.db
      .select({ id: photoFaces.id, photoId: photoFaces.photoId, descriptor: photoFaces.descriptor })
      .from(photoFaces)
      .where(
        and(
          eq(photoFaces.eventId, eventId),
          gt(photoFaces.id, afterId),
          eq(photoFaces.model, model),
        ),
      )
      .orderBy(photoFaces.id);
  }

  /** How many faces of `model` the event has. */
  async faceCount(eventId: number, model: string): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(photoFaces)
      .where(and(eq(photoFaces.eventId, eventId), eq(photoFaces.model, model)));
    return row?.n ?? 0;
  }

  /** Which of the faces still exist on a ready (and, when asked, visible) photo. */
  async confirmMatches(faceIds: number[], visibleOnly: boolean): Promise<Set<number>> {
    if (faceIds.length === 0) return new Set();
    const rows = await this.db
      .select({ id: photoFaces.id })
      .from(photoFaces)
      .innerJoin(photos, eq(photos.id, photoFaces.photoId))
      .where(
        and(
          inArray(photoFaces.id, faceIds),
          eq(photos.status, 'ready'),
          visibleOnly ? and(shownToGuestsSql, inEventAlbumSql) : releasedSql,
        ),
      );
    return new Set(rows.map((r) => r.id));
  }

  /**
   * Events with face recognition on that have ready photos not yet scanned with `model` (the
   * backfill sweep), at most `limit`.
   */
  async eventsNeedingIndex(model: string, limit: number): Promise<number[]> {
    const result = await this.db.execute(sql`
      select e.id from events e
      where e.enable_facial_recognition = 1
        and exists (
          select 1 from photos p
          left join photo_face_scans s on s.photo_id = p.id and s.model = ${model}
          where p.event_id = e.id and p.status = 'ready' and p.media_type <> 'video'
            and ${releasedAs('p')}
            and s.photo_id is null
        )
      order by e.id
      limit ${limit}
    `);
    return rowsOf(result).map((row) => Number(row.id));
  }

  /**
   * Events with face recognition on and faces of `model`, most recently indexed first: the ones
   * whose descriptors the search loads at server start.
   */
  async recentlyIndexedEvents(model: string, limit: number): Promise<number[]> {
    const result = await this.db.execute(sql`
      select f.event_id from photo_faces f
      join events e on e.id = f.event_id
      where e.enable_facial_recognition = 1 and f.model = ${model}
      group by f.event_id
      order by max(f.id) desc
      limit ${limit}
    `);
    return rowsOf(result).map((row) => Number(row.event_id));
  }

  /**
   * Events with face recognition on and their scans' (model, cut-off) pairs: the sweep compares
   * them with each event's current cut-off (a changed confidence setting re-indexes).
   */
  async scanCutOffs(
    model: string,
    limit: number,
  ): Promise<{ eventId: number; opts: unknown; minScore: number }[]> {
    const result = await this.db.execute(sql`
      select s.event_id, e.opts, s.min_score from photo_face_scans s
      join events e on e.id = s.event_id
      where e.enable_facial_recognition = 1 and s.model = ${model}
      group by s.event_id, e.opts, s.min_score
      order by s.event_id
      limit ${limit}
    `);
    return rowsOf(result).map((row) => ({
      eventId: Number(row.event_id),
      opts: typeof row.opts === 'string' ? (JSON.parse(row.opts) as unknown) : row.opts,
      minScore: Number(row.min_score),
    }));
  }

  /** Ready photos (images) of an event: what indexing covers. */
  async indexablePhotoCount(eventId: number): Promise<number> {
    const result = await this.db.execute(sql`
      select count(*)::int as n from photos p
      where p.event_id = ${eventId} and p.status = 'ready' and p.media_type <> 'video'
        and ${releasedAs('p')}
    `);
    return Number(rowsOf(result)[0]?.n ?? 0);
  }

  /**
   * The photo ids of an event not yet scanned with `model` (backfill), oldest first; with
   * `minScore`, also those scanned with another detection cut-off (the event's confidence
   * setting changed: they are indexed again).
   */
  async unscannedPhotoIds(
    eventId: number,
    model: string,
    limit: number,
    minScore?: number,
  ): Promise<number[]> {
    const stale =
      minScore === undefined ? sql`false` : sql`s.min_score <> ${String(minScore)}::real`;
    const result = await this.db.execute(sql`
      select p.id from photos p
      left join photo_face_scans s on s.photo_id = p.id and s.model = ${model}
      where p.event_id = ${eventId} and p.status = 'ready' and p.media_type <> 'video'
        and ${releasedAs('p')}
        and (s.photo_id is null or ${stale})
      order by p.id
      limit ${limit}
    `);
    return rowsOf(result).map((row) => Number(row.id));
  }
}
