import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * Payments of real providers still pending after a few minutes are asked about: a lost
 * webhook never strands a paid guest. The state machine makes a rerun, or a webhook arriving too,
 * harmless.
 */
export const paymentsReconcileJob = defineJob({
  name: 'payments.reconcile',
  summary: 'Ask payment providers about payments pending for over 2 minutes',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/2 * * * *',
  run: async (_payload, deps) => deps.providerCheckouts?.reconcilePending() ?? null,
});
