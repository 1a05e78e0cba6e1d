import { z } from 'zod';
import { defineJob } from './job-definition.ts';

export const photosRetentionJob = defineJob({
  name: 'photos.retention',
  summary: 'Archive originals after instant_archive_days, delete after photo_auto_delete_days',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/15 * * * *',
  run: (_payload, deps) => deps.photoRetention.runRetention(),
});
