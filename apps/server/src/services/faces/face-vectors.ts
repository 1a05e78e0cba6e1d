import type { FaceMatch, FaceRepository } from '../../repositories/face.repository.ts';

/** A full reload at least this often drops faces deleted since (they are filtered meanwhile). */
const FULL_RELOAD_MS = 10 * 60_000;
/** Events whose vectors stay in memory at once (100,000 faces ≈ 52 MB). */
const MAX_EVENTS = 4;

interface EventVectors {
  model: string;
  dimensions: number;
  count: number;
  faceIds: Int32Array;
  photoIds: Int32Array;
  vectors: Float32Array;
  maxFaceId: number;
  loadedAt: number;
}

/**
 * Exact nearest-face search over an in-memory copy of each searched event's descriptors (ADR
 * 0007): a linear scan of a Float32Array instead of a distance per row in SQL. The copy is
 * brought up to date on every search by fetching only the faces added since (index on
 * `(event_id, id)`), and reloaded whole every 10 minutes; faces deleted meanwhile (photo deleted,
 * photo re-indexed, face data deleted) may linger in the copy, so every candidate is confirmed in
 * SQL — face still there, photo ready (and visible when asked) — before it is answered. Answers
 * exactly what `FaceRepository.nearest` answers, on PGlite and PostgreSQL alike.
 */
export class FaceVectorSearch {
  private readonly events = new Map<number, EventVectors>();

  constructor(
    private readonly faces: Pick<FaceRepository, 'vectorsSince' | 'confirmMatches'>,
    private readonly now: () => number = Date.now,
  ) {}

  async nearest(input: {
    eventId: number;
    model: string;
    descriptor: Float32Array | readonly number[];
    maxDistance: number;
    limit: number;
    visibleOnly: boolean;
  }): Promise<FaceMatch[]> {
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

  /** Forgets an event's copy (its face data was deleted). */
  forget(eventId: number): void {
    this.events.delete(eventId);
  }

  private async refresh(eventId: number, model: string, dimensions: number) {
    let vectors = this.events.get(eventId);
    if (
      !vectors ||
      vectors.model !== model ||
      vectors.dimensions !== dimensions ||
      this.now() - vectors.loadedAt > FULL_RELOAD_MS
    ) {
      vectors = {
        model,
        dimensions,
        count: 0,
        faceIds: new Int32Array(1024),
        photoIds: new Int32Array(1024),
        vectors: new Float32Array(1024 * dimensions),
        maxFaceId: 0,
        loadedAt: this.now(),
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
