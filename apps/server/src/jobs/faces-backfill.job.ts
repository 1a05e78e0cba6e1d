import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued by `event.updated` (face recognition switched on) and by the `faces.sweep`. */
export const facesBackfillJob = defineJob({
  name: 'faces.backfill',
  summary:
    'Index a batch of the photos of an event not yet indexed; queues itself while more remain',
  payload: z.object({ eventId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ eventId }) => `faces.backfill:${eventId}`,
  run: ({ eventId }, deps) => deps.faceIndex.backfill(eventId),
});
