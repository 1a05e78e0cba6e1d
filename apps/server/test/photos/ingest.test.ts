import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attendeeAlbumKey,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import {
  completeUpload,
  makeClip,
  makeJpeg,
  pixelFloodPng,
  postToStorage,
  uploadPhoto,
  waitForReady,
  type UploadAuth,
} from '../helpers/photos.ts';
import { bytesOf, filesUnder, grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import path from 'node:path';
import { buildApp } from '../../src/app.ts';

let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let robot: UploadAuth;
let robotId: number;
let otherEvent: FlashbulbEvent;

/** Guests' upload grants one event gives an hour here (the last test spends them). */
const GUEST_UPLOADS_PER_EVENT = 6;

beforeAll(async () => {
  t = await createTestApp({
    FLASHBULB_GUEST_LIMITS: `guestUploadsPerEventHourly=${GUEST_UPLOADS_PER_EVENT}`,
  });
  world = await createEventWorld(t);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth 1' },
    { authorization: world.adminA.authorization },
  );
  event = await createEvent(t, world.adminA, {
    robot_id_array: [created.id],
    photo_watermark: '/default-watermark.png',
  });
  robot = { key_type: 'robot', key_value: created.api_key };
  robotId = created.id;
  otherEvent = await createEvent(t, world.adminB, { full_name: 'Other' });
});
afterAll(async () => {
  await t.close();
});

const storageDir = () => path.join(t.config.dataDir, 'storage');
/** Path and query (protected files come as signed URLs). */
const publicPath = (url: string | null) => {
  const parsed = new URL(url!);
  return `${parsed.pathname}${parsed.search}`;
};

