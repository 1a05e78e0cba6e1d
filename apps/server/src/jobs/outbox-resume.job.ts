import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Messages whose job was lost (a crash between insert and enqueue) or whose worker died. */
export const outboxResumeJob = defineJob({
  name: 'outbox.resume',
  summary: 'Re-enqueue every due outbox message (a duplicate job is harmless: deliver claims)',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
  run: (_payload, deps) => deps.outbox.resumeDue(),
});
