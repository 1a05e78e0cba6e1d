import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** ADR 0006: finds photos with pre-protected-storage keys; sent once when a worker starts. */
export const storageProtectLegacyJob = defineJob({
  name: 'storage.protect-legacy',
  summary: 'Enqueue storage.protect-photo for every photo still stored the old way',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  singletonKey: () => 'protect-legacy',
  run: (_payload, deps) => deps.storageMigration.sweep(),
});
