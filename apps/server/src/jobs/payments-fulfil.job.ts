import { paymentsFulfil } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PaymentsFulfilDeps = { payments: { fulfilMissed(): Promise<unknown> } };

export const paymentsFulfilJob = defineJob(paymentsFulfil, (_payload, deps: PaymentsFulfilDeps) =>
  deps.payments.fulfilMissed(),
);
