import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** ADR 0006 storage migration of one photo (crash-safe, idempotent). */
export const storageProtectPhotoJob = defineJob({
  name: 'storage.protect-photo',
  summary: 'Move one photo stored before protected storage into the protected key space',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `protect-${photoId}`,
  run: ({ photoId }, deps) => deps.storageMigration.protectPhoto(photoId),
});
