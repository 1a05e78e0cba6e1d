import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Enqueued by the faces listener of `photo.ready` when the event has face recognition on. */
export const facesIndexJob = defineJob({
  name: 'faces.index',
  summary: "Detect and store the faces of one photo's preview",
  payload: z.object({ photoId: z.number().int().positive() }),
  retry: { limit: 5, delaySeconds: 5, backoff: true },
  singletonKey: ({ photoId }) => `faces.index:${photoId}`,
  // Idempotent: a photo already scanned with the same model and cut-off is skipped.
  run: ({ photoId }, deps) => deps.faceIndex.indexPhoto(photoId),
});
