import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Signals } from '../../src/signals/signals.ts';
import { bindJobs, type JobServices } from '../../src/container/jobs.ts';
import { databaseVacuum, jobCatalogue, photoDerivatives } from '../../src/jobs/catalogue.ts';
import { assertUniqueJobNames, JobPayloadError } from '../../src/jobs/job-definition.ts';
import {
  JobQueue,
  MAINTENANCE_INTERVAL_SECONDS,
  SINGLE_OWNER_MAINTENANCE_INTERVAL_SECONDS,
} from '../../src/jobs/job-queue.ts';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { insertCompletedJobs } from '../helpers/jobs.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, openTestDatabase, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: { authorization: string };
let event: FlashbulbEvent;
let robot: UploadAuth;
const lines: string[] = [];

const DAY = 86_400_000;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
  const { world, robotId, ...keys } = await createRobotWorld(t);
  ({ admin, robot } = keys);
  event = await createEvent(t, world.adminA, {
    robot_id_array: [robotId],
    instant_archive_days: 1,
  });
});
afterAll(async () => {
  await t.close();
});

const jobCount = async (name: string): Promise<number> => {
  const { rows } = await t.database.executeSql(
    'select count(*)::int as n from pgboss.job where name = $1',
    [name],
  );
  return Number(rows[0]!.n);
};

/** Records every payload of the given signals until the answered function is called. */
const recordEvents = <N extends keyof Signals>(names: N[]) => {
  const seen: { name: N; payload: Signals[N] }[] = [];
  const offs = names.map((name) =>
    t.app.container.bus.on(name, 'test recorder', (payload) => {
      seen.push({ name, payload });
    }),
  );
  return { seen, stop: () => offs.forEach((off) => off()) };
};

