import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { endpoints, type FlashbulbEvent, type Photo, type PrintJob } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { waitForReady } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Automatic stories (owner console §3 `lookForTagsInImages` with a `createAStory` action; decided
 * in the addendum of docs/adr/0009-story-sheets.md): photos carrying a watched tag, of one
 * attendee (else one robot), uploaded within 10 minutes of the group's first, become ONE story
 * sheet on the action's pool once they fill the story sheet (here a 3-photo grid). Nothing else
 * prints: an incomplete group, untagged photos, the setting off, printing off. Once, however
 * often the job runs and however many run at once.
 */

let t: TestApp;
let admin: { authorization: string };
/** Printing on, pools Booth-A and Stories, 3 photos a story, watches `#booth`, prints on Stories. */
let booth: FlashbulbEvent;
/** As `booth` but `lookForTagsInImages` off. */
let plain: FlashbulbEvent;
/** As `booth` but printing off. */
let dark: FlashbulbEvent;

const COLOURS = [
  { r: 220, g: 30, b: 30 },
  { r: 30, g: 200, b: 40 },
  { r: 30, g: 40, b: 210 },
];
type Rgb = (typeof COLOURS)[number];

const watching = {
  tags: ['#booth'],
  action: { kind: 'createAStory' as const, poolName: 'Stories', tags: [] },
};

let seed = 0;
/** A robot-style upload carrying `tags` (and an attendee id), awaited until ready. */
const upload = async (
  event: FlashbulbEvent,
  tags: string[],
  attendee?: string,
  colour = seed % 3,
): Promise<Photo> => {
  seed += 1;
  const bytes = await sharp({
    create: { width: 900, height: 600, channels: 3, background: COLOURS[colour]! },
  })
    .jpeg({ quality: 95 })
    .withExif({ IFD0: { ImageDescription: `tag story ${seed}` } })
    .toBuffer();
  const fileName = `t${seed}.jpg`;
  const grant = await t.ok(
    endpoints.photoUploadAccess,
    {
      event_name: event.name,
      file_name: fileName,
      content_type: 'image/jpeg',
      ...(attendee ? { attendee_uid: attendee } : {}),
    },
    admin,
  );
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: fileName, contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const photo = await t.ok(endpoints.photoUploadComplete, { key: grant.key, tags }, admin);
  return waitForReady(t, admin.authorization, event.id, photo.id);
};

const storyJobs = async (event: FlashbulbEvent) =>
  (
    await t.database.executeSql(
      `select id, photo_ids, pool from print_jobs where event_id = $1 order by id`,
      [event.id],
    )
  ).rows as { id: number; photo_ids: number[]; pool: string }[];

const run = (event: FlashbulbEvent, photo: Photo) =>
  t.app.container.services.autoPrint.tagStories(event.id, photo.id);

