import { z } from 'zod';
import { defineJob } from './job-definition.ts';

export const attendeesCleanupJob = defineJob({
  name: 'attendees.cleanup',
  summary: 'Delete attendee batches whose generation was abandoned',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '41 * * * *',
  run: (_payload, deps) => deps.attendees.deleteAbandonedBatches(),
});
