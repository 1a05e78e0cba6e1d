/**
 * npm run bench:ingest [-- --photos 20 --list-rows 100000 --engines pglite,postgres]
 *
 * 1. Ingest: N real-size photos (4000×3000 JPEGs) through the whole robot path — grant → storage
 *    POST → completion → derivatives ready — against a bare sharp loop making the same derivatives
 *    in the same run: photos/s for both and their ratio.
 *    The robot runs in its own process (robot-process.ts) at nice 19, so its copying is not the
 *    server's: a booth's robot is another machine.
 * 2. The job queue's maintenance round with a busy day's completed jobs kept.
 * 3. Photo-list latency (p50/p99) for a page of 100 at 100,000 photos in one event, on PGlite and
 *    on PostgreSQL, idle and while ingest runs flat out.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, setPriority, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import sharp from 'sharp';
import { MAINTENANCE_INDEXES } from '../src/jobs/job-queue.ts';
import { ImageEngine } from '../src/repositories/photos/image-engine.ts';
import { post, schedulingNote, setUp, type Setup } from './bench-app.ts';

// pg-boss's own SQL for its maintenance (the statements it runs every maintenance round).
const pgBossPlans = createRequire(import.meta.url)('pg-boss/src/plans.js') as {
  locked: (schema: string, query: string) => string;
  failJobsByTimeout: (schema: string) => string;
  archive: (schema: string, completed: string, failed: string) => string;
};

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '20' },
    'list-rows': { type: 'string', default: '100000' },
    'list-requests': { type: 'string', default: '1500' },
    engines: { type: 'string', default: 'pglite,postgres' },
  },
});
const N = Number(values.photos);
const LIST_ROWS = Number(values['list-rows']);
const LIST_REQUESTS = Number(values['list-requests']);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;

const makePhotos = async (count: number): Promise<Buffer[]> => {
  const out: Buffer[] = [];
  for (let i = 0; i < count; i += 1) {
    // Noise keeps the JPEG as large as a camera's (a flat image would compress to nothing).
    out.push(
      await sharp({
        create: {
          width: 4000,
          height: 3000,
          channels: 3,
          background: '#000',
          noise: { type: 'gaussian', mean: 110 + i, sigma: 25 },
        },
      })
        .jpeg({ quality: 88 })
        .toBuffer(),
    );
  }
  return out;
};

const bareSharp = async (photos: Buffer[]): Promise<number> => {
  const engine = new ImageEngine();
  const started = performance.now();
  for (const photo of photos) {
    await engine.inspect(photo);
    await engine.makeDerivatives(photo, {});
  }
  return performance.now() - started;
};

/** The bench robot's nice value (see startRobot). */
const ROBOT_NICE = 19;

/** The benchmark's robot: its own process, as a booth's robot is its own machine. */
const startRobot = (s: Setup) => {
  const child = fork(
    fileURLToPath(new URL('./robot-process.ts', import.meta.url)),
    [s.base, s.robotKey, s.eventName],
    { execArgv: ['--import', 'tsx'] },
  );
  // A booth's robot is another machine: here it shares the two cores with the server under test,
  // so it runs at the lowest priority and takes only what the server leaves (it still keeps two
  // uploads in flight).
  setPriority(child.pid!, ROBOT_NICE);
  const reply = <T>(type: string) =>
    new Promise<T>((resolve, reject) => {
      const onMessage = (message: { type: string }) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        child.off('exit', onExit);
        resolve(message as T);
      };
      const onExit = (code: number | null) => reject(new Error(`robot exited with ${code}`));
      child.on('message', onMessage);
      child.once('exit', onExit);
    });
  return {
    send: async (files: string[], tag: string) => {
      const answer = reply<{ ids: number[] }>('sent');
      child.send({ type: 'send', files, tag });
      return (await answer).ids;
    },
    flood: (files: string[]) => child.send({ type: 'flood', files }),
    stop: async () => {
      const answer = reply<{ sent: number }>('stopped');
      child.send({ type: 'stop' });
      return (await answer).sent;
    },
    close: () => child.kill(),
  };
};
type Robot = ReturnType<typeof startRobot>;

/** The robot path for every photo, two at a time, then wait until all derivatives exist. */
const ingest = async (s: Setup, robot: Robot, files: string[], tag: string): Promise<number> => {
  const started = performance.now();
  await robot.send(files, tag);
  await untilProcessed(s);
  return performance.now() - started;
};

const untilProcessed = async (s: Setup) => {
  for (;;) {
    const counts = (await post(
      s.base,
      endpoints.photoCountInfo,
      { event_id: s.eventId },
      s.apiKey,
    )) as { processing: number };
    if (counts.processing === 0) return;
    await new Promise((r) => setTimeout(r, 50));
  }
};

/**
 * First page, a random page by number (offset) and a random page by keyset (`before_id`: the page
 * after a photo at a random depth, as a grid scrolling down asks), in turn.
 */
