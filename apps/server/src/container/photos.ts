import { ImageEngine } from '../repositories/image-engine.ts';
import { PhotoEventsRepository } from '../repositories/photo-events.repository.ts';
import { PhotoRepository, retentionEventsQuery } from '../repositories/photo.repository.ts';
import type { EventRecord } from '../repositories/event.repository.ts';
import { PhotoChangesService } from '../services/photos/photo-changes.service.ts';
import { PhotoDerivativesService } from '../services/photos/photo-derivatives.service.ts';
import { PhotoListingService } from '../services/photos/photo-listing.service.ts';
import { PhotoRetentionService } from '../services/photos/photo-retention.service.ts';
import { PhotoUploadService } from '../services/photos/photo-upload.service.ts';
import { registerPhotoListeners } from '../services/photos/photo.listeners.ts';
import { StockUploadService } from '../services/stock-upload.service.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';

/** Photos (issue 4): upload, derivatives, listing, changes, retention; stock images. */
export const wirePhotos = (
  core: Core,
  events: Events,
  /** Creates or links the attendee an upload names (attendees domain). */
  attendeeUploads: { claimUploadedId(event: EventRecord, uid: string): Promise<void> },
) => {
  const { database, clock, secrets, storage, bus, jobs, logger } = core;
  const { access } = events;
  const { events: eventRows, attendees } = events.repositories;
  const photos = new PhotoRepository(database.db);
  const images = new ImageEngine();
  /** "Photo ready" NOTIFY between processes (live streams, ADR 0002). */
  const photoEvents = new PhotoEventsRepository(database);
  const photoLogger = logger.child({ component: 'photos' });
  const photoUploads = new PhotoUploadService({
    photos,
    access,
    storage,
    images,
    bus,
    clock,
    uidSecret: secrets.signingKey,
    attendeeUploads,
  });
  const photoDerivatives = new PhotoDerivativesService({
    photos,
    events: eventRows,
    storage,
    images,
    logger: photoLogger,
    bus,
    jobs,
    clock,
  });
  const photoRetention = new PhotoRetentionService({
    photos,
    storage,
    clock,
    bus,
    retentionEvents: () => retentionEventsQuery(database.db),
  });
  const photoListing = new PhotoListingService({
    photos,
    events: eventRows,
    access,
    storage,
    clock,
    attendeeRows: attendees,
  });
  const photoChanges = new PhotoChangesService({
    photos,
    access,
    storage,
    jobs,
    bus,
  });
  registerPhotoListeners(bus, { jobs });
  return {
    photoEvents,
    repositories: { photos },
    services: {
      photoUploads,
      photoListing,
      photoChanges,
      photoDerivatives,
      photoRetention,
      stockUploads: new StockUploadService(storage, access, images),
    },
    async close(): Promise<void> {
      await photoEvents.close();
    },
  };
};
export type Photos = ReturnType<typeof wirePhotos>;
