import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { endpoints, type FlashbulbEvent, type Photo, type PrintJob } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Image processes that run and auto-print on a fresh install ("Done
 * when"): the processes chosen in `image_process_id_array` run as registry jobs on every new
 * photo and make variants (photo rows with `image_process_id` and `original_photo_id`) that the
 * photo list's `image_process_id` filter finds; an auto-print process prints its variant instead
 * of the original; with no set-up at all, auto-print writes each new photo's sheet to
 * `$FLASHBULB_DATA_DIR/prints/Default/`.
 */

let t: TestApp;
let world: EventWorld;
let admin: { authorization: string };
let owner: UploadAuth;
let steps: { id: number; name: string; kind: string; auto_print: boolean }[];
const step = (kind: string) => steps.find((s) => s.kind === kind)!;

let seed = 0;
const upload = async (event: FlashbulbEvent, width: number, height: number) => {
  seed += 1;
  const bytes = await sharp({
    create: { width, height, channels: 3, background: { r: 40, g: 90 + seed, b: 160 } },
  })
    .jpeg({ quality: 92 })
    .withExif({ IFD0: { ImageDescription: `process ${seed}` } })
    .toBuffer();
  const photo = await uploadPhoto(t, owner, event.name, bytes, `shot-${seed}.jpg`);
  return waitForReady(t, admin.authorization, event.id, photo.id);
};

const list = async (event: FlashbulbEvent, filter: Record<string, unknown> = {}) =>
  (
    await t.ok(
      endpoints.ownerPhotoList,
      { event_id: event.id, max_size: 100, page_number: 1, ...filter },
      admin,
    )
  ).photos;

/** Waits for a probe to answer something (jobs run in-process; no fixed sleeps). */
const until = async <T>(probe: () => Promise<T | undefined>, what: string): Promise<T> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const variantsOf = (event: FlashbulbEvent, photo: Photo, count: number) =>
  until(async () => {
    const rows = (await list(event)).filter((p) => p.original_photo_id === photo.id);
    return rows.length === count ? rows : undefined;
  }, `${count} variants of photo ${photo.id}`);

const fileOf = async (photoId: number) => {
  const { rows } = await t.database.executeSql('select storage_key from photos where id = $1', [
    photoId,
  ]);
  const object = await t.app.container.storage.get(rows[0]!.storage_key as string);
  const chunks: Buffer[] = [];
  for await (const chunk of object!.body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

const printJobs = async (event: FlashbulbEvent) =>
  (await t.ok(endpoints.printJobList, { event_id: event.id }, admin)).jobs;

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  owner = { authorization: world.adminA.authorization };
  steps = (await t.ok(endpoints.imageProcessList, {}, admin)).image_processes;
});
afterAll(async () => {
  await t.close();
});

describe('auto-print on a fresh install', () => {
  it('puts every new photo’s sheet in prints/Default/ with no printer set up', async () => {
    const event = await createEvent(t, world.adminA, {
      full_name: 'Fresh Booth',
      is_photo_printer_active: 1,
      is_print_every_photo: 1,
    });
    const a = await upload(event, 1200, 800);
    const b = await upload(event, 800, 1200);
    const done = await until(async () => {
      const jobs = await printJobs(event);
      return jobs.length === 2 && jobs.every((j) => j.state === 'printed') ? jobs : undefined;
    }, 'two auto-printed sheets');
    expect(done.map((j) => j.printer_pool_name)).toEqual(['Default', 'Default']);
    expect(done.map((j) => j.photo_uids[0]).sort()).toEqual([a.uid, b.uid].sort());
    const folder = path.join(t.config.dataDir, 'prints', 'Default');
    const files = (await readdir(folder)).sort();
    expect(files).toEqual(done.map((j) => `job-${j.id}-1.jpg`).sort());
    for (const file of files)
      expect(await sharp(await readFile(path.join(folder, file))).metadata()).toMatchObject({
        width: 1800,
        height: 1200,
        density: 300,
      });
  });
});

describe('image processes run on every new photo', () => {
  let event: FlashbulbEvent;
  let photo: Photo;
  let variants: Photo[];

  beforeAll(async () => {
    event = await createEvent(t, world.adminA, {
      full_name: 'Processed',
      image_process_id_array: [
        step('original').id,
        step('resize').id,
        step('watermark').id,
        step('print').id,
      ],
    });
    photo = await upload(event, 2400, 1600);
    // `Original` is the photo itself: three variants, one per process that makes a file.
    variants = await variantsOf(event, photo, 3);
  });

  it('makes one variant per process, linked to its original and found by the image_process_id filter', async () => {
    for (const kind of ['resize', 'watermark', 'print']) {
      const found = await list(event, { image_process_id: step(kind).id });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        image_process_id: step(kind).id,
        original_photo_id: photo.id,
        is_original: 0,
        // Variants are working files: albums do not show them next to the photo.
        is_visible: 0,
        status: 'ready',
      });
    }
    expect(await list(event, { image_process_id: step('original').id })).toEqual([]);
    expect(variants.every((v) => !!v.urls.thumbnail)).toBe(true);
  });

  it('makes each variant by its kind: resize to 2000 px, a 4×6 at 300 dpi, a watermark', async () => {
    const byKind = (kind: string) => variants.find((v) => v.image_process_id === step(kind).id)!;
    const resized = await fileOf(byKind('resize').id);
    expect(await sharp(resized).metadata()).toMatchObject({ width: 2000, height: 1333 });
    const print = await sharp(await fileOf(byKind('print').id)).metadata();
    expect(print).toMatchObject({ width: 1800, height: 1200, density: 300 });
    // The original's EXIF text does not reach a variant.
    expect(print.exif?.includes(Buffer.from('process'))).toBe(false);
    const watermarked = await fileOf(byKind('watermark').id);
    const meta = await sharp(watermarked).metadata();
    expect([meta.width, meta.height]).toEqual([2400, 1600]);
    // The built-in watermark (white text low in the frame) changes pixels the plain copy has not.
    const lowBand = { left: 700, top: 1150, width: 1000, height: 450 };
    const stats = await sharp(watermarked).extract(lowBand).stats();
    const plain = await sharp(await fileOf(photo.id))
      .extract(lowBand)
      .stats();
    expect(stats.channels[0]!.max).toBeGreaterThan(plain.channels[0]!.max + 40);
  });

  it('runs again without making a second variant', async () => {
    const result = await t.app.container.services.photoVariants.run(photo.id, step('resize').id);
    expect(result).toEqual({ status: 'exists' });
    expect((await list(event)).filter((p) => p.original_photo_id === photo.id)).toHaveLength(3);
  });

  it('runs nothing on a photo of an event without processes', async () => {
    const plain = await createEvent(t, world.adminA, { full_name: 'Unprocessed' });
    const only = await upload(plain, 900, 600);
    expect(await t.app.container.services.photoVariants.enqueueFor(only.id)).toBe(0);
    expect(await list(plain)).toHaveLength(1);
  });
});

