import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, inject } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { makeJpeg, postToStorage, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const METRICS_TOKEN = 'metrics-token-0123456789abcdef';

let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let robot: { key_type: 'robot'; key_value: string };
let admin: { authorization: string };
const logLines: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { FLASHBULB_METRICS_TOKEN: METRICS_TOKEN, LOG_LEVEL: 'info' },
    { logStream: { write: (line: string) => void logLines.push(line) } },
  );
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth' },
    admin,
  );
  robot = { key_type: 'robot', key_value: created.api_key };
  event = await createEvent(t, world.adminA, { robot_id_array: [created.id] });
});
afterAll(async () => {
  await t.close();
});

const scrape = async (headers: Record<string, string> = {}, remoteAddress = '127.0.0.1') =>
  t.app.inject({ method: 'GET', url: '/metrics', headers, remoteAddress });

const metricsNow = async () => {
  const response = await scrape();
  expect(response.statusCode).toBe(200);
  expect(response.headers['content-type']).toContain('text/plain');
  return parsePrometheusText(response.body);
};

describe('/metrics', () => {
  it('answers loopback and the metrics token, nobody else (nor a proxied loopback)', async () => {
    expect((await scrape()).statusCode).toBe(200);
    expect((await scrape({}, '203.0.113.7')).statusCode).toBe(401);
    // A proxy on this host connects from loopback for every client: forwarded means not local.
    expect((await scrape({ 'x-forwarded-for': '203.0.113.7' })).statusCode).toBe(401);
    const withToken = await scrape({ authorization: `Bearer ${METRICS_TOKEN}` }, '203.0.113.7');
    expect(withToken.statusCode).toBe(200);
    expect(withToken.body).not.toContain(METRICS_TOKEN);
    const wrong = await scrape({ authorization: `Bearer ${METRICS_TOKEN}x` }, '203.0.113.7');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.body).not.toContain('flashbulb_');
  });

  it('passes a strict text-format parser and has every family the operator needs', async () => {
    await t.app.inject({ method: 'GET', url: '/api/health' });
    const families = await metricsNow();
    for (const name of [
      'flashbulb_http_request_duration_seconds',
      'flashbulb_jobs_finished_total',
      'flashbulb_job_duration_seconds',
      'flashbulb_jobs',
      'flashbulb_photos_ingested_total',
      'flashbulb_outbox_backlog',
      'flashbulb_db_pool_connections',
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
    ]) {
      expect(families.has(name), name).toBe(true);
    }
    expect(sampleValue(families, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    // By route pattern and status, not by URL.
    expect(
      sampleValue(families, 'flashbulb_http_request_duration_seconds_count', {
        method: 'GET',
        route: '/api/health',
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
    if (t.database.engine === 'postgres') {
      expect(sampleValue(families, 'flashbulb_db_pool_connections', { state: 'max' })).toBe(4);
    }
  });

  it('moves when a photo is ingested: ingest counter, derivative jobs, request timings', async () => {
    const before = await metricsNow();
    const ingested = sampleValue(before, 'flashbulb_photos_ingested_total') ?? 0;
    const ready = sampleValue(before, 'flashbulb_photos_ready_total') ?? 0;
    const jobs =
      sampleValue(before, 'flashbulb_jobs_finished_total', {
        queue: 'photo.derivatives',
        outcome: 'completed',
      }) ?? 0;

    const photo = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 3 }));
    await waitForReady(t, admin.authorization, event.id, photo.id);
    // The photo turns ready inside its job; the job's own sample is taken when the handler has
    // returned, a moment later (on PostgreSQL the scrape could come first).
    const jobsDone = async () =>
      sampleValue(await metricsNow(), 'flashbulb_jobs_finished_total', {
        queue: 'photo.derivatives',
        outcome: 'completed',
      });
    await expect.poll(jobsDone, { timeout: 15_000 }).toBe(jobs + 1);

    const after = await metricsNow();
    expect(sampleValue(after, 'flashbulb_photos_ingested_total')).toBe(ingested + 1);
    expect(sampleValue(after, 'flashbulb_photos_ready_total')).toBe(ready + 1);
    expect(
      sampleValue(after, 'flashbulb_jobs_finished_total', {
        queue: 'photo.derivatives',
        outcome: 'completed',
      }),
    ).toBe(jobs + 1);
    expect(
      sampleValue(after, 'flashbulb_job_duration_seconds_count', { queue: 'photo.derivatives' }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sampleValue(after, 'flashbulb_http_request_duration_seconds_count', {
        method: 'POST',
        route: `/api/v1${endpoints.photoUploadComplete.path}`,
        status: '200',
      }),
    ).toBeGreaterThanOrEqual(1);
  });

  it('counts the outbox backlog by channel', async () => {
    const { rows } = await t.database.executeSql(
      `insert into outbox (channel, kind, recipient, content, status)
       values ('sms', 'test', '15550001', '{"text":"hello"}'::jsonb, 'outbox') returning id`,
      [],
    );
    expect(rows).toHaveLength(1);
    const families = await metricsNow();
    expect(
      sampleValue(families, 'flashbulb_outbox_backlog', { channel: 'sms', status: 'outbox' }),
    ).toBeGreaterThanOrEqual(1);
  });
});

describe('request ids', () => {
  it('puts the request id in every line logged while serving it, and in the reply', async () => {
    // A listener that fails logs through the app's logger (not the request's): it must still
    // carry the id of the request whose upload emitted the event.
    const off = t.app.container.bus.on('photo.uploaded', 'test: fails', () => {
      throw new Error('listener failed on purpose');
    });
    try {
      const { key } = await postToStorage(
        t,
        robot,
        event.name,
        'id.jpg',
        await makeJpeg({ seed: 4 }),
        'image/jpeg',
      );
      const done = await t.call(
        endpoints.photoUploadComplete,
        { ...robot, key },
        { headers: { 'x-request-id': 'ingest-req-42' } },
      );
      expect(done.statusCode).toBe(200);
      expect(done.headers['x-request-id']).toBe('ingest-req-42');
    } finally {
      off();
    }
    const failed = logLines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find(
        (line) => line.msg === 'domain event listener failed' && line.listener === 'test: fails',
      );
    expect(failed).toBeDefined();
    expect(failed?.reqId).toBe('ingest-req-42');
    // Every line of that request carries it, once.
    const ofRequest = logLines.filter((line) => line.includes('ingest-req-42'));
    expect(ofRequest.length).toBeGreaterThanOrEqual(3);
    for (const line of ofRequest) expect(line.match(/"reqId"/g)).toHaveLength(1);
  });
});

describe('/api/health and /api/ready', () => {
  it('is alive and ready with database, migrations, storage and worker checked', async () => {
    const health = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(health.statusCode).toBe(200);
    const ready = await t.app.inject({ method: 'GET', url: '/api/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ok',
      checks: { database: 'ok', migrations: 'ok', storage: 'ok', worker: 'ok' },
    });
  });

  it('an api-only process does not claim a worker', async () => {
    const api = await createTestApp({ FLASHBULB_ROLE: 'api' });
    try {
      const ready = await api.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json<{ checks: { worker: string } }>().checks.worker).toBe('not_run_here');
    } finally {
      await api.close();
    }
  });

  it('is not ready while the database is unreachable, and ready again after', async () => {
    const other = await createTestApp({ FLASHBULB_ROLE: 'api' });
    try {
      expect((await other.app.inject({ method: 'GET', url: '/api/ready' })).statusCode).toBe(200);
      const restore = await makeUnreachable(other);
      const ready = await other.app.inject({ method: 'GET', url: '/api/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({
        status: 'nok',
        checks: { database: 'failed', migrations: 'failed' },
      });
      // Alive all the same: a load balancer takes it out, nobody restarts it.
      expect((await other.app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
      if (restore) {
        await restore();
        const again = await other.app.inject({ method: 'GET', url: '/api/ready' });
        expect(again.statusCode).toBe(200);
      }
    } finally {
      await other.close().catch(() => undefined);
    }
  });
});

/**
 * PGlite: the database is closed (nothing to reopen). PostgreSQL: the database refuses new
 * connections and its open ones are ended; answers how to let it back.
 */
const makeUnreachable = async (app: TestApp): Promise<(() => Promise<void>) | null> => {
  if (app.database.engine === 'pglite') {
    await app.database.close();
    return null;
  }
  const url = new URL((app.database as unknown as { url: string }).url);
  const name = url.pathname.slice(1);
  const adminUrl = process.env.FLASHBULB_TEST_PG_URL ?? inject('pgUrl');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`alter database ${name} with allow_connections false`);
  await admin.query(
    'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
    [name],
  );
  await admin.end();
  return async () => {
    const again = new pg.Client({ connectionString: adminUrl });
    await again.connect();
    await again.query(`alter database ${name} with allow_connections true`);
    await again.end();
  };
};
