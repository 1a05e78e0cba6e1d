import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued by the `photo.uploaded` listener, by reprocess and by the stuck-photo sweep. */
export const photoDerivativesJob = defineJob({
  name: 'photo.derivatives',
  summary: 'Make preview, thumbnail and watermarked variants of one photo, then emit photo.ready',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `derive-${photoId}`,
  // Idempotent: a photo already ready is left alone.
  run: ({ photoId }, deps) => deps.photoDerivatives.makeDerivatives(photoId),
});
