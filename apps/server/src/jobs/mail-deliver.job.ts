import { mailDeliver } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type MailDeliverDeps = { outbox: { deliver(outboxId: number): Promise<unknown> } };

export const mailDeliverJob = defineJob(mailDeliver, ({ outboxId }, deps: MailDeliverDeps) =>
  deps.outbox.deliver(outboxId),
);
