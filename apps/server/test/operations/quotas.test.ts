// Quotas per organisation and per key, counted in the database so they hold across processes:
// attendees per call and per day, concurrent upload completions, selfie grants and face searches.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { endpoints, faceConsentVersion, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createRobotWorld,
  errorOf,
  validEventBody,
} from '../helpers/events.ts';
import { completeUpload, makeJpeg, postToStorage } from '../helpers/photos.ts';
import { readUpload } from '../../src/services/photos/photo-files.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const TEXT = 'We compare your selfie with the photos of this event.';
const CONSENT = faceConsentVersion(TEXT);

let t: TestApp;
let world: Awaited<ReturnType<typeof createRobotWorld>>;
let event: FlashbulbEvent;
let faceEvent: FlashbulbEvent;

beforeAll(async () => {
  t = await createTestApp(
    {
      FLASHBULB_QUOTA_ATTENDEES_PER_CALL: '50',
      FLASHBULB_QUOTA_ATTENDEES_PER_DAY: '80',
      FLASHBULB_QUOTA_UPLOAD_COMPLETIONS: '1',
      FLASHBULB_QUOTA_SELFIE_GRANTS_PER_HOUR: '2',
      FLASHBULB_QUOTA_FACE_SEARCHES_PER_HOUR: '2',
    },
    { worker: false },
  );
  world = await createRobotWorld(t);
  event = await createEvent(t, world.world.adminA, {
    full_name: 'Quota Gala',
    robot_id_array: [world.robotId],
  });
  faceEvent = await t.ok(
    endpoints.createEvent,
    validEventBody({
      enable_facial_recognition: 1,
      opts: { description: 'Faces', faceRecognitionText: TEXT },
    }),
    world.admin,
  );
});
afterAll(async () => t?.close());

describe('attendees per call and per organisation per day', () => {
  const generate = (count: number, eventId = event.id, auth = world.admin) =>
    t.call(
      endpoints.generateAttendeeList,
      { attendee_count: count, event_id_array: [eventId] },
      auth,
    );

  it('refuses more than a call may make with 413, and more than a day allows with 429', async () => {
    const tooMany = await generate(51);
    expect(errorOf(tooMany)).toMatchObject({
      status: 413,
      message_key: 'attendee_count_too_large',
      field: 'attendee_count',
    });
    expect((await generate(50)).statusCode).toBe(200);
    const overDay = await generate(40);
    expect(errorOf(overDay)).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    // A refused call counted nothing: what is left of the day still fits.
    expect((await generate(30)).statusCode).toBe(200);
    expect(errorOf(await generate(1))).toMatchObject({ status: 429 });
    // Another organisation has its own day.
    const adminB = await apiKeyAuth(t, world.world.adminB);
    const eventB = await createEvent(t, world.world.adminB, { full_name: 'Other Org' });
    expect((await generate(50, eventB.id, adminB)).statusCode).toBe(200);
  });
});

describe('concurrent upload completions per organisation', () => {
  it('answers 429 while the organisation’s slots are taken (by any process), and keeps the upload', async () => {
    const bytes = await makeJpeg({ seed: 7, width: 64, height: 48 });
    const { key, status } = await postToStorage(
      t,
      world.robot,
      event.name,
      'a.jpg',
      bytes,
      'image/jpeg',
    );
    expect(status).toBe(201);
    // Another process is completing an upload of the same organisation: the one slot is taken.
    const throttle = t.app.container.repositories.throttle;
    const slot = `quota:upload-completions:${world.world.orgA.id}`;
    expect((await throttle.takeQuota(slot, 1, 1, 600_000)).taken).toBe(true);
    const busy = await completeUpload(t, world.robot, key);
    expect(errorOf(busy)).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    // The slot comes back: the same upload completes (nothing was deleted by the refusal).
    await throttle.returnQuota(slot, 1);
    const done = await completeUpload(t, world.robot, key);
    expect(done.statusCode).toBe(200);
    // And the completion gave its own slot back.
    const next = await postToStorage(
      t,
      world.robot,
      event.name,
      'b.jpg',
      await makeJpeg({ seed: 8, width: 64, height: 48 }),
      'image/jpeg',
    );
    expect((await completeUpload(t, world.robot, next.key)).statusCode).toBe(200);
  });
});

describe('selfie grants and face searches per key', () => {
  const key = () => ({ key_type: 'public' as const, key_value: faceEvent.public_api_key });

  it('counts selfie grants per key and refuses the one over the hour’s quota', async () => {
    const grant = () =>
      t.call(endpoints.selfieUploadAccess, {
        ...key(),
        content_type: 'image/jpeg',
        face_consent_version: CONSENT,
      });
    expect((await grant()).statusCode).toBe(200);
    expect((await grant()).statusCode).toBe(200);
    expect(errorOf(await grant())).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    // The event's private key is another key, with its own count.
    const kiosk = await t.call(endpoints.selfieUploadAccess, {
      key_type: 'private',
      key_value: faceEvent.private_api_key,
      content_type: 'image/jpeg',
      face_consent_version: CONSENT,
    });
    expect(kiosk.statusCode).toBe(200);
  });

  it('counts face searches per key and refuses the one over the hour’s quota', async () => {
    const search = () =>
      t.call(endpoints.keySearchByFace, {
        ...key(),
        photo_url_list: [`selfies/${faceEvent.name}/missing.jpg`],
        face_consent_version: CONSENT,
      });
    for (let i = 0; i < 2; i += 1) expect((await search()).statusCode).not.toBe(429);
    expect(errorOf(await search())).toMatchObject({
      status: 429,
      message_key: 'too_many_requests',
    });
  });
});

describe('an upload completion streams the file instead of buffering it', () => {
  const streamOf = (...chunks: Buffer[]) => Readable.from(chunks);
  const mp4Head = Buffer.from('000000206674797069736f6d00000200', 'hex');
  const jpegHead = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(12)]);
  const isImage = (head: Buffer) => head[0] === 0xff;

  it('hashes a video as it goes and keeps none of it', async () => {
    const body = Buffer.alloc(3 * 1024 * 1024, 7);
    const read = await readUpload(
      streamOf(mp4Head, body),
      { limit: 10 * 1024 * 1024, wholeLimit: 1024 * 1024 },
      isImage,
    );
    expect(read.bytes).toBeNull();
    expect(read.size).toBe(mp4Head.length + body.length);
    expect(read.head).toEqual(mp4Head);
    expect(read.sha256).toBe(
      createHash('sha256')
        .update(Buffer.concat([mp4Head, body]))
        .digest('hex'),
    );
  });

  it('keeps an image whole up to its own cap, and refuses a larger one with 413', async () => {
    const small = await readUpload(
      streamOf(jpegHead, Buffer.alloc(1000)),
      { limit: 10_000, wholeLimit: 2000 },
      isImage,
    );
    expect(small.bytes?.length).toBe(1016);
    await expect(
      readUpload(
        streamOf(jpegHead, Buffer.alloc(5000)),
        { limit: 10_000, wholeLimit: 2000 },
        isImage,
      ),
    ).rejects.toMatchObject({ key: 'unsupported_media_size' });
  });
});
