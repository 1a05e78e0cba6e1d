import { paymentsReconcile } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type PaymentsReconcileDeps = {
  providerCheckouts?: { reconcilePending(): Promise<unknown> };
};

export const paymentsReconcileJob = defineJob(
  paymentsReconcile,
  async (_payload, deps: PaymentsReconcileDeps) =>
    deps.providerCheckouts?.reconcilePending() ?? null,
);
