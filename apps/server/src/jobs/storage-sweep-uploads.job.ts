import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Uploads left in `tmp/` by crashes and abandoned clients (services/photos/upload-sweep.ts). */
export const storageSweepUploadsJob = defineJob({
  name: 'storage.sweep-uploads',
  summary: 'Delete uploads in tmp/ that were completed already or are older than 6 hours',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '23 * * * *',
  run: (_payload, deps) => deps.uploadSweep.sweep(),
});
