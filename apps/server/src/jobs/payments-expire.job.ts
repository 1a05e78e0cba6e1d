import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Checkouts left unpaid too long become `expired` (the state machine makes a rerun harmless). */
export const paymentsExpireJob = defineJob({
  name: 'payments.expire',
  summary: 'Expire payments pending for over 30 minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
  run: (_payload, deps) => deps.payments.expireStale(),
});
