import { endpoints, type FlashbulbEvent, type StockImage } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createRobotWorld, errorOf, type EventWorld } from '../helpers/events.ts';
import { completeUpload, insertReadyPhoto, makeJpeg, postToStorage } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Stock images in albums and kiosk lists (albums spec §3, §4, §6): shown while
 * the clock is inside their window (event time zone) and their tag policy holds for the album's
 * photos; photos carry the robot's tags, the event's hash tag and forced index tags; only super
 * users change images, thumbnails and rows.
 */

let t: TestApp;
let world: EventWorld;
let robot: { key_type: 'robot'; key_value: string };
let superAuth: { authorization: string };
let adminAuth: { authorization: string };
let event: FlashbulbEvent;

/** 2027-06-01 08:00 UTC is 10:00 at the event (UTC+2). */
const AT = (hhmm: string) => Date.parse(`2027-06-01T${hhmm}:00Z`);

const image = (uid: string, extra: Partial<StockImage> = {}): StockImage => ({
  uid,
  imgUrl: `https://cdn.sponsor.example/${uid}.jpg`,
  imgTmbUrl: `https://cdn.sponsor.example/${uid}-tmb.jpg`,
  imgSize: 120,
  imgTmbSize: 12,
  dateStart: null,
  dateEnd: null,
  policy: {},
  ...extra,
});
/** A stored image names a key in the organisation's share area (a new event has no code yet). */
const stock = (organisationId: number): StockImage[] => [
  image('window', { dateStart: '2027-06-01 10:00', dateEnd: '2027-06-01 12:00' }),
  image('vip-only', { policy: { inc: ['VIP'] } }),
  image('no-vip', { policy: { exc: ['vip'] } }),
  image('stored-key', {
    imgUrl: `share/${organisationId}/stock/banner.jpg`,
    imgTmbUrl: `share/${organisationId}/stock/banner-tmb.jpg`,
  }),
];

/** The event as stored (API key: the clock is moved past access-token lifetimes). */
const stored = async (): Promise<FlashbulbEvent> =>
  (await t.ok(endpoints.eventFullData, { event_name: event.name }, superAuth))[0]!;
const publicKey = () => ({ key_type: 'public' as const, key_value: event.public_api_key });
const privateKey = () => ({ key_type: 'private' as const, key_value: event.private_api_key });
const shown = async (
  key: { key_type: 'public' | 'private' | 'attendee'; key_value: string },
  extra: Record<string, unknown> = {},
) => {
  const list = await t.ok(endpoints.publicPhotoList, {
    ...key,
    max_size: 50,
    page_number: 1,
    ...extra,
  });
  return list.stock_images.map((s) => s.uid).sort();
};

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const robots = await createRobotWorld(t);
  world = robots.world;
  robot = robots.robot;
  superAuth = await apiKeyAuth(t, world.superUser);
  adminAuth = await apiKeyAuth(t, world.adminA);
  t.clock.set(AT('07:00'));
  event = await t.ok(
    endpoints.createEvent,
    {
      full_name: 'Sponsored Gala',
      email_from_address: 'photos@gala.example',
      organisation_id: world.orgA.id,
      hash_tag: '#SummerGala',
      date_utc_diff_hours: 2,
      robot_id_array: [robots.robotId],
      stock_images_enable: 1,
      opts: { description: 'Gala', forcedIndexTags: ['booth'], stockImages: stock(world.orgA.id) },
    },
    superAuth,
  );
});
afterAll(async () => {
  await t.close();
});

describe('photo tags', () => {
  it('a robot upload carries its tags, the hash tag and the forced index tags', async () => {
    const bytes = await makeJpeg({ seed: 7, width: 64, height: 48 });
    const { key } = await postToStorage(t, robot, event.name, 'tagged.jpg', bytes, 'image/jpeg');
    const done = await t.ok(endpoints.photoUploadComplete, {
      ...robot,
      key,
      tags: ['Vip', '#booth', 'stage-2'],
    });
    const row = await t.app.container.repositories.photos.findById(done.id);
    // Each once (the robot's spelling first), `#` dropped.
    expect(row!.tags).toEqual(['Vip', 'booth', 'stage-2', 'SummerGala']);
  });

  it('a tag with other characters is refused before anything is stored', async () => {
    const bytes = await makeJpeg({ seed: 8, width: 64, height: 48 });
    const { key } = await postToStorage(t, robot, event.name, 'bad.jpg', bytes, 'image/jpeg');
    const refused = await t.call(endpoints.photoUploadComplete, {
      ...robot,
      key,
      tags: ['ok', 'not ok'],
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'tags_invalid' });
    // The upload is still there to complete with good tags.
    const retried = await completeUpload(t, robot, key);
    expect(retried.body.status).toBe('ok');
  });
});

