/**
 * npm run bench:ingest [-- --photos 20 --list-rows 100000 --engines pglite,postgres]
 *
 * 1. Ingest: N real-size photos (4000×3000 JPEGs) through the whole robot path — grant → storage
 *    POST → completion → derivatives ready — against a bare sharp loop making the same derivatives
 *    in the same run: photos/s for both and their ratio.
 * 2. Photo-list latency (p50/p99) for a page of 100 at 100,000 photos in one event, on PGlite and
 *    on PostgreSQL, idle and while ingest runs flat out.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { API_BASE, defaultEventOpts, endpoints, Role } from '@flashbulb/shared';
import sharp from 'sharp';
import { startThrowawayCluster } from '../../../scripts/pg-cluster.mjs';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { ImageEngine } from '../src/repositories/image-engine.ts';
import type { Actor } from '../src/services/actor.ts';

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '20' },
    'list-rows': { type: 'string', default: '100000' },
    'list-requests': { type: 'string', default: '200' },
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

interface Setup {
  base: string;
  close: () => Promise<void>;
  robotKey: string;
  eventName: string;
  eventId: number;
  apiKey: string;
  insertRows: (rows: number) => Promise<void>;
}

const setUp = async (engine: 'pglite' | 'postgres'): Promise<Setup> => {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-'));
  const cluster = engine === 'postgres' ? await startThrowawayCluster() : null;
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const base = `http://127.0.0.1:${port}`;
  const config = loadConfig({
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_PUBLIC_URL: base,
    FLASHBULB_SECRET_KEY: 'bench-secret-key-0123456789abcdefghijkl',
    LOG_LEVEL: 'error',
    ...(cluster ? { DATABASE_URL: cluster.url } : {}),
  });
  const app = await buildApp(config);
  await app.listen({ port, host: '127.0.0.1' });
  const { services } = app.container;
  await services.auth.createFirstAdmin({
    email: 'bench@example.com',
    password: 'bench password 123',
  });
  const user = await app.container.repositories.users.findByEmail('bench@example.com');
  const actor: Actor = {
    userId: user!.id,
    email: user!.email,
    role: Role.SUPER_USER,
    organisationId: null,
    sessionId: null,
  };
  const organisation = await services.organisations.create(null, 'Bench');
  const robot = await services.robots.create(actor, {
    organisation_id: organisation.id,
    name: 'Bench robot',
  });
  const event = await services.events.create(actor, {
    organisation_id: organisation.id,
    full_name: 'Bench',
    email_from_address: 'bench@example.com',
    opts: { ...defaultEventOpts(), description: 'bench' },
    robot_id_array: [robot.id],
  });
  const apiKey = await services.users.createApiKey(actor, 'bench');
  return {
    base,
    robotKey: robot.api_key,
    eventName: event.name,
    eventId: event.id,
    apiKey: apiKey.api_key,
    insertRows: async (rows) => {
      // Index rows straight in SQL: the list benchmark measures reading, not ingest.
      await app.container.database.executeSql(
        `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type, width, height,
           size_bytes, status, derivatives, created_at, available_at)
         select 'bench' || g, $1, md5(g::text), 'events/x/photos/uid_bench' || g || '_uid/original.jpg', 'IMG_' || g || '.jpg',
           'image/jpeg', 'image', 2000, 1500, 3000000, 'ready',
           '{"preview":"p.jpg","thumbnail":"t.jpg"}'::jsonb,
           now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
         from generate_series(1, $2::int) g`,
        [event.id, rows],
      );
      await app.container.database.executeSql('analyze photos');
    },
    close: async () => {
      await app.close();
      await cluster?.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
};

const post = async (base: string, endpointPath: string, body: object, authorization?: string) => {
  const response = await fetch(`${base}${API_BASE}${endpointPath}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    body: JSON.stringify(body),
  });
  const envelope = (await response.json()) as { status: string; result: unknown; error?: unknown };
  if (envelope.status !== 'ok')
    throw new Error(`${endpointPath}: ${JSON.stringify(envelope.error)}`);
  return envelope.result;
};

/** The robot path for every photo, two at a time, then wait until all derivatives exist. */
const ingest = async (s: Setup, photos: Buffer[], tag: string): Promise<number> => {
  const started = performance.now();
  const queue = photos.map((bytes, i) => ({ bytes, name: `${tag}_${i}.jpg` }));
  const ids: number[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const robot = { key_type: 'robot', key_value: s.robotKey };
        const grant = (await post(s.base, endpoints.photoUploadAccess.path, {
          ...robot,
          event_name: s.eventName,
          file_name: item.name,
          content_type: 'image/jpeg',
        })) as { url: string; fields: Record<string, string>; key: string };
        const form = new FormData();
        for (const [k, v] of Object.entries(grant.fields)) form.append(k, v);
        form.append(
          'file',
          new Blob([new Uint8Array(item.bytes)], { type: 'image/jpeg' }),
          item.name,
        );
        const stored = await fetch(grant.url, { method: 'POST', body: form });
        if (stored.status !== 201) throw new Error(`storage ${stored.status}`);
        const photo = (await post(s.base, endpoints.photoUploadComplete.path, {
          ...robot,
          key: grant.key,
        })) as { id: number };
        ids.push(photo.id);
      }
    }),
  );
  for (;;) {
    const counts = (await post(
      s.base,
      endpoints.photoCountInfo.path,
      { event_id: s.eventId },
      s.apiKey,
    )) as { processing: number };
    if (counts.processing === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
};

const listLatency = async (s: Setup, requests: number, totalRows: number) => {
  const first: number[] = [];
  const deep: number[] = [];
  const pages = Math.max(1, Math.floor(totalRows / 100));
  for (let i = 0; i < requests; i += 1) {
    const page = i % 2 === 0 ? 1 : 1 + Math.floor(Math.random() * pages);
    const started = performance.now();
    await post(
      s.base,
      endpoints.ownerPhotoList.path,
      { event_id: s.eventId, max_size: 100, page_number: page },
      s.apiKey,
    );
    (page === 1 ? first : deep).push(performance.now() - started);
  }
  const sum = (list: number[]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return `p50 ${fmt(percentile(sorted, 50))}, p99 ${fmt(percentile(sorted, 99))}`;
  };
  return { first: sum(first), any: sum(deep) };
};

const main = async () => {
  console.log(`Flashbulb ingest benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`generating ${N} photos of 4000×3000…`);
  const photos = await makePhotos(N);
  const mb = photos.reduce((a, b) => a + b.length, 0) / N / 2 ** 20;
  console.log(`average size ${mb.toFixed(1)} MiB`);
  const bareMs = await bareSharp(photos);
  const bareRate = N / (bareMs / 1000);
  console.log(`bare sharp loop: ${bareRate.toFixed(2)} photos/s`);

  for (const engine of values.engines.split(',') as ('pglite' | 'postgres')[]) {
    const s = await setUp(engine);
    try {
      const ms = await ingest(s, photos, 'a');
      const rate = N / (ms / 1000);
      console.log(
        `[${engine}] full path: ${rate.toFixed(2)} photos/s — ${((rate / bareRate) * 100).toFixed(0)}% of bare sharp`,
      );
      await s.insertRows(LIST_ROWS);
      const idle = await listLatency(s, LIST_REQUESTS, LIST_ROWS);
      console.log(
        `[${engine}] list, ${LIST_ROWS} photos, idle:  first page ${idle.first}; random page ${idle.any}`,
      );
      // Flat-out ingest in the background while measuring.
      const fresh = await makePhotos(Math.min(N, 10));
      let stop = false;
      const background = (async () => {
        let round = 0;
        while (!stop)
          await ingest(
            s,
            fresh.map((b) => Buffer.concat([b, Buffer.from([round])])),
            `bg${(round += 1)}`,
          );
      })();
      const busy = await listLatency(s, LIST_REQUESTS, LIST_ROWS);
      stop = true;
      await background;
      console.log(
        `[${engine}] list, ${LIST_ROWS} photos, during ingest: first page ${busy.first}; random page ${busy.any}`,
      );
    } finally {
      await s.close();
    }
  }
};

await main();
