import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Deletes selfies (object, row, descriptor) past the event's selfie expiration or photo retention. */
export const facesSelfiesExpireJob = defineJob({
  name: 'faces.selfies-expire',
  summary: "Delete guests' selfies and their descriptors once the event's selfie expiration passes",
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '*/5 * * * *',
  run: async (_payload, deps) => (deps.faceSelfies ? deps.faceSelfies.expire() : 0),
});