describe('auto-print image processes', () => {
  it('prints the Print 4×6 variant of each new photo, not the original, once; deleting the original deletes its variants and their printed sheet', async () => {
    const event = await createEvent(t, world.adminA, {
      full_name: 'Auto Process',
      is_photo_printer_active: 1,
      is_print_every_photo: 1,
      image_process_id_array: [step('resize').id, step('print').id],
    });
    expect(step('print').auto_print).toBe(true);
    const photo = await upload(event, 2000, 3000);
    const [printVariant] = await variantsOf(event, photo, 2).then((rows) =>
      rows.filter((r) => r.image_process_id === step('print').id),
    );
    const jobs: PrintJob[] = await until(async () => {
      const rows = await printJobs(event);
      return rows.length > 0 && rows.every((j) => j.state === 'printed') ? rows : undefined;
    }, 'the variant printed');
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ source: 'auto', photo_uids: [printVariant!.uid] });
    // Announcing the original or the variant again prints nothing more.
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: event.id });
    await t.app.container.services.photoVariants.run(photo.id, step('print').id);
    expect(await printJobs(event)).toHaveLength(1);

    // Deleting the original deletes its variants (rows, audited, and files) and the printed
    // sheet of its variant: no copy of a deleted photo is left behind.
    const variantKeys = (
      await t.database.executeSql(
        'select id, storage_key, derivatives from photos where original_photo_id = $1',
        [photo.id],
      )
    ).rows as { id: number; storage_key: string; derivatives: Record<string, string> }[];
    expect(variantKeys).toHaveLength(2);
    const sheet = path.join(t.config.dataDir, 'prints', 'Default', `job-${jobs[0]!.id}-1.jpg`);
    await expect(stat(sheet)).resolves.toBeTruthy();
    for (const v of variantKeys)
      expect(await t.app.container.storage.head(v.storage_key)).not.toBeNull();
    await t.ok(
      endpoints.deletePhotoList,
      { photo_id_array: [photo.id], delete_reason: 'guest asked' },
      admin,
    );
    const left = await t.database.executeSql(
      'select count(*)::int as n from photos where id = $1 or original_photo_id = $1',
      [photo.id],
    );
    expect(left.rows[0]).toEqual({ n: 0 });
    for (const v of variantKeys) {
      expect(await t.app.container.storage.head(v.storage_key)).toBeNull();
      for (const key of Object.values(v.derivatives))
        expect(await t.app.container.storage.head(key)).toBeNull();
    }
    const audit = await t.database.executeSql(
      'select photo_id, reason from photo_audit where photo_id = any($1::int[]) order by photo_id',
      [[photo.id, ...variantKeys.map((v) => v.id)]],
    );
    expect(audit.rows).toEqual([
      { photo_id: photo.id, reason: 'guest asked' },
      ...variantKeys
        .map((v) => v.id)
        .sort((a, b) => a - b)
        .map((id) => ({ photo_id: id, reason: 'original deleted' })),
    ]);
    await expect(stat(sheet)).rejects.toThrow();
  });
});
