import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Thin: the SMS service keeps the outbox rules (attempts, permanent refusals). */
export const smsDeliverJob = defineJob({
  name: 'sms.deliver',
  summary: 'Hand one SMS outbox row to the provider',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `sms-${outboxId}`,
  run: ({ outboxId }, deps) => deps.sms.deliver(outboxId),
});
