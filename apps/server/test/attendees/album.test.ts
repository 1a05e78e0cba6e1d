import type { AddressInfo } from 'node:net';
import {
  attendeeKeyOf,
  endpoints,
  normaliseAttendeeId,
  photoStreamUrlAt,
  type Attendee,
  type FlashbulbEvent,
  type Photo,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import {
  VIP_MAX_FAILURES,
  VIP_WAIT_SECONDS,
} from '../../src/services/photos/photo-listing.service.ts';
import { makeJpeg, waitForReady } from '../helpers/photos.ts';
import { openSse, type SseClient } from '../helpers/sse.ts';
import { bytesOf, grantForm, multipartBody, pathOf, s3ErrorOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** What a (signed) URL serves; fails on anything but 200. */
const servedBytes = async (url: string | null): Promise<Buffer> => {
  const response = await t.app.inject({ method: 'GET', url: pathOf(url) });
  expect(response.statusCode).toBe(200);
  return response.rawPayload;
};
const storedBytes = async (key: string): Promise<Buffer> =>
  bytesOf((await t.app.container.storage.get(key))!.body);

let t: TestApp;
let world: EventWorld;
let admin: { authorization: string };
/** Paid event of organisation A: originals only for prepaid or unlocked attendees. */
let paid: FlashbulbEvent;
/** A second event of organisation A. */
let second: FlashbulbEvent;
/** Free event of organisation A. */
let free: FlashbulbEvent;
/** An event whose attendee ids must look like `BIB<digits>`. */
let bibs: FlashbulbEvent;
let eventB: FlashbulbEvent;
let seed = 100;
const clients: SseClient[] = [];
let base: string;

const ownerKey = (e: FlashbulbEvent) => ({
  key_type: 'event_owner' as const,
  key_value: e.owner_api_key,
});
/**
 * Album keys by normalised attendee id. An id a booth chose opens its album only with the private
 * id the upload gave it (`<id>~<private id>`, the key of its album links); keys are read back from
 * the attendees table after each upload that names one.
 */
const albumKeys = new Map<string, string>();
const readAlbumKeys = async () => {
  const { rows } = await t.database.executeSql(
    'select uid, private_id, custom_uid from attendees',
    [],
  );
  for (const row of rows as { uid: string; private_id: string | null; custom_uid: number }[])
    albumKeys.set(
      row.uid,
      attendeeKeyOf({ uid: row.uid, privateId: row.private_id, customUid: row.custom_uid }),
    );
};
const keyOf = (uid: string) => ({
  key_type: 'attendee' as const,
  key_value: albumKeys.get(normaliseAttendeeId(uid)) ?? uid,
});

/** Grant (with an attendee id) → storage POST → completion → derivatives ready. */
const upload = async (e: FlashbulbEvent, attendeeUid?: string): Promise<Photo> => {
  const grant = await t.ok(endpoints.photoUploadAccess, {
    ...ownerKey(e),
    event_name: e.name,
    file_name: 'photo.jpg',
    content_type: 'image/jpeg',
    ...(attendeeUid ? { attendee_uid: attendeeUid } : {}),
  });
  const bytes = await makeJpeg({ seed: (seed += 1), width: 64, height: 48 });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: 'photo.jpg', contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const photo = await t.ok(endpoints.photoUploadComplete, { ...ownerKey(e), key: grant.key });
  if (attendeeUid) await readAlbumKeys();
  return waitForReady(t, admin.authorization, e.id, photo.id);
};

const album = async (uid: string, extra: Record<string, unknown> = {}) =>
  t.ok(endpoints.publicPhotoList, {
    ...keyOf(uid),
    max_size: 100,
    page_number: 1,
    show_total_count: 1,
    ...extra,
  });
const uidsOf = (list: { photos: { uid: string }[] }) => list.photos.map((p) => p.uid);
const generate = async (e: FlashbulbEvent, extra: Record<string, unknown> = {}) => {
  const result = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0, ...extra },
    admin,
  );
  return result.attendees[0]!;
};

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    opts: { description: 'Gala', guestAccentColor: '#c2410c' },
  });
  second = await createEvent(t, world.adminA, { full_name: 'Second Gala', is_free: 0 });
  free = await createEvent(t, world.adminA, { full_name: 'Free Fair', is_free: 1 });
  bibs = await createEvent(t, world.adminA, {
    full_name: 'City Run',
    is_free: 0,
    opts: { description: 'Run', attendeeIdRegex: '^BIB[0-9]+$' },
  });
  eventB = await createEvent(t, world.adminB, { full_name: 'Beta Fair', is_free: 0 });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const client of clients) client.close();
  await t.close();
});

