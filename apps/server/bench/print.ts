/**
 * npm run bench:print [-- --sheets 12 --photos 6 --limit 180]
 *
 * 1. Sheets per minute rendered at 300 dpi (4×6 = 1800×1200) from camera-size photos (4000×3000
 *    JPEGs): 1, 2 and 4 photos per sheet, one at a time and two at a time (the CI has 2 cores).
 * 2. Auto-print on a fresh install (PGlite, embedded file printer): the time from the start of a
 *    photo's upload (and from its `photo.ready`) to its sheet written in
 *    `$FLASHBULB_DATA_DIR/prints/Default/`, photos uploaded one by one, then as a burst.
 * 3. The same through a print agent on a real CUPS (a private cupsd with a PDF queue, as in the
 *    suite): upload → the sheet's CUPS job completed.
 * Each round has a limit (`--limit` seconds): a round that runs out reports "n of N" sheets.
 */
import { mkdtemp, stat } from 'node:fs/promises';
import { cpus, tmpdir, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import sharp from 'sharp';
import { httpPost, runPrintAgent } from '../src/cli/print-agent.ts';
import { gridLayout, renderSheet } from '../src/repositories/printing/sheet-renderer.ts';
import { startCups } from '../test/helpers/cups.ts';
import { post, setUp, type Setup } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    sheets: { type: 'string', default: '12' },
    photos: { type: 'string', default: '6' },
    limit: { type: 'string', default: '180' },
  },
});
const SHEETS = Number(values.sheets);
const PHOTOS = Number(values.photos);
const LIMIT_S = Number(values.limit);

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

const cameraPhoto = (i: number) =>
  // Noise keeps the JPEG as large as a camera's (a flat image would compress to nothing).
  sharp({
    create: {
      width: 4000,
      height: 3000,
      channels: 3,
      background: '#000',
      noise: { type: 'gaussian', mean: 100 + i, sigma: 25 },
    },
  })
    .jpeg({ quality: 88 })
    .toBuffer();

const renderRate = async (photos: Buffer[], perSheet: number, parallel: number) => {
  const layout = gridLayout(perSheet, 300);
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      for (let i = next++; i < SHEETS; i = next++) {
        const sources = Array.from(
          { length: perSheet },
          (_, k) => photos[(i + k) % photos.length]!,
        );
        await renderSheet(sources, layout);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  return (SHEETS / seconds) * 60;
};

const upload = async (s: Setup, bytes: Buffer, name: string) => {
  const robot = { key_type: 'robot', key_value: s.robotKey } as const;
  const grant = await post(s.base, endpoints.photoUploadAccess, {
    ...robot,
    event_name: s.eventName,
    file_name: name,
    content_type: 'image/jpeg',
  });
  const form = new FormData();
  for (const [k, v] of Object.entries(grant.fields)) form.append(k, v);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }), name);
  const stored = await fetch(grant.url, { method: 'POST', body: form });
  if (stored.status !== 201) throw new Error(`storage ${stored.status}`);
  await post(s.base, endpoints.photoUploadComplete, { ...robot, key: grant.key });
};

/**
 * One round of auto-print: each photo's time from the start of its upload to its sheet printed
 * (`print.finished`, emitted once the file printer wrote the file or the print agent saw CUPS
 * complete the job), and from `photo.ready` to the sheet. `landed` checks the sheet is really
 * there. A round stops at its limit and says how many sheets came, so a stuck pipeline shows as
 * "n of N" instead of a bench that never ends.
 */
const autoPrintRound = async (
  s: Setup,
  photos: Buffer[],
  opts: { burst: boolean; tag: string; limitMs: number; landed: (jobId: number) => Promise<void> },
) => {
  const { bus, database } = s.app.container;
  const startedAt = new Map<string, number>();
  const readyAt = new Map<number, number>();
  const total: number[] = [];
  const fromReady: number[] = [];
  const errors: string[] = [];
  let resolveAll!: () => void;
  const all = new Promise<void>((resolve) => (resolveAll = resolve));
  const offReady = bus.on('photo.ready', 'bench: ready', ({ photoId }) => {
    readyAt.set(photoId, performance.now());
  });
  const offPrinted = bus.on('print.finished', 'bench: printed', async ({ printJobId }) => {
    const printedAt = performance.now();
    try {
      const { rows } = await database.executeSql(
        `select p.id, p.file_name from print_jobs j join photos p on p.id = (j.photo_ids->>0)::int
         where j.id = $1`,
        [printJobId],
      );
      const row = rows[0] as { id: number; file_name: string } | undefined;
      const started = row && startedAt.get(row.file_name);
      if (!row || started === undefined) return;
      await opts.landed(printJobId);
      total.push(printedAt - started);
      const ready = readyAt.get(row.id);
      if (ready !== undefined) fromReady.push(printedAt - ready);
    } catch (error) {
      errors.push((error as Error).message);
    }
    if (total.length + errors.length >= photos.length) resolveAll();
  });
  const send = async (bytes: Buffer, i: number) => {
    const name = `${opts.tag}_${i}.jpg`;
    startedAt.set(name, performance.now());
    await upload(s, bytes, name);
  };
  let over = false;
  const limit = new Promise<void>((resolve) =>
    setTimeout(() => {
      over = true;
      resolve();
    }, opts.limitMs).unref(),
  );
  const work = (async () => {
    if (opts.burst) await Promise.all(photos.map(send));
    else
      for (const [i, bytes] of photos.entries()) {
        if (over) break;
        const before = total.length + errors.length;
        await send(bytes, i);
        // one by one: the next upload once this sheet is out (or the round's limit)
        while (!over && total.length + errors.length === before)
          await Promise.race([new Promise((r) => setTimeout(r, 50)), limit]);
      }
    await all;
  })();
  await Promise.race([work, limit]);
  offReady();
  offPrinted();
  return {
    total: total.sort((a, b) => a - b),
    fromReady: fromReady.sort((a, b) => a - b),
    errors,
  };
};

