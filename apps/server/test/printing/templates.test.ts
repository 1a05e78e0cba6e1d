import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import {
  defaultTemplateLayout,
  endpoints,
  type FlashbulbEvent,
  type PrintJob,
  type TemplateLayout,
} from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { gridLayout, renderSheet } from '../../src/repositories/printing/sheet-renderer.ts';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Print and watermark templates (albums spec §2.6, §7.4): create, update, retrieve and
 * delete with the super-user rule for public templates checked on the server; the sheet renderer
 * follows a template (pixel sizes per DPI and unit, placeholders with rotation, background and
 * overlay images, text); an event printing with a 2-placeholder 4×6 template prints 2 photos per
 * sheet in the template's places.
 */

let t: TestApp;
let w: EventWorld;
let adminA: { authorization: string };
let adminB: { authorization: string };
let ownerA: { authorization: string };
let superUser: { authorization: string };

type Rgb = { r: number; g: number; b: number };
const RED = { r: 220, g: 30, b: 30 };
const GREEN = { r: 30, g: 200, b: 40 };
const BLUE = { r: 30, g: 40, b: 210 };
const WHITE = { r: 255, g: 255, b: 255 };
const solid = (colour: Rgb, width = 900, height = 600) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .jpeg({ quality: 95 })
    .toBuffer();

const colourAt = async (
  image: Buffer,
  box: { left: number; top: number; width: number; height: number },
) => {
  const { data } = await sharp(image)
    .extract(box)
    .resize(1, 1, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0]!, g: data[1]!, b: data[2]! };
};
/** How many pixels of a box are near black. */
const darkPixels = async (
  image: Buffer,
  box: { left: number; top: number; width: number; height: number },
) => {
  const { data, info } = await sharp(image)
    .extract(box)
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i]! < 80 && data[i + 1]! < 80 && data[i + 2]! < 80) dark += 1;
  return dark;
};
const near = (a: Rgb, b: Rgb) =>
  Math.abs(a.r - b.r) < 30 && Math.abs(a.g - b.g) < 30 && Math.abs(a.b - b.b) < 30;

/** Two photos side by side on a 4×6 with a white margin: the editor's "2 up" template. */
const twoUp = (): TemplateLayout => ({
  ...defaultTemplateLayout(),
  placeholders: [
    { x: 0.05, y: 0.1, width: 0.4, height: 0.8, rotation: 0 },
    { x: 0.55, y: 0.1, width: 0.4, height: 0.8, rotation: 0 },
  ],
});

const templateCount = async () =>
  Number(
    (await t.database.executeSql('select count(*)::int as n from print_templates', [])).rows[0]!.n,
  );

beforeAll(async () => {
  t = await createTestApp();
  w = await createEventWorld(t);
  adminA = await apiKeyAuth(t, w.adminA);
  adminB = await apiKeyAuth(t, w.adminB);
  ownerA = await apiKeyAuth(t, w.ownerA);
  superUser = { authorization: w.superUser.authorization };
});
afterAll(async () => {
  await t.close();
});

