import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * Crash safety of uploads: a photo whose row says `processing` but whose derivatives job was
 * never enqueued (the process died between the insert and the enqueue, or the listener failed)
 * gets its job again. Photos with a derivatives job still queued or running are skipped.
 */
export const photosStuckJob = defineJob({
  name: 'photos.requeue-stuck',
  summary: 'Re-enqueue derivatives for photos stuck in processing for more than a few minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  schedule: '*/5 * * * *',
  run: (_payload, deps) => deps.photoDerivatives.requeueStuck(),
});
