import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { endpoints, type FlashbulbEvent, type PrintJob } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Printing (albums spec §7.2, owner console §3, §5): print calls check every limit on
 * the server and queue nothing when refused; retries with a client request id print once; the
 * renderer makes 4×6 sheets at 300 dpi (1800×1200) with each photo filling its placeholder; the
 * embedded file printer writes them to `$FLASHBULB_DATA_DIR/prints/<pool>/`; auto-print and
 * unlock-and-print requests reach the queue; printed photos carry `printed` and a print count.
 */

let t: TestApp;
let world: EventWorld;
let admin: { authorization: string };
let adminB: { authorization: string };
let owner: UploadAuth;
/** Printing on, 2 photos per sheet, pools Booth-A and Booth-B. */
let booth: FlashbulbEvent;
/** Printing off. */
let quiet: FlashbulbEvent;
/** Auto-print every photo to its first pool. */
let auto: FlashbulbEvent;

/** Solid colours, one per photo, so each placeholder's content is recognisable on the sheet. */
const COLOURS = [
  { r: 220, g: 30, b: 30 },
  { r: 30, g: 200, b: 40 },
  { r: 30, g: 40, b: 210 },
  { r: 230, g: 200, b: 20 },
  { r: 200, g: 30, b: 200 },
];
const solidJpeg = (i: number, width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: COLOURS[i % COLOURS.length]! } })
    .jpeg({ quality: 95 })
    .toBuffer();

let seed = 0;
const readyPhoto = async (event: FlashbulbEvent, colour: number, size?: [number, number]) => {
  seed += 1;
  // The event's name plus a counter keeps each upload's bytes (and sha) distinct.
  const bytes = await sharp(await solidJpeg(colour, ...(size ?? [900, 600])))
    .withExif({ IFD0: { ImageDescription: `photo ${seed}` } })
    .toBuffer();
  const photo = await uploadPhoto(t, owner, event.name, bytes, `p${seed}.jpg`);
  return waitForReady(t, admin.authorization, event.id, photo.id);
};

const jobs = async (event: FlashbulbEvent) =>
  (await t.ok(endpoints.printJobList, { event_id: event.id }, admin)).jobs;

const jobCount = async () =>
  Number((await t.database.executeSql('select count(*)::int as n from print_jobs', [])).rows[0]!.n);

