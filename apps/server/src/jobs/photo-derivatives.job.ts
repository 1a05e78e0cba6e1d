import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued by the `photo.uploaded` listener, by reprocess and by the stuck-photo sweep. */
export const photoDerivativesJob = defineJob({
  name: 'photo.derivatives',
  summary: 'Make preview, thumbnail and watermarked variants of one photo, then emit photo.ready',
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  // One photo decodes and resizes in about a second; 20 s covers a loaded machine, and a job left
  // active by a killed worker is retried within ~25 s (expiry + maintenance + retry delay).
  expireSeconds: 20,
  // One job per photo at a time even when two processes complete the same upload at once.
  policy: 'stately',
  singletonKey: ({ photoId }) => `derive-${photoId}`,
  // Idempotent: a photo already ready is left alone.
  run: ({ photoId }, deps) => deps.photoDerivatives.makeDerivatives(photoId),
});