const until = async <T>(
  probe: () => Promise<T | undefined> | T | undefined,
  what: string,
): Promise<T> => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('job registry', () => {
  it('lists each queue name once and the queue creates every one of them', async () => {
    const names = jobCatalogue.map((job) => job.name);
    expect(new Set(names).size).toBe(names.length);
    expect(t.app.container.jobs.names).toEqual(names);
    // pg-boss keeps its own internal queues under `__pgboss__`.
    const { rows } = await t.database.executeSql(
      "select name from pgboss.queue where name not like '\\_\\_pgboss\\_\\_%'",
    );
    expect(rows.map((r) => r.name as string).sort()).toEqual([...names].sort());
  });

  it('puts back at start the options of a queue stored with others, and leaves a queue that has them', async () => {
    // A start reads the queues once and writes only what differs (a queue an older version made
    // keeps its options unless updated).
    const read = async () =>
      (
        await t.database.executeSql(
          'select retry_limit, retry_delay, retry_backoff, expire_seconds, policy, updated_on from pgboss.queue where name = $1',
          [photoDerivatives.name],
        )
      ).rows[0]!;
    const before = await read();
    await t.database.executeSql(
      'update pgboss.queue set retry_limit = 99, expire_seconds = 7 where name = $1',
      [photoDerivatives.name],
    );
    const startQueue = async () => {
      const queue = new JobQueue(t.database, pino({ level: 'silent' }), [photoDerivatives]);
      await queue.start();
      await queue.stop();
    };
    await startQueue();
    const putBack = await read();
    expect({ ...putBack, updated_on: null }).toEqual({ ...before, updated_on: null });
    await startQueue();
    // Nothing differed: not written again.
    expect((await read()).updated_on).toEqual(putBack.updated_on);
  });

  it('puts back at a worker start a schedule stored with another cron, and leaves one that has it', async () => {
    const read = async () =>
      (
        await t.database.executeSql(
          'select cron, timezone, data, options, updated_on from pgboss.schedule where name = $1',
          [databaseVacuum.name],
        )
      ).rows[0]!;
    const before = await read();
    expect(before.cron).toBe(databaseVacuum.schedule);
    await t.database.executeSql(`update pgboss.schedule set cron = '1 1 1 1 *' where name = $1`, [
      databaseVacuum.name,
    ]);
    const startWorker = async () => {
      const queue = new JobQueue(t.database, pino({ level: 'silent' }), [databaseVacuum]);
      await queue.start();
      await queue.startWorker({
        [databaseVacuum.name]: { name: databaseVacuum.name, run: () => Promise.resolve(null) },
      });
      await queue.stop();
    };
    await startWorker();
    const putBack = await read();
    expect({ ...putBack, updated_on: null }).toEqual({ ...before, updated_on: null });
    await startWorker();
    // Nothing differed: not written again.
    expect((await read()).updated_on).toEqual(putBack.updated_on);
  });

  it('fetches at a worker start only from queues with work, and runs a job sent afterwards', async () => {
    // A queue's pg-boss worker fetches when it is registered: registered for every queue at start,
    // that was a fetch per queue on every start. On a database of its own, so that no other
    // worker takes the job.
    const other = await openTestDatabase();
    const fetched: string[] = [];
    const counting = {
      executeSql: (text: string, values?: unknown[]) => {
        // pg-boss's own queues (`__pgboss__…`, its cron) are its business.
        const queue = String(values?.[0]);
        if (/WITH next as/i.test(text) && !queue.startsWith('__pgboss__')) fetched.push(queue);
        return other.database.executeSql(text, values);
      },
    };
    const queue = new JobQueue(counting, pino({ level: 'silent' }), [
      photoDerivatives,
      databaseVacuum,
    ]);
    try {
      await queue.start();
      let ran!: (payload: unknown) => void;
      const done = new Promise<unknown>((resolve) => (ran = resolve));
      await queue.startWorker({
        [photoDerivatives.name]: {
          name: photoDerivatives.name,
          run: (p) => Promise.resolve(ran(p)),
        },
        [databaseVacuum.name]: { name: databaseVacuum.name, run: () => Promise.resolve(null) },
      });
      expect(queue.working).toBe(true);
      expect(fetched).toEqual([]);
      await queue.send('photo.derivatives', { photoId: 7 });
      expect(await done).toEqual({ photoId: 7 });
      expect(new Set(fetched)).toEqual(new Set([photoDerivatives.name]));
    } finally {
      await queue.stop();
      await other.drop();
    }
  });

  it('finds work with one query a tick, not a fetch per queue every half second', async () => {
    // pg-boss alone polls each of the ~25 queues twice a second: on PGlite's one connection a
    // guest's request waited behind those fetches. Count what the job queue asks in 2 s.
    const database = t.database as { executeSql: typeof t.database.executeSql };
    const original = database.executeSql;
    let fetches = 0;
    let ticks = 0;
    database.executeSql = (text, values) => {
      if (/WITH next as/i.test(text)) fetches += 1;
      if (/select distinct name from pgboss\.job/.test(text)) ticks += 1;
      return original.call(database, text, values);
    };
    try {
      await new Promise((resolve) => setTimeout(resolve, 2_000));
    } finally {
      database.executeSql = original;
    }
    expect(ticks).toBeGreaterThanOrEqual(2);
    // Only queues with a job due are fetched (a scheduled job may fall in the window).
    expect(fetches).toBeLessThan(jobCatalogue.length);
  });

  it('lets pg-boss’s maintenance find expired and old jobs by index, not by reading every job kept', async () => {
    // Every 5 s pg-boss fails active jobs past their expiry and archives completed ones; with a
    // day of completed jobs kept, a scan of all of them held PGlite's one connection ~44 ms.
    const queue = 'auth.cleanup';
    await insertCompletedJobs(t, queue, 5000);
    try {
      await t.database.executeSql('analyze pgboss.job');
      const plan = async (query: string) =>
        (await t.database.executeSql(`explain ${query}`)).rows
          .map((row) => String(Object.values(row)[0]))
          .join('\n');
      const expire = await plan(
        `select id from pgboss.job where name = '${queue}' and state = 'active' and (started_on + expire_in) < now()`,
      );
      const archive = await plan(
        `select id from pgboss.job where name = '${queue}' and state <> 'failed' and completed_on < now() - interval '12 hours'`,
      );
      expect(expire).toMatch(/started_on_idx/);
      expect(archive).toMatch(/completed_on_idx/);
      expect(`${expire}\n${archive}`).not.toMatch(/Seq Scan/);
    } finally {
      await t.database.executeSql(
        `delete from pgboss.job where name = $1 and state = 'completed'`,
        [queue],
      );
    }
  });

  it('runs pg-boss’s maintenance every 5 s on PostgreSQL, every 30 s where one process owns the database', () => {
    // Only on PostgreSQL can another process die mid-job and need the round to hand its jobs on;
    // on PGlite the round's hold on the one connection would only delay guests' requests.
    expect(t.app.container.jobs.maintenanceIntervalSeconds).toBe(
      t.database.engine === 'pglite'
        ? SINGLE_OWNER_MAINTENANCE_INTERVAL_SECONDS
        : MAINTENANCE_INTERVAL_SECONDS,
    );
    expect(MAINTENANCE_INTERVAL_SECONDS).toBeLessThan(SINGLE_OWNER_MAINTENANCE_INTERVAL_SECONDS);
  });

  it('refuses a registry that names a job twice', () => {
    expect(() => assertUniqueJobNames([{ name: 'a' }, { name: 'b' }, { name: 'a' }])).toThrow(
      'job a is registered twice',
    );
    expect(
      () =>
        new JobQueue(t.database, pino({ level: 'silent' }), [photoDerivatives, photoDerivatives]),
    ).toThrow('job photo.derivatives is registered twice');
  });

  it('registers automatic stories (print.tag-stories): one job per photo, payload checked', () => {
    const job = jobCatalogue.find((j) => j.name === 'print.tag-stories');
    expect(job?.retry.limit).toBeGreaterThan(0);
    expect(job?.singletonKey?.({ eventId: 3, photoId: 7 })).toBe('print.tag-stories:7');
    expect(job?.payload.safeParse({ eventId: 3 }).success).toBe(false);
    expect(job?.payload.safeParse({ eventId: 3, photoId: 7 }).success).toBe(true);
  });

  it('schedules exactly the jobs that declare a cron, with their cron', async () => {
    const { rows } = await t.database.executeSql('select name, cron from pgboss.schedule');
    const scheduled = Object.fromEntries(rows.map((r) => [r.name as string, r.cron as string]));
    expect(scheduled).toEqual({
      'auth.cleanup': '17 * * * *',
      'attendees.cleanup': '41 * * * *',
      'photos.moderation-release': '*/5 * * * *',
      'photos.retention': '*/15 * * * *',
      'photos.requeue-stuck': '*/5 * * * *',
      'outbox.resume': '*/5 * * * *',
      'faces.sweep': '*/10 * * * *',
      'faces.selfies-expire': '*/5 * * * *',
      'notifications.remind': '23 * * * *',
      'payments.expire': '*/5 * * * *',
      'payments.fulfil': '* * * * *',
      'payments.buyer-albums-cleanup': '47 4 * * *',
      'print.resume': '*/5 * * * *',
      'payments.reconcile': '*/2 * * * *',
      'storage.sweep-uploads': '23 * * * *',
      'storage.delete-pending': '*/10 * * * *',
      'database.vacuum': '*/10 * * * *',
      'integrity.check': '37 3 * * *',
      'backup.scheduled': '*/5 * * * *',
      'reports.daily': '7 6 * * *',
    });
    expect(Object.keys(scheduled).sort()).toEqual(
      jobCatalogue
        .filter((job) => 'schedule' in job)
        .map((job) => job.name)
        .sort(),
    );
  });

  it('refuses a bad payload at send and enqueues nothing', async () => {
    const jobs = t.app.container.jobs;
    const before = await jobCount('photo.derivatives');
    await expect(
      // @ts-expect-error photoId must be a number
      jobs.send('photo.derivatives', { photoId: 'seven' }),
    ).rejects.toBeInstanceOf(JobPayloadError);
    await expect(jobs.send('photo.derivatives', { photoId: -1 })).rejects.toThrow(
      /photo\.derivatives: payload refused \(photoId: /,
    );
    await expect(
      // @ts-expect-error outboxId is missing
      jobs.send('mail.deliver', {}),
    ).rejects.toBeInstanceOf(JobPayloadError);
    await expect(
      // @ts-expect-error not a registered job
      jobs.send('photo.explode', {}),
    ).rejects.toThrow('job photo.explode is not in the registry');
    expect(await jobCount('photo.derivatives')).toBe(before);
  });

  it('checks the payload again when a job runs: a bad one (written around send) is logged, not run', async () => {
    // Written straight into pg-boss's table, as an older release or another tool might have.
    const { rows } = await t.database.executeSql(
      `insert into pgboss.job (name, data, policy) values ('photo.derivatives', $1::jsonb, 'standard')
       returning id`,
      [JSON.stringify({ photoId: 'not a number' })],
    );
    const id = rows[0]!.id as string;
    const state = await until(async () => {
      const { rows: job } = await t.database.executeSql(
        'select state from pgboss.job where id = $1',
        [id],
      );
      const value = job[0]?.state as string | undefined;
      return value === 'created' || value === 'active' ? undefined : value;
    }, 'the worker to take the job');
    // Not retried: it can never become valid.
    expect(state).toBe('completed');
    const logged = lines
      .map((line) => JSON.parse(line) as Record<string, unknown>)
      .find((entry) => entry.jobId === id);
    expect(logged).toMatchObject({
      msg: 'job payload refused; not run',
      job: 'photo.derivatives',
      level: 50,
    });
    expect(logged!.issues).toMatch(/^photoId: /);
  });

  it('runs derivatives through the registry: photo.uploaded, then photo.ready with the photo’s ids', async () => {
    const recorder = recordEvents(['photo.uploaded', 'photo.ready']);
    try {
      const photo = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 901 }));
      expect(recorder.seen[0]).toEqual({
        name: 'photo.uploaded',
        payload: { photoId: photo.id, eventId: event.id },
      });
      const ready = await waitForReady(t, admin.authorization, event.id, photo.id);
      expect(ready.status).toBe('ready');
      await until(
        () => (recorder.seen.length >= 2 ? true : undefined),
        'photo.ready to be emitted',
      );
      expect(recorder.seen).toEqual([
        { name: 'photo.uploaded', payload: { photoId: photo.id, eventId: event.id } },
        { name: 'photo.ready', payload: { photoId: photo.id, eventId: event.id } },
      ]);
      // The completed job went through the registry's queue.
      const { rows } = await t.database.executeSql(
        `select state from pgboss.job where name = 'photo.derivatives' and data->>'photoId' = $1`,
        [String(photo.id)],
      );
      expect(rows.map((r) => r.state)).toEqual(['completed']);
    } finally {
      recorder.stop();
    }
  });

  it('emits photo.hidden, photo.shown and photo.deleted where photos change', async () => {
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 902 }));
    const photo = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    const recorder = recordEvents(['photo.hidden', 'photo.shown', 'photo.deleted']);
    try {
      const ids = { photoId: photo.id, eventId: event.id };
      await t.ok(endpoints.updatePhoto, { id: photo.id, is_visible: 0 }, admin);
      // Hiding a hidden photo is no news.
      await t.ok(endpoints.updatePhotoList, { id_array: [photo.id], is_visible: 0 }, admin);
      await t.ok(endpoints.updatePhotoList, { id_array: [photo.id], is_visible: 1 }, admin);
      await t.ok(endpoints.deletePhoto, { photo_id: photo.id, delete_reason: 'test' }, admin);
      expect(recorder.seen).toEqual([
        { name: 'photo.hidden', payload: ids },
        { name: 'photo.shown', payload: ids },
        {
          name: 'photo.deleted',
          payload: { ...ids, uid: photo.uid, storageKey: photo.full_path, reason: 'owner' },
        },
      ]);
    } finally {
      recorder.stop();
    }
  });

  it('emits event.updated with the event id once an event update is saved, not when refused', async () => {
    const recorder = recordEvents(['event.updated']);
    try {
      const stale = await t.call(
        endpoints.updateEvent,
        { id: event.id, event_last_updated_date: '2000-01-01T00:00:00.000Z', full_name: 'X' },
        admin,
      );
      expect(stale.statusCode).toBe(409);
      expect(recorder.seen).toEqual([]);
      await t.ok(
        endpoints.updateEvent,
        { id: event.id, event_last_updated_date: event.updated_date, full_name: 'Renamed Gala' },
        admin,
      );
      expect(recorder.seen).toEqual([{ name: 'event.updated', payload: { eventId: event.id } }]);
    } finally {
      recorder.stop();
    }
  });

  it('never fails the request when a listener fails; the failure is logged', async () => {
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 903 }));
    const photo = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    await t.ok(endpoints.updatePhoto, { id: photo.id, is_visible: 0 }, admin);
    const off = t.app.container.bus.on('photo.shown', 'test: broken listener', () => {
      throw new Error('listener exploded');
    });
    try {
      const shown = await t.call(endpoints.updatePhoto, { id: photo.id, is_visible: 1 }, admin);
      expect(shown.statusCode).toBe(200);
      expect(shown.body).toMatchObject({ status: 'ok', result: { id: photo.id, is_visible: 1 } });
      const logged = lines
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .find((entry) => entry.listener === 'test: broken listener');
      expect(logged).toMatchObject({
        msg: 'domain event listener failed',
        event: 'photo.shown',
        level: 50,
      });
    } finally {
      off();
    }
  });

  it('runs retention as a registry job: photos.retention archives an original past its days', async () => {
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 904 }));
    const photo = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    expect(photo.full_path.startsWith('archive/')).toBe(false);
    t.clock.advance(2 * DAY);
    await t.app.container.jobs.send('photos.retention', {});
    const archived = await until(async () => {
      const list = await t.ok(endpoints.ownerPhotoList, { event_id: event.id }, admin);
      const row = list.photos.find((p) => p.id === photo.id);
      return row?.full_path.startsWith('archive/') ? row : undefined;
    }, 'the retention job to archive the original');
    expect(archived.full_path).toBe(`archive/${photo.full_path}`);
  });
});

