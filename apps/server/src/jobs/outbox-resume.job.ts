import { outboxResume } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type OutboxResumeDeps = {
  outbox: { resumeDue(): Promise<unknown> };
  webhooks?: { resumeDue(): Promise<unknown> };
};

export const outboxResumeJob = defineJob(outboxResume, async (_payload, deps: OutboxResumeDeps) => {
  await deps.outbox.resumeDue();
  await deps.webhooks?.resumeDue();
});
