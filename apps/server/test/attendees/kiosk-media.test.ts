import { randomUUID } from 'node:crypto';
import { endpoints, imageFieldError, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { fakeMp4, insertReadyPhoto, makeJpeg, waitForReady } from '../helpers/photos.ts';
import { grantForm, multipartBody, pathOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Kiosk media calls (albums §5, §7.1, §7.2, §9): profile photos, custom photos from
 * the kiosk camera under kioskMedia/, and the owner's pass-code list. Real storage (local disk
 * speaking S3's presigned POST), real image decoding, PGlite or PostgreSQL.
 */

let t: TestApp;
let admin: { authorization: string };
let adminB: { authorization: string };
let gala: FlashbulbEvent;
let other: FlashbulbEvent;
/** An event whose guests may delete photos at its kiosks. */
let booth: FlashbulbEvent;

const kioskOf = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  // The organiser's kiosk: the private key with the event's display token.
  display: e.display_token,
});
const newAttendee = async (e: FlashbulbEvent = gala, auth = admin) =>
  (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
      auth,
    )
  ).attendees[0]!.uid;

/** Sends bytes to a grant the way a browser does; answers the storage's status. */
const post = async (
  grant: { url: string; fields: Record<string, string> },
  bytes: Buffer,
  fileName: string,
  contentType: string,
): Promise<number> => {
  const form = multipartBody(grantForm(grant.fields, bytes, { filename: fileName, contentType }));
  const response = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  return response.statusCode;
};

const stored = (key: string) => t.app.container.storage.head(key);

beforeAll(async () => {
  t = await createTestApp({});
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminB = await apiKeyAuth(t, world.adminB);
  gala = await createEvent(t, world.adminA, { full_name: 'Kiosk Media Gala' });
  other = await createEvent(t, world.adminB, { full_name: 'Other Org' });
  booth = await createEvent(t, world.adminA, {
    full_name: 'Delete Booth',
    opts: { description: 'Booth', allowKioskPhotoDelete: 1 },
  });
});
afterAll(async () => {
  await t.close();
});