describe('binding handlers', () => {
  it('binds every job of the catalogue to its own handler, and a bound handler calls its service', async () => {
    const calls: string[] = [];
    // Any service, any method: records the call.
    const services = new Proxy(
      {},
      {
        get: (_target, service) =>
          new Proxy(
            {},
            {
              get:
                (_s, method) =>
                (...args: unknown[]) => {
                  calls.push(`${String(service)}.${String(method)}(${args.join(',')})`);
                  return Promise.resolve(0);
                },
            },
          ),
      },
    ) as JobServices;
    const bound = bindJobs(services);
    expect(Object.keys(bound).sort()).toEqual(jobCatalogue.map((job) => job.name).sort());
    for (const [name, handler] of Object.entries(bound)) expect(handler.name).toBe(name);
    await bound['mail.deliver'].run({ outboxId: 3 });
    await bound['print.tag-stories'].run({ eventId: 4, photoId: 5 });
    expect(calls).toEqual(['outbox.deliver(3)', 'printing.tagStories(4,5)']);
  });

  it('refuses to start a worker with a queue that has no handler, or another job’s handler', async () => {
    const queue = new JobQueue(t.database, pino({ level: 'silent' }), [photoDerivatives]);
    const run = () => Promise.resolve();
    await expect(queue.startWorker({})).rejects.toThrow('job photo.derivatives has no handler');
    await expect(
      queue.startWorker({ 'photo.derivatives': { name: 'mail.deliver', run } }),
    ).rejects.toThrow('job photo.derivatives has no handler');
    expect(queue.working).toBe(false);
  });
});

