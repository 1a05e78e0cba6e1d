import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import type { Clock } from '../../lib/clock.ts';
import type { FaceRepository } from '../../repositories/face.repository.ts';

/** The owner's view of an event's face data: progress, counts, delete all (issue 13 §5). */
export class FaceDataService {
  constructor(
    private readonly deps: {
      faces: FaceRepository;
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
    return {
      enable_facial_recognition: event.row.enable_facial_recognition,
      photos: await faces.indexablePhotoCount(event.row.id),
      indexed_photos: counts.scannedPhotos,
      faces: counts.faces,
      ignored_faces: await faces.ignoredFaceCount(event.row.id),
    };
  }

  /** `flashbulb-owner/event/face-data/delete`: every face, and face recognition off. */
  async deleteAll(principal: Principal, eventId: number) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'event.manage', {
      eventId,
    });
    return {
      deleted_faces: await this.deps.faces.deleteForEvent(event.row.id, this.deps.clock.now()),
    };
  }
}
