import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Thin: the outbox service keeps the rules (claim, attempts, backoff, final status). */
export const mailDeliverJob = defineJob({
  name: 'mail.deliver',
  summary: 'One delivery attempt of a mail outbox message through the mail adapter',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `mail-${outboxId}`,
  run: ({ outboxId }, deps) => deps.outbox.deliver(outboxId),
});