describe('photos uploaded with an attendee id', () => {
  let mine: Photo;
  let plain: Photo;
  let other: Photo;
  let hidden: Photo;

  beforeAll(async () => {
    mine = await upload(paid, 'vip-0001');
    plain = await upload(paid);
    other = await upload(paid, 'other-7');
    hidden = await upload(paid, 'VIP0001');
    await t.ok(endpoints.updatePhoto, { id: hidden.id, is_visible: 0 }, admin);
  });

  it('stores the normalised id, creates the attendee and links the event', async () => {
    expect(mine.attendee_uid).toBe('VIP0001');
    expect(plain.attendee_uid).toBeNull();
    const attendee = await t.ok(endpoints.retrieveAttendee, keyOf('vip-0001'));
    expect(attendee.uid).toBe('VIP0001');
    expect(attendee.organisation_id).toBe(world.orgA.id);
    expect(attendee.events.map((e) => e.name)).toEqual([paid.name]);
    // The album page takes the event's brand colour from here (it reads no event settings).
    expect(attendee.events[0]?.accent_color).toBe('#c2410c');
    const owners = await t.ok(
      endpoints.attendeeList,
      { event_id: paid.id, max_size: 100, page_number: 1, attendee_uid: 'VIP' },
      admin,
    );
    expect(owners.attendees.map((a) => a.uid)).toEqual(['VIP0001']);
    // A booth-chosen id gets a private id: its album opens only with both.
    expect(owners.attendees[0]!.private_id).toMatch(/^[A-Z0-9]{8}$/);
    expect(owners.attendees[0]!.photo_count).toBe(2);
  });

  it('lists only the attendee’s published photos, never a hidden one or another attendee’s', async () => {
    const list = await album('VIP0001');
    expect(uidsOf(list)).toEqual([mine.uid]);
    expect(list.total_count).toBe(1);
    // The attendee_uid filter cannot widen an attendee key's album.
    expect(uidsOf(await album('VIP0001', { attendee_uid: 'OTHER7' }))).toEqual([mine.uid]);
    expect(uidsOf(await album('OTHER7'))).toEqual([other.uid]);
    // The paid event and no prepaid attendee: the watermarked preview (ADR 0006), no original.
    expect(list.photos[0]!.urls.original).toBeNull();
    expect(list.photos[0]!.urls.preview).toMatch(
      /\/storage\/events\/[^?]+\/protector-watermark-[0-9a-f]{12}\.jpg$/,
    );
    expect((await t.ok(endpoints.retrieveAttendee, keyOf('VIP0001'))).photo_count).toBe(1);
  });

  it('keeps favourites with the album: its own photos only, for its own key only', async () => {
    const favourites = async (uid: string) =>
      (await t.ok(endpoints.attendeeFavourites, keyOf(uid))).photo_ids;
    expect(await favourites('VIP0001')).toEqual([]);
    const marked = await t.ok(endpoints.setAttendeeFavourite, {
      ...keyOf('VIP0001'),
      photo_id_array: [mine.id],
      favourite: 1,
    });
    expect(marked.photo_ids).toEqual([mine.id]);
    // Read back by the same key (another device): kept on the server. Another album has none.
    expect(await favourites('VIP0001')).toEqual([mine.id]);
    expect(await favourites('OTHER7')).toEqual([]);
    // The album lists the favourites alone ("My favourites"), never beyond what the key lists.
    expect(uidsOf(await album('VIP0001', { photo_id_array: [mine.id, other.id] }))).toEqual([
      mine.uid,
    ]);
    // Another attendee's photo, a photo of no album, a hidden one: not_found, nothing changes.
    for (const photo of [other, plain, hidden]) {
      expect(
        errorOf(
          await t.call(endpoints.setAttendeeFavourite, {
            ...keyOf('VIP0001'),
            photo_id_array: [mine.id, photo.id],
            favourite: 0,
          }),
        ),
      ).toMatchObject({ status: 404, message_key: 'not_found', field: 'photo_id_array' });
    }
    expect(await favourites('VIP0001')).toEqual([mine.id]);
    // Other keys of the event have no album to keep them in.
    expect(
      errorOf(
        await t.call(endpoints.setAttendeeFavourite, {
          ...ownerKey(paid),
          photo_id_array: [mine.id],
          favourite: 1,
        }),
      ),
    ).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const unmarked = await t.ok(endpoints.setAttendeeFavourite, {
      ...keyOf('VIP0001'),
      photo_id_array: [mine.id],
      favourite: 0,
    });
    expect(unmarked.photo_ids).toEqual([]);
  });

  it('cannot be moved to another attendee by changing the key after the grant', async () => {
    const grant = await t.ok(endpoints.photoUploadAccess, {
      ...ownerKey(paid),
      event_name: paid.name,
      file_name: 'photo.jpg',
      content_type: 'image/jpeg',
      attendee_uid: 'VIP0001',
    });
    expect(grant.key).toContain('/att_VIP0001/');
    const form = multipartBody(
      grantForm(
        { ...grant.fields, key: grant.key.replace('att_VIP0001', 'att_OTHER7') },
        await makeJpeg({ seed: 999, width: 64, height: 48 }),
        { filename: 'photo.jpg', contentType: 'image/jpeg' },
      ),
    );
    const stored = await t.app.inject({
      method: 'POST',
      url: new URL(grant.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    // The grant's policy pins the key: storage refuses the other attendee's folder, stores nothing.
    expect(stored.statusCode).toBe(403);
    const refusal = s3ErrorOf(stored.body);
    expect(refusal.code).toBe('AccessDenied');
    expect(refusal.message).toContain('Policy Condition failed: ["eq", "$key"');
    expect(
      await t.app.container.storage.head(grant.key.replace('att_VIP0001', 'att_OTHER7')),
    ).toBeNull();
    const done = await t.call(endpoints.photoUploadComplete, {
      ...ownerKey(paid),
      key: grant.key.replace('att_VIP0001', 'att_OTHER7'),
    });
    expect(errorOf(done).message_key).toBe('not_found');
    const bad = await t.call(endpoints.photoUploadAccess, {
      ...ownerKey(paid),
      event_name: paid.name,
      file_name: 'photo.jpg',
      content_type: 'image/jpeg',
      attendee_uid: 'a/b',
    });
    expect(errorOf(bad).message_key).toBe('invalid_attendee_id');
  });

  it('spans the attendee’s events, newest first, with page numbers and before_id', async () => {
    const later = await upload(second, 'VIP0001');
    const attendee = await t.ok(endpoints.retrieveAttendee, keyOf('VIP0001'));
    expect(attendee.events.map((e) => e.name).sort()).toEqual([paid.name, second.name].sort());
    const list = await album('VIP0001');
    expect(uidsOf(list)).toEqual([later.uid, mine.uid]);
    expect(list.total_count).toBe(2);
    const page2 = await album('VIP0001', { max_size: 1, page_number: 2 });
    expect(uidsOf(page2)).toEqual([mine.uid]);
    expect(page2.total_count).toBe(2);
    const after = await album('VIP0001', { max_size: 10, before_id: later.id });
    expect(uidsOf(after)).toEqual([mine.uid]);
  });

  it('gives originals to prepaid attendees and in free events only', async () => {
    const prepaid = await generate(paid, { is_prepaid: 1 });
    const unpaid = await generate(paid);
    for (const a of [prepaid, unpaid]) {
      await t.ok(
        endpoints.ownerAttachPhotos,
        { event_id: paid.id, attendee_uid: a.uid, photo_uid_array: [plain.uid] },
        admin,
      );
    }
    const prepaidList = await album(prepaid.uid);
    expect(uidsOf(prepaidList)).toEqual([plain.uid]);
    expect(await servedBytes(prepaidList.photos[0]!.urls.original)).toEqual(
      await storedBytes(plain.full_path),
    );
    // A prepaid attendee may download: the unwatermarked preview, signed.
    expect(prepaidList.photos[0]!.urls.preview).toMatch(/\/media\/photos\/\d+\/preview\?/);
    const unpaidList = await album(unpaid.uid);
    expect(uidsOf(unpaidList)).toEqual([plain.uid]);
    expect(unpaidList.photos[0]!.urls.original).toBeNull();
    expect((await t.ok(endpoints.retrieveAttendee, keyOf(prepaid.uid))).unlocked).toBe(1);
    expect((await t.ok(endpoints.retrieveAttendee, keyOf(unpaid.uid))).unlocked).toBe(0);

    const freePhoto = await upload(free, 'FREE01');
    const freeList = await album('FREE01');
    expect(uidsOf(freeList)).toEqual([freePhoto.uid]);
    expect(await servedBytes(freeList.photos[0]!.urls.original)).toEqual(
      await storedBytes(freePhoto.full_path),
    );
  });

  it('shares only the attendee’s own photos with an attendee key', async () => {
    const ok = await t.ok(endpoints.generateShareLink, {
      ...keyOf('VIP0001'),
      photo_uid: mine.uid,
    });
    expect(ok.photo_uid).toBe(mine.uid);
    for (const uid of [other.uid, hidden.uid, plain.uid]) {
      const refused = await t.call(endpoints.generateShareLink, {
        ...keyOf('VIP0001'),
        photo_uid: uid,
      });
      expect(errorOf(refused).message_key).toBe('not_found');
      const tracked = await t.call(endpoints.trackShare, {
        ...keyOf('VIP0001'),
        photo_uid: uid,
        network: 'facebook',
      });
      expect(errorOf(tracked).message_key).toBe('not_found');
    }
  });
});

describe('attendee id rules of the event', () => {
  it('creates attendees only for ids the event’s pattern accepts; the id stays on the photo', async () => {
    const refused = await upload(bibs, 'xyz9');
    expect(refused.attendee_uid).toBe('XYZ9');
    const unknown = await t.call(endpoints.retrieveAttendee, keyOf('XYZ9'));
    expect(errorOf(unknown).message_key).toBe('invalid_attendee_id');
    const accepted = await upload(bibs, 'bib-42');
    expect(uidsOf(await album('BIB42'))).toEqual([accepted.uid]);
  });

  it('never links an attendee of another organisation', async () => {
    const foreign = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [eventB.id], is_prepaid: 0 },
      { authorization: world.adminB.authorization },
    );
    const b = foreign.attendees[0]!;
    const photo = await upload(paid, b.uid);
    expect(photo.attendee_uid).toBe(b.uid);
    expect(uidsOf(await album(b.uid))).not.toContain(photo.uid);
    expect(
      (await t.ok(endpoints.retrieveAttendee, keyOf(b.uid))).events.map((e) => e.name),
    ).toEqual([eventB.name]);
  });

  it('gives VIP attendees their own photo delay', async () => {
    const vip = await createEvent(t, world.adminA, {
      full_name: 'VIP Night',
      opts: {
        description: 'VIP',
        attendeeIdRegex: '.*',
        attendeeIdVipRegex: '^VIP',
        photoDelayMinutes: 30,
        photoDelayVipMinutes: 0,
      },
    });
    const vipPhoto = await upload(vip, 'vip-9');
    const guestPhoto = await upload(vip, 'guest-9');
    const delay = (p: Photo) =>
      (Date.parse(p.available_date) - Date.parse(p.created_date)) / 60_000;
    expect(delay(vipPhoto)).toBe(0);
    expect(delay(guestPhoto)).toBe(30);
  });

  it('shows photos inside their delay to a kiosk with the VIP token, after the VIP delay only', async () => {
    const eventWith = (name: string, vipMinutes: number | null, vipToken = 'Gold-42') =>
      createEvent(t, world.adminA, {
        full_name: name,
        opts: {
          description: 'VIP',
          vipToken,
          photoDelayMinutes: 30,
          photoDelayVipMinutes: vipMinutes,
        },
      });
    const list = (e: FlashbulbEvent, token?: string) =>
      t.call(endpoints.publicPhotoList, {
        key_type: 'private',
        key_value: e.private_api_key,
        max_size: 100,
        show_total_count: 1,
        ...(token === undefined ? {} : { vip_token: token }),
      });
    const photosOf = (response: { body: unknown }) =>
      (response.body as { result: { photos: Photo[] } }).result.photos;
    const night = await eventWith('VIP token night', 0);
    const waiting = await upload(night);
    const hiddenOne = await upload(night);
    await t.ok(endpoints.updatePhoto, { id: hiddenOne.id, is_visible: 0 }, admin);
    // Without the token the 30-minute delay holds; a wrong token is refused, not ignored.
    const plain = await list(night);
    expect(plain.statusCode).toBe(200);
    expect(photosOf(plain)).toEqual([]);
    for (const wrong of ['gold-42', 'Gold-4', ' '])
      expect(errorOf(await list(night, wrong)).message_key).toBe('vip_token_invalid');
    // The right token: the waiting photo, never the hidden one, counted the same way.
    const vip = await list(night, ' Gold-42 ');
    expect(photosOf(vip).map((p) => p.uid)).toEqual([waiting.uid]);
    expect((vip.body as { result: { total_count: number } }).result.total_count).toBe(1);
    // A VIP delay of 20 minutes: a photo uploaded now is not shown yet, even with the token.
    const slow = await eventWith('VIP token slow', 20);
    await upload(slow);
    expect(photosOf(await list(slow, 'Gold-42'))).toEqual([]);
    // An event without a VIP token accepts none.
    const none = await eventWith('No VIP token', 0, '');
    await upload(none);
    expect(errorOf(await list(none, 'Gold-42')).message_key).toBe('vip_token_invalid');
  });
});

describe('kiosk and owner attachments', () => {
  let p1: Photo;
  let p2: Photo;
  let hidden: Photo;
  let elsewhere: Photo;
  let guest: Attendee;

  beforeAll(async () => {
    p1 = await upload(paid);
    p2 = await upload(paid);
    hidden = await upload(paid);
    await t.ok(endpoints.updatePhoto, { id: hidden.id, is_visible: 0 }, admin);
    elsewhere = await upload(second);
    guest = await generate(second);
  });

  it('attaches published photos with the kiosk’s key (private key + display token) and links the event', async () => {
    const result = await t.ok(endpoints.attachPhotosByKey, {
      key_type: 'private',
      key_value: paid.private_api_key,
      display: paid.display_token,
      attendee_uid: guest.display_uid.toLowerCase(),
      photo_uid_array: [p1.uid],
    });
    expect(result).toEqual({ attendee_uid: guest.uid, attached_count: 1 });
    expect(uidsOf(await album(guest.uid))).toEqual([p1.uid]);
    const attendee = await t.ok(endpoints.retrieveAttendee, keyOf(guest.uid));
    expect(attendee.events.map((e) => e.name).sort()).toEqual([paid.name, second.name].sort());
    const byPhotos = await t.ok(endpoints.attendeesByPhotos, { photo_uids: [p1.uid] }, admin);
    expect(byPhotos).toEqual([{ photo_uid: p1.uid, attendee_uids: [guest.uid] }]);
    // The console album filtered by the attendee (`#ai=`) finds attached photos too.
    const filtered = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: paid.id, attendee_uid: guest.display_uid.toLowerCase(), max_size: 100 },
      admin,
    );
    expect(filtered.photos.map((p) => p.uid)).toEqual([p1.uid]);
  });

  it('refuses the public key, another event’s photo, a hidden photo and foreign attendees', async () => {
    const publicKey = await t.call(endpoints.attachPhotosByKey, {
      key_type: 'public',
      key_value: paid.public_api_key,
      attendee_uid: guest.uid,
      photo_uid_array: [p2.uid],
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    for (const uid of [elsewhere.uid, hidden.uid]) {
      const refused = await t.call(endpoints.attachPhotosByKey, {
        key_type: 'private',
        key_value: paid.private_api_key,
        display: paid.display_token,
        attendee_uid: guest.uid,
        photo_uid_array: [p2.uid, uid],
      });
      expect(errorOf(refused).message_key).toBe('not_found');
    }
    const foreign = await t.call(endpoints.attachPhotosByKey, {
      key_type: 'private',
      key_value: eventB.private_api_key,
      display: eventB.display_token,
      attendee_uid: guest.uid,
      photo_uid_array: [p2.uid],
    });
    expect(errorOf(foreign).message_key).toBe('invalid_attendee_id');
    expect(uidsOf(await album(guest.uid))).toEqual([p1.uid]);
    const otherOrg = await t.call(
      endpoints.ownerAttachPhotos,
      { event_id: paid.id, attendee_uid: guest.uid, photo_uid_array: [p2.uid] },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(otherOrg).message_key).toBe('event_not_found');
    expect(uidsOf(await album(guest.uid))).toEqual([p1.uid]);
  });

  it('attaches by a scanned card link with the event-owner key', async () => {
    const result = await t.ok(endpoints.attachPhotosByQrScan, {
      ...ownerKey(paid),
      qr_text: `https://x.example/?attId=${guest.display_uid}`,
      photo_uid_array: [p2.uid],
    });
    expect(result).toMatchObject({
      attendee_uid: guest.uid,
      display_uid: guest.display_uid,
      attached_count: 1,
    });
    expect(result.album_url).toContain(`attId=${guest.display_uid}`);
    expect(uidsOf(await album(guest.uid))).toEqual([p2.uid, p1.uid]);
    const junk = await t.call(endpoints.attachPhotosByQrScan, {
      ...ownerKey(paid),
      qr_text: 'https://x.example/?attId=',
      photo_uid_array: [p2.uid],
    });
    expect(errorOf(junk).message_key).toBe('invalid_attendee_id');
  });

  it('refuses a locked attendee at the kiosk with attendee_locked', async () => {
    const locked = await generate(paid);
    await t.ok(
      endpoints.lockAttendee,
      { event_id: paid.id, attendee_uid: locked.uid, is_locked: 1 },
      admin,
    );
    const refused = await t.call(endpoints.attachPhotosByKey, {
      key_type: 'private',
      key_value: paid.private_api_key,
      display: paid.display_token,
      attendee_uid: locked.uid,
      photo_uid_array: [p1.uid],
    });
    expect(errorOf(refused).message_key).toBe('attendee_locked');
  });

  it('unlinks attachments of one event; photos uploaded with the id stay', async () => {
    const unlinked = await t.ok(
      endpoints.unlinkPhotos,
      { event_id_array: [paid.id], attendee_uid: guest.uid, photo_uid_array: [p2.uid] },
      admin,
    );
    expect(unlinked).toEqual({ attendee_uid: guest.uid, unlinked_count: 1 });
    expect(uidsOf(await album(guest.uid))).toEqual([p1.uid]);
    const own = await upload(paid, guest.uid);
    const kept = await t.ok(
      endpoints.unlinkPhotos,
      { event_id_array: [paid.id], attendee_uid: guest.uid, photo_uid_array: [own.uid] },
      admin,
    );
    expect(kept.unlinked_count).toBe(0);
    expect(uidsOf(await album(guest.uid))).toEqual([own.uid, p1.uid]);
  });
});

describe('the attendee’s live stream', () => {
  const isPhoto = (uid: string) => (m: { event: string; data: string }) =>
    m.event === 'photo' && (JSON.parse(m.data) as Photo).uid === uid;

  it('pushes the attendee’s new photo and not another attendee’s', async () => {
    await upload(paid, 'STREAM1');
    const client = await openSse(photoStreamUrlAt(base, keyOf('STREAM1')));
    clients.push(client);
    expect(client.status).toBe(200);
    await expect.poll(() => client.raw()).toContain('retry: ');
    const others = await upload(paid, 'STREAM2');
    const mine = await upload(paid, 'stream-1');
    await client.waitFor(isPhoto(mine.uid), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(client.messages.some(isPhoto(others.uid))).toBe(false);

    // Attaching an older photo pushes it to the attendee's stream, not again to the event's.
    const publicStream = await openSse(
      photoStreamUrlAt(base, { key_type: 'private', key_value: paid.private_api_key }),
    );
    clients.push(publicStream);
    await expect.poll(() => publicStream.raw()).toContain('retry: ');
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: paid.id, attendee_uid: 'STREAM1', photo_uid_array: [others.uid] },
      admin,
    );
    await client.waitFor(isPhoto(others.uid), 5_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(publicStream.messages.some(isPhoto(others.uid))).toBe(false);
  });
  it('slows VIP token guessing: wrong tokens count per key and per address, then every try waits', async () => {
    const night = await createEvent(t, world.adminA, {
      full_name: 'VIP guessing',
      opts: {
        description: 'VIP',
        vipToken: 'Gold-42',
        photoDelayMinutes: 30,
        photoDelayVipMinutes: 0,
      },
    });
    const other = await createEvent(t, world.adminA, {
      full_name: 'VIP guessing too',
      opts: {
        description: 'VIP',
        vipToken: 'Gold-42',
        photoDelayMinutes: 30,
        photoDelayVipMinutes: 0,
      },
    });
    const waiting = await upload(night);
    const from = async (address: string, e: FlashbulbEvent, token?: string) => {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/v1${endpoints.publicPhotoList.path}`,
        payload: {
          key_type: 'private',
          key_value: e.private_api_key,
          max_size: 100,
          ...(token === undefined ? {} : { vip_token: token }),
        },
        remoteAddress: address,
      });
      return { statusCode: response.statusCode, body: response.json<unknown>() };
    };
    const uidsOf = (response: { body: unknown }) =>
      (response.body as { result: { photos: Photo[] } }).result.photos.map((p) => p.uid);
    for (let i = 0; i < VIP_MAX_FAILURES; i += 1)
      expect(errorOf(await from('10.9.0.1', night, `guess-${i}`)).message_key).toBe(
        'vip_token_invalid',
      );
    // Now even the right token waits, from this address and from any other (the key's count).
    expect(errorOf(await from('10.9.0.1', night, 'Gold-42'))).toMatchObject({
      status: 429,
      message_key: 'too_many_attempts',
    });
    expect(errorOf(await from('10.9.0.2', night, 'Gold-42')).message_key).toBe('too_many_attempts');
    // The same address guessing at another key waits too (the address's count).
    expect(errorOf(await from('10.9.0.1', other, 'Gold-42')).message_key).toBe('too_many_attempts');
    // Another key from another address is not held up; the album without a token neither.
    expect((await from('10.9.0.3', other, 'Gold-42')).statusCode).toBe(200);
    expect(uidsOf(await from('10.9.0.1', night))).toEqual([]);
    // After the wait the right token works again, and one right token ends the run.
    t.clock.advance(VIP_WAIT_SECONDS * 1000 + 1000);
    expect(uidsOf(await from('10.9.0.1', night, 'Gold-42'))).toEqual([waiting.uid]);
    expect(errorOf(await from('10.9.0.1', night, 'wrong')).message_key).toBe('vip_token_invalid');
    expect(uidsOf(await from('10.9.0.1', night, 'Gold-42'))).toEqual([waiting.uid]);
  });
});