const row = (label: string, n: number, r: Awaited<ReturnType<typeof autoPrintRound>>) => {
  const ms = (list: number[], p: number) =>
    list.length ? `${percentile(list, p).toFixed(0)} ms` : '—';
  const max = r.total.length ? `${r.total[r.total.length - 1]!.toFixed(0)} ms` : '—';
  console.log(
    `| ${label} | ${r.total.length} of ${n} | ${ms(r.total, 50)} | ${ms(r.total, 90)} | ${max} | ${ms(r.fromReady, 50)} |`,
  );
  for (const e of r.errors) console.log(`  error: ${e}`);
};

const header = () => {
  console.log('| upload | sheets | p50 | p90 | max | photo.ready → sheet p50 |');
  console.log('| ------ | ------ | --- | --- | --- | ----------------------- |');
};

const main = async () => {
  console.log(`# bench:print — ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB`);
  const photos: Buffer[] = [];
  for (let i = 0; i < Math.max(4, 3 * PHOTOS); i += 1) photos.push(await cameraPhoto(i));

  console.log(`\n## Sheets rendered at 300 dpi (1800×1200), ${SHEETS} sheets each`);
  console.log('| photos per sheet | one at a time | two at a time |');
  console.log('| ---------------- | ------------- | ------------- |');
  for (const perSheet of [1, 2, 4]) {
    const one = await renderRate(photos, perSheet, 1);
    const two = await renderRate(photos, perSheet, 2);
    console.log(`| ${perSheet} | ${one.toFixed(0)} sheets/min | ${two.toFixed(0)} sheets/min |`);
  }

  const s = await setUp('pglite');
  try {
    const [event] = await post(
      s.base,
      endpoints.eventFullData,
      { event_name: s.eventName },
      s.apiKey,
    );
    await post(
      s.base,
      endpoints.updateEvent,
      {
        id: s.eventId,
        is_photo_printer_active: 1,
        is_print_every_photo: 1,
        event_last_updated_date: event!.updated_date,
      },
      s.apiKey,
    );
    console.log(
      `\n## Auto-print, file printer: upload → sheet in prints/Default/ (PGlite, limit ${LIMIT_S} s a round)`,
    );
    header();
    const fileLanded = async (jobId: number) => {
      await stat(path.join(s.dataDir, 'prints', 'Default', `job-${jobId}-1.jpg`));
    };
    // Distinct photos per round: the same bytes again would be the same photo (no new ready).
    row(
      'one by one',
      PHOTOS,
      await autoPrintRound(s, photos.slice(0, PHOTOS), {
        burst: false,
        tag: 'file_one',
        limitMs: LIMIT_S * 1000,
        landed: fileLanded,
      }),
    );
    row(
      'burst',
      PHOTOS,
      await autoPrintRound(s, photos.slice(PHOTOS, 2 * PHOTOS), {
        burst: true,
        tag: 'file_burst',
        limitMs: LIMIT_S * 1000,
        landed: fileLanded,
      }),
    );

    // The same event printing through a print agent on a real CUPS (the suite's private cupsd).
    const cups = await startCups();
    const stop = new AbortController();
    let agent: Promise<void> | null = null;
    try {
      await cups.addQueue('bench1');
      const [current] = await post(
        s.base,
        endpoints.eventFullData,
        { event_name: s.eventName },
        s.apiKey,
      );
      await post(
        s.base,
        endpoints.updateEvent,
        {
          id: s.eventId,
          is_printer_pool_enabled: 1,
          printer_pool_name_list: ['Booth'],
          event_last_updated_date: current!.updated_date,
        },
        s.apiKey,
      );
      const station = await post(
        s.base,
        endpoints.printStationCreate,
        { event_id: s.eventId, printer_pool_name: 'Booth', name: 'Bench booth' },
        s.apiKey,
      );
      const stateDir = await mkdtemp(path.join(tmpdir(), 'flashbulb-bench-agent-'));
      agent = runPrintAgent({
        post: httpPost(s.base),
        key: station.key,
        printers: ['bench1'],
        stateDir,
        cupsServer: cups.server,
        signal: stop.signal,
        log: () => undefined,
      });
      console.log(
        `\n## Auto-print, print agent: upload → sheet completed in CUPS (PDF queue; agent polls every 1 s when idle)`,
      );
      header();
      const cupsLanded = async () => {
        await stat(cups.outFile('bench1'));
      };
      row(
        'one by one',
        PHOTOS,
        await autoPrintRound(s, photos.slice(2 * PHOTOS, 3 * PHOTOS), {
          burst: false,
          tag: 'cups_one',
          limitMs: LIMIT_S * 1000,
          landed: cupsLanded,
        }),
      );
    } finally {
      stop.abort();
      await agent;
      await cups.stop();
    }
  } finally {
    await s.close();
  }
};

await main();
