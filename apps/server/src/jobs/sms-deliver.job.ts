import { smsDeliver } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type SmsDeliverDeps = { outbox: { deliver(outboxId: number): Promise<unknown> } };

export const smsDeliverJob = defineJob(smsDeliver, ({ outboxId }, deps: SmsDeliverDeps) =>
  deps.outbox.deliver(outboxId),
);
