import type {
  FaceMatch as FaceMatchRow,
  FaceRepository,
} from '../../repositories/faces/face.repository.ts';
import type { FaceEngineProvider } from '../../repositories/faces/engine/face-engine-provider.ts';
import { ProviderError } from '../../repositories/provider-error.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { readAll } from '../photos/photo-files.ts';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  distanceForSimilarity,
  faceDistance,
} from './face-similarity.ts';
import { MAX_REFERENCE_BYTES } from './reference-face.ts';
import { IGNORED_FACE_ROOTS, storageKeyOfReference, storageUrlBases } from './reference-photos.ts';

/**
 * Drops matched faces that are an index-ignore face (staff, photographer, mascot): within the
 * default match distance of an ignored face's descriptor, whatever the search's threshold.
 * Deleting the ignored face brings its matches back (nothing is stored on the photo faces).
 */
export class IgnoredFaceFilter {
  constructor(
    private readonly deps: {
      faces: Pick<FaceRepository, 'ignoredFaces' | 'describeIgnoredFace' | 'descriptorsOf'>;
      storage: StorageRepository;
      engine: Pick<FaceEngineProvider, 'detect' | 'model'>;
    },
  ) {}

  async without(
    eventId: number,
    eventCode: string,
    matches: FaceMatchRow[],
  ): Promise<FaceMatchRow[]> {
    if (matches.length === 0) return matches;
    const ignored = await this.descriptors(eventId, eventCode);
    if (ignored.length === 0) return matches;
    const descriptors = await this.deps.faces.descriptorsOf([
      ...new Set(matches.map((m) => m.faceId)),
    ]);
    const limit = distanceForSimilarity(DEFAULT_FACE_MATCH_THRESHOLD);
    return matches.filter((match) => {
      const descriptor = descriptors.get(match.faceId);
      return !!descriptor && ignored.every((face) => faceDistance(face, descriptor) > limit);
    });
  }

  /**
   * The descriptors of the event's ignored faces. Each image is described once per model, on
   * the first search that needs it; an image outside this event's storage is never read.
   */
  private async descriptors(eventId: number, eventCode: string): Promise<number[][]> {
    const { engine, faces } = this.deps;
    const descriptors: number[][] = [];
    let bases: URL[] | undefined;
    for (const row of await faces.ignoredFaces(eventId)) {
      if (row.model === engine.model) {
        if (row.descriptor) descriptors.push(row.descriptor);
        continue;
      }
      bases ??= await storageUrlBases(this.deps.storage);
      const key = storageKeyOfReference(bases, row.fullPath, eventCode, IGNORED_FACE_ROOTS);
      if (!key) {
        await faces.describeIgnoredFace(row.id, engine.model, null);
        continue;
      }
      const object = await this.deps.storage.get(key);
      // Not uploaded yet: try again on the next search.
      if (!object) continue;
      const bytes = await readAll(object.body, MAX_REFERENCE_BYTES).catch(() => null);
      let descriptor: Float32Array | null = null;
      if (bytes) {
        try {
          descriptor = (await engine.detect(bytes, { maxFaces: 1 }))[0]?.embedding ?? null;
        } catch (error) {
          if (!(error instanceof ProviderError && error.permanent)) throw error;
        }
      }
      await faces.describeIgnoredFace(row.id, engine.model, descriptor);
      if (descriptor) descriptors.push(Array.from(descriptor));
    }
    return descriptors;
  }
}