describe('photo ingest', () => {
  it('takes a robot upload through grant, storage POST and completion to ready derivatives', async () => {
    const jpeg = await makeJpeg({ width: 3000, height: 2000, orientation: 6, gps: true, seed: 1 });
    const photo = await uploadPhoto(t, robot, event.name, jpeg, 'IMG 0001.JPG');
    expect(photo).toMatchObject({
      event_id: event.id,
      status: 'processing',
      media_type: 'image',
      content_type: 'image/jpeg',
    });
    expect(photo.full_path).toMatch(new RegExp(`uid_${photo.uid}_uid`));
    // The original lands in protected space (ADR 0006).
    expect(photo.full_path).toBe(
      `protected/events/${event.name}/photos/uid_${photo.uid}_uid/original.jpg`,
    );
    // The photo is credited to the robot whose key uploaded it.
    expect(photo.robot_id).toBe(robotId);
    // Orientation 6 means the stored pixels are rotated: the photo is portrait.
    expect([photo.width, photo.height]).toEqual([2000, 3000]);

    const ready = await waitForReady(t, world.adminA.authorization, event.id, photo.id);
    expect(ready.status).toBe('ready');
    const preview = await t.app.inject({ method: 'GET', url: publicPath(ready.urls.preview) });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(preview.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([1333, 2000]);
    expect(meta.orientation ?? 1).toBe(1);
    // No location or camera data in public files; an EXIF block is still there for print pipelines.
    const exif = meta.exif?.toString('latin1') ?? '';
    expect(exif).not.toContain('TestCam');
    expect(exif).not.toMatch(/GPS/);
    expect(exif).toContain('Flashbulb');
    const thumb = await sharp(
      (await t.app.inject({ method: 'GET', url: publicPath(ready.urls.thumbnail) })).rawPayload,
    ).metadata();
    expect(Math.max(thumb.width, thumb.height)).toBe(400);
    // The event asks for a photo watermark: it exists and differs from the preview.
    const watermarked = await t.app.inject({
      method: 'GET',
      url: publicPath(ready.urls.photo_watermark),
    });
    expect(watermarked.statusCode).toBe(200);
    expect(Buffer.compare(watermarked.rawPayload, preview.rawPayload)).not.toBe(0);
    expect(ready.urls.live_view_watermark).toBeNull();
  });

  it('is idempotent: the same bytes make the same photo, whichever step is retried', async () => {
    const jpeg = await makeJpeg({ seed: 2 });
    const first = await postToStorage(t, robot, event.name, 'a.jpg', jpeg, 'image/jpeg');
    const done = await completeUpload(t, robot, first.key);
    const again = await completeUpload(t, robot, first.key);
    expect(again.body).toMatchObject({
      status: 'ok',
      result: { id: (done.body as { result: { id: number } }).result.id },
    });
    // A second upload of the same bytes (the robot retried the whole thing) is the same photo.
    const second = await uploadPhoto(t, robot, event.name, jpeg, 'a-retry.jpg');
    expect(second.id).toBe((done.body as { result: { id: number } }).result.id);
    const list = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: event.id, file_name: 'a', show_total_count: 1 },
      { authorization: world.adminA.authorization },
    );
    expect(list.photos.filter((p) => p.id === second.id)).toHaveLength(1);
  });

  it('loses nothing when the client crashes between the storage POST and completion', async () => {
    const jpeg = await makeJpeg({ seed: 3 });
    const posted = await postToStorage(t, robot, event.name, 'crash.jpg', jpeg, 'image/jpeg');
    expect(posted.status).toBe(201);
    // "Crash": the server restarts before completion; the object waits in tmp.
    const before = await t.ok(
      endpoints.photoCountInfo,
      { event_id: event.id },
      { authorization: world.adminA.authorization },
    );
    const done = await completeUpload(t, robot, posted.key);
    expect(done.statusCode).toBe(200);
    const after = await t.ok(
      endpoints.photoCountInfo,
      { event_id: event.id },
      { authorization: world.adminA.authorization },
    );
    expect(after.total).toBe(before.total + 1);
    expect((await filesUnder(storageDir())).filter((f) => f.includes('crash.jpg'))).toEqual([]);
  });

  it('survives a server restart between the storage POST and completion: same photo, no orphans', async () => {
    const jpeg = await makeJpeg({ seed: 31 });
    const posted = await postToStorage(t, robot, event.name, 'restart.jpg', jpeg, 'image/jpeg');
    const rowsBefore = await t.database.executeSql('select count(*)::int as n from photos');
    // The server stops before the robot completes; a new process on the same data takes over.
    await t.app.close();
    const restarted = await buildApp(t.config, { database: t.database, clock: t.clock });
    await restarted.ready();
    t.app = restarted;
    const done = await completeUpload(t, robot, posted.key);
    expect(done.statusCode).toBe(200);
    const retried = await completeUpload(t, robot, posted.key);
    expect((retried.body as { result: { id: number } }).result.id).toBe(
      (done.body as { result: { id: number } }).result.id,
    );
    const rowsAfter = await t.database.executeSql('select count(*)::int as n from photos');
    expect(rowsAfter.rows[0]!.n).toBe((rowsBefore.rows[0]!.n as number) + 1);
    const ready = await waitForReady(
      t,
      world.adminA.authorization,
      event.id,
      (done.body as { result: { id: number } }).result.id,
    );
    expect(ready.status).toBe('ready');
  });

  it('refuses what is not an accepted picture by its bytes, and keeps nothing', async () => {
    const cases: [string, Buffer, string, string][] = [
      [
        'text renamed to jpg',
        Buffer.from('just some text, not a picture at all'),
        'notes.jpg',
        'unsupported_picture_format',
      ],
      ['pixel flood', pixelFloodPng(20_000, 20_000), 'bomb.png', 'photo_too_large'],
      [
        'truncated jpeg',
        (await makeJpeg({ seed: 4, width: 800, height: 800 })).subarray(0, 3000),
        'cut.jpg',
        'photo_truncated',
      ],
    ];
    for (const [label, bytes, name, key] of cases) {
      const type = name.endsWith('.png') ? 'image/png' : 'image/jpeg';
      const posted = await postToStorage(t, robot, event.name, name, bytes, type);
      expect(posted.status, label).toBe(201);
      const done = await completeUpload(t, robot, posted.key);
      expect(errorOf(done), label).toMatchObject({ status: 400, message_key: key });
      // Nothing kept: neither the upload nor a photo.
      expect(
        (await filesUnder(storageDir())).filter((f) => f.includes(name)),
        label,
      ).toEqual([]);
      const list = await t.ok(
        endpoints.ownerPhotoList,
        { event_id: event.id, file_name: name.split('.')[0] },
        { authorization: world.adminA.authorization },
      );
      expect(list.photos, label).toHaveLength(0);
    }
  });

  it('refuses extensions and types outside the accepted list before any upload', async () => {
    for (const [file_name, content_type, field] of [
      ['photo.bmp', 'image/bmp', 'file_name'],
      ['photo.tiff', 'image/tiff', 'file_name'],
      ['photo.jpg', 'image/png', 'content_type'],
      ['noextension', 'image/jpeg', 'file_name'],
    ]) {
      const response = await t.call(endpoints.photoUploadAccess, {
        ...robot,
        event_name: event.name,
        file_name: file_name!,
        content_type: content_type!,
      });
      expect(errorOf(response), file_name).toMatchObject({
        status: 400,
        message_key: 'unsupported_picture_format',
        field,
      });
    }
    const badName = await t.call(endpoints.photoUploadAccess, {
      ...robot,
      event_name: event.name,
      file_name: 'a?b.jpg',
      content_type: 'image/jpeg',
    });
    expect(errorOf(badName)).toMatchObject({ message_key: 'file_name_invalid' });
  });

  it('accepts png, gif and mp4 by their bytes (upper-case and .jpeg names too)', async () => {
    const png = await sharp({
      create: { width: 50, height: 40, channels: 4, background: '#ff0000' },
    })
      .png()
      .toBuffer();
    const gif = await sharp({
      create: { width: 30, height: 30, channels: 3, background: '#00ff00' },
    })
      .gif()
      .toBuffer();
    const pngPhoto = await uploadPhoto(t, robot, event.name, png, 'RED.PNG', 'image/png');
    const gifPhoto = await uploadPhoto(t, robot, event.name, gif, 'green.gif', 'image/gif');
    const jpegPhoto = await uploadPhoto(
      t,
      robot,
      event.name,
      await makeJpeg({ seed: 9 }),
      'x.JPEG',
      'image/jpeg',
    );
    const video = await uploadPhoto(
      t,
      robot,
      event.name,
      await makeClip({ seconds: 1, width: 160, height: 120 }),
      'clip.mp4',
      'video/mp4',
    );
    expect(pngPhoto.content_type).toBe('image/png');
    expect(gifPhoto.content_type).toBe('image/gif');
    expect(jpegPhoto.content_type).toBe('image/jpeg');
    expect(video).toMatchObject({ media_type: 'video', content_type: 'video/mp4' });
    expect((await waitForReady(t, world.adminA.authorization, event.id, video.id)).status).toBe(
      'ready',
    );
    // A GIF gets a thumbnail of its own (green) pixels.
    const gifThumbnail = (await waitForReady(t, world.adminA.authorization, event.id, gifPhoto.id))
      .urls.thumbnail;
    const served = await t.app.inject({ method: 'GET', url: publicPath(gifThumbnail) });
    expect(served.statusCode).toBe(200);
    const [red, green, blue] = (await sharp(served.rawPayload).stats()).channels;
    expect([red!.mean < 40, green!.mean > 200, blue!.mean < 40]).toEqual([true, true, true]);
  });

  it('checks who uploads: robot keys of the event, event-owner keys, owners who see the event', async () => {
    const jpeg = await makeJpeg({ seed: 5 });
    // Another organisation's admin cannot upload to this event, nor learn it exists.
    const foreign = await t.call(
      endpoints.photoUploadAccess,
      { event_name: event.name, file_name: 'x.jpg', content_type: 'image/jpeg' },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    // A robot key for another event, a public key, or nothing at all: refused.
    for (const auth of [
      { key_type: 'robot' as const, key_value: 'fbk_wrong' },
      { key_type: 'event_owner' as const, key_value: otherEvent.owner_api_key },
    ]) {
      const response = await t.call(endpoints.photoUploadAccess, {
        ...auth,
        event_name: event.name,
        file_name: 'x.jpg',
        content_type: 'image/jpeg',
      });
      expect(errorOf(response)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    }
    const publicKey = await t.call(endpoints.photoUploadAccess, {
      key_type: 'public',
      key_value: event.public_api_key,
      event_name: event.name,
      file_name: 'x.jpg',
      content_type: 'image/jpeg',
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const anonymous = await t.call(endpoints.photoUploadAccess, {
      event_name: event.name,
      file_name: 'x.jpg',
      content_type: 'image/jpeg',
    });
    expect(errorOf(anonymous)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    // Event-owner key and the admin's session work.
    const byOwnerKey = await uploadPhoto(
      t,
      { key_type: 'event_owner', key_value: event.owner_api_key },
      event.name,
      jpeg,
      'k.jpg',
    );
    expect(byOwnerKey.robot_id).toBeNull();
    // A completion for another event's upload with this event's key is refused.
    const foreignUpload = await postToStorage(
      t,
      { authorization: world.adminB.authorization },
      otherEvent.name,
      'b.jpg',
      await makeJpeg({ seed: 6 }),
      'image/jpeg',
    );
    const stolen = await completeUpload(t, robot, foreignUpload.key);
    // The robot's key is right, for its own event: it hears that, and nothing of the other event.
    expect(errorOf(stolen)).toMatchObject({ status: 403, message_key: 'robot_other_event' });
    expect(JSON.stringify(stolen.body)).not.toContain(otherEvent.name);
  });
});

// ---- guests' own photos (docs/domains/photos.md; the rules alone: guest-upload.unit.test.ts) ----

type GuestKey = { key_type: 'public' | 'attendee'; key_value: string };

/** A guest's grant → storage POST → completion, as the album page does it. */
const guestUpload = async (
  key: GuestKey,
  eventName: string,
  bytes: Buffer,
  fileName = 'guest.jpg',
  contentType = 'image/jpeg',
) => {
  const grant = await t.call(endpoints.guestUploadAccess, {
    ...key,
    event_name: eventName,
    file_name: fileName,
    content_type: contentType,
    size_bytes: bytes.length,
  });
  if (grant.body.status !== 'ok') return { grant, done: null };
  const { fields, url } = grant.body.result;
  const form = multipartBody(grantForm(fields, bytes, { filename: fileName, contentType }));
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const done = await t.call(endpoints.guestUploadComplete, { ...key, key: grant.body.result.key });
  return { grant, done, key: grant.body.result.key };
};

const photoRow = async (uid: string) => {
  const { rows } = await t.database.executeSql(
    'select id, width, height, tags, moderation, attendee_uid, storage_key from photos where uid = $1',
    [uid],
  );
  return rows[0] as {
    id: number;
    width: number;
    height: number;
    tags: string[];
    moderation: string;
    attendee_uid: string | null;
    storage_key: string;
  };
};

const photoCount = async (eventId: number) => {
  const { rows } = await t.database.executeSql(
    'select count(*)::int as n from photos where event_id = $1',
    [eventId],
  );
  return Number((rows[0] as { n: number }).n);
};

const guestList = async (key: GuestKey) =>
  (await t.ok(endpoints.publicPhotoList, { ...key, max_size: 100, page_number: 1 })).photos;

const newAttendee = async (of: FlashbulbEvent): Promise<GuestKey> => {
  const generated = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [of.id], is_prepaid: 0 },
    { authorization: world.adminA.authorization },
  );
  return {
    key_type: 'attendee',
    key_value: await attendeeAlbumKey(t, generated.attendees[0]!.uid),
  };
};

describe('guests’ own photos', () => {
  it('each setting off refuses its guests with its key, and nothing is stored', async () => {
    const closed = await createEvent(t, world.adminA, { full_name: 'Closed' });
    const publicKey: GuestKey = { key_type: 'public', key_value: closed.public_api_key };
    const { grant } = await guestUpload(publicKey, closed.name, await makeJpeg({ seed: 40 }));
    expect(errorOf(grant)).toMatchObject({ status: 403, message_key: 'photo_upload_disabled' });
    const attendee = await newAttendee(closed);
    const refused = await guestUpload(attendee, closed.name, await makeJpeg({ seed: 41 }));
    expect(errorOf(refused.grant)).toMatchObject({
      status: 403,
      message_key: 'attendee_photo_upload_disabled',
    });
    // Each setting opens its own guests only: the public album's does not open attendees'.
    const publicOnly = await createEvent(t, world.adminA, {
      full_name: 'Public only',
      opts: { description: 'd', enablePhotoUpl: 1 },
    });
    const other = await newAttendee(publicOnly);
    const still = await guestUpload(other, publicOnly.name, await makeJpeg({ seed: 42 }));
    expect(errorOf(still.grant)).toMatchObject({ message_key: 'attendee_photo_upload_disabled' });
    // The private album's link and the robot's key are no guests' keys here.
    const privateKey = await t.call(endpoints.guestUploadAccess, {
      key_type: 'private' as never,
      key_value: publicOnly.private_api_key,
      event_name: publicOnly.name,
      file_name: 'a.jpg',
      content_type: 'image/jpeg',
    });
    expect(errorOf(privateKey)).toMatchObject({ message_key: 'invalid_key' });
    expect(await photoCount(closed.id)).toBe(0);
    expect(await photoCount(publicOnly.id)).toBe(0);
  });

  it('on: stored, tagged, fitted to the box (never enlarged), shown in the album when ready', async () => {
    const open = await createEvent(t, world.adminA, {
      full_name: 'Open',
      opts: {
        description: 'd',
        enablePhotoUpl: 1,
        enableAttendeePhotoUpl: 1,
        attPhotoImgPrTag: '#guest',
        attPhotoImgMaxWidth: 600,
        attPhotoImgMaxHeight: 450,
      },
    });
    const publicKey: GuestKey = { key_type: 'public', key_value: open.public_api_key };
    // A portrait phone photo (EXIF orientation 6): the height decides, the ratio is kept.
    const big = await makeJpeg({ width: 1600, height: 1200, orientation: 6, seed: 43 });
    const { done } = await guestUpload(publicKey, open.name, big, 'IMG_0001.JPG');
    expect(done!.body).toMatchObject({
      status: 'ok',
      result: { upload_result: 'uploaded', held_for_review: false, in_event_album: true },
    });
    const uid = (done!.body as { result: { uid: string } }).result.uid;
    const row = await photoRow(uid);
    expect([row.width, row.height]).toEqual([338, 450]);
    expect(row.tags).toEqual(['guest']);
    const original = await t.app.container.storage.get(row.storage_key);
    const stored = await sharp(await bytesOf(original!.body as AsyncIterable<unknown>)).metadata();
    expect([stored.width, stored.height]).toEqual([338, 450]);
    // A small picture is never enlarged.
    const small = await guestUpload(
      publicKey,
      open.name,
      await makeJpeg({ width: 320, height: 240, seed: 44 }),
    );
    const smallRow = await photoRow((small.done!.body as { result: { uid: string } }).result.uid);
    expect([smallRow.width, smallRow.height]).toEqual([320, 240]);
    // Ready, it is in the public album.
    await waitForReady(t, world.adminA.authorization, open.id, row.id);
    expect((await guestList(publicKey)).map((p) => p.uid)).toContain(uid);
    // The same picture again is the same photo.
    const again = await guestUpload(publicKey, open.name, big, 'again.jpg');
    expect(again.done!.body).toMatchObject({ result: { uid, upload_result: 'already_uploaded' } });

    // An attendee's photo goes into their own album.
    const attendee = await newAttendee(open);
    const mine = await guestUpload(attendee, open.name, await makeJpeg({ seed: 45 }));
    const mineUid = (mine.done!.body as { result: { uid: string } }).result.uid;
    const mineRow = await photoRow(mineUid);
    expect(mineRow.attendee_uid).not.toBeNull();
    expect(mineRow.tags).toEqual(['guest']);
    await waitForReady(t, world.adminA.authorization, open.id, mineRow.id);
    expect((await guestList(attendee)).map((p) => p.uid)).toContain(mineUid);
  });

  it('waits for review on a moderated event', async () => {
    const moderated = await createEvent(t, world.adminA, {
      full_name: 'Moderated',
      opts: {
        description: 'd',
        enablePhotoUpl: 1,
        moderationEnabled: 1,
        moderationSkipOwnerUploads: 1,
      },
    });
    const publicKey: GuestKey = { key_type: 'public', key_value: moderated.public_api_key };
    const { done } = await guestUpload(publicKey, moderated.name, await makeJpeg({ seed: 46 }));
    expect(done!.body).toMatchObject({ status: 'ok', result: { held_for_review: true } });
    const row = await photoRow((done!.body as { result: { uid: string } }).result.uid);
    expect(row.moderation).toBe('pending');
    await waitForReady(t, world.adminA.authorization, moderated.id, row.id);
    expect(await guestList(publicKey)).toEqual([]);
    const queue = await t.ok(
      endpoints.moderationQueue,
      { event_id: moderated.id },
      { authorization: world.adminA.authorization },
    );
    expect(JSON.stringify(queue)).toContain(String(row.id));
  });

  it('kept private: in the uploader’s own album only, never the event’s', async () => {
    const kept = await createEvent(t, world.adminA, {
      full_name: 'Kept',
      opts: {
        description: 'd',
        enablePhotoUpl: 1,
        enableAttendeePhotoUpl: 1,
        guestUploadsPublic: 0,
      },
    });
    const publicKey: GuestKey = { key_type: 'public', key_value: kept.public_api_key };
    const privateKey = { key_type: 'private' as const, key_value: kept.private_api_key };
    const attendee = await newAttendee(kept);
    const mine = await guestUpload(attendee, kept.name, await makeJpeg({ seed: 48 }));
    expect(mine.done!.body).toMatchObject({ result: { in_event_album: false } });
    const theirs = await guestUpload(publicKey, kept.name, await makeJpeg({ seed: 49 }));
    expect(theirs.done!.body).toMatchObject({ result: { in_event_album: false } });
    const mineUid = (mine.done!.body as { result: { uid: string } }).result.uid;
    const theirsUid = (theirs.done!.body as { result: { uid: string } }).result.uid;
    for (const uid of [mineUid, theirsUid])
      await waitForReady(t, world.adminA.authorization, kept.id, (await photoRow(uid)).id);
    // The attendee sees theirs in their album; the event's albums show neither.
    expect((await guestList(attendee)).map((p) => p.uid)).toEqual([mineUid]);
    expect(await guestList(publicKey)).toEqual([]);
    expect(
      (await t.ok(endpoints.publicPhotoList, { ...privateKey, max_size: 100, page_number: 1 }))
        .photos,
    ).toEqual([]);
    // Operators see both.
    const owners = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: kept.id, max_size: 100, page_number: 1 },
      { authorization: world.adminA.authorization },
    );
    expect(owners.photos.map((p) => p.uid).sort()).toEqual([mineUid, theirsUid].sort());
  });

  it('refuses other files with clear keys, others’ uploads, and more grants than the budget', async () => {
    const open = await createEvent(t, world.adminA, {
      full_name: 'Limits',
      opts: { description: 'd', enablePhotoUpl: 1, enableAttendeePhotoUpl: 1 },
    });
    const publicKey: GuestKey = { key_type: 'public', key_value: open.public_api_key };
    const ask = (fields: { file_name: string; content_type: string; size_bytes?: number }) =>
      t.call(endpoints.guestUploadAccess, { ...publicKey, event_name: open.name, ...fields });
    expect(errorOf(await ask({ file_name: 'clip.mp4', content_type: 'video/mp4' }))).toMatchObject({
      status: 400,
      message_key: 'unsupported_picture_format',
    });
    expect(
      errorOf(
        await ask({ file_name: 'a.jpg', content_type: 'image/jpeg', size_bytes: 30_000_000 }),
      ),
    ).toMatchObject({ status: 413, message_key: 'guest_upload_too_large', field: 'size_bytes' });
    // A clip named .jpg is refused by its bytes, and nothing is kept.
    const clip = await guestUpload(publicKey, open.name, await makeClip(), 'clip.jpg');
    expect(errorOf(clip.done!)).toMatchObject({ message_key: 'unsupported_picture_format' });
    // A robot's upload is no guest's to complete, nor an attendee's key another album's.
    const robots = await postToStorage(
      t,
      robot,
      event.name,
      'r.jpg',
      await makeJpeg({ seed: 47 }),
      'image/jpeg',
    );
    const taken = await t.call(endpoints.guestUploadComplete, { ...publicKey, key: robots.key });
    expect(errorOf(taken)).toMatchObject({ status: 404, message_key: 'not_found' });
    const attendee = await newAttendee(open);
    const grant = await t.ok(endpoints.guestUploadAccess, {
      ...attendee,
      event_name: open.name,
      file_name: 'a.jpg',
      content_type: 'image/jpeg',
    });
    const stolen = await t.call(endpoints.guestUploadComplete, { ...publicKey, key: grant.key });
    expect(errorOf(stolen)).toMatchObject({ status: 404, message_key: 'not_found' });
    expect(await photoCount(open.id)).toBe(0);
    // The event's hourly budget (FLASHBULB_GUEST_LIMITS here: 6 grants) runs out.
    for (let used = 2; used < GUEST_UPLOADS_PER_EVENT; used += 1)
      await t.ok(endpoints.guestUploadAccess, {
        ...publicKey,
        event_name: open.name,
        file_name: 'a.jpg',
        content_type: 'image/jpeg',
      });
    expect(errorOf(await ask({ file_name: 'a.jpg', content_type: 'image/jpeg' }))).toMatchObject({
      status: 429,
      message_key: 'too_many_requests',
    });
  });
});
