/**
 * npm run bench:ingest [-- --photos 20 --list-rows 100000 --engines pglite,postgres]
 *
 * 1. Ingest: N real-size photos (4000×3000 JPEGs) through the whole robot path — grant → storage
 *    POST → completion → derivatives ready — against a bare sharp loop making the same derivatives
 *    in the same run: photos/s for both and their ratio.
 * 2. Photo-list latency (p50/p99) for a page of 100 at 100,000 photos in one event, on PGlite and
 *    on PostgreSQL, idle and while ingest runs flat out.
 */
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import sharp from 'sharp';
import { ImageEngine } from '../src/repositories/image-engine.ts';
import { post, setUp, type Setup } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '20' },
    'list-rows': { type: 'string', default: '100000' },
    'list-requests': { type: 'string', default: '600' },
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

/** The robot path for every photo, two at a time, then wait until all derivatives exist. */
const ingest = async (s: Setup, photos: Buffer[], tag: string): Promise<number> => {
  const started = performance.now();
  const queue = photos.map((bytes, i) => ({ bytes, name: `${tag}_${i}.jpg` }));
  const ids: number[] = [];
  await Promise.all(
    [0, 1].map(async () => {
      for (let item = queue.shift(); item; item = queue.shift()) {
        const robot = { key_type: 'robot', key_value: s.robotKey } as const;
        const grant = (await post(s.base, endpoints.photoUploadAccess, {
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
        const photo = (await post(s.base, endpoints.photoUploadComplete, {
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
      endpoints.photoCountInfo,
      { event_id: s.eventId },
      s.apiKey,
    )) as { processing: number };
    if (counts.processing === 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  return performance.now() - started;
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

const main = async () => {
  console.log(`Flashbulb ingest benchmark — ${new Date().toISOString()}`);
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
  );
  console.log(`generating ${N} photos of 4000×3000…`);
  const photos = await makePhotos(N);
  const mb = photos.reduce((a, b) => a + b.length, 0) / N / 2 ** 20;
  console.log(`average size ${mb.toFixed(1)} MiB`);

  for (const engine of values.engines.split(',') as ('pglite' | 'postgres')[]) {
    const s = await setUp(engine);
    try {
      // The ceiling is measured right before and right after the full path and averaged, so a
      // change in the machine's load during the run moves both sides of the ratio alike.
      const bareBefore = await bareSharp(photos);
      const ms = await ingest(s, photos, 'a');
      const bareAfter = await bareSharp(photos);
      const bareRate = N / ((bareBefore + bareAfter) / 2 / 1000);
      const rate = N / (ms / 1000);
      console.log(
        `[${engine}] bare sharp loop: ${bareRate.toFixed(2)} photos/s (before ${(N / (bareBefore / 1000)).toFixed(2)}, after ${(N / (bareAfter / 1000)).toFixed(2)})`,
      );
      console.log(
        `[${engine}] full path: ${rate.toFixed(2)} photos/s — ${((rate / bareRate) * 100).toFixed(0)}% of bare sharp`,
      );
      await s.insertRows(LIST_ROWS);
      const idle = await listLatency(s, LIST_REQUESTS, LIST_ROWS);
      console.log(
        `[${engine}] list, ${LIST_ROWS} photos, idle:  first page ${idle.first}; random page by number ${idle.any}; random page by keyset ${idle.keyset}`,
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
        `[${engine}] list, ${LIST_ROWS} photos, during ingest: first page ${busy.first}; random page by number ${busy.any}; random page by keyset ${busy.keyset}`,
      );
    } finally {
      await s.close();
    }
  }
};

await main();
