import { storageProtectLegacy } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type StorageProtectLegacyDeps = { storageMigration: { sweep(): Promise<unknown> } };

export const storageProtectLegacyJob = defineJob(
  storageProtectLegacy,
  (_payload, deps: StorageProtectLegacyDeps) => deps.storageMigration.sweep(),
);
