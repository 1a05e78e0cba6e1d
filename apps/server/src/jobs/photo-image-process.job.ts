import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued on `photo.ready` once per image process of the event that makes a file. */
export const photoImageProcessJob = defineJob({
  name: 'photo.image-process',
  summary: 'Run one of the event’s image processes (resize, watermark, print 4×6) on a new photo',
  payload: z.object({
    photoId: z.number().int().positive(),
    imageProcessId: z.number().int().positive(),
  }),
  retry: { limit: 3, delaySeconds: 5, backoff: true },
  expireSeconds: 60,
  singletonKey: ({ photoId, imageProcessId }) => `image-process-${photoId}-${imageProcessId}`,
  // Idempotent: a variant already made is only announced again.
  run: ({ photoId, imageProcessId }, deps) => deps.photoVariants.run(photoId, imageProcessId),
});
