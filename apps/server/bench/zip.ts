/**
 * npm run bench:zip [-- --photos 5000 --bytes 200000 --selection 500]
 *
 * Album zips at event size, on one running server (PGlite, local storage) in this process:
 *
 * 1. Streamed: a selection of `--selection` photos (the most the page streams) fetched by `curl`
 *    from the zip route: time, and the server process's RSS growth above idle (sampled every 20 ms).
 * 2. Built by the job: the whole album of `--photos` photos (above the mail threshold) written into
 *    storage by `albums.zip-mail`, then fetched by `curl` through the mailed link: time of each
 *    and the RSS growth above idle while it ran.
 * 3. The same files in a bare `zip -0` (stored, as ours) to stdout, in the same run.
 *
 * The photos are random bytes (incompressible, like JPEGs) of `--bytes` each, stored as the
 * server stores originals; their rows are inserted in SQL (the bench measures the zip, not ingest).
 * `curl` runs in its own process, so the RSS figures are the server's own.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpus, loadavg, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import { post, schedulingNote, setUp } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    photos: { type: 'string', default: '5000' },
    bytes: { type: 'string', default: '200000' },
    selection: { type: 'string', default: '500' },
  },
});
const photos = Number(values.photos);
const bytes = Number(values.bytes);
const selection = Math.min(Number(values.selection), photos);
const mb = (n: number) => `${(n / 2 ** 20).toFixed(1)} MB`;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Runs a command, its stdout to /dev/null; answers the wall time. */
const timed = (command: string, args: string[], cwd?: string): Promise<number> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(command, args, { cwd, stdio: ['ignore', 'ignore', 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(performance.now() - started) : reject(new Error(`${command}: ${code}`)),
    );
  });

/** The peak RSS above `idle` while `run` runs (sampled every 20 ms). */
const peakDuring = async <T>(idle: number, run: () => Promise<T>) => {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  try {
    const result = await run();
    return { result, growth: Math.max(0, peak - idle) };
  } finally {
    clearInterval(timer);
  }
};

const idleRss = () => {
  (globalThis as { gc?: () => void }).gc?.();
  return process.memoryUsage().rss;
};

const main = async () => {
  console.log(
    `bench:zip — ${photos} photos of ${mb(bytes)} (${mb(photos * bytes)}), selection ${selection}; ` +
      `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${mb(totalmem())} RAM, Node ${process.version}, ` +
      `load ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}; ${await schedulingNote()}`,
  );
  const setup = await setUp('pglite');
  try {
    const { storage, database } = setup.app.container;
    // The originals, stored as the server stores them (one folder per photo).
    const key = (g: number) =>
      `protected/events/${setup.eventName}/photos/uid_zip${g}_uid/original.jpg`;
    for (let g = 1; g <= photos; g += 1)
      await storage.put(key(g), randomBytes(bytes), 'image/jpeg');
    await database.executeSql(
      `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
         width, height, size_bytes, status, derivatives, created_at, available_at)
       select 'zip' || g, $1, md5('zip' || g), 'protected/events/' || $3 || '/photos/uid_zip' || g || '_uid/original.jpg',
         'IMG_' || g || '.jpg', 'image/jpeg', 'image', 2000, 1500, $4::int, 'ready', '{}'::jsonb,
         now() - (g || ' seconds')::interval, now() - (g || ' seconds')::interval
       from generate_series(1, $2::int) g`,
      [setup.eventId, photos, setup.eventName, bytes],
    );
    const list = await post(setup.base, endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: setup.publicKey,
      max_size: selection,
    });
    const ids = list.photos.map((p) => p.id);

    // 1. A streamed selection through the zip route.
    let idle = idleRss();
    const streamed = await peakDuring(idle, async () => {
      const created = await post(setup.base, endpoints.createAlbumDownload, {
        key_type: 'public',
        key_value: setup.publicKey,
        photo_id_array: ids,
        size: 'original',
      });
      return timed('curl', ['-sf', '-o', '/dev/null', created.url!]);
    });

    // 2. The whole album, built into storage by the job, then fetched through its link.
    idle = idleRss();
    const built = await peakDuring(idle, async () => {
      const started = performance.now();
      const created = await post(setup.base, endpoints.createAlbumDownload, {
        key_type: 'public',
        key_value: setup.publicKey,
        email: 'bench@example.com',
      });
      if (created.mailed !== 1) throw new Error('the whole album was not sent to the job');
      let zipKey: string | null = null;
      while (!zipKey) {
        for await (const object of storage.list('protected/downloads/')) zipKey = object.key;
        if (!zipKey) await new Promise((r) => setTimeout(r, 200));
      }
      const buildMs = performance.now() - started;
      const info = await storage.head(zipKey);
      const url = await storage.signedGetUrl(zipKey, { expiresInSeconds: 3600 });
      const fetchMs = await timed('curl', ['-sf', '-o', '/dev/null', url]);
      return { buildMs, fetchMs, size: info?.size ?? 0 };
    });

    // 3. A bare `zip -0` of the same files, to stdout.
    const folder = path.join(
      setup.dataDir,
      'storage',
      'objects',
      'protected',
      'events',
      setup.eventName,
    );
    const bare = await timed('sh', ['-c', 'zip -0 -q -r - photos > /dev/null'], folder).catch(
      () => null,
    );

    console.log(`\n| zip | photos | time | server RSS growth above idle |`);
    console.log(`| --- | --- | --- | --- |`);
    console.log(
      `| streamed selection (zip route → curl) | ${selection} | ${s(streamed.result)} | ${mb(streamed.growth)} |`,
    );
    console.log(
      `| whole album: job into storage, then the link → curl | ${photos} | ${s(built.result.buildMs)} + ${s(built.result.fetchMs)} (${mb(built.result.size)}) | ${mb(built.growth)} |`,
    );
    console.log(
      `| bare \`zip -0\` of the same files to stdout | ${photos} | ${bare === null ? 'zip not found' : s(bare)} | — |`,
    );
  } finally {
    await setup.close();
  }
};

await main();