/** Waits until every listed job has left the queue (the render job runs in-process). */
const waitForJobs = async (event: FlashbulbEvent, ids: number[]): Promise<PrintJob[]> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const list = (await jobs(event)).filter((j) => ids.includes(j.id));
    if (list.length === ids.length && list.every((j) => ['printed', 'failed'].includes(j.state)))
      return list;
    if (Date.now() > deadline) throw new Error(`print jobs still open: ${JSON.stringify(list)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const printsDir = (pool: string) => path.join(t.config.dataDir, 'prints', pool);

/** The average colour of a box of the sheet. */
const colourAt = async (
  sheet: Buffer,
  box: { left: number; top: number; width: number; height: number },
) => {
  const { data } = await sharp(sheet)
    .extract(box)
    .resize(1, 1, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0]!, g: data[1]!, b: data[2]! };
};
const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }) =>
  Math.abs(a.r - b.r) < 25 && Math.abs(a.g - b.g) < 25 && Math.abs(a.b - b.b) < 25;

const photoRow = async (id: number) =>
  (await t.database.executeSql('select printed, print_count from photos where id = $1', [id]))
    .rows[0] as { printed: number; print_count: number };

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminB = await apiKeyAuth(t, world.adminB);
  owner = { authorization: world.adminA.authorization };
  booth = await createEvent(t, world.adminA, {
    full_name: 'Print Booth',
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Booth-A', 'Booth-B'],
    place_holder_count: 2,
    max_print_photos_count: 4,
    max_print_copies_count: 3,
  });
  quiet = await createEvent(t, world.adminA, { full_name: 'No Printer' });
  auto = await createEvent(t, world.adminA, {
    full_name: 'Auto Print',
    is_photo_printer_active: 1,
    is_print_every_photo: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Auto_1'],
  });
});
afterAll(async () => {
  await t.close();
});

describe('print with queue: limits and refusals', () => {
  it('refuses each limit with its key and queues nothing', async () => {
    const [a, b, c] = [
      await readyPhoto(booth, 0),
      await readyPhoto(booth, 1),
      await readyPhoto(booth, 2),
    ];
    const other = await readyPhoto(quiet, 3);
    const base = { event_id: booth.id, printable_photo_uid_array: [a.uid, b.uid] };
    const before = await jobCount();
    const cases: [Record<string, unknown>, string, string | undefined][] = [
      [
        { ...base, event_id: quiet.id, printable_photo_uid_array: [other.uid] },
        'printing_not_active',
        undefined,
      ],
      [{ ...base, printer_pool_name: 'Booth-C' }, 'printer_pool_name_invalid', 'printer_pool_name'],
      // pool names are case-sensitive
      [{ ...base, printer_pool_name: 'booth-a' }, 'printer_pool_name_invalid', 'printer_pool_name'],
      [
        { ...base, printer_pool_name: 'bad name!' },
        'printer_pool_name_invalid',
        'printer_pool_name',
      ],
      [{ ...base, printing_count: 4 }, 'photos_copy_count_error', 'printing_count'],
      [{ ...base, printing_count: 21 }, 'photos_copy_count_error', 'printing_count'],
      [{ ...base, printing_count: 0 }, 'photos_copy_count_error', 'printing_count'],
      [{ ...base, printable_photo_uid_array: [] }, 'photos_required', 'printable_photo_uid_array'],
      [
        { ...base, printable_photo_uid_array: ['u1', 'u2', 'u3', 'u4', 'u5', 'u6'] },
        'per_request_count_error',
        'printable_photo_uid_array',
      ],
      // 3 photos on 2-placeholder sheets
      [
        { ...base, printable_photo_uid_array: [a.uid, b.uid, c.uid] },
        'print_count_placeholder_error',
        'printable_photo_uid_array',
      ],
      [
        { ...base, printable_photo_uid_array: [a.uid, 'nope'] },
        'not_found',
        'printable_photo_uid_array',
      ],
      // another event's photo
      [
        { ...base, printable_photo_uid_array: [a.uid, other.uid] },
        'not_found',
        'printable_photo_uid_array',
      ],
    ];
    for (const [body, key, field] of cases) {
      const response = await t.call(endpoints.printWithQueue, body, admin);
      expect(errorOf(response), `${key} ${JSON.stringify(body)}`).toMatchObject({
        status: key === 'not_found' ? 404 : 400,
        message_key: key,
        ...(field ? { field } : {}),
      });
    }
    // another organisation's admin cannot see the event
    const foreign = await t.call(endpoints.printWithQueue, base, adminB);
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    // a public key may not print
    const publicKey = await t.call(endpoints.publicPrintWithQueue, {
      key_type: 'public',
      key_value: booth.public_api_key,
      printable_photo_uid_array: [a.uid, b.uid],
    });
    expect(errorOf(publicKey)).toMatchObject({ message_key: 'invalid_key' });
    expect(await jobCount()).toBe(before);
  });
});

describe('printing a sheet on the file printer', () => {
  it('renders two photos per 4×6 sheet at 300 dpi, prints each copy, marks the photos printed', async () => {
    const left = await readyPhoto(booth, 0, [1200, 800]);
    const right = await readyPhoto(booth, 2, [600, 900]);
    const queued = await t.ok(
      endpoints.printWithQueue,
      {
        event_id: booth.id,
        printable_photo_uid_array: [left.uid, right.uid],
        printing_count: 2,
        printer_pool_name: 'Booth-B',
      },
      admin,
    );
    expect(queued).toMatchObject({
      sheet_count: 1,
      copies: 2,
      printer_pool_name: 'Booth-B',
      replayed: 0,
    });
    const [job] = await waitForJobs(booth, queued.print_job_ids);
    expect(job).toMatchObject({
      state: 'printed',
      photo_uids: [left.uid, right.uid],
      copies: 2,
      source: 'owner',
    });

    const files = (await readdir(printsDir('Booth-B'))).sort();
    expect(files).toEqual([`job-${job!.id}-1.jpg`, `job-${job!.id}-2.jpg`]);
    const sheet = await readFile(path.join(printsDir('Booth-B'), files[0]!));
    // JPEG starting with an APP marker (CUPS's imagetopdf refuses a bare SOI + DQT)
    expect(sheet[0]).toBe(0xff);
    expect(sheet[1]).toBe(0xd8);
    expect(sheet[2]).toBe(0xff);
    expect(sheet[3]! >= 0xe0 && sheet[3]! <= 0xef).toBe(true);
    const meta = await sharp(sheet).metadata();
    expect(meta).toMatchObject({ width: 1800, height: 1200, density: 300, format: 'jpeg' });
    // each photo fills its half: no white bars even for the portrait photo (cropped to fill)
    expect(
      near(await colourAt(sheet, { left: 20, top: 20, width: 860, height: 1160 }), COLOURS[0]!),
    ).toBe(true);
    expect(
      near(await colourAt(sheet, { left: 920, top: 20, width: 860, height: 1160 }), COLOURS[2]!),
    ).toBe(true);
    for (const corner of [
      { left: 0, top: 0 },
      { left: 0, top: 1190 },
      { left: 1790, top: 0 },
      { left: 1790, top: 1190 },
      { left: 905, top: 0 },
    ])
      expect(
        near(await colourAt(sheet, { ...corner, width: 10, height: 10 }), {
          r: 255,
          g: 255,
          b: 255,
        }),
      ).toBe(false);

    expect(await photoRow(left.id)).toEqual({ printed: 1, print_count: 2 });
    expect(await photoRow(right.id)).toEqual({ printed: 1, print_count: 2 });
    const list = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: booth.id, max_size: 100, page_number: 1 },
      admin,
    );
    expect(list.photos.find((p) => p.id === left.id)?.printed).toBe(1);
  });

  it('a kiosk retrying with the same client request id prints once', async () => {
    const a = await readyPhoto(booth, 3);
    const b = await readyPhoto(booth, 4);
    const body = {
      key_type: 'private' as const,
      key_value: booth.private_api_key,
      display: booth.display_token,
      printable_photo_uid_array: [a.uid, b.uid],
      client_request_id: 'kiosk-7-request-0001',
    };
    const before = await jobCount();
    const first = await t.ok(endpoints.publicPrintWithQueue, body);
    const again = await t.ok(endpoints.publicPrintWithQueue, body);
    const racing = await Promise.all(
      [1, 2, 3].map(() => t.ok(endpoints.publicPrintWithQueue, body)),
    );
    expect(first).toMatchObject({ replayed: 0, sheet_count: 1, printer_pool_name: 'Booth-A' });
    expect(again).toMatchObject({ replayed: 1, print_job_ids: first.print_job_ids });
    for (const r of racing) expect(r.print_job_ids).toEqual(first.print_job_ids);
    expect(await jobCount()).toBe(before + 1);
    await waitForJobs(booth, first.print_job_ids);
    expect(await photoRow(a.id)).toEqual({ printed: 1, print_count: 1 });
    // a new request id is a new print
    const other = await t.ok(endpoints.publicPrintWithQueue, {
      ...body,
      client_request_id: 'kiosk-7-request-0002',
    });
    expect(other.print_job_ids).not.toEqual(first.print_job_ids);
    await waitForJobs(booth, other.print_job_ids);
    expect(await photoRow(a.id)).toEqual({ printed: 1, print_count: 2 });
  });
});

describe('auto-print and unlock-and-print reach the queue', () => {
  it('auto-prints every new photo once to the event’s pool', async () => {
    const photo = await readyPhoto(auto, 1);
    const deadline = Date.now() + 30_000;
    let list: PrintJob[] = [];
    while (Date.now() < deadline) {
      list = await jobs(auto);
      if (list.length > 0 && list.every((j) => j.state === 'printed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({
      state: 'printed',
      source: 'auto',
      photo_uids: [photo.uid],
      printer_pool_name: 'Auto_1',
    });
    const files = await readdir(printsDir('Auto_1'));
    expect(files).toEqual([`job-${list[0]!.id}-1.jpg`]);
    const sheet = await readFile(path.join(printsDir('Auto_1'), files[0]!));
    expect(await sharp(sheet).metadata()).toMatchObject({ width: 1800, height: 1200 });
    expect(
      near(await colourAt(sheet, { left: 100, top: 100, width: 1600, height: 1000 }), COLOURS[1]!),
    ).toBe(true);
    // announcing the photo again prints nothing more
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: auto.id });
    expect(await jobs(auto)).toHaveLength(1);
    expect(await photoRow(photo.id)).toEqual({ printed: 1, print_count: 1 });
  });

  it('does not auto-print where printing is off', async () => {
    const photo = await readyPhoto(quiet, 2);
    // the listeners have run once this resolves
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: quiet.id });
    expect(await jobs(quiet)).toEqual([]);
  });

  it('sends an owner’s unlock-and-print request to the queue and prints it', async () => {
    const attendee = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [booth.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    const a = await readyPhoto(booth, 0);
    const b = await readyPhoto(booth, 1);
    const c = await readyPhoto(booth, 2);
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: booth.id, attendee_uid: attendee, photo_uid_array: [a.uid, b.uid, c.uid] },
      admin,
    );
    const stored = await t.ok(
      endpoints.ownerUnlockAndPrint,
      {
        event_id: booth.id,
        attendee_uid: attendee,
        photo_uid_array: [a.uid, b.uid, c.uid],
        printing_count: 1,
      },
      admin,
    );
    const deadline = Date.now() + 30_000;
    let mine: PrintJob[] = [];
    while (Date.now() < deadline) {
      mine = (await jobs(booth)).filter((j) => j.source === 'unlock');
      if (mine.length === 2 && mine.every((j) => j.state === 'printed')) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    // three photos on 2-placeholder sheets: two sheets, the second half empty
    expect(mine.map((j) => j.photo_uids).sort((x, y) => y.length - x.length)).toEqual([
      [a.uid, b.uid],
      [c.uid],
    ]);
    expect(mine.every((j) => j.state === 'printed' && j.printer_pool_name === 'Booth-A')).toBe(
      true,
    );
    const request = (
      await t.database.executeSql('select status from print_requests where id = $1', [
        stored.print_request_id,
      ])
    ).rows[0] as { status: string };
    expect(request.status).toBe('sent');
    // the sweep finds nothing left to send
    expect(await t.app.container.services.printSheets.resume()).toMatchObject({ requests: 0 });
  });
});
