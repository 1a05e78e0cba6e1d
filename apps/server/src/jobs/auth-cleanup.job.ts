import type { Clock } from '../lib/clock.ts';
import { authCleanup } from './catalogue.ts';
import { defineJob } from './job-definition.ts';

export type AuthCleanupDeps = {
  sessions: { deleteExpired(now: Date): Promise<unknown> };
  clock: Clock;
};

export const authCleanupJob = defineJob(authCleanup, (_payload, deps: AuthCleanupDeps) =>
  deps.sessions.deleteExpired(deps.clock.now()),
);
