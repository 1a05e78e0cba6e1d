import { ImageThreadPriority } from '../lib/thread-priority.ts';
import { ImageEngine } from '../repositories/photos/image-engine.ts';
import { VideoEngine } from '../repositories/photos/video-engine.ts';
import { ThrottleRepository } from '../repositories/identity/throttle.repository.ts';
import { PhotoEventsRepository } from '../repositories/photos/photo-events.repository.ts';
import { PhotoRepository, retentionEventsQuery } from '../repositories/photos/photo.repository.ts';
import { PhotoStorageRepository } from '../repositories/photos/photo-storage.repository.ts';
import { InstantLinkRepository } from '../repositories/photos/instant-link.repository.ts';
import { InstantLinks } from '../services/photos/instant-links.ts';
import { MediaAccessService } from '../services/photos/media-access.service.ts';
import { PhotoUrls } from '../services/photos/photo-urls.ts';
import { StorageMigration } from '../services/photos/storage-migration.ts';
import { PhotoChangesService } from '../services/photos/photo-changes.service.ts';
import { PhotoModerationService } from '../services/photos/photo-moderation.service.ts';
import { ModerationRepository } from '../repositories/photos/moderation.repository.ts';
import { PhotoDerivativesService } from '../services/photos/photo-derivatives.service.ts';
import { PhotoListingService } from '../services/photos/photo-listing.service.ts';
import { PhotoRetentionService } from '../services/photos/photo-retention.service.ts';
import { PhotoVariantsService } from '../services/photos/photo-variants.service.ts';
import { PreviewProtectionService } from '../services/photos/preview-protection.service.ts';
import { ProtectorMarks } from '../services/photos/protector-mark.ts';
import { PhotoUploadService } from '../services/photos/photo-upload.service.ts';
import type { AttendeeUploads } from '../services/photos/upload-attendees.ts';
import { GuestUploadService } from '../services/photos/guest-upload.service.ts';
import { PhotoUploadGrantService } from '../services/photos/photo-upload-grant.service.ts';
import { UsageBudgets } from '../access/guest-limits.ts';
import { HitCounterRepository } from '../repositories/operations/hit-counter.repository.ts';
import { registerPhotoListeners } from '../services/photos/photo.listeners.ts';
import { StockUploadService } from '../services/events/stock-upload.service.ts';
import { UploadSweep } from '../services/photos/upload-sweep.ts';
import { StorageDeletions } from '../services/photos/storage-deletions.ts';
import { StorageDeletionRepository } from '../repositories/photos/storage-deletion.repository.ts';
import type { LeadGate } from '../access/lead-gate.ts';
import type { Core } from './core.ts';
import type { Events } from './events.ts';

