/**
 * npm run bench:print [-- --sheets 12 --photos 10]
 *
 * 1. Sheets per minute rendered at 300 dpi (4×6 = 1800×1200) from camera-size photos (4000×3000
 *    JPEGs): 1, 2 and 4 photos per sheet, one at a time and two at a time (the CI has 2 cores).
 * 2. Auto-print on a fresh install (PGlite, embedded file printer): the time from `photo.ready`
 *    to the sheet written in `$FLASHBULB_DATA_DIR/prints/Default/` (`print.finished` is emitted
 *    once the file is there), photos uploaded one by one, then as a burst.
 */
import { stat } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import sharp from 'sharp';
import { gridLayout, renderSheet } from '../src/services/printing/sheet-renderer.ts';
import { post, setUp, type Setup } from './bench-app.ts';

const { values } = parseArgs({
  options: {
    sheets: { type: 'string', default: '12' },
    photos: { type: 'string', default: '10' },
  },
});
const SHEETS = Number(values.sheets);
const PHOTOS = Number(values.photos);

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

/** photo.ready → print.finished per photo, with the sheet checked on disk. */
const autoPrintLatency = async (s: Setup, photos: Buffer[], burst: boolean) => {
  const { bus, database } = s.app.container;
  const readyAt = new Map<number, number>();
  const latencies: number[] = [];
  const waiters: (() => void)[] = [];
  const offReady = bus.on('photo.ready', 'bench: ready', ({ photoId }) => {
    readyAt.set(photoId, performance.now());
  });
  const offPrinted = bus.on('print.finished', 'bench: printed', async ({ printJobId }) => {
    const printedAt = performance.now();
    const { rows } = await database.executeSql(
      'select photo_ids, output from print_jobs where id = $1',
      [printJobId],
    );
    const photoId = (rows[0]!.photo_ids as number[])[0]!;
    const file = path.join(s.dataDir, 'prints', 'Default', `job-${printJobId}-1.jpg`);
    await stat(file);
    latencies.push(printedAt - readyAt.get(photoId)!);
    waiters.shift()?.();
  });
  const printed = () => new Promise<void>((resolve) => waiters.push(resolve));
  const tag = burst ? 'burst' : 'one';
  if (burst) {
    const done = photos.map(() => printed());
    await Promise.all(photos.map((bytes, i) => upload(s, bytes, `${tag}_${i}.jpg`)));
    await Promise.all(done);
  } else {
    for (const [i, bytes] of photos.entries()) {
      const done = printed();
      await upload(s, bytes, `${tag}_${i}.jpg`);
      await done;
    }
  }
  offReady();
  offPrinted();
  return latencies.sort((a, b) => a - b);
};

const main = async () => {
  console.log(`# bench:print — ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GB`);
  const photos: Buffer[] = [];
  for (let i = 0; i < Math.max(4, 2 * PHOTOS); i += 1) photos.push(await cameraPhoto(i));

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
    console.log(`\n## Auto-print: photo.ready → sheet in prints/Default/ (PGlite, file printer)`);
    console.log('| upload | photos | p50 | p90 | max |');
    console.log('| ------ | ------ | --- | --- | --- |');
    for (const burst of [false, true]) {
      // Distinct photos per round: the same bytes again would be the same photo (no new ready).
      const batch = burst ? photos.slice(PHOTOS, 2 * PHOTOS) : photos.slice(0, PHOTOS);
      const sorted = await autoPrintLatency(s, batch, burst);
      console.log(
        `| ${burst ? 'burst' : 'one by one'} | ${sorted.length} | ${percentile(sorted, 50).toFixed(0)} ms | ${percentile(sorted, 90).toFixed(0)} ms | ${sorted[sorted.length - 1]!.toFixed(0)} ms |`,
      );
    }
  } finally {
    await s.close();
  }
};

await main();