const listLatency = async (s: Setup, requests: number, totalRows: number) => {
  const first: number[] = [];
  const deep: number[] = [];
  const keyset: number[] = [];
  const pages = Math.max(1, Math.floor(totalRows / 100));
  const { rows } = await s.app.container.database.executeSql(
    'select id from photos where event_id = $1 order by created_at desc, id desc',
    [s.eventId],
  );
  const ids = rows.map((r) => Number(r.id));
  for (let i = 0; i < requests; i += 1) {
    const kind = i % 3;
    const body =
      kind === 0
        ? { event_id: s.eventId, max_size: 100, page_number: 1 }
        : kind === 1
          ? {
              event_id: s.eventId,
              max_size: 100,
              page_number: 1 + Math.floor(Math.random() * pages),
            }
          : {
              event_id: s.eventId,
              max_size: 100,
              before_id: ids[Math.floor(Math.random() * Math.max(1, ids.length - 100))]!,
            };
    const started = performance.now();
    await post(s.base, endpoints.ownerPhotoList, body, s.apiKey);
    [first, deep, keyset][kind]!.push(performance.now() - started);
  }
  const sum = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return `p50 ${fmt(percentile(sorted, 50))}, p99 ${fmt(percentile(sorted, 99))}`;
  };
  return { first: sum(first), any: sum(deep), keyset: sum(keyset) };
};

/**
 * pg-boss's maintenance (every 5 s: fail expired active jobs, archive completed ones) with a busy
 * day's 100,000 completed jobs kept, with and without our partial indexes (MAINTENANCE_INDEXES):
 * the time it holds the connection.
 */
const maintenance = async (s: Setup) => {
  const db = s.app.container.database;
  const statements = [
    pgBossPlans.locked('pgboss', pgBossPlans.failJobsByTimeout('pgboss')),
    pgBossPlans.locked('pgboss', pgBossPlans.archive('pgboss', '12 hours', '7 days')),
  ];
  const time = async () => {
    const started = performance.now();
    for (let i = 0; i < 10; i += 1)
      for (const statement of statements) await db.executeSql(statement);
    return (performance.now() - started) / 10;
  };
  await db.executeSql(
    `insert into pgboss.job (id, name, data, state, started_on, completed_on, created_on)
     select gen_random_uuid(), 'photo.derivatives', '{}'::jsonb, 'completed', now(), now(), now()
     from generate_series(1, 100000)`,
  );
  await db.executeSql('analyze pgboss.job');
  const indexed = await time();
  await db.executeSql(
    'drop index pgboss.flashbulb_job_active_started, pgboss.flashbulb_job_completed_on',
  );
  const bare = await time();
  for (const statement of MAINTENANCE_INDEXES) await db.executeSql(statement);
  await db.executeSql(
    `delete from pgboss.job where name = 'photo.derivatives' and data = '{}'::jsonb`,
  );
  // A server's vacuum (PostgreSQL's autovacuum, PGlite's `database.vacuum` job) tidies those
  // deleted rows before long: the list below measures that state, not the vacuum itself.
  await db.executeSql('vacuum (analyze) pgboss.job');
  await db.executeSql('checkpoint');
  return `${bare.toFixed(1)} ms without our indexes, ${indexed.toFixed(1)} ms with them (${(bare / indexed).toFixed(1)}×)`;
};

const main = async () => {
  console.log(`Flashbulb ingest benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(await schedulingNote());
  console.log(`generating ${N} photos of 4000×3000…`);
  const photos = await makePhotos(N);
  const mb = photos.reduce((a, b) => a + b.length, 0) / N / 2 ** 20;
  console.log(`average size ${mb.toFixed(1)} MiB`);
  const folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-photos-'));
  const files = await Promise.all(
    photos.map(async (bytes, i) => {
      const file = path.join(folder, `photo_${i}.jpg`);
      await writeFile(file, bytes);
      return file;
    }),
  );

  for (const engine of values.engines.split(',') as ('pglite' | 'postgres')[]) {
    const s = await setUp(engine);
    const robot = startRobot(s);
    try {
      // The ceiling is measured right before and right after the full path and averaged, so a
      // change in the machine's load during the run moves both sides of the ratio alike.
      const bareBefore = await bareSharp(photos);
      const ms = await ingest(s, robot, files, 'a');
      const bareAfter = await bareSharp(photos);
      const bareRate = N / ((bareBefore + bareAfter) / 2 / 1000);
      const rate = N / (ms / 1000);
      console.log(
        `[${engine}] bare sharp loop: ${bareRate.toFixed(2)} photos/s (before ${(N / (bareBefore / 1000)).toFixed(2)}, after ${(N / (bareAfter / 1000)).toFixed(2)})`,
      );
      console.log(
        `[${engine}] full path: ${rate.toFixed(2)} photos/s — ${((rate / bareRate) * 100).toFixed(0)}% of bare sharp`,
      );
      console.log(
        `[${engine}] job maintenance with 100,000 completed jobs kept, per 5 s round: ${await maintenance(s)}`,
      );
      await s.insertRows(LIST_ROWS);
      const idle = await listLatency(s, LIST_REQUESTS, LIST_ROWS);
      console.log(
        `[${engine}] list, ${LIST_ROWS} photos, idle:  first page ${idle.first}; random page by number ${idle.any}; random page by keyset ${idle.keyset}`,
      );
      // Flat-out ingest in the background while measuring (rounds of ten of the photos).
      robot.flood(files.slice(0, 10));
      const busy = await listLatency(s, LIST_REQUESTS, LIST_ROWS);
      await robot.stop();
      await untilProcessed(s);
      console.log(
        `[${engine}] list, ${LIST_ROWS} photos, during ingest: first page ${busy.first}; random page by number ${busy.any}; random page by keyset ${busy.keyset}`,
      );
    } finally {
      robot.close();
      await s.close();
    }
  }
  await rm(folder, { recursive: true, force: true });
};

await main();