/** Photos: upload, derivatives, listing, changes, retention; stock images. */
export const wirePhotos = (
  core: Core,
  events: Events,
  /**
   * From the attendees domain (wired later): creating or linking the attendees an upload names
   * and adding it to their albums, and the lead gate of guest album calls.
   */
  attendeeUploads: AttendeeUploads & { leadGate: LeadGate },
) => {
  const { config, database, clock, secret, secrets, storage, bus, jobs, logger } = core;
  const { access } = events;
  const { events: eventRows, attendees } = events.repositories;
  const photos = new PhotoRepository(database.db);
  const images = new ImageEngine(new ImageThreadPriority(config.imageNice));
  // ffmpeg / ffprobe: the npm packages' binaries unless a system build is configured.
  const videos = new VideoEngine(VideoEngine.resolveTools(config.video), config.imageNice);
  /** "Photo ready" NOTIFY between processes (live streams, ADR 0002). */
  const photoEvents = new PhotoEventsRepository(database);
  const photoLogger = logger.child({ component: 'photos' });
  // Signed media URLs for protected objects (ADR 0006).
  const urls = new PhotoUrls({ storage, clock, publicUrl: config.publicUrl, appSecret: secret });
  const instantLinks = new InstantLinkRepository(database.db);
  const instantPages = new InstantLinks({
    links: instantLinks,
    notices: photoEvents,
    clock,
    publicUrl: config.publicUrl,
  });
  const photoUploadGrants = new PhotoUploadGrantService({
    access,
    storage,
    clock,
    instantLinks: instantPages,
  });
  const photoUploads = new PhotoUploadService({
    photos,
    access,
    storage,
    urls,
    images,
    videos,
    bus,
    clock,
    uidSecret: secrets.signingKey,
    attendeeUploads,
    quotas: core.quotas,
    derivativesPending: async (photoId) => {
      for (const name of ['photo.derivatives', 'video.renditions'] as const)
        for (const data of await jobs.payloads(name, 'pending'))
          if ((data as { photoId?: unknown } | null)?.photoId === photoId) return true;
      return false;
    },
    logger: photoLogger,
    instantLinks: instantPages,
  });
  // A paid event's protected previews: the mark, and the job that makes them for stored photos.
  const protector = new ProtectorMarks({ storage, images, logger: photoLogger });
  const previewProtection = new PreviewProtectionService({
    photos,
    events: eventRows,
    access,
    storage,
    protector,
    jobs,
    logger: photoLogger,
  });
  const photoDerivatives = new PhotoDerivativesService({
    photos,
    events: eventRows,
    storage,
    images,
    videos,
    templates: events.repositories.printTemplates,
    protector,
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
    urls,
    clock,
    attendeeRows: attendees,
    leadGate: attendeeUploads.leadGate,
    publicMediaUrl: (key) => storage.publicUrl(key),
    // Wrong VIP tokens are counted in the same failure table as sign-ins and unlock codes.
    attempts: new ThrottleRepository(database.db),
  });
  const photoChanges = new PhotoChangesService({
    photos,
    access,
    storage,
    urls,
    jobs,
    bus,
  });
  const storageMigration = new StorageMigration({
    photos,
    rows: new PhotoStorageRepository(database.db),
    storage,
    logger: logger.child({ component: 'storage-migration' }),
    enqueue: (photoId) => jobs.send('storage.protect-photo', { photoId }),
  });
  const uploadSweep = new UploadSweep({
    storage,
    photos,
    clock,
    logger: logger.child({ component: 'upload-sweep' }),
  });
  const storageDeletions = new StorageDeletions({
    rows: new StorageDeletionRepository(database.db),
    storage,
    logger: logger.child({ component: 'storage-deletions' }),
  });
  const photoVariants = new PhotoVariantsService({
    photos,
    events: eventRows,
    processes: events.repositories.imageProcesses,
    storage,
    images,
    jobs,
    bus,
    logger: photoLogger,
    uidSecret: secrets.signingKey,
  });
  registerPhotoListeners(bus, { jobs, photoVariants, previewProtection });
  const photoModeration = new PhotoModerationService({
    moderation: new ModerationRepository(database.db),
    access,
    urls,
    jobs,
    bus,
    logger: photoLogger,
  });
  return {
    photoEvents,
    repositories: { photos, instantLinks },
    services: {
      photoUploads,
      photoUploadGrants,
      guestUploads: new GuestUploadService({
        access,
        storage,
        uploads: photoUploads,
        budgets: new UsageBudgets(new HitCounterRepository(database)),
        limits: config.guestLimits,
        clock,
      }),
      photoListing,
      photoChanges,
      photoModeration,
      photoDerivatives,
      photoVariants,
      previewProtection,
      photoRetention,
      photoUrls: urls,
      mediaAccess: new MediaAccessService({ urls, photos, storage }),
      storageMigration,
      uploadSweep,
      storageDeletions,
      stockUploads: new StockUploadService(storage, access, images),
    },
    async close(): Promise<void> {
      await photoEvents.close();
    },
  };
};
export type Photos = ReturnType<typeof wirePhotos>;
