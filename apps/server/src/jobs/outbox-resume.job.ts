import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Messages whose job was lost (a crash between insert and enqueue) or whose worker died. */
export const outboxResumeJob = defineJob({
  name: 'outbox.resume',
  summary:
    'Re-enqueue every due outbox message and webhook delivery (a duplicate job is harmless: deliver claims)',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
  run: async (_payload, deps) => {
    await deps.outbox.resumeDue();
    await deps.webhooks?.resumeDue();
  },
});
