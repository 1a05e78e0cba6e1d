import {
  endpoints,
  type FlashbulbEvent,
  type KeyPhoto,
  type Photo,
  type PreviewProtection,
} from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protectedTwin } from '../../src/storage/key-space.ts';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { cellDifferences } from '../helpers/image-diff.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { bytesOf, pathOf, s3ErrorOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * ADR 0006 on the local backend: what a paid event sells cannot be fetched
 * without a signed URL, signed URLs expire and stop working when the photo is hidden, and photos
 * stored before protected storage are moved by the storage migration.
 */

let t: TestApp;
let world: Awaited<ReturnType<typeof createRobotWorld>>['world'];
let admin: { authorization: string };
let robot: UploadAuth;
let paid: FlashbulbEvent;
let free: FlashbulbEvent;
let paidPhoto: Photo;
let freePhoto: Photo;

const get = (url: string | null | undefined, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url: pathOf(url) });

/** A URL the storage refuses, to GET and to HEAD alike, with S3's plain "Access Denied". */
const expectDenied = async (url: string | null | undefined) => {
  const response = await get(url);
  expect(response.statusCode, url ?? 'no url').toBe(403);
  expect(s3ErrorOf(response.body)).toEqual({ code: 'AccessDenied', message: 'Access Denied' });
  expect((await get(url, 'HEAD')).statusCode, url ?? 'no url').toBe(403);
};

const listWith = async (
  event: FlashbulbEvent,
  key_type: 'public' | 'private',
): Promise<KeyPhoto[]> =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type,
      key_value: key_type === 'public' ? event.public_api_key : event.private_api_key,
      max_size: 100,
      page_number: 1,
    })
  ).photos;

const ownerView = async (event: FlashbulbEvent, id: number): Promise<Photo> =>
  (await t.ok(endpoints.ownerPhotoList, { event_id: event.id }, admin)).photos.find(
    (p) => p.id === id,
  )!;

/** The photo as a guest who may download sees it: a new prepaid attendee given that one photo. */
const prepaidGuestView = async (event: FlashbulbEvent, photoUid: string): Promise<KeyPhoto> => {
  const [buyer] = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 1 },
      admin,
    )
  ).attendees;
  await t.ok(
    endpoints.ownerAttachPhotos,
    { event_id: event.id, attendee_uid: buyer!.uid, photo_uid_array: [photoUid] },
    admin,
  );
  const { photos } = await t.ok(endpoints.publicPhotoList, {
    key_type: 'attendee',
    key_value: buyer!.uid,
    max_size: 10,
    page_number: 1,
  });
  expect(photos).toHaveLength(1);
  return photos[0]!;
};

const stored = async (key: string): Promise<Buffer> =>
  bytesOf((await t.app.container.storage.get(key))!.body);

beforeAll(async () => {
  t = await createTestApp();
  const { world: made, robotId, ...keys } = await createRobotWorld(t);
  world = made;
  ({ admin, robot } = keys);
  // No protector_watermark set: the derivatives job uses the built-in one.
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    robot_id_array: [robotId],
  });
  free = await createEvent(t, world.adminA, { full_name: 'Free Fair', is_free: 1 });
  const a = await uploadPhoto(t, robot, paid.name, await makeJpeg({ seed: 71 }));
  paidPhoto = await waitForReady(t, admin.authorization, paid.id, a.id);
  const b = await uploadPhoto(t, admin, free.name, await makeJpeg({ seed: 72 }));
  freePhoto = await waitForReady(t, admin.authorization, free.id, b.id);
});
afterAll(async () => {
  await t.close();
});

