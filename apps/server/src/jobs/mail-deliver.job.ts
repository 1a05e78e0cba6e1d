import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Thin: the mail service keeps the outbox rules (attempts, final status). */
export const mailDeliverJob = defineJob({
  name: 'mail.deliver',
  summary: 'Hand one mail outbox row to SMTP',
  payload: z.object({ outboxId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ outboxId }) => `mail-${outboxId}`,
  run: ({ outboxId }, deps) => deps.mail.deliver(outboxId),
});