describe('stock images in album and kiosk lists', () => {
  it('follow their date window in the event’s time zone', async () => {
    // The event has no published photo yet: exclude holds, include does not.
    t.clock.set(AT('07:59'));
    expect(await shown(publicKey())).toEqual(['no-vip', 'stored-key']);
    t.clock.set(AT('08:00'));
    expect(await shown(publicKey())).toEqual(['no-vip', 'stored-key', 'window']);
    t.clock.set(AT('09:59'));
    expect(await shown(privateKey())).toEqual(['no-vip', 'stored-key', 'window']);
    t.clock.set(AT('10:00'));
    expect(await shown(publicKey())).toEqual(['no-vip', 'stored-key']);
  });

  it('include and exclude policies look at the tags of the photos the list covers', async () => {
    t.clock.set(AT('09:00'));
    const attendee = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [event.id], is_prepaid: 1 },
        adminAuth,
      )
    ).attendees[0]!;
    await insertReadyPhoto(t, event, attendee.uid);
    const vip = await insertReadyPhoto(t, event);
    await t.app.container.repositories.photos.update(vip.id, { tags: ['vip'] });

    // The event's photos include a VIP photo (tags compared without case).
    expect(await shown(publicKey())).toEqual(['stored-key', 'vip-only', 'window']);
    // The attendee's album has none: there the exclude policy holds instead.
    const attendeeKey = { key_type: 'attendee' as const, key_value: attendee.uid };
    expect(await shown(attendeeKey)).toEqual(['no-vip', 'stored-key', 'window']);

    // A hidden photo is not content a guest sees.
    await t.app.container.repositories.photos.update(vip.id, { isVisible: 0 });
    expect(await shown(publicKey())).toEqual(['no-vip', 'stored-key', 'window']);
    await t.app.container.repositories.photos.update(vip.id, { isVisible: 1 });
  });

  it('come with the first page only, as URLs, and never in the owner list', async () => {
    t.clock.set(AT('09:00'));
    const first = await t.ok(endpoints.publicPhotoList, {
      ...publicKey(),
      max_size: 1,
      page_number: 1,
    });
    const stored = first.stock_images.find((s) => s.uid === 'stored-key')!;
    expect(stored.thumbnail_url).toMatch(/^https?:\/\/.+share\/\d+\/stock\/banner-tmb\.jpg$/);
    expect(stored.url).toMatch(/^https?:\/\/.+share\/\d+\/stock\/banner\.jpg$/);
    const second = await t.ok(endpoints.publicPhotoList, {
      ...publicKey(),
      max_size: 1,
      page_number: 2,
    });
    expect(second.stock_images).toEqual([]);
    const owner = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: event.id, max_size: 5, page_number: 1 },
      adminAuth,
    );
    expect(owner).not.toHaveProperty('stock_images');
  });

  it('are not shown while stock images are off', async () => {
    t.clock.set(AT('09:00'));
    const current = await stored();
    await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current.updated_date,
        stock_images_enable: 0,
      },
      superAuth,
    );
    expect(await shown(publicKey())).toEqual([]);
    const off = await stored();
    await t.ok(
      endpoints.updateEvent,
      { id: event.id, event_last_updated_date: off.updated_date, stock_images_enable: 1 },
      superAuth,
    );
    expect(await shown(publicKey())).toEqual(['stored-key', 'vip-only', 'window']);
  });
});

describe('who may change stock images', () => {
  const update = async (
    auth: { authorization: string },
    change: (images: StockImage[]) => StockImage[],
  ) => {
    const current = await stored();
    return t.call(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current.updated_date,
        opts: { ...current.opts, stockImages: change(current.opts.stockImages) },
      },
      auth,
    );
  };

  it('an admin may not change a thumbnail or an image, add or delete rows', async () => {
    const before = await stored();
    const refusals = [
      await update(adminAuth, (images) =>
        images.map((i, n) => (n === 1 ? { ...i, imgTmbUrl: 'https://evil.example/t.jpg' } : i)),
      ),
      await update(adminAuth, (images) =>
        images.map((i, n) => (n === 0 ? { ...i, imgUrl: 'https://evil.example/i.jpg' } : i)),
      ),
      await update(adminAuth, (images) => images.slice(1)),
      await update(adminAuth, (images) => [...images, image('added')]),
    ];
    expect(
      refusals.map((r) => {
        const e = errorOf(r);
        return { status: e.status, message_key: e.message_key, field: e.field };
      }),
    ).toEqual([
      { status: 403, message_key: 'forbidden', field: 'opts.stockImages.1.imgTmbUrl' },
      { status: 403, message_key: 'forbidden', field: 'opts.stockImages.0.imgUrl' },
      { status: 403, message_key: 'forbidden', field: 'opts.stockImages' },
      { status: 403, message_key: 'forbidden', field: 'opts.stockImages.4.uid' },
    ]);
    const after = await stored();
    expect(after.opts.stockImages).toEqual(before.opts.stockImages);
    expect(after.updated_date).toBe(before.updated_date);
  });

  it('an admin may move a window or change a policy; a super user may change everything', async () => {
    const moved = await update(adminAuth, (images) =>
      images.map((i, n) => (n === 0 ? { ...i, dateEnd: '2027-06-02 12:00' } : i)),
    );
    expect(moved.body.status).toBe('ok');
    const replaced = await update(superAuth, (images) => [
      { ...images[0]!, imgTmbUrl: 'https://cdn.sponsor.example/new-tmb.jpg' },
    ]);
    expect(replaced.body.status).toBe('ok');
    const after = await stored();
    expect(after.opts.stockImages.map((i) => [i.uid, i.imgTmbUrl, i.dateEnd])).toEqual([
      ['window', 'https://cdn.sponsor.example/new-tmb.jpg', '2027-06-02 12:00'],
    ]);
  });
});
