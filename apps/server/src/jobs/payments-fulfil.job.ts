import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * Paid payments whose effects (unlock, prints, receipt) a crash cut off get them (a
 * guest who paid is never left locked; every effect is idempotent, so a rerun is harmless).
 */
export const paymentsFulfilJob = defineJob({
  name: 'payments.fulfil',
  summary: 'Redo the unlock, prints and receipt of paid payments a crash interrupted',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: false },
  schedule: '* * * * *',
  run: (_payload, deps) => deps.payments.fulfilMissed(),
});
