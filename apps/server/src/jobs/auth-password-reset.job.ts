import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/**
 * The work of a forgot-password request: look the account up, make and store a code, mail it.
 * The request only queues this job, known account or not, so its answer and its timing say
 * nothing about which e-mail addresses have accounts.
 */
export const authPasswordResetJob = defineJob({
  name: 'auth.password-reset',
  summary: 'Make and mail a password reset code (the forgot-password request only queues this)',
  payload: z.object({ username: z.string().min(1).max(320) }),
  retry: { limit: 3, delaySeconds: 10, backoff: true },
  expireSeconds: 60,
  run: async (payload, deps) => {
    await deps.auth?.sendResetCode(payload.username);
  },
});
