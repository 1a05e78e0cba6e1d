import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued by the `photo.uploaded` listener, by reprocess and by the stuck-photo sweep. */
export const photoDerivativesJob = defineJob({
  name: 'photo.derivatives',
  summary: 'Make preview, thumbnail and watermarked variants of one photo, then emit photo.ready',
  payload: z.object({ photoId: z.number().int().positive() }),
  // Retries 2, 4, 8… s apart: a job whose worker was killed twice in a row (a crash loop) is
  // still retried within the 30 s.
  retry: { limit: 5, delaySeconds: 2, backoff: true },
  // One photo decodes and resizes in about a second; 15 s covers a loaded machine, and a job left
  // active by a killed worker is retried within ~22 s (expiry + maintenance + retry delay).
  expireSeconds: 15,
  // One job per photo at a time even when two processes complete the same upload at once.
  policy: 'stately',
  singletonKey: ({ photoId }) => `derive-${photoId}`,
  // Idempotent: a photo already ready is left alone.
  run: ({ photoId }, deps) => deps.photoDerivatives.makeDerivatives(photoId),
});
