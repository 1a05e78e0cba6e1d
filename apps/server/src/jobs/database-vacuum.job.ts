import { z } from 'zod';
import { defineJob } from './job-definition.ts';

/** PGlite has no autovacuum launcher: db/maintenance.ts does its job (a no-op on PostgreSQL). */
export const databaseVacuumJob = defineJob({
  name: 'database.vacuum',
  summary: 'Vacuum and analyze PGlite tables that changed by more than 1,000 + 10 % of their rows',
  payload: z.object({}),
  retry: { limit: 1, delaySeconds: 60, backoff: false },
  schedule: '*/10 * * * *',
  run: (_payload, deps) => deps.maintenance.vacuumIfNeeded(),
});
