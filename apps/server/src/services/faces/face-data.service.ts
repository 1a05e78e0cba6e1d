import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FaceRepository } from '../../repositories/faces/face.repository.ts';
import type { FaceSelfieRepository } from '../../repositories/faces/face-selfie.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { SELFIE_ROOT } from './reference-photos.ts';

/** The owner's view of an event's face data: progress, counts, delete all. */
export class FaceDataService {
  constructor(
    private readonly deps: {
      faces: FaceRepository;
      selfies: FaceSelfieRepository;
      storage: Pick<StorageRepository, 'delete' | 'deletePrefix'>;
      access: AccessControl;
      clock: Clock;
    },
  ) {}

  /** `flashbulb-owner/event/face-data/retrieve`. */
  async info(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    const { faces } = this.deps;
    const counts = await faces.countsForEvent(event.row.id);
    const selfies = await this.deps.selfies.countsForEvent(event.row.id);
    return {
      enable_facial_recognition: event.row.enable_facial_recognition,
      photos: await faces.indexablePhotoCount(event.row.id),
      indexed_photos: counts.scannedPhotos,
      faces: counts.faces,
      ignored_faces: await faces.ignoredFaceCount(event.row.id),
      selfies: selfies.selfies,
      deleted_faces: selfies.deletedFaces,
      deleted_selfies: selfies.deletedSelfies,
    };
  }

  /**
   * `flashbulb-owner/event/face-data/delete`: every face, every selfie (object, row, descriptor),
   * and face recognition off. The selfie objects go first: a crash after them leaves rows whose
   * objects are gone (a search answers `not_found`) and the owner's second try finishes.
   */
  async deleteAll(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    const { selfies, storage } = this.deps;
    for (const key of await selfies.keysOfEvent(event.row.id)) await storage.delete(key);
    // Granted but never recorded uploads cannot exist; the prefix catches anything left anyway.
    await storage.deletePrefix(`${SELFIE_ROOT}/${event.row.name}/`);
    const gone = await selfies.deleteAllOfEvent(event.row.id, this.deps.clock.now());
    return { deleted_faces: gone.faces, deleted_selfies: gone.selfies };
  }
}