describe('attendee profile photos', () => {
  const upload = async (uid: string, fileName: string, bytes: Buffer, type: string) => {
    const grant = await t.ok(endpoints.profilePhotoUploadAccess, {
      ...kioskOf(gala),
      attendee_uid: uid,
      file_name: fileName,
    });
    expect(await post(grant, bytes, fileName, type)).toBe(201);
    return grant.key;
  };
  const list = async (uid: string) =>
    (await t.ok(endpoints.listProfilePhotos, { ...kioskOf(gala), attendee_uid: uid }))
      .profile_photos;

  it('creates, lists (signed URL) and deletes a jpg or png at most 1500 px wide', async () => {
    const uid = await newAttendee();
    const key = await upload(
      uid,
      'me.jpg',
      await makeJpeg({ width: 1500, height: 900 }),
      'image/jpeg',
    );
    const created = await t.ok(endpoints.createProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      key,
    });
    expect(created).toMatchObject({ file_name: 'me.jpg', width: 1500, height: 900 });
    // Registered: out of the upload area; asking again answers the same photo.
    expect(await stored(key)).toBeNull();
    const again = await t.ok(endpoints.createProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      key,
    });
    expect(again.id).toBe(created.id);
    const photos = await list(uid);
    expect(photos.map((p) => p.id)).toEqual([created.id]);
    // A protected object: the signed URL opens it, the bare storage path does not.
    const signed = await t.app.inject({ method: 'GET', url: pathOf(photos[0]!.url) });
    expect(signed.statusCode).toBe(200);
    const bare = pathOf(photos[0]!.url).split('?')[0]!;
    expect((await t.app.inject({ method: 'GET', url: bare })).statusCode).toBe(403);

    const png = await upload(
      uid,
      'me.png',
      await (
        await import('sharp')
      )
        .default({ create: { width: 40, height: 30, channels: 3, background: '#336699' } })
        .png()
        .toBuffer(),
      'image/png',
    );
    await t.ok(endpoints.createProfilePhoto, { ...kioskOf(gala), attendee_uid: uid, key: png });
    expect(await list(uid)).toHaveLength(2);

    await t.ok(endpoints.deleteProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      id: created.id,
    });
    expect((await list(uid)).map((p) => p.file_name)).toEqual(['me.png']);
    const twice = await t.call(endpoints.deleteProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      id: created.id,
    });
    expect(errorOf(twice)).toMatchObject({ status: 404, message_key: 'not_found' });
  });

  it('refuses other file kinds with the spec’s message, and wider or fake images, keeping nothing', async () => {
    const uid = await newAttendee();
    const gif = await t.call(endpoints.profilePhotoUploadAccess, {
      ...kioskOf(gala),
      attendee_uid: uid,
      file_name: 'me.gif',
    });
    expect(errorOf(gif)).toMatchObject({
      status: 400,
      message_key: 'image_field_not_allowed',
      field: 'file_name',
    });
    // What the kiosk shows for that refusal (albums §5).
    expect(imageFieldError('me.gif')).toBe(
      'Not Allowed gif files. Only jpg, jpeg, png files are allowed.',
    );

    const wide = await upload(
      uid,
      'wide.jpg',
      await makeJpeg({ width: 1501, height: 400 }),
      'image/jpeg',
    );
    const tooWide = await t.call(endpoints.createProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      key: wide,
    });
    expect(errorOf(tooWide)).toMatchObject({ status: 400, message_key: 'profile_photo_too_wide' });
    expect(await stored(wide)).toBeNull();

    const fake = await upload(uid, 'fake.jpg', Buffer.from('not an image at all'), 'image/jpeg');
    const notImage = await t.call(endpoints.createProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: uid,
      key: fake,
    });
    expect(errorOf(notImage)).toMatchObject({
      status: 400,
      message_key: 'unsupported_picture_format',
    });
    expect(await list(uid)).toEqual([]);
  });

  it('needs the kiosk’s key and the attendee the upload was granted for', async () => {
    const uid = await newAttendee();
    const someoneElse = await newAttendee();
    const key = await upload(
      uid,
      'me.jpg',
      await makeJpeg({ width: 100, height: 100 }),
      'image/jpeg',
    );
    // Another card cannot take this upload as theirs.
    const stolen = await t.call(endpoints.createProfilePhoto, {
      ...kioskOf(gala),
      attendee_uid: someoneElse,
      key,
    });
    expect(errorOf(stolen)).toMatchObject({ status: 404, message_key: 'not_found' });
    // The public key, the attendee's own id as a key and another organisation's kiosk.
    const publicKey = await t.call(endpoints.createProfilePhoto, {
      key_type: 'public',
      key_value: gala.public_api_key,
      attendee_uid: uid,
      key,
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const otherKiosk = await t.call(endpoints.listProfilePhotos, {
      ...kioskOf(other),
      attendee_uid: uid,
    });
    expect(errorOf(otherKiosk)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
    const noKey = await t.call(endpoints.listProfilePhotos, { attendee_uid: uid });
    expect(errorOf(noKey).status).toBe(401);
    expect(await stored(key)).not.toBeNull();
    expect(await list(uid)).toEqual([]);
    expect(await list(someoneElse)).toEqual([]);
  });
});

describe('custom photos from the kiosk camera (kioskMedia/)', () => {
  const photoUids = async () =>
    (
      await t.ok(
        endpoints.ownerPhotoList,
        { event_id: gala.id, max_size: 1000, page_number: 1 },
        admin,
      )
    ).photos.map((p) => p.uid);

  it('grants jpg ≤ 1.5 MB and mp4 ≤ 4 MB under kioskMedia/, named randomly unless keepOriginName', async () => {
    const jpg = await t.ok(endpoints.createCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'My Shot.JPEG',
      keep_origin_name: 1,
    });
    expect(jpg.key).toMatch(new RegExp(`^kioskMedia/${gala.name}/[0-9a-f-]{36}/My_Shot\\.JPEG$`));
    expect(jpg.max_bytes).toBe(1.5 * 1024 * 1024);
    const random = await t.ok(endpoints.createCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'My Shot.jpg',
    });
    expect(random.key.split('/').pop()).toMatch(/^[0-9a-z]{24}\.jpg$/);
    const mp4 = await t.ok(endpoints.createCustomPhoto, { ...kioskOf(gala), file_name: 'c.mp4' });
    expect(mp4.max_bytes).toBe(4 * 1024 * 1024);

    for (const name of ['c.png', 'c.gif', 'c.mov']) {
      const refused = await t.call(endpoints.createCustomPhoto, {
        ...kioskOf(gala),
        file_name: name,
      });
      expect(errorOf(refused)).toMatchObject({
        status: 400,
        message_key: 'unsupported_picture_format',
      });
    }
    // The storage refuses bytes over the grant's limit.
    const big = Buffer.concat([await makeJpeg(), Buffer.alloc(1.5 * 1024 * 1024)]);
    expect(await post(random, big, 'x.jpg', 'image/jpeg')).toBe(400);
    expect(await stored(random.key)).toBeNull();
    const bigMp4 = Buffer.concat([fakeMp4(), Buffer.alloc(4 * 1024 * 1024)]);
    expect(await post(mp4, bigMp4, 'c.mp4', 'video/mp4')).toBe(400);
  });

  it('an attendee’s custom photo lands in the event and their album; oversize bytes are refused and removed', async () => {
    const uid = await newAttendee();
    const grant = await t.ok(endpoints.createAttendeeCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'booth.jpg',
      attendee_uid: uid,
    });
    expect(grant.key).toContain(`/att_${uid}/`);
    expect(await post(grant, await makeJpeg({ seed: 7 }), 'booth.jpg', 'image/jpeg')).toBe(201);
    const done = await t.ok(endpoints.completeCustomPhoto, { ...kioskOf(gala), key: grant.key });
    expect(done.attendee_uid).toBe(uid);
    expect(await photoUids()).toContain(done.photo_uid);
    expect(await stored(grant.key)).toBeNull();
    const row = (
      await t.ok(
        endpoints.ownerPhotoList,
        { event_id: gala.id, max_size: 1000, page_number: 1 },
        admin,
      )
    ).photos.find((p) => p.uid === done.photo_uid)!;
    await waitForReady(t, admin.authorization, gala.id, row.id);
    const album = await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    });
    expect(album.photos.map((p) => p.uid)).toEqual([done.photo_uid]);
    const again = await t.ok(endpoints.completeCustomPhoto, { ...kioskOf(gala), key: grant.key });
    expect(again.photo_uid).toBe(done.photo_uid);

    // Bytes stored past the policy (another writer) are still measured: 1.5 MB is the limit.
    const before = await photoUids();
    const sneaky = `kioskMedia/${gala.name}/${randomUUID()}/big.jpg`;
    await t.app.container.storage.put(
      sneaky,
      Buffer.concat([await makeJpeg({ seed: 8 }), Buffer.alloc(1.5 * 1024 * 1024)]),
      'image/jpeg',
    );
    const refused = await t.call(endpoints.completeCustomPhoto, { ...kioskOf(gala), key: sneaky });
    expect(errorOf(refused)).toMatchObject({ status: 413, message_key: 'unsupported_media_size' });
    expect(await stored(sneaky)).toBeNull();
    expect(await photoUids()).toEqual(before);
  });

  it('a custom photo retried under one client request id (a kiosk reload) makes one photo', async () => {
    const uid = await newAttendee();
    const body = {
      ...kioskOf(gala),
      file_name: 'kiosk-a.jpg',
      attendee_uid: uid,
      client_request_id: 'camera-0001-aaaa',
    };
    const first = await t.ok(endpoints.createAttendeeCustomPhoto, body);
    expect(await post(first, await makeJpeg({ seed: 21 }), 'kiosk-a.jpg', 'image/jpeg')).toBe(201);
    // The kiosk reloads before it hears back: the same id (another file name) gets the same key.
    const again = await t.ok(endpoints.createAttendeeCustomPhoto, {
      ...body,
      file_name: 'kiosk-b.jpg',
    });
    expect(again.key).toBe(first.key);
    const before = await photoUids();
    const done = await t.ok(endpoints.completeCustomPhoto, { ...kioskOf(gala), key: again.key });
    // It reloads once more after the completion and sends the picture anew (encoded again).
    const third = await t.ok(endpoints.createAttendeeCustomPhoto, body);
    expect(third.key).toBe(first.key);
    expect(await post(third, await makeJpeg({ seed: 22 }), 'kiosk-a.jpg', 'image/jpeg')).toBe(201);
    const redone = await t.ok(endpoints.completeCustomPhoto, { ...kioskOf(gala), key: third.key });
    expect(redone.photo_uid).toBe(done.photo_uid);
    expect((await photoUids()).sort()).toEqual([...before, done.photo_uid].sort());
    expect(await stored(first.key)).toBeNull();
    // Another id, another attendee (none) or no id: another key.
    const other = await t.ok(endpoints.createAttendeeCustomPhoto, {
      ...body,
      client_request_id: 'camera-0002-bbbb',
    });
    const noAttendee = await t.ok(endpoints.createCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'kiosk-a.jpg',
      client_request_id: 'camera-0001-aaaa',
    });
    const noId = await t.ok(endpoints.createAttendeeCustomPhoto, {
      ...body,
      client_request_id: undefined,
    });
    expect(new Set([first.key, other.key, noAttendee.key, noId.key]).size).toBe(4);
    const refused = await t.call(endpoints.createCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'a.jpg',
      client_request_id: 'bad id!',
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'invalid_value' });
  });

  it('refuses keys that are not the kiosk’s own uploads and cards of other organisations', async () => {
    const grant = await t.ok(endpoints.createCustomPhoto, { ...kioskOf(gala), file_name: 'a.jpg' });
    expect(await post(grant, await makeJpeg({ seed: 9 }), 'a.jpg', 'image/jpeg')).toBe(201);
    const before = await photoUids();
    for (const [key, body] of [
      [kioskOf(other), grant.key],
      [kioskOf(gala), `tmp/${gala.name}/${randomUUID()}/a.jpg`],
      [kioskOf(gala), `kioskMedia/${gala.name}/../x/a.jpg`],
    ] as const) {
      const refused = await t.call(endpoints.completeCustomPhoto, { ...key, key: body });
      expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'not_found' });
    }
    const publicKey = await t.call(endpoints.completeCustomPhoto, {
      key_type: 'public',
      key_value: gala.public_api_key,
      key: grant.key,
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    expect(await photoUids()).toEqual(before);
    expect(await stored(grant.key)).not.toBeNull();

    const stranger = await newAttendee(other, adminB);
    const foreign = await t.call(endpoints.createAttendeeCustomPhoto, {
      ...kioskOf(gala),
      file_name: 'a.jpg',
      attendee_uid: stranger,
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
  });
});