describe('a paid event’s public photo URL', () => {
  it('answers 403 when preview/thumbnail is swapped for original or preview', async () => {
    const [photo] = await listWith(paid, 'public');
    expect(photo!.id).toBe(paidPhoto.id);
    const thumbnail = photo!.urls.thumbnail!;
    expect(thumbnail).toBe(
      `${t.config.publicUrl}/storage/events/${paid.name}/photos/uid_${photo!.uid}_uid/thumbnail.jpg`,
    );
    expect((await get(thumbnail)).statusCode).toBe(200);
    for (const swapped of [
      thumbnail.replace('thumbnail.jpg', 'original.jpg'),
      thumbnail.replace('thumbnail.jpg', 'preview.jpg'),
      thumbnail
        .replace('/storage/events/', '/storage/protected/events/')
        .replace('thumbnail.jpg', 'original.jpg'),
      thumbnail
        .replace('/storage/events/', '/storage/protected/events/')
        .replace('thumbnail.jpg', 'preview.jpg'),
      `${t.config.publicUrl}/storage/${paidPhoto.full_path}`,
    ]) {
      await expectDenied(swapped);
    }
  });

  it('keeps the full-size watermarked variants out of public space: a URL built by hand is refused; an unlocked guest gets them signed', async () => {
    // The event's full-size watermarked variants (one mark, 2000 px) are made too.
    const marked = await createEvent(t, world.adminA, {
      full_name: 'Marked Gala',
      is_free: 0,
      photo_watermark: '/default-watermark.png',
      live_view_watermark: '/default-watermark.png',
    });
    const upload = await uploadPhoto(t, admin, marked.name, await makeJpeg({ seed: 73 }));
    await waitForReady(t, admin.authorization, marked.id, upload.id);
    const [photo] = await listWith(marked, 'public');
    expect(photo!.urls.photo_watermark).toBeNull();
    const thumbnail = photo!.urls.thumbnail!;
    const row = await t.app.container.repositories.photos.findById(upload.id);
    for (const [variant, file] of [
      ['photo_watermark', 'photo-watermark.jpg'],
      ['live_view_watermark', 'live-view-watermark.jpg'],
    ] as const) {
      // The variant exists, but only in protected space.
      const key = row!.derivatives[variant]!;
      expect(key).toBe(`protected/events/${marked.name}/photos/uid_${photo!.uid}_uid/${file}`);
      expect((await stored(key)).length).toBeGreaterThan(0);
      // The public folder's name for it (where a free event keeps it): nothing there.
      const byHand = thumbnail.replace('thumbnail.jpg', file);
      expect((await get(byHand)).statusCode, byHand).not.toBe(200);
      // Its protected name, unsigned: refused.
      const twin = byHand.replace('/storage/events/', '/storage/protected/events/');
      expect((await get(twin)).statusCode, twin).toBe(403);
      // A media URL with a made-up signature: refused too.
      const forged = `${t.config.publicUrl}/media/photos/${photo!.id}/${variant}?a=g&e=9999999999&s=x`;
      expect((await get(forged)).statusCode).toBe(403);
    }

    // A guest who may download (prepaid) gets what they paid for: the watermarked variant, signed.
    const open = await prepaidGuestView(marked, upload.uid);
    expect(open.urls.photo_watermark).toMatch(/\/media\/photos\/\d+\/photo_watermark\?a=g&/);
    expect(
      (await bytesAt(open.urls.photo_watermark)).equals(
        await stored(row!.derivatives.photo_watermark!),
      ),
    ).toBe(true);
  });

  it('lists for the public key no original and no unwatermarked preview, only the protector watermark', async () => {
    const owner = await ownerView(paid, paidPhoto.id);
    const [photo] = await listWith(paid, 'public');
    expect(photo!.urls.original).toBeNull();
    expect(photo!.urls.protector_watermark).toMatch(
      new RegExp(
        `^${t.config.publicUrl}/storage/events/${paid.name}/photos/uid_${photo!.uid}_uid/protector-watermark-[0-9a-f]{12}\\.jpg$`,
      ),
    );
    expect(photo!.urls.preview).toBe(photo!.urls.protector_watermark);
    // No signed URL at all: nothing protected is handed to the public key.
    for (const url of Object.values(photo!.urls)) {
      if (url) expect(url).not.toMatch(/\/media\/|original|preview\.jpg|\/protected\//);
    }
    // The watermarked preview is public and differs from the unwatermarked one.
    const watermarked = await get(photo!.urls.preview);
    expect(watermarked.statusCode).toBe(200);
    expect(watermarked.headers['content-type']).toBe('image/jpeg');
    const unwatermarked = await get(owner.urls.preview);
    expect(unwatermarked.statusCode).toBe(200);
    expect(watermarked.rawPayload.equals(unwatermarked.rawPayload)).toBe(false);
  });

  it('is made with the protector watermark for paid events only (built-in when none is set)', async () => {
    expect((await ownerView(paid, paidPhoto.id)).urls.protector_watermark).not.toBeNull();
    expect((await ownerView(free, freePhoto.id)).urls.protector_watermark).toBeNull();
  });

  it('gives the private key (a guest link) no original of a paid event; of a free one, signed', async () => {
    const [locked] = await listWith(paid, 'private');
    expect(locked!.urls.original).toBeNull();
    expect(locked!.urls.preview).toBe(locked!.urls.protector_watermark);
    const [photo] = await listWith(free, 'private');
    expect(photo!.urls.original).toMatch(
      new RegExp(
        `^${t.config.publicUrl}/media/photos/${freePhoto.id}/original\\?a=g&e=\\d+&s=[\\w-]+$`,
      ),
    );
    const response = await get(photo!.urls.original);
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.equals(await stored(freePhoto.full_path))).toBe(true);
  });
});

