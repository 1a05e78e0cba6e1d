import { storageDeletePending } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type StorageDeletePendingDeps = { storageDeletions: { run(): Promise<unknown> } };

export const storageDeletePendingJob = defineJob(
  storageDeletePending,
  (_payload, deps: StorageDeletePendingDeps) => deps.storageDeletions.run(),
);
