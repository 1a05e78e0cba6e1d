import type { DomainEventBus } from '../../events/event-bus.ts';
import type { JobQueue } from '../../jobs/job-queue.ts';

/** The photos domain's reactions to domain events: each only enqueues a registry job. */
export const registerPhotoListeners = (
  bus: DomainEventBus,
  deps: { jobs: Pick<JobQueue, 'send'> },
): void => {
  bus.on('photo.uploaded', 'photos: enqueue derivatives', ({ photoId }) =>
    deps.jobs.send('photo.derivatives', { photoId }),
  );
};
