import { z } from 'zod';
import { defineJob } from './job-definition.ts';

export const authCleanupJob = defineJob({
  name: 'auth.cleanup',
  summary: 'Delete expired sessions and sign-in challenges',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 60, backoff: false },
  schedule: '17 * * * *',
  run: (_payload, deps) => deps.sessions.deleteExpired(deps.clock.now()),
});
