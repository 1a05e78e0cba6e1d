import { readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  defaultTemplateLayout,
  endpoints,
  type FlashbulbEvent,
  type PrintJob,
} from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Stories (owner console §3 `storiesPrintPool`, `requiredTagsToGenerateStory`; decided in
 * docs/adr/0009-story-sheets.md): a story is ONE sheet combining the guest's chosen photos on the
 * event's story template (its first print template with more than one placeholder, else a grid of
 * 2–4 photos on a 4×6), printed on the stories pool. Every refusal queues nothing. The sheet
 * reaching the suite's CUPS through the print agent: `print-agent.test.ts`.
 */

let t: TestApp;
let admin: { authorization: string };
let owner: UploadAuth;
/** Printing on, pools Booth-A and Stories; stories go to `Stories`; photos need `booth` + `#story`. */
let grid: FlashbulbEvent;
/** Its first print template has one placeholder, its second three: the story template. */
let strip: FlashbulbEvent;
let quiet: FlashbulbEvent;

const COLOURS = [
  { r: 220, g: 30, b: 30 },
  { r: 30, g: 200, b: 40 },
  { r: 30, g: 40, b: 210 },
];
type Rgb = (typeof COLOURS)[number];

let seed = 0;
const readyPhoto = async (event: FlashbulbEvent, colour: number, tags: string[]) => {
  seed += 1;
  const bytes = await sharp({
    create: { width: 900, height: 600, channels: 3, background: COLOURS[colour]! },
  })
    .jpeg({ quality: 95 })
    .withExif({ IFD0: { ImageDescription: `story ${seed}` } })
    .toBuffer();
  const photo = await uploadPhoto(t, owner, event.name, bytes, `s${seed}.jpg`);
  const ready = await waitForReady(t, admin.authorization, event.id, photo.id);
  await t.database.executeSql('update photos set tags = $1::jsonb where id = $2', [
    JSON.stringify(tags),
    photo.id,
  ]);
  return ready;
};

const jobCount = async () =>
  Number((await t.database.executeSql('select count(*)::int as n from print_jobs', [])).rows[0]!.n);