/** Polls the console's progress until the job has finished (done or failed). */
const protectionSettled = async (event: FlashbulbEvent): Promise<PreviewProtection> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const state = await t.ok(endpoints.previewProtectionStatus, { event_id: event.id }, admin);
    if (state.state !== 'running') return state;
    if (Date.now() > deadline)
      throw new Error(`protection still running: ${JSON.stringify(state)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const bytesAt = async (url: string | null | undefined): Promise<Buffer> => {
  const response = await get(url);
  expect(response.statusCode, url ?? 'no url').toBe(200);
  return response.rawPayload;
};

describe('protected previews', () => {
  it('give a locked guest at most 1200 px with the mark over every part, the clean preview nowhere', async () => {
    const upload = await uploadPhoto(
      t,
      robot,
      paid.name,
      await makeJpeg({ width: 2400, height: 1600, seed: 91 }),
    );
    const owner = await waitForReady(t, admin.authorization, paid.id, upload.id);
    const photo = (await listWith(paid, 'public')).find((p) => p.id === upload.id)!;
    expect(photo.urls.preview).toBe(photo.urls.protector_watermark);
    expect(photo.urls.preview).toMatch(/\/protector-watermark-[0-9a-f]{12}\.jpg$/);
    const guarded = await bytesAt(photo.urls.preview);
    const meta = await sharp(guarded).metadata();
    expect([meta.width, meta.height]).toEqual([1200, 800]);
    const clean = await bytesAt(owner.urls.preview);
    expect((await sharp(clean).metadata()).width).toBe(2000);
    const cells = await cellDifferences(guarded, clean, 2);
    for (const [i, d] of cells.entries()) expect(d, `cell ${i} of 9`).toBeGreaterThan(2);
  });

  it('are made for photos stored before the event turned paid, again for a new mark, and given up when it turns free', async () => {
    let event = await createEvent(t, world.adminA, {
      full_name: 'Spring Fair',
      is_free: 1,
      photo_watermark: '/default-watermark.png',
    });
    const upload = await uploadPhoto(
      t,
      admin,
      event.name,
      await makeJpeg({ width: 1800, height: 1200, seed: 92 }),
    );
    const owner = await waitForReady(t, admin.authorization, event.id, upload.id);
    expect(owner.urls.protector_watermark).toBeNull();
    // A free event's watermarked variant is a plain public file.
    const publicWatermark = owner.urls.photo_watermark!;
    expect(publicWatermark).toMatch(/\/storage\/events\/.+\/photo-watermark\.jpg$/);
    const watermarkBytes = await bytesAt(publicWatermark);
    expect(await t.ok(endpoints.previewProtectionStatus, { event_id: event.id }, admin)).toEqual({
      state: 'off',
      done: 0,
      total: 0,
    });
    const update = (changes: Partial<FlashbulbEvent>) =>
      t.ok(
        endpoints.updateEvent,
        { id: event.id, event_last_updated_date: event.updated_date, ...changes },
        admin,
      );

    event = await update({ is_free: 0 });
    expect(await protectionSettled(event)).toEqual({ state: 'done', done: 1, total: 1 });
    const [locked] = await listWith(event, 'public');
    expect(locked!.urls.preview).toBe(locked!.urls.protector_watermark);
    const first = locked!.urls.preview!;
    const guarded = await bytesAt(first);
    const size = await sharp(guarded).metadata();
    expect(Math.max(size.width, size.height)).toBe(1200);
    for (const d of await cellDifferences(guarded, await bytesAt(owner.urls.preview), 2))
      expect(d).toBeGreaterThan(2);
    // Turned paid, its watermarked variant moved into protected space: the old URL is gone, the
    // owner (and an unlocked guest) reads the same bytes through a signed URL.
    expect((await get(publicWatermark)).statusCode).not.toBe(200);
    const moved = await ownerView(event, upload.id);
    expect(moved.urls.photo_watermark).toMatch(/\/media\/photos\/\d+\/photo_watermark\?a=o&/);
    expect((await bytesAt(moved.urls.photo_watermark)).equals(watermarkBytes)).toBe(true);

    // A new name is a new mark (the event has no protector image): made again, the old file gone.
    event = await update({ full_name: 'Spring Fair 2026' });
    expect(await protectionSettled(event)).toEqual({ state: 'done', done: 1, total: 1 });
    const [again] = await listWith(event, 'public');
    expect(again!.urls.preview).not.toBe(first);
    expect((await bytesAt(again!.urls.preview)).equals(guarded)).toBe(false);
    expect((await get(first)).statusCode).not.toBe(200);

    // Run again: nothing to do, nothing changes.
    const row = await t.app.container.repositories.photos.findById(upload.id);
    expect(await t.app.container.services.previewProtection.protectEvent(event.id)).toEqual({
      protected: 0,
      failed: 0,
    });
    expect(await t.app.container.repositories.photos.findById(upload.id)).toEqual(row);
    // A run cut short (the photo's switch never happened): the next run makes only what is missing.
    const { protector_watermark: _made, ...rest } = row!.derivatives;
    await t.app.container.repositories.photos.update(upload.id, { derivatives: rest });
    expect(await protectionSettled(event)).toEqual({ state: 'failed', done: 0, total: 1 });
    expect(await t.app.container.services.previewProtection.protectEvent(event.id)).toEqual({
      protected: 1,
      failed: 0,
    });
    expect(await protectionSettled(event)).toEqual({ state: 'done', done: 1, total: 1 });

    // Free again: guests see the clean preview; the original stays.
    event = await update({ is_free: 1 });
    const [open] = await listWith(event, 'private');
    expect(open!.urls.preview).toMatch(/\/media\/photos\/\d+\/preview\?a=g&/);
    expect((await bytesAt(open!.urls.preview)).equals(await bytesAt(owner.urls.preview))).toBe(
      true,
    );
    expect((await bytesAt(open!.urls.original)).length).toBeGreaterThan(0);
  });

  it('give an unlocked guest (an attendee who may download) the clean preview', async () => {
    const photo = await prepaidGuestView(paid, paidPhoto.uid);
    expect(photo.urls.preview).toMatch(/\/media\/photos\/\d+\/preview\?a=g&/);
    const owner = await ownerView(paid, paidPhoto.id);
    expect((await bytesAt(photo.urls.preview)).equals(await bytesAt(owner.urls.preview))).toBe(
      true,
    );
  });
});

describe('a free event', () => {
  it('still shows its unwatermarked preview to the public, through a signed URL', async () => {
    const [photo] = await listWith(free, 'public');
    expect(photo!.urls.original).toBeNull();
    expect(photo!.urls.preview).toMatch(/\/media\/photos\/\d+\/preview\?a=g&/);
    const response = await get(photo!.urls.preview);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    const owner = await ownerView(free, freePhoto.id);
    expect(response.rawPayload.equals((await get(owner.urls.preview)).rawPayload)).toBe(true);
  });
});

describe('signed media URLs', () => {
  it('are the same URL within the hour, so browsers can cache them', async () => {
    const before = (await ownerView(paid, paidPhoto.id)).urls.original;
    expect((await ownerView(paid, paidPhoto.id)).urls.original).toBe(before);
  });

  it('work until they expire and not after', async () => {
    const url = (await ownerView(paid, paidPhoto.id)).urls.original!;
    const expires = Number(new URL(url).searchParams.get('e'));
    const now = t.clock.now().getTime();
    expect(expires * 1000 - now).toBeGreaterThanOrEqual(3600_000);
    expect(expires * 1000 - now).toBeLessThanOrEqual(7200_000);
    t.clock.set(expires * 1000 - 1000);
    expect((await get(url)).statusCode).toBe(200);
    t.clock.set(expires * 1000);
    const late = await get(url);
    expect(late.statusCode).toBe(403);
    expect(s3ErrorOf(late.body)).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
    // A new listing hands out a new, working URL.
    const fresh = (await ownerView(paid, paidPhoto.id)).urls.original!;
    expect(fresh).not.toBe(url);
    expect((await get(fresh)).statusCode).toBe(200);
  });

  // Guest originals: the private key of a free event (a paid event's private key gets none).
  it('answer 403 when tampered with', async () => {
    const url = new URL((await listWith(free, 'private'))[0]!.urls.original!);
    const signature = url.searchParams.get('s')!;
    const variants: URL[] = [];
    const tamper = (change: (u: URL) => void) => {
      const copy = new URL(url);
      change(copy);
      variants.push(copy);
    };
    tamper((u) =>
      u.searchParams.set('s', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`),
    );
    tamper((u) => u.searchParams.set('e', String(Number(u.searchParams.get('e')) + 3600)));
    // the guest audience cannot make itself an owner (which would open hidden photos)
    tamper((u) => u.searchParams.set('a', 'o'));
    tamper((u) => (u.pathname = u.pathname.replace('/original', '/preview')));
    tamper((u) => (u.pathname = u.pathname.replace(`/${freePhoto.id}/`, `/${paidPhoto.id}/`)));
    tamper((u) => u.searchParams.delete('s'));
    for (const bad of variants) {
      const response = await get(bad.toString());
      expect(response.statusCode, bad.toString()).toBe(403);
      expect(s3ErrorOf(response.body).code).toBe('AccessDenied');
    }
    expect((await get(url.toString())).statusCode).toBe(200);
  });

  it('stop working for guests when the photo is hidden (owners keep theirs), and work again when shown', async () => {
    const [guest] = await listWith(free, 'private');
    const owner = await ownerView(free, freePhoto.id);
    expect((await get(guest!.urls.original)).statusCode).toBe(200);
    expect((await get(guest!.urls.preview)).statusCode).toBe(200);

    await t.ok(endpoints.updatePhoto, { id: freePhoto.id, is_visible: 0 }, admin);
    for (const url of [guest!.urls.original, guest!.urls.preview]) await expectDenied(url);
    expect((await get(owner.urls.original)).statusCode).toBe(200);

    await t.ok(endpoints.updatePhoto, { id: freePhoto.id, is_visible: 1 }, admin);
    expect((await get(guest!.urls.original)).statusCode).toBe(200);
  });
});