/** The event's one story, awaited until its sheet is in the file printer. */
const printedStory = async (event: FlashbulbEvent): Promise<PrintJob> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const { jobs } = await t.ok(endpoints.printJobList, { event_id: event.id }, admin);
    const done = jobs.find((j) => j.source === 'story' && j.state === 'printed');
    if (done) return done;
    if (Date.now() > deadline) throw new Error(`no story printed: ${JSON.stringify(jobs)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

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
  const base = {
    is_photo_printer_active: 1 as const,
    is_printer_pool_enabled: 1 as const,
    printer_pool_name_list: ['Booth-A', 'Stories'],
    place_holder_count: 3,
    max_print_photos_count: 3,
  };
  booth = await createEvent(t, world.adminA, {
    ...base,
    full_name: 'Tag Stories',
    opts: { description: 'tag stories', lookForTagsInImages: watching },
  });
  plain = await createEvent(t, world.adminA, {
    ...base,
    full_name: 'No Tag Stories',
    opts: { description: 'off' },
  });
  dark = await createEvent(t, world.adminA, {
    ...base,
    is_photo_printer_active: 0,
    full_name: 'Dark Stories',
    opts: { description: 'printing off', lookForTagsInImages: watching },
  });
});
afterAll(async () => {
  await t.close();
});

describe('automatic stories from tags', () => {
  it('a complete group of one attendee prints one story sheet; others and untagged photos print nothing', async () => {
    // interleaved: GUEST-A fills a group of three, GUEST-B has two, an untagged photo of A counts
    // for nothing; tags compared without case or `#`
    const a1 = await upload(booth, ['#Booth'], 'GUESTA', 0);
    const b1 = await upload(booth, ['booth'], 'GUESTB', 1);
    await upload(booth, ['other'], 'GUESTA', 1);
    const a2 = await upload(booth, ['BOOTH', 'x'], 'GUESTA', 1);
    const b2 = await upload(booth, ['#booth'], 'GUESTB', 0);
    expect(await run(booth, b2)).toEqual({ status: 'waiting', stories: 0 });
    const a3 = await upload(booth, ['booth'], 'GUESTA', 2);
    const job = await printedStory(booth);
    expect(job).toMatchObject({
      printer_pool_name: 'Stories',
      copies: 1,
      photo_uids: [a1.uid, a2.uid, a3.uid],
    });
    const sheet = await readFile(
      path.join(t.config.dataDir, 'prints', 'Stories', `job-${job.id}-1.jpg`),
    );
    expect(await sharp(sheet).metadata()).toMatchObject({ width: 1800, height: 1200 });
    // the three photos side by side in upload order
    for (const [i, x] of [280, 880, 1480].entries())
      expect(near(await colourAt(sheet, x, 580), COLOURS[i]!), `placeholder ${i}`).toBe(true);
    // B's group is incomplete; the untagged photo is nobody's story
    expect((await storyJobs(booth)).map((j) => j.photo_ids)).toEqual([[a1.id, a2.id, a3.id]]);
    expect(b1.id).toBeLessThan(b2.id);
  });

  it('retried and concurrent runs still queue one story', async () => {
    // photos ready while the setting is off ask for nothing; it is then turned on and the job
    // runs for every photo, twice, all at once (two workers)
    const photos = [
      await upload(plain, ['booth'], 'GUESTC', 0),
      await upload(plain, ['booth'], 'GUESTC', 1),
      await upload(plain, ['booth'], 'GUESTC', 2),
    ];
    expect(await run(plain, photos[0]!)).toEqual({ status: 'off', stories: 0 });
    expect(await storyJobs(plain)).toEqual([]);
    await t.database.executeSql(
      `update events set opts = jsonb_set(opts, '{lookForTagsInImages}', $1::jsonb) where id = $2`,
      [JSON.stringify(watching), plain.id],
    );
    const results = await Promise.all([...photos, ...photos].map((p) => run(plain, p)));
    expect(results.reduce((n, r) => n + r.stories, 0)).toBe(1);
    expect(await storyJobs(plain)).toEqual([
      expect.objectContaining({ pool: 'Stories', photo_ids: photos.map((p) => p.id) }),
    ]);
    await printedStory(plain);
    for (const p of photos) expect(await run(plain, p)).toEqual({ status: 'waiting', stories: 0 });
    expect(await storyJobs(plain)).toHaveLength(1);
  });

  it('a group not filled within 10 minutes is dropped; printing off prints nothing', async () => {
    const late = [
      await upload(booth, ['booth'], 'GUESTD', 0),
      await upload(booth, ['booth'], 'GUESTD', 1),
    ];
    t.clock.advance(11 * 60_000);
    const next = await upload(booth, ['booth'], 'GUESTD', 2);
    expect(await run(booth, next)).toEqual({ status: 'waiting', stories: 0 });
    const held = new Set((await storyJobs(booth)).flatMap((j) => j.photo_ids));
    for (const p of [...late, next]) expect(held.has(p.id)).toBe(false);

    const photos = [
      await upload(dark, ['booth'], 'GUESTE'),
      await upload(dark, ['booth'], 'GUESTE'),
      await upload(dark, ['booth'], 'GUESTE'),
    ];
    for (const p of photos) expect(await run(dark, p)).toEqual({ status: 'off', stories: 0 });
    expect(await storyJobs(dark)).toEqual([]);
  });
});
