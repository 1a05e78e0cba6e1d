import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type { OperationsRepository } from '../repositories/operations/operations.repository.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';

/** A check that has not answered by then counts as failed: a load balancer must not hang. */
export const READY_CHECK_TIMEOUT_MS = 2_000;

export type CheckResult = 'ok' | 'failed' | 'not_run_here';

export interface ReadinessDeps {
  database: Database;
  operations: OperationsRepository;
  storage: StorageRepository;
  jobs: JobQueue;
  /** Whether this process runs the job worker (FLASHBULB_ROLE worker or all). */
  runsWorker: boolean;
}

const withTimeout = async (work: () => Promise<boolean>): Promise<CheckResult> => {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<boolean>((resolve) => {
    timer = setTimeout(() => resolve(false), READY_CHECK_TIMEOUT_MS);
  });
  try {
    return (await Promise.race([work().catch(() => false), timeout])) ? 'ok' : 'failed';
  } finally {
    clearTimeout(timer);
  }
};

/** Database reachable, migrations applied, storage writable, the job worker running (if ours). */
export const checkReadiness = async (
  deps: ReadinessDeps,
): Promise<{ ready: boolean; checks: Record<string, CheckResult> }> => {
  const [database, migrations, storage] = await Promise.all([
    withTimeout(async () => {
      await deps.database.ping();
      return true;
    }),
    withTimeout(() => deps.operations.migrationsApplied()),
    withTimeout(async () => {
      const key = `ready-check/${process.pid}-${randomBytes(6).toString('hex')}`;
      await deps.storage.put(key, Buffer.from('ok'), 'text/plain', { cacheControl: 'no-store' });
      await deps.storage.delete(key);
      return true;
    }),
  ]);
  const worker: CheckResult = deps.runsWorker
    ? deps.jobs.working
      ? 'ok'
      : 'failed'
    : 'not_run_here';
  const checks = { database, migrations, storage, worker };
  return { ready: Object.values(checks).every((c) => c !== 'failed'), checks };
};

/** `/api/health`: the process is alive (no dependency asked); `/api/ready`: it can serve. */
export const registerHealthRoutes = (app: FastifyInstance, deps: ReadinessDeps): void => {
  app.get('/api/health', { schema: { hide: true } }, (_request, reply) => {
    void reply.send({ status: 'ok' });
  });
  app.get('/api/ready', { schema: { hide: true } }, async (_request, reply) => {
    const { ready, checks } = await checkReadiness(deps);
    return reply
      .code(ready ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({ status: ready ? 'ok' : 'nok', checks });
  });
};