describe('templates: create, update, retrieve, delete', () => {
  it('an admin makes a private 2-placeholder template; its placeholder count follows the sheet', async () => {
    const created = await t.ok(endpoints.pptCreate, { name: 'Two up', layout: twoUp() }, adminA);
    expect(created).toMatchObject({
      name: 'Two up',
      organisation_id: w.orgA.id,
      organisation_name: 'Alpha Events',
      is_public: false,
      is_watermark: false,
      placeholder_counts: 2,
    });
    expect(created.layout.placeholders).toHaveLength(2);
    const list = await t.ok(endpoints.pptList, { is_watermark: 0 }, adminA);
    expect(list.private_ppt_list.map((p) => p.id)).toContain(created.id);

    const three: TemplateLayout = {
      ...twoUp(),
      placeholders: [
        ...twoUp().placeholders,
        { x: 0, y: 0, width: 0.1, height: 0.1, rotation: 45 },
      ],
    };
    const updated = await t.ok(
      endpoints.pptUpdate,
      { id: created.id, name: 'Three up', layout: three },
      adminA,
    );
    expect(updated).toMatchObject({ name: 'Three up', placeholder_counts: 3 });
    const read = await t.ok(endpoints.pptRetrieve, { id: created.id }, ownerA);
    expect(read.layout.placeholders[2]).toMatchObject({ rotation: 45 });
    // another organisation's users do not see it, change it or delete it
    for (const [endpoint, body] of [
      [endpoints.pptRetrieve, { id: created.id }],
      [endpoints.pptUpdate, { id: created.id, name: 'Taken', layout: twoUp() }],
      [endpoints.deletePpt, { id: created.id }],
    ] as const) {
      const response = await t.call(endpoint, body, adminB);
      expect(errorOf(response)).toMatchObject({ status: 404, message_key: 'template_not_found' });
    }
    expect((await t.ok(endpoints.pptRetrieve, { id: created.id }, adminA)).name).toBe('Three up');
  });

  it('public templates are made and changed by super users only (checked on the server)', async () => {
    const before = await templateCount();
    const refused = await t.call(
      endpoints.pptCreate,
      { name: 'Everyone', is_public: true, layout: twoUp() },
      adminA,
    );
    expect(errorOf(refused)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const owner = await t.call(endpoints.pptCreate, { name: 'Mine', layout: twoUp() }, ownerA);
    expect(errorOf(owner)).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(await templateCount()).toBe(before);

    const shared = await t.ok(
      endpoints.pptCreate,
      { name: 'House frame', is_public: true, is_watermark: true, layout: twoUp() },
      superUser,
    );
    expect(shared).toMatchObject({ is_public: true, organisation_id: null, is_watermark: true });
    const change = await t.call(
      endpoints.pptUpdate,
      { id: shared.id, name: 'Hijacked', layout: defaultTemplateLayout() },
      adminA,
    );
    expect(errorOf(change)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const remove = await t.call(endpoints.deletePpt, { id: shared.id }, adminA);
    expect(errorOf(remove)).toMatchObject({ status: 403, message_key: 'forbidden' });
    // watermark templates are admin business: an event owner may not open one
    const peek = await t.call(endpoints.pptRetrieve, { id: shared.id }, ownerA);
    expect(errorOf(peek)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const kept = await t.ok(endpoints.pptRetrieve, { id: shared.id }, adminA);
    expect(kept).toMatchObject({ name: 'House frame', placeholder_counts: 2 });
    await t.ok(
      endpoints.pptUpdate,
      { id: shared.id, name: 'House frame 2', layout: defaultTemplateLayout() },
      superUser,
    );
    expect(await t.ok(endpoints.pptRetrieve, { id: shared.id }, adminA)).toMatchObject({
      name: 'House frame 2',
      placeholder_counts: 1,
    });
  });

  it('refuses bad sheets with their keys and stores nothing', async () => {
    await t.app.container.storage.put(
      `share/${w.orgB.id}/watermarks/theirs.png`,
      await sharp({
        create: { width: 10, height: 10, channels: 4, background: { ...RED, alpha: 1 } },
      })
        .png()
        .toBuffer(),
      'image/png',
    );
    const before = await templateCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: ' ', layout: twoUp() }, 'template_name_required'],
      [{ name: 'x', layout: { ...twoUp(), placeholders: [] } }, 'template_placeholders_required'],
      [{ name: 'x', layout: { ...twoUp(), dpi: 30 } }, 'template_layout_invalid'],
      [{ name: 'x', layout: { ...twoUp(), width: 30 } }, 'template_layout_invalid'],
      // 10 mm is under an inch
      [{ name: 'x', layout: { ...twoUp(), unit: 'mm', width: 10 } }, 'template_layout_invalid'],
      [
        {
          name: 'x',
          layout: {
            ...twoUp(),
            placeholders: [{ x: 0.7, y: 0, width: 0.5, height: 1, rotation: 0 }],
          },
        },
        'template_layout_invalid',
      ],
      [
        {
          name: 'x',
          layout: { ...twoUp(), texts: [{ text: 'x', x: 0, y: 0, size: 0.1, color: 'red' }] },
        },
        'template_layout_invalid',
      ],
      // not in a watermarks folder
      [
        { name: 'x', layout: { ...twoUp(), overlay_image: `share/${w.orgA.id}/logo.png` } },
        'template_image_invalid',
      ],
      // another organisation's image
      [
        {
          name: 'x',
          layout: { ...twoUp(), overlay_image: `share/${w.orgB.id}/watermarks/theirs.png` },
        },
        'template_image_invalid',
      ],
      // never uploaded
      [
        {
          name: 'x',
          layout: { ...twoUp(), background_image: `share/${w.orgA.id}/watermarks/none.png` },
        },
        'template_image_invalid',
      ],
    ];
    for (const [body, key] of cases) {
      const response = await t.call(endpoints.pptCreate, body, adminA);
      expect(errorOf(response), `${key} ${JSON.stringify(body)}`).toMatchObject({
        status: 400,
        message_key: key,
      });
    }
    expect(await templateCount()).toBe(before);
  });
});

