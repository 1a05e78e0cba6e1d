import type { DomainEventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';
import type { PhotoVariantsService } from './photo-variants.service.ts';

/** The photos domain's reactions to domain events: each only enqueues registry jobs. */
export const registerPhotoListeners = (
  bus: DomainEventBus,
  deps: { jobs: Pick<JobQueue, 'send'>; photoVariants: Pick<PhotoVariantsService, 'enqueueFor'> },
): void => {
  bus.on('photo.uploaded', 'photos: enqueue derivatives', ({ photoId }) =>
    deps.jobs.send('photo.derivatives', { photoId }),
  );
  // Issue 12: the event's image processes run on every new photo (one job per process).
  bus.on('photo.ready', 'photos: enqueue image processes', async ({ photoId }) => {
    await deps.photoVariants.enqueueFor(photoId);
  });
};
