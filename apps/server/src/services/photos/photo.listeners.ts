import type { SignalBus } from '../../signals/signal-bus.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { PhotoVariantsService } from './photo-variants.service.ts';
import type { PreviewProtectionService } from './preview-protection.service.ts';

/** The photos domain's reactions to domain events: each only enqueues registry jobs. */
export const registerPhotoListeners = (
  bus: SignalBus,
  deps: {
    jobs: JobSender;
    photoVariants: Pick<PhotoVariantsService, 'enqueueFor' | 'removeVariantsOf'>;
    previewProtection: Pick<PreviewProtectionService, 'onEventUpdated'>;
  },
): void => {
  bus.on('photo.uploaded', 'photos: enqueue derivatives', ({ photoId }) =>
    deps.jobs.send('photo.derivatives', { photoId }),
  );
  // the event's image processes run on every new photo (one job per process).
  bus.on('photo.ready', 'photos: enqueue image processes', async ({ photoId }) => {
    await deps.photoVariants.enqueueFor(photoId);
  });
  // Turned paid, or a new protector mark: the stored photos' protected previews are made again.
  bus.on('event.updated', 'photos: enqueue protected previews', ({ eventId }) =>
    deps.previewProtection.onEventUpdated(eventId),
  );
  // An original's variants are deleted with it (rows and files).
  bus.on('photo.deleted', 'photos: delete variants', async (notice) => {
    await deps.photoVariants.removeVariantsOf(notice);
  });
};