describe('kiosk photo delete (albums §4, §6)', () => {
  const uidsOf = async (e: FlashbulbEvent) =>
    (
      await t.ok(
        endpoints.ownerPhotoList,
        { event_id: e.id, max_size: 1000, page_number: 1 },
        admin,
      )
    ).photos.map((p) => p.uid);

  it('deletes a photo of the guest’s album where the event allows it, recorded as deleted at the kiosk', async () => {
    const guest = await newAttendee(booth);
    const neighbour = await newAttendee(booth);
    const mine = await insertReadyPhoto(t, booth, guest);
    const theirs = await insertReadyPhoto(t, booth, neighbour);
    const nobodys = await insertReadyPhoto(t, booth);
    for (const photo of [theirs, nobodys]) {
      const refused = await t.call(endpoints.kioskDeletePhoto, {
        ...kioskOf(booth),
        attendee_uid: guest,
        photo_uid: photo.uid,
      });
      expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'not_found' });
    }
    const done = await t.ok(endpoints.kioskDeletePhoto, {
      ...kioskOf(booth),
      attendee_uid: guest,
      photo_uid: mine.uid,
    });
    expect(done.deleted).toBe(1);
    expect((await uidsOf(booth)).sort()).toEqual([theirs.uid, nobodys.uid].sort());
    const [audit] = await t.app.container.repositories.photos.auditFor(booth.id);
    expect(audit).toMatchObject({
      photoUid: mine.uid,
      action: 'kiosk_delete',
      reason: 'deleted at the kiosk',
      actorUserId: null,
    });
  });

  it('is refused where the event does not allow it, and to keys that are not a kiosk’s', async () => {
    const guest = await newAttendee();
    const photo = await insertReadyPhoto(t, gala, guest);
    const off = await t.call(endpoints.kioskDeletePhoto, {
      ...kioskOf(gala),
      attendee_uid: guest,
      photo_uid: photo.uid,
    });
    expect(errorOf(off)).toMatchObject({ status: 403, message_key: 'kiosk_photo_delete_off' });
    const boothGuest = await newAttendee(booth);
    const boothPhoto = await insertReadyPhoto(t, booth, boothGuest);
    for (const key of [
      { key_type: 'public', key_value: booth.public_api_key },
      { key_type: 'attendee', key_value: boothGuest },
    ] as const) {
      const refused = await t.call(endpoints.kioskDeletePhoto, {
        ...key,
        attendee_uid: boothGuest,
        photo_uid: boothPhoto.uid,
      });
      expect(errorOf(refused)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    }
    expect(await uidsOf(gala)).toContain(photo.uid);
    expect(await uidsOf(booth)).toContain(boothPhoto.uid);
  });
});

