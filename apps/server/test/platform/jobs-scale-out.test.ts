import { API_BASE, endpoints } from '@flashbulb/shared';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { openDatabase } from '../../src/db/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import { createEmptyPgDatabase, createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Scale-out and crash recovery of the job queue. */

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const queueRow = async (app: TestApp, name: string) => {
  const { rows } = await app.database.executeSql(
    'select policy, expire_seconds from pgboss.queue where name = $1',
    [name],
  );
  return rows[0] as { policy: string; expire_seconds: number } | undefined;
};

describe('job queue policies', () => {
  it('photo.derivatives: one job per photo at a time, expiring in seconds not minutes', async () => {
    // An api process: jobs are queued, nothing consumes them.
    t = await createTestApp({ FLASHBULB_ROLE: 'api' });
    expect(await queueRow(t, 'photo.derivatives')).toEqual({
      policy: 'stately',
      expire_seconds: 15,
    });
    const jobs = t.app.container.jobs;
    await Promise.all([
      jobs.send('photo.derivatives', { photoId: 7 }),
      jobs.send('photo.derivatives', { photoId: 7 }),
      jobs.send('photo.derivatives', { photoId: 8 }),
    ]);
    await jobs.send('photo.derivatives', { photoId: 7 });
    const pending = await jobs.payloads('photo.derivatives', 'pending');
    expect(pending.map((p) => (p as { photoId: number }).photoId).sort()).toEqual([7, 8]);
    // A job left active by a killed worker expires after the queue's seconds.
    const { rows } = await t.database.executeSql(
      `select extract(epoch from expire_in)::int as s from pgboss.job where name = 'photo.derivatives'`,
    );
    expect(rows.every((r) => r.s === 15)).toBe(true);
  });
});

/**
 * An api process (nothing runs jobs) with two derivative jobs queued, the first left `active` as a
 * process killed mid-job leaves it: nobody running it.
 */
const appWithOrphan = async (orphan: number, waiting: number): Promise<TestApp> => {
  const app = await createTestApp({ FLASHBULB_ROLE: 'api' });
  await app.app.container.jobs.send('photo.derivatives', { photoId: orphan });
  await app.app.container.jobs.send('photo.derivatives', { photoId: waiting });
  await app.database.executeSql(
    `update pgboss.job set state = 'active', started_on = now()
      where name = 'photo.derivatives' and data->>'photoId' = $1`,
    [String(orphan)],
  );
  return app;
};

describe('jobs left active by a stopped process', () => {
  it('recoverOrphans fails them at once so their retry policy runs them again', async () => {
    t = await appWithOrphan(41, 42);
    const jobs = t.app.container.jobs;
    expect(await jobs.recoverOrphans()).toBe(1);
    const { rows } = await t.database.executeSql(
      `select data->>'photoId' as id, state from pgboss.job
        where name = 'photo.derivatives' order by id`,
    );
    expect(rows).toEqual([
      { id: '41', state: 'retry' },
      { id: '42', state: 'created' },
    ]);
    expect(await jobs.recoverOrphans()).toBe(0);
  });
});

describe('a worker that starts', () => {
  it('retries at once what its own last run left active on PGlite; on PostgreSQL leaves it to the expiry', async () => {
    t = await appWithOrphan(51, 52);
    // The worker role starts on the same database (what `npm start` does after a kill).
    await t.app.container.startWorker();
    const { rows } = await t.database.executeSql(
      `select state, output from pgboss.job
        where name = 'photo.derivatives' and data->>'photoId' = '51'`,
    );
    // PGlite: one process owns the folder, so the active job died with the last run: failed at
    // once into its retry (the new worker may have taken it on since). PostgreSQL: another
    // process may be running it, so it stays active until its expiry.
    if (t.database.engine === 'pglite')
      expect(rows[0]?.output).toEqual({ reason: 'the process running it stopped' });
    else expect(rows[0]).toEqual({ state: 'active', output: null });
  });
});

describe('FLASHBULB_ROLE', () => {
  it('worker: health only, calls answer not_found in the envelope', async () => {
    t = await createTestApp({ FLASHBULB_ROLE: 'worker' });
    expect((await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    const call = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.setupStatus.path}`,
      payload: {},
    });
    expect(call.statusCode).toBe(404);
    expect(call.json()).toMatchObject({ status: 'nok', error: { message_key: 'not_found' } });
  });

  it('api: serves calls', async () => {
    t = await createTestApp({ FLASHBULB_ROLE: 'api' });
    expect((await t.call(endpoints.setupStatus, {})).statusCode).toBe(200);
  });
});

describe.runIf(process.env.FLASHBULB_TEST_DB === 'postgres')(
  'two processes, one PostgreSQL',
  () => {
    it('start together on an empty database every time (pg-boss set-up under our lock)', async () => {
      for (let trial = 0; trial < 4; trial += 1) {
        const fresh = await createEmptyPgDatabase();
        const url = fresh.url;
        const logger = pino({ level: 'silent' });
        const [a, b] = await Promise.all([
          openDatabase({ engine: 'postgres', url, poolSize: 4 }),
          openDatabase({ engine: 'postgres', url, poolSize: 4 }),
        ]);
        const queues = [new JobQueue(a, logger), new JobQueue(b, logger)];
        try {
          await Promise.all(queues.map((q) => q.start()));
        } finally {
          await Promise.all(queues.map((q) => q.stop()));
          await a.close();
          await b.close();
          await fresh.drop();
        }
      }
    }, 240_000);
  },
);

describe('identity rate limit across processes', () => {
  it('two processes on one database share one count per client address', async () => {
    t = await createTestApp({ FLASHBULB_AUTH_RATE_LIMIT: '3' });
    // A second process: its own app on the same database.
    const other = await buildApp(t.config, { database: t.database, clock: t.clock, worker: false });
    try {
      const signIn = (app: typeof other) =>
        app.inject({
          method: 'POST',
          url: `${API_BASE}${endpoints.signIn.path}`,
          payload: { username: 'a@example.com', password: 'whatever' },
        });
      const statuses = [
        (await signIn(t.app)).statusCode,
        (await signIn(other)).statusCode,
        (await signIn(t.app)).statusCode,
        (await signIn(other)).statusCode,
      ];
      expect(statuses).toEqual([400, 400, 400, 429]);
      expect((await signIn(other)).json()).toMatchObject({
        status: 'nok',
        error: { message_key: 'rate_limited' },
      });
    } finally {
      await other.close();
    }
  });
});