describe('stopping while a handler runs', () => {
  it('drops what a handler that outlived the stop would write: the database may be closed by then', async () => {
    const { database, drop } = await openTestDatabase();
    // Every call the queue makes; after `closed` one is a write on a closed database.
    let closed = false;
    const late: string[] = [];
    const spy = {
      executeSql: (text: string, values?: unknown[]) => {
        if (closed) {
          late.push(text);
          return Promise.reject(new Error('Cannot use a pool after calling end on the pool'));
        }
        return database.executeSql(text, values);
      },
      ...(database.withStartupLock
        ? { withStartupLock: database.withStartupLock.bind(database) }
        : {}),
    };
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on('unhandledRejection', onRejection);

    let markStarted!: () => void;
    const started = new Promise<void>((resolve) => (markStarted = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let markEnded!: () => void;
    const ended = new Promise<void>((resolve) => (markEnded = resolve));
    // A catalogue name (send is typed by the catalogue) with a handler that waits to be released.
    const { schedule: _noSchedule, ...vacuum } = databaseVacuum;
    const stuck = {
      name: vacuum.name,
      run: async () => {
        markStarted();
        await released;
        markEnded();
      },
    };
    const queue = new JobQueue(spy, pino({ level: 'silent' }), [vacuum], { stopTimeoutMs: 200 });
    try {
      await queue.start();
      await queue.startWorker({ [vacuum.name]: stuck });
      await queue.send('database.vacuum', {});
      await started;
      await queue.stop();
      // The stop failed the job for the next process (a retry is due, or it is failed for good).
      const { rows } = await database.executeSql(
        `select state from pgboss.job where name = 'database.vacuum'`,
      );
      expect(rows.map((row) => row.state)).not.toContain('active');
      await database.close();
      closed = true;

      release();
      await ended;
      // pg-boss records a handler's end a few turns after it returns: give it those turns.
      for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(late).toEqual([]);
      expect(rejections).toEqual([]);
    } finally {
      process.off('unhandledRejection', onRejection);
      release();
      if (!closed) await database.close();
      await drop();
    }
  });
});
