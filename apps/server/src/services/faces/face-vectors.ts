import type {
  FaceMatch,
  FaceRepository,
  NearestFacesQuery,
} from '../../repositories/faces/face.repository.ts';

/** How often the copy's size is compared with the table's (one count query). */
const COUNT_CHECK_MS = 60_000;
/** Reload the copy whole when more than this share of it is faces deleted since. */
const MAX_STALE_SHARE = 0.1;
/** Events whose vectors stay in memory at once (100,000 faces ≈ 52 MB). */
export const MAX_EVENTS = 4;

interface EventVectors {
  model: string;
  dimensions: number;
  count: number;
  faceIds: Int32Array;
  photoIds: Int32Array;
  vectors: Float32Array;
  maxFaceId: number;
  checkedAt: number;
}

/**
 * Exact nearest-face search over an in-memory copy of each searched event's descriptors (ADR
 * 0007): a linear scan of a Float32Array instead of a distance per row in SQL. The copy is
 * brought up to date on every search by fetching only the faces added since (index on
 * `(event_id, id)`). Faces deleted meanwhile (photo deleted, photo re-indexed, face data
 * deleted) may linger in the copy, so every candidate is confirmed in SQL — face still there,
 * photo ready (and visible when asked) — before it is answered; once a minute the copy's size is
 * compared with the table's and the copy is reloaded whole when over 10 % of it is gone. Answers
 * exactly what `FaceRepository.nearest` answers, on PGlite and PostgreSQL alike.
 */
export class FaceVectorSearch {
  private readonly events = new Map<number, EventVectors>();
  /** One refresh per event at a time: a warm-up and a search must not both add the same faces. */
  private readonly refreshing = new Map<number, Promise<EventVectors>>();

  constructor(
    private readonly faces: Pick<FaceRepository, 'vectorsSince' | 'confirmMatches' | 'faceCount'>,
    private readonly now: () => number = Date.now,
  ) {}

  async nearest(input: NearestFacesQuery): Promise<FaceMatch[]> {
    const vectors = await this.refresh(input.eventId, input.model, input.descriptor.length);
    const query = Float32Array.from(input.descriptor);
    const dims = vectors.dimensions;
    const max2 = input.maxDistance * input.maxDistance;
    const candidates: FaceMatch[] = [];
    const { vectors: data, count } = vectors;
    for (let row = 0; row < count; row++) {
      let sum = 0;
      const offset = row * dims;
      for (let d = 0; d < dims; d++) {
        const diff = data[offset + d]! - query[d]!;
        sum += diff * diff;
        if (sum > max2) break;
      }
      if (sum <= max2)
        candidates.push({
          faceId: vectors.faceIds[row]!,
          photoId: vectors.photoIds[row]!,
          distance: Math.sqrt(sum),
        });
    }
    candidates.sort((a, b) => a.distance - b.distance || a.faceId - b.faceId);
    // Confirm more than the limit: some candidates may be gone or hidden.
    const confirmed = await this.faces.confirmMatches(
      candidates.slice(0, input.limit * 2 + 100).map((c) => c.faceId),
      input.visibleOnly,
    );
    return candidates.filter((c) => confirmed.has(c.faceId)).slice(0, input.limit);
  }

  /** How many faces the event's copy holds (deleted ones included until a reload). */
  size(eventId: number): number {
    return this.events.get(eventId)?.count ?? 0;
  }

  /**
   * Loads (or brings up to date) the event's copy ahead of a search: a guest's selfie grant warms
   * it while the selfie uploads, so the first search does not pay the load.
   */
  async warm(eventId: number, model: string, dimensions: number): Promise<number> {
    return (await this.refresh(eventId, model, dimensions)).count;
  }

  /** Forgets an event's copy (its face data was deleted). */
  forget(eventId: number): void {
    this.events.delete(eventId);
  }

  private async refresh(eventId: number, model: string, dimensions: number) {
    const previous = this.refreshing.get(eventId);
    const next = (previous ? previous.catch(() => undefined) : Promise.resolve()).then(() =>
      this.refreshNow(eventId, model, dimensions),
    );
    this.refreshing.set(eventId, next);
    try {
      return await next;
    } finally {
      if (this.refreshing.get(eventId) === next) this.refreshing.delete(eventId);
    }
  }

  private async refreshNow(eventId: number, model: string, dimensions: number) {
    let vectors = this.events.get(eventId);
    if (vectors && this.now() - vectors.checkedAt > COUNT_CHECK_MS) {
      // Deleted faces linger in the copy (filtered on every search); drop them when many.
      const stored = await this.faces.faceCount(eventId, model);
      vectors.checkedAt = this.now();
      if (vectors.count - stored > vectors.count * MAX_STALE_SHARE) vectors = undefined;
    }
    if (!vectors || vectors.model !== model || vectors.dimensions !== dimensions) {
      vectors = {
        model,
        dimensions,
        count: 0,
        faceIds: new Int32Array(1024),
        photoIds: new Int32Array(1024),
        vectors: new Float32Array(1024 * dimensions),
        maxFaceId: 0,
        checkedAt: this.now(),
      };
    }
    const added = await this.faces.vectorsSince(eventId, model, vectors.maxFaceId);
    if (added.length > 0) {
      const needed = vectors.count + added.length;
      if (needed > vectors.faceIds.length) {
        const capacity = Math.max(needed, vectors.faceIds.length * 2);
        const faceIds = new Int32Array(capacity);
        faceIds.set(vectors.faceIds.subarray(0, vectors.count));
        const photoIds = new Int32Array(capacity);
        photoIds.set(vectors.photoIds.subarray(0, vectors.count));
        const data = new Float32Array(capacity * dimensions);
        data.set(vectors.vectors.subarray(0, vectors.count * dimensions));
        Object.assign(vectors, { faceIds, photoIds, vectors: data });
      }
      for (const face of added) {
        if (face.descriptor.length !== dimensions) continue;
        const row = vectors.count++;
        vectors.faceIds[row] = face.id;
        vectors.photoIds[row] = face.photoId;
        vectors.vectors.set(face.descriptor, row * dimensions);
        if (face.id > vectors.maxFaceId) vectors.maxFaceId = face.id;
      }
    }
    // Most recently used last; the oldest copy goes when there are too many.
    this.events.delete(eventId);
    this.events.set(eventId, vectors);
    while (this.events.size > MAX_EVENTS) {
      const oldest = this.events.keys().next().value;
      if (oldest === undefined) break;
      this.events.delete(oldest);
    }
    return vectors;
  }
}