describe('owner pass-code list', () => {
  const codes = async () =>
    (await t.ok(endpoints.retrievePassCodeList, { event_id: gala.id }, admin)).pass_codes;

  it('adds, changes and deletes entries; codes stay unique; bad input changes nothing', async () => {
    const added = await t.ok(
      endpoints.updatePassCode,
      { event_id: gala.id, first_name: 'Ann', last_name: 'Lee', code: 'ab12' },
      admin,
    );
    expect(added.pass_code).toEqual({ first_name: 'Ann', last_name: 'Lee', code: 'AB12' });
    const generated = await t.ok(
      endpoints.updatePassCode,
      { event_id: gala.id, first_name: 'Bo', last_name: 'Kim' },
      admin,
    );
    expect(generated.pass_code.code).toMatch(/^[A-Z0-9]{4}$/);
    expect(await codes()).toEqual([
      { first_name: 'Ann', last_name: 'Lee', code: 'AB12' },
      generated.pass_code,
    ]);
    // The event's unlock codes are the same list (the desk unlock reads them).
    const full = await t.ok(endpoints.eventFullData, { event_name: gala.name }, admin);
    expect(full[0]!.secret_code_list).toBe(`Ann_Lee_AB12,Bo_Kim_${generated.pass_code.code}`);

    const snapshot = await codes();
    for (const [body, key] of [
      [{ first_name: 'Bo', last_name: 'Kim', code: 'AB12' }, 'pass_code_taken'],
      [{ first_name: 'Cy', last_name: 'Wu', code: 'AB1' }, 'unlock_code_invalid'],
      [{ first_name: 'C3PO', last_name: 'Wu' }, 'unlock_code_name_invalid'],
      [{ first_name: '', last_name: 'Wu' }, 'unlock_code_name_invalid'],
    ] as const) {
      const refused = await t.call(endpoints.updatePassCode, { event_id: gala.id, ...body }, admin);
      expect(errorOf(refused).message_key).toBe(key);
    }
    const missing = await t.call(
      endpoints.deletePassCode,
      { event_id: gala.id, code: 'ZZZZ' },
      admin,
    );
    expect(errorOf(missing)).toMatchObject({ status: 404, message_key: 'not_found' });
    const foreign = await t.call(
      endpoints.deletePassCode,
      { event_id: gala.id, code: 'AB12' },
      adminB,
    );
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    expect(await codes()).toEqual(snapshot);

    const changed = await t.ok(
      endpoints.updatePassCode,
      { event_id: gala.id, first_name: 'ann', last_name: 'LEE', code: 'CD34' },
      admin,
    );
    expect(changed.pass_codes).toHaveLength(2);
    const left = await t.ok(endpoints.deletePassCode, { event_id: gala.id, code: 'CD34' }, admin);
    expect(left.pass_codes).toEqual([generated.pass_code]);
  });
});
