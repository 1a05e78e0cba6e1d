import { authPasswordReset } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type AuthPasswordResetDeps = {
  auth?: { sendResetCode(username: string): Promise<unknown> };
};

export const authPasswordResetJob = defineJob(
  authPasswordReset,
  async (payload, deps: AuthPasswordResetDeps) => {
    await deps.auth?.sendResetCode(payload.username);
  },
);
