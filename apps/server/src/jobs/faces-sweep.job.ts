import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** Catches events whose photos were never indexed (a lost job, a new model). */
export const facesSweepJob = defineJob({
  name: 'faces.sweep',
  summary: 'Queue a faces.backfill for every event with face recognition on and unindexed photos',
  payload: z.object({}),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  schedule: '*/10 * * * *',
  run: (_payload, deps) => deps.faceIndex.sweep(),
});
