import { paymentsExpire } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PaymentsExpireDeps = { payments: { expireStale(): Promise<unknown> } };

export const paymentsExpireJob = defineJob(paymentsExpire, (_payload, deps: PaymentsExpireDeps) =>
  deps.payments.expireStale(),
);