describe('the sheet renderer follows the template', () => {
  it('sizes sheets by DPI and unit', async () => {
    const inches = await renderSheet([await solid(RED)], { ...twoUp(), dpi: 150 });
    expect(await sharp(inches).metadata()).toMatchObject({ width: 900, height: 600, density: 150 });
    const mm = await renderSheet([await solid(RED)], {
      ...defaultTemplateLayout(),
      unit: 'mm',
      width: 100,
      height: 150,
    });
    // 100 × 150 mm at 300 dpi
    expect(await sharp(mm).metadata()).toMatchObject({ width: 1181, height: 1772 });
    const strip = await renderSheet([await solid(RED)], { ...gridLayout(4), width: 2, height: 6 });
    expect(await sharp(strip).metadata()).toMatchObject({ width: 600, height: 1800 });
  });

  it('places photos in their placeholders, crops to fill, turns rotated ones, layers images and text', async () => {
    const background = await solid(GREEN, 60, 40);
    // A frame: opaque blue border band at the top, transparent elsewhere.
    const overlay = await sharp({
      create: { width: 600, height: 400, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
    })
      .composite([
        {
          input: await sharp({
            create: { width: 600, height: 20, channels: 4, background: { ...BLUE, alpha: 1 } },
          })
            .png()
            .toBuffer(),
          left: 0,
          top: 0,
        },
      ])
      .png()
      .toBuffer();
    const layout: TemplateLayout = {
      ...defaultTemplateLayout(),
      placeholders: [
        { x: 0.05, y: 0.1, width: 0.4, height: 0.8, rotation: 0 },
        // a landscape box turned a quarter: it stands upright on the sheet
        { x: 0.5, y: 0.4, width: 0.45, height: 0.2, rotation: 90 },
      ],
      texts: [{ text: '<Gala & co>', x: 0.05, y: 0.98, size: 0.05, color: '#000000' }],
    };
    const sheet = await renderSheet([await solid(RED, 600, 900), await solid(RED)], layout, {
      background,
      overlay,
    });
    expect(await sharp(sheet).metadata()).toMatchObject({ width: 1800, height: 1200 });
    // placeholder 1: 90..810 × 120..1080, filled red (portrait photo cropped to fill)
    expect(near(await colourAt(sheet, { left: 100, top: 130, width: 700, height: 940 }), RED)).toBe(
      true,
    );
    // outside the placeholders: the background
    expect(near(await colourAt(sheet, { left: 20, top: 600, width: 40, height: 40 }), GREEN)).toBe(
      true,
    );
    // the overlay's band is on top of everything
    expect(near(await colourAt(sheet, { left: 100, top: 2, width: 1600, height: 50 }), BLUE)).toBe(
      true,
    );
    // the turned box: 810×240 centred at (1305, 600) becomes 240×810 standing upright
    expect(
      near(await colourAt(sheet, { left: 1200, top: 220, width: 200, height: 760 }), RED),
    ).toBe(true);
    // …so left and right of its centre, beyond 120 px, is background, not photo
    expect(near(await colourAt(sheet, { left: 930, top: 560, width: 40, height: 80 }), GREEN)).toBe(
      true,
    );
    expect(
      near(await colourAt(sheet, { left: 1640, top: 560, width: 40, height: 80 }), GREEN),
    ).toBe(true);
    // the text is drawn (dark glyph pixels along its baseline); its markup characters escaped
    expect(
      await darkPixels(sheet, { left: 80, top: 1100, width: 700, height: 90 }),
    ).toBeGreaterThan(1000);
    const noText = await renderSheet(
      [await solid(RED, 600, 900)],
      { ...layout, texts: [] },
      {
        background,
      },
    );
    expect(await darkPixels(noText, { left: 80, top: 1100, width: 700, height: 90 })).toBe(0);
  });

  it('leaves an unfilled placeholder blank', async () => {
    const sheet = await renderSheet([await solid(RED)], twoUp());
    expect(
      near(await colourAt(sheet, { left: 1000, top: 130, width: 700, height: 900 }), WHITE),
    ).toBe(true);
  });
});

describe('printing with a template', () => {
  let event: FlashbulbEvent;

  const waitForJobs = async (ids: number[]): Promise<PrintJob[]> => {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const list = (await t.ok(endpoints.printJobList, { event_id: event.id }, adminA)).jobs.filter(
        (j) => ids.includes(j.id),
      );
      if (list.length === ids.length && list.every((j) => ['printed', 'failed'].includes(j.state)))
        return list;
      if (Date.now() > deadline) throw new Error(`print jobs still open: ${JSON.stringify(list)}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  it('a 2-placeholder 4×6 template prints 2 photos per sheet in its places', async () => {
    const template = await t.ok(
      endpoints.pptCreate,
      { name: 'Booth 2 up', layout: twoUp() },
      adminA,
    );
    event = await createEvent(t, w.adminA, {
      full_name: 'Template Booth',
      is_photo_printer_active: 1,
      ppt_id_array: [template.id],
      place_holder_count: 2,
      max_print_photos_count: 4,
    });
    const photos = [];
    for (const [i, colour] of [RED, BLUE, GREEN].entries()) {
      const bytes = await sharp(await solid(colour))
        .withExif({ IFD0: { ImageDescription: `template photo ${i}` } })
        .toBuffer();
      const uploaded = await uploadPhoto(t, adminA, event.name, bytes, `t${i}.jpg`);
      photos.push(await waitForReady(t, adminA.authorization, event.id, uploaded.id));
    }
    // three photos do not fill 2-placeholder sheets
    const odd = await t.call(
      endpoints.printWithQueue,
      { event_id: event.id, printable_photo_uid_array: photos.map((p) => p.uid) },
      adminA,
    );
    expect(errorOf(odd)).toMatchObject({ message_key: 'print_count_placeholder_error' });

    const queued = await t.ok(
      endpoints.printWithQueue,
      { event_id: event.id, printable_photo_uid_array: [photos[0]!.uid, photos[1]!.uid] },
      adminA,
    );
    expect(queued.sheet_count).toBe(1);
    const [job] = await waitForJobs(queued.print_job_ids);
    expect(job?.state).toBe('printed');
    const dir = path.join(t.config.dataDir, 'prints', 'Default');
    const file = (await readdir(dir)).find((f) => f.startsWith(`job-${job!.id}-`));
    const sheet = await readFile(path.join(dir, file!));
    expect(await sharp(sheet).metadata()).toMatchObject({
      width: 1800,
      height: 1200,
      density: 300,
    });
    // the template's margins are white; each photo is in its own placeholder
    expect(near(await colourAt(sheet, { left: 0, top: 0, width: 80, height: 1200 }), WHITE)).toBe(
      true,
    );
    expect(
      near(await colourAt(sheet, { left: 820, top: 0, width: 160, height: 1200 }), WHITE),
    ).toBe(true);
    expect(near(await colourAt(sheet, { left: 100, top: 130, width: 700, height: 940 }), RED)).toBe(
      true,
    );
    expect(
      near(await colourAt(sheet, { left: 1000, top: 130, width: 700, height: 940 }), BLUE),
    ).toBe(true);
  });
  it('the event’s print header and footer messages are printed in the template’s slots, escaped', async () => {
    const slotted = await t.ok(
      endpoints.pptCreate,
      {
        name: 'Booth 2 up with header and footer',
        layout: {
          ...twoUp(),
          texts: [
            { text: '', x: 0.05, y: 0.075, size: 0.06, color: '#000000', slot: 'header' },
            { text: '', x: 0.05, y: 0.975, size: 0.06, color: '#000000', slot: 'footer' },
          ],
        },
      },
      adminA,
    );
    expect(slotted.layout.texts.map((x) => x.slot)).toEqual(['header', 'footer']);
    const printedSheet = async (opts: Record<string, unknown>) => {
      event = await createEvent(t, w.adminA, {
        full_name: 'Slot Booth',
        is_photo_printer_active: 1,
        ppt_id_array: [slotted.id],
        place_holder_count: 2,
        max_print_photos_count: 4,
        opts: { description: 'Slots', ...opts },
      });
      const uids = [];
      for (const [i, colour] of [RED, BLUE].entries()) {
        const uploaded = await uploadPhoto(t, adminA, event.name, await solid(colour), `s${i}.jpg`);
        uids.push((await waitForReady(t, adminA.authorization, event.id, uploaded.id)).uid);
      }
      const queued = await t.ok(
        endpoints.printWithQueue,
        { event_id: event.id, printable_photo_uid_array: uids },
        adminA,
      );
      const [job] = await waitForJobs(queued.print_job_ids);
      expect(job?.state).toBe('printed');
      const dir = path.join(t.config.dataDir, 'prints', 'Default');
      const file = (await readdir(dir)).find((f) => f.startsWith(`job-${job!.id}-`));
      return readFile(path.join(dir, file!));
    };
    // The white margins above and below the photos: 0–120 px and 1080–1200 px of 1200.
    const header = { left: 60, top: 0, width: 1680, height: 118 };
    const footer = { left: 60, top: 1082, width: 1680, height: 118 };

    const withTexts = await printedSheet({
      printHeaderMessage: 'Gala <2026> & Co',
      printFooterMessage: 'Thank you for coming',
    });
    expect(await darkPixels(withTexts, header)).toBeGreaterThan(500);
    expect(await darkPixels(withTexts, footer)).toBeGreaterThan(500);
    // The photos stay in their places under the texts.
    expect(
      near(await colourAt(withTexts, { left: 100, top: 130, width: 700, height: 940 }), RED),
    ).toBe(true);

    const withoutTexts = await printedSheet({});
    expect(await darkPixels(withoutTexts, header)).toBe(0);
    expect(await darkPixels(withoutTexts, footer)).toBe(0);
  });
});

describe('a print template naming another organisation’s image', () => {
  it('renders its sheets without reading it (checked again when a sheet is made, not only at save)', async () => {
    // Organisation B's own image, in its watermarks folder.
    const theirs = `share/${w.orgB.id}/watermarks/theirs.png`;
    await t.app.container.storage.put(theirs, await solid(BLUE, 60, 40), 'image/png');
    const template = await t.ok(
      endpoints.pptCreate,
      { name: 'Borrowed frame', layout: twoUp() },
      adminA,
    );
    // A value that got past the save check (an older row, a direct write).
    await t.database.executeSql(
      `update print_templates set layout = jsonb_set(jsonb_set(layout, '{overlay_image}', to_jsonb($1::text)), '{background_image}', to_jsonb($1::text)) where id = $2`,
      [theirs, template.id],
    );
    const event = await createEvent(t, w.adminA, {
      full_name: 'Borrowing Booth',
      is_photo_printer_active: 1,
      ppt_id_array: [template.id],
      place_holder_count: 2,
      max_print_photos_count: 4,
    });
    const photos = [];
    for (const [i, colour] of [RED, GREEN].entries()) {
      const uploaded = await uploadPhoto(t, adminA, event.name, await solid(colour), `b${i}.jpg`);
      photos.push(await waitForReady(t, adminA.authorization, event.id, uploaded.id));
    }
    const get = vi.spyOn(t.app.container.storage, 'get');
    try {
      const queued = await t.ok(
        endpoints.printWithQueue,
        { event_id: event.id, printable_photo_uid_array: photos.map((p) => p.uid) },
        adminA,
      );
      const deadline = Date.now() + 30_000;
      for (;;) {
        const jobs = (await t.ok(endpoints.printJobList, { event_id: event.id }, adminA)).jobs;
        const job = jobs.find((j) => j.id === queued.print_job_ids[0]);
        if (job && ['printed', 'failed'].includes(job.state)) {
          expect(job.state).toBe('printed');
          break;
        }
        if (Date.now() > deadline) throw new Error('the sheet was not printed');
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(get.mock.calls.map((call) => call[0])).not.toContain(theirs);
    } finally {
      get.mockRestore();
    }
  });
});

describe('template-mode watermarks', () => {
  it('frames each new photo of the event with its watermark template', async () => {
    const frameKey = `share/${w.orgA.id}/watermarks/frame.png`;
    const band = await sharp({
      create: { width: 600, height: 30, channels: 4, background: { ...BLUE, alpha: 1 } },
    })
      .png()
      .toBuffer();
    await t.app.container.storage.put(
      frameKey,
      await sharp({
        create: {
          width: 600,
          height: 400,
          channels: 4,
          background: { r: 0, g: 0, b: 0, alpha: 0 },
        },
      })
        .composite([{ input: band, left: 0, top: 0 }])
        .png()
        .toBuffer(),
      'image/png',
    );
    const backgroundKey = `share/${w.orgA.id}/watermarks/green.jpg`;
    await t.app.container.storage.put(backgroundKey, await solid(GREEN, 60, 40), 'image/jpeg');
    const template = await t.ok(
      endpoints.pptCreate,
      {
        name: 'Gala frame',
        is_watermark: true,
        layout: {
          ...defaultTemplateLayout(),
          placeholders: [{ x: 0.1, y: 0.15, width: 0.8, height: 0.75, rotation: 0 }],
          background_image: backgroundKey,
          overlay_image: frameKey,
        },
      },
      adminA,
    );
    const event = await createEvent(t, w.adminA, {
      full_name: 'Framed Gala',
      watermark_pt_id: template.id,
      photo_watermark: null,
    });
    const bytes = await sharp(await solid(RED))
      .withExif({ IFD0: { ImageDescription: 'framed photo' } })
      .toBuffer();
    const uploaded = await uploadPhoto(t, adminA, event.name, bytes, 'framed.jpg');
    await waitForReady(t, adminA.authorization, event.id, uploaded.id);
    const row = (
      await t.database.executeSql('select derivatives from photos where id = $1', [uploaded.id])
    ).rows[0] as { derivatives: Record<string, string> };
    const key = row.derivatives.photo_watermark;
    expect(key).toBeDefined();
    const object = await t.app.container.storage.get(key!);
    const chunks: Buffer[] = [];
    for await (const chunk of object!.body) chunks.push(chunk as Buffer);
    const framed = Buffer.concat(chunks);
    const meta = await sharp(framed).metadata();
    expect([meta.width, meta.height]).toEqual([900, 600]);
    // background at the sides, the photo in the window, the overlay's band on top
    expect(near(await colourAt(framed, { left: 5, top: 200, width: 60, height: 200 }), GREEN)).toBe(
      true,
    );
    expect(
      near(await colourAt(framed, { left: 150, top: 150, width: 600, height: 350 }), RED),
    ).toBe(true);
    expect(near(await colourAt(framed, { left: 0, top: 0, width: 900, height: 40 }), BLUE)).toBe(
      true,
    );
  });
});