const waitPrinted = async (event: FlashbulbEvent, id: number): Promise<PrintJob> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const job = (await t.ok(endpoints.printJobList, { event_id: event.id }, admin)).jobs.find(
      (j) => j.id === id,
    );
    if (job && ['printed', 'failed'].includes(job.state)) return job;
    if (Date.now() > deadline) throw new Error(`story still open: ${JSON.stringify(job)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const sheetOf = (pool: string, jobId: number) =>
  readFile(path.join(t.config.dataDir, 'prints', pool, `job-${jobId}-1.jpg`));

const colourAt = async (sheet: Buffer, left: number, top: number) => {
  const { data } = await sharp(sheet)
    .extract({ left, top, width: 40, height: 40 })
    .resize(1, 1, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0]!, g: data[1]!, b: data[2]! };
};
const near = (a: Rgb, b: Rgb) =>
  Math.abs(a.r - b.r) < 25 && Math.abs(a.g - b.g) < 25 && Math.abs(a.b - b.b) < 25;

beforeAll(async () => {
  t = await createTestApp();
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  owner = { authorization: world.adminA.authorization };
  const base = {
    is_photo_printer_active: 1 as const,
    is_printer_pool_enabled: 1 as const,
    printer_pool_name_list: ['Booth-A', 'Stories'],
    max_print_photos_count: 4,
    max_print_copies_count: 2,
  };
  grid = await createEvent(t, world.adminA, {
    ...base,
    full_name: 'Story Grid',
    opts: {
      description: 'stories',
      storiesPrintPool: 'Stories',
      requiredTagsToGenerateStory: 'Booth, #story',
    },
  });
  const single = await t.ok(
    endpoints.pptCreate,
    {
      name: 'One up',
      layout: {
        ...defaultTemplateLayout(),
        placeholders: [{ x: 0, y: 0, width: 1, height: 1, rotation: 0 }],
      },
    },
    admin,
  );
  const thirds = await t.ok(
    endpoints.pptCreate,
    {
      name: 'Story strip',
      layout: {
        ...defaultTemplateLayout(),
        width: 6,
        height: 4,
        unit: 'in',
        dpi: 300,
        placeholders: [0, 1, 2].map((i) => ({
          x: i / 3,
          y: 0,
          width: 1 / 3,
          height: 1,
          rotation: 0,
        })),
      },
    },
    admin,
  );
  strip = await createEvent(t, world.adminA, {
    ...base,
    full_name: 'Story Strip',
    ppt_id_array: [single.id, thirds.id],
  });
  quiet = await createEvent(t, world.adminA, {
    full_name: 'Story Off',
    opts: { description: 'off', storiesPrintPool: 'Default' },
  });
});
afterAll(async () => {
  await t.close();
});

describe('stories', () => {
  it('refuses each limit with its key and queues nothing', async () => {
    const tagged = ['booth', 'story'];
    const [a, b, c] = [
      await readyPhoto(grid, 0, tagged),
      await readyPhoto(grid, 1, tagged),
      await readyPhoto(grid, 2, tagged),
    ];
    const untagged = await readyPhoto(grid, 2, ['booth']);
    const off = await readyPhoto(quiet, 0, tagged);
    const base = { event_id: grid.id, printable_photo_uid_array: [a.uid, b.uid] };
    const before = await jobCount();
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [
        { event_id: quiet.id, printable_photo_uid_array: [off.uid, off.uid] },
        'printing_not_active',
        undefined,
      ],
      [{ ...base, printer_pool_name: 'Nope' }, 'printer_pool_name_invalid', 'printer_pool_name'],
      [{ ...base, printing_count: 3 }, 'photos_copy_count_error', 'printing_count'],
      // one photo is no story; five are over the event's maximum (4)
      [
        { ...base, printable_photo_uid_array: [a.uid] },
        'story_photo_count_error',
        'printable_photo_uid_array',
      ],
      [
        { ...base, printable_photo_uid_array: ['u1', 'u2', 'u3', 'u4', 'u5'] },
        'per_request_count_error',
        'printable_photo_uid_array',
      ],
      [
        { ...base, printable_photo_uid_array: [a.uid, untagged.uid] },
        'story_tags_missing',
        'printable_photo_uid_array',
      ],
      [
        { ...base, printable_photo_uid_array: [a.uid, off.uid] },
        'not_found',
        'printable_photo_uid_array',
      ],
      // the strip's story template has three placeholders: two photos do not fill it
      [
        { event_id: strip.id, printable_photo_uid_array: [a.uid, b.uid] },
        'story_photo_count_error',
        'printable_photo_uid_array',
      ],
    ];
    for (const [body, key, field] of cases) {
      const response = await t.call(endpoints.printStory, body, admin);
      expect(errorOf(response), `${key} ${JSON.stringify(body)}`).toMatchObject({
        status: key === 'not_found' ? 404 : 400,
        message_key: key,
        ...(field ? { field } : {}),
      });
    }
    // a public key may not print
    const publicKey = await t.call(endpoints.publicPrintStory, {
      key_type: 'public',
      key_value: grid.public_api_key,
      printable_photo_uid_array: [a.uid, c.uid],
    });
    expect(errorOf(publicKey)).toMatchObject({ message_key: 'invalid_key' });
    expect(await jobCount()).toBe(before);
  });

  it('a kiosk story: one sheet of the chosen photos on the stories pool, printed once per request id', async () => {
    // tags compared without case or `#`
    const left = await readyPhoto(grid, 0, ['#Booth', 'STORY']);
    const right = await readyPhoto(grid, 2, ['booth', 'story', 'extra']);
    const body = {
      key_type: 'private' as const,
      key_value: grid.private_api_key,
      display: grid.display_token,
      printable_photo_uid_array: [left.uid, right.uid],
      client_request_id: 'kiosk-story-0001',
    };
    const queued = await t.ok(endpoints.publicPrintStory, body);
    expect(queued).toMatchObject({ printer_pool_name: 'Stories', sheet_count: 1, replayed: 0 });
    const again = await t.ok(endpoints.publicPrintStory, body);
    expect(again).toMatchObject({ replayed: 1, print_job_ids: queued.print_job_ids });
    const job = await waitPrinted(grid, queued.print_job_ids[0]!);
    expect(job).toMatchObject({
      state: 'printed',
      source: 'story',
      printer_pool_name: 'Stories',
      photo_uids: [left.uid, right.uid],
    });
    const sheet = await sheetOf('Stories', job.id);
    expect(await sharp(sheet).metadata()).toMatchObject({ width: 1800, height: 1200 });
    // both photos on the one sheet, in the chosen order, each filling its half
    expect(near(await colourAt(sheet, 400, 580), COLOURS[0]!)).toBe(true);
    expect(near(await colourAt(sheet, 1300, 580), COLOURS[2]!)).toBe(true);
    const rows = await t.database.executeSql(
      'select printed, print_count from photos where id = any($1::int[]) order by id',
      [[left.id, right.id]],
    );
    expect(rows.rows).toEqual([
      { printed: 1, print_count: 1 },
      { printed: 1, print_count: 1 },
    ]);
    // the kiosk's stories dropdown picks another of the event's pools
    const chosen = await t.ok(endpoints.publicPrintStory, {
      ...body,
      printer_pool_name: 'Booth-A',
      client_request_id: 'kiosk-story-0002',
    });
    expect(chosen.printer_pool_name).toBe('Booth-A');
    expect((await waitPrinted(grid, chosen.print_job_ids[0]!)).state).toBe('printed');
  });

  it('prints on the story template: its first print template with more than one placeholder', async () => {
    const photos = [
      await readyPhoto(strip, 0, []),
      await readyPhoto(strip, 1, []),
      await readyPhoto(strip, 2, []),
    ];
    const queued = await t.ok(
      endpoints.printStory,
      { event_id: strip.id, printable_photo_uid_array: photos.map((p) => p.uid) },
      admin,
    );
    // no stories pool set: the event's first pool
    expect(queued).toMatchObject({ printer_pool_name: 'Booth-A', sheet_count: 1 });
    const job = await waitPrinted(strip, queued.print_job_ids[0]!);
    expect(job.state).toBe('printed');
    const sheet = await sheetOf('Booth-A', job.id);
    expect(await sharp(sheet).metadata()).toMatchObject({ width: 1800, height: 1200 });
    // a third of the sheet each: 0–600, 600–1200, 1200–1800
    for (const [i, x] of [280, 880, 1480].entries())
      expect(near(await colourAt(sheet, x, 580), COLOURS[i]!), `placeholder ${i}`).toBe(true);
  });
});
