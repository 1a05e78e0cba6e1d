import { InsightRepository } from '../repositories/operations/insight.repository.ts';
import { FaceRepository } from '../repositories/faces/face.repository.ts';
import { FaceSelfieRepository } from '../repositories/faces/face-selfie.repository.ts';
import { FaceSelfieService } from '../services/faces/face-selfie.service.ts';
import { FaceApiAdapter } from '../repositories/faces/engine/face-api.adapter.ts';
import type { FaceEngineProvider } from '../repositories/faces/engine/face-engine-provider.ts';
import { FaceDataService } from '../services/faces/face-data.service.ts';
import { FaceIndexService } from '../services/faces/face-index.service.ts';
import { FaceAttachService } from '../services/faces/face-attach.service.ts';
import { FaceConsentService } from '../services/faces/face-consent.service.ts';
import { FaceSearchService } from '../services/faces/face-search.service.ts';
import { registerFaceListeners } from '../services/faces/faces.listeners.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';
import type { Photos } from './photos.ts';

/**
 * Faces (docs/domains/faces.md): indexing on `photo.ready`, backfill, search by face,
 * the owner's face data. The engine (embedded: face-api on tfjs-wasm) loads its models on first
 * use; tests pass their own through `ContainerOptions.faceEngine`.
 */
export const wireFaces = (
  core: Core,
  events: Events,
  photos: Photos,
  engine: FaceEngineProvider = new FaceApiAdapter(),
  links: {
    notifyAttendee?: (eventId: number, attendeeId: number, factKey: string) => Promise<void>;
  } = {},
) => {
  const { database, clock, storage, jobs, bus, logger } = core;
  const { access } = events;
  const faces = new FaceRepository(database.db);
  const selfies = new FaceSelfieRepository(database.db);
  const faceSelfies = new FaceSelfieService({
    selfies,
    storage,
    attendees: events.repositories.attendees,
    notifyAttendee: links.notifyAttendee ?? (() => Promise.resolve()),
    clock,
    logger: logger.child({ component: 'faces' }),
  });
  const faceIndex = new FaceIndexService({
    faces,
    photos: photos.repositories.photos,
    events: events.repositories.events,
    storage,
    engine,
    jobs,
    clock,
    logger: logger.child({ component: 'faces' }),
    onIndexed: (photo, model, found) => faceSelfies.associate(photo, model, found),
  });
  registerFaceListeners(bus, faceIndex);
  const faceSearch = new FaceSearchService({
    faces,
    photos: photos.repositories.photos,
    listing: photos.services.photoListing,
    storage,
    engine,
    access,
    urls: photos.services.photoUrls,
    clock,
    selfieRules: faceSelfies,
    selfies,
    quotas: core.quotas,
    // A guest's face search counts on the event's insight dashboard (one appended row).
    insight: new InsightRepository(database),
  });
  return {
    repositories: { faces, faceSelfies: selfies },
    services: {
      faceIndex,
      faceSelfies,
      faceData: new FaceDataService({ faces, selfies, storage, access, clock }),
      faceSearch,
      faceAttach: new FaceAttachService({
        access,
        search: faceSearch,
        attendees: events.repositories.attendees,
        bus,
      }),
      faceConsent: new FaceConsentService({
        access,
        storage,
        selfieRules: faceSelfies,
        quotas: core.quotas,
        warmEvent: (eventId) => faceSearch.warmEvent(eventId),
      }),
    },
    async close(): Promise<void> {
      await engine.close();
    },
  };
};
export type Faces = ReturnType<typeof wireFaces>;
