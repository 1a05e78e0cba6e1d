import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Thin: the outbox service keeps the rules (claim, attempts, backoff, final status). */
export const smsDeliverJob = defineJob({
  name: 'sms.deliver',
  summary: 'One delivery attempt of an SMS outbox message through the SMS adapter',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `sms-${outboxId}`,
  run: ({ outboxId }, deps) => deps.outbox.deliver(outboxId),
});