describe('a new version made in the image editor', () => {
  it('is linked to the original by its protected full_path (only within the event)', async () => {
    const edited = await uploadPhoto(t, admin, paid.name, await makeJpeg({ seed: 75 }));
    expect(edited.full_path).toMatch(new RegExp(`^protected/events/${paid.name}/`));
    const original = await t.ok(
      endpoints.curationUpdate,
      { original_photo_id: paidPhoto.id, full_path: edited.full_path },
      admin,
    );
    expect(original.is_curated).toBe(1);
    const row = await t.app.container.repositories.photos.findById(paidPhoto.id);
    expect(row!.derivatives.curated).toBe(edited.full_path);
    const foreign = await t.call(
      endpoints.curationUpdate,
      { original_photo_id: paidPhoto.id, full_path: freePhoto.full_path },
      admin,
    );
    expect(foreign.statusCode).toBe(404);
    expect(
      (await t.app.container.repositories.photos.findById(paidPhoto.id))!.derivatives.curated,
    ).toBe(edited.full_path);
  });
});

describe('the storage migration (photos stored before ADR 0006)', () => {
  /** Puts a photo back into the old layout: original and preview next to the public files. */
  const makeLegacy = async (photo: Photo, options: { archived?: boolean } = {}) => {
    const { storage, repositories } = t.app.container;
    const row = (await repositories.photos.findById(photo.id))!;
    const oldOriginal = row.storageKey.replace(/^protected\//, options.archived ? 'archive/' : '');
    const oldPreview = row.derivatives.preview!.replace(/^protected\//, '');
    await storage.copy(row.storageKey, oldOriginal);
    await storage.copy(row.derivatives.preview!, oldPreview);
    await storage.delete(row.storageKey);
    await storage.delete(row.derivatives.preview!);
    await repositories.photos.update(row.id, {
      storageKey: oldOriginal,
      derivatives: { ...row.derivatives, preview: oldPreview },
    });
    return {
      oldOriginal,
      oldPreview,
      newOriginal: protectedTwin(oldOriginal)!,
      newPreview: protectedTwin(oldPreview)!,
    };
  };

  it('protects the old keys at once, moves them into protected space, and can run again', async () => {
    const upload = await uploadPhoto(t, robot, paid.name, await makeJpeg({ seed: 81 }));
    await waitForReady(t, admin.authorization, paid.id, upload.id);
    const bytes = await stored(
      (await t.app.container.repositories.photos.findById(upload.id))!.storageKey,
    );
    const keys = await makeLegacy(upload);
    expect(keys.oldOriginal).toBe(`events/${paid.name}/photos/uid_${upload.uid}_uid/original.jpg`);
    expect(keys.newOriginal).toBe(`protected/${keys.oldOriginal}`);
    const { storage, services, repositories } = t.app.container;

    // Before the migration ran: the old keys are already refused without a signature, and the
    // owner's signed URL reads the original where it is.
    expect((await get(storage.publicUrl(keys.oldOriginal))).statusCode).toBe(403);
    expect((await get(storage.publicUrl(keys.oldPreview))).statusCode).toBe(403);
    const before = (await ownerView(paid, upload.id)).urls.original;
    expect((await get(before)).rawPayload.equals(bytes)).toBe(true);

    expect(await services.storageMigration.sweep()).toBeGreaterThanOrEqual(1);
    await services.storageMigration.protectPhoto(upload.id);
    const row = (await repositories.photos.findById(upload.id))!;
    expect(row.storageKey).toBe(keys.newOriginal);
    expect(row.derivatives.preview).toBe(keys.newPreview);
    expect(await storage.head(keys.oldOriginal)).toBeNull();
    expect(await storage.head(keys.oldPreview)).toBeNull();
    expect((await stored(keys.newOriginal)).equals(bytes)).toBe(true);
    // The URL issued before the move still reads the same bytes (it names the photo, not a key).
    expect((await get(before)).rawPayload.equals(bytes)).toBe(true);

    // Again: nothing changes.
    await services.storageMigration.protectPhoto(upload.id);
    expect(await repositories.photos.findById(upload.id)).toEqual(row);
    expect(await repositories.photos.findById(upload.id)).toMatchObject({
      storageKey: keys.newOriginal,
    });
  });

  it('finishes a move a crash interrupted, at either point', async () => {
    const { storage, services, repositories } = t.app.container;
    const upload = await uploadPhoto(t, robot, paid.name, await makeJpeg({ seed: 82 }));
    await waitForReady(t, admin.authorization, paid.id, upload.id);
    const keys = await makeLegacy(upload);
    const bytes = await stored(keys.oldOriginal);

    // Crash after the copy, before the row switched: the row still names the old keys.
    await storage.copy(keys.oldOriginal, keys.newOriginal);
    await services.storageMigration.protectPhoto(upload.id);
    expect((await repositories.photos.findById(upload.id))!.storageKey).toBe(keys.newOriginal);
    expect(await storage.head(keys.oldOriginal)).toBeNull();

    // Crash after the switch, before the delete: the old object is still there.
    await storage.copy(keys.newOriginal, keys.oldOriginal);
    await services.storageMigration.protectPhoto(upload.id);
    expect(await storage.head(keys.oldOriginal)).toBeNull();
    expect((await stored(keys.newOriginal)).equals(bytes)).toBe(true);
  });

  it('moves an archived original into the protected archive', async () => {
    const { storage, services, repositories } = t.app.container;
    const upload = await uploadPhoto(t, robot, paid.name, await makeJpeg({ seed: 83 }));
    await waitForReady(t, admin.authorization, paid.id, upload.id);
    const keys = await makeLegacy(upload, { archived: true });
    expect(keys.oldOriginal).toBe(
      `archive/events/${paid.name}/photos/uid_${upload.uid}_uid/original.jpg`,
    );
    expect(keys.newOriginal).toBe(
      `archive/protected/events/${paid.name}/photos/uid_${upload.uid}_uid/original.jpg`,
    );
    await services.storageMigration.protectPhoto(upload.id);
    expect((await repositories.photos.findById(upload.id))!.storageKey).toBe(keys.newOriginal);
    expect(await storage.head(keys.oldOriginal)).toBeNull();
    expect(await storage.head(keys.newOriginal)).not.toBeNull();
    expect((await get(storage.publicUrl(keys.newOriginal))).statusCode).toBe(403);
  });
});
