import type { AddressInfo } from 'node:net';
import {
  endpoints,
  faceConsentVersion,
  photoStreamUrlAt,
  type FlashbulbEvent,
  type Photo,
} from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type {
  DetectedFace,
  DetectOptions,
  FaceEngineProvider,
} from '../../src/repositories/faces/engine/face-engine-provider.ts';
import type { OutboxRow } from '../../src/repositories/messaging/outbox.repository.ts';
import {
  apiKeyAuth,
  as,
  attendeeAlbumKey,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { makeJpeg, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { openSse, type SseClient } from '../helpers/sse.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Moderation: with the event's moderation on, a new photo waits in the console queue and reaches
 * no guest key, stream, face result, auto-print or message until approved; approval starts all of
 * it once; rejection deletes it (rows and storage) and keeps the log. The rules on plain values:
 * moderation.unit.test.ts.
 */

/** Scripted faces: a photo or selfie of this width shows Anna. */
const ANNA_WIDTH = 801;
const SELFIE_WIDTH = 300;
const anna = Float32Array.from([0.1, 0.2, 0.3, 0.4]);
class ScriptedFaceEngine implements FaceEngineProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-v1';
  readonly dimensions = 4;
  init() {
    return Promise.resolve();
  }
  async detect(image: Buffer, _options: DetectOptions = {}): Promise<DetectedFace[]> {
    const { width } = await sharp(image).metadata();
    if (width !== ANNA_WIDTH && width !== SELFIE_WIDTH) return [];
    return [
      {
        box: { x: 0.2, y: 0.2, width: 0.2, height: 0.3 },
        score: 0.99,
        embedding: anna,
        pixels: { width: 150, height: 150 },
      },
    ];
  }
  close() {
    return Promise.resolve();
  }
}

const CONSENT = faceConsentVersion('');
const notificationData = () => ({
  channels: [
    { id: 's000000001', name: 'ready sms', type: 'sms' as const, message: 'New photo {url}' },
    {
      id: 'e000000001',
      name: 'ready mail',
      type: 'email' as const,
      subject: 'New photo',
      body: 'See {url}',
    },
  ],
  topics: [
    {
      id: 'topic-1',
      key: 'photo_ready',
      emailChannel: {
        id: 'e000000001',
        name: 'ready mail',
        type: 'email' as const,
        subject: '',
        body: '',
      },
      smsChannel: { id: 's000000001', name: 'ready sms', type: 'sms' as const, message: '' },
    },
  ],
});

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let world: EventWorld;
let admin: { authorization: string };
let robot: UploadAuth;
let robotId: number;
let event: FlashbulbEvent;
let base: string;
let seed = 0;
const clients: SseClient[] = [];

const upload = async (
  auth: UploadAuth,
  e: FlashbulbEvent,
  options: { width?: number; attendeeUid?: string; tags?: string[] } = {},
): Promise<Photo> => {
  const keyFields = auth.key_type ? { key_type: auth.key_type, key_value: auth.key_value! } : {};
  const headers = auth.authorization ? { authorization: auth.authorization } : {};
  const grant = await t.ok(
    endpoints.photoUploadAccess,
    {
      ...keyFields,
      event_name: e.name,
      file_name: `m${(seed += 1)}.jpg`,
      content_type: 'image/jpeg',
      ...(options.attendeeUid ? { attendee_uid: options.attendeeUid } : {}),
    },
    headers,
  );
  const bytes = await makeJpeg({ seed, width: options.width ?? 640, height: 480 });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: `m${seed}.jpg`, contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const photo = await t.ok(
    endpoints.photoUploadComplete,
    { ...keyFields, key: grant.key, ...(options.tags ? { tags: options.tags } : {}) },
    headers,
  );
  return waitForReady(t, admin.authorization, e.id, photo.id);
};

const guestIds = async (key: { key_type: 'public' | 'private' | 'attendee'; key_value: string }) =>
  (await t.ok(endpoints.publicPhotoList, { ...key, max_size: 100, page_number: 1 })).photos.map(
    (p) => p.id,
  );
const publicKey = () => ({ key_type: 'public' as const, key_value: event.public_api_key });
const privateKey = () => ({ key_type: 'private' as const, key_value: event.private_api_key });
const topicMails = async (recipient: string): Promise<OutboxRow[]> =>
  (await t.app.container.repositories.outbox.list(500)).filter(
    (r) => r.kind === 'topic.photo_ready' && r.recipient === recipient,
  );
const printJobsOf = async (photoId: number) =>
  (
    await t.database.executeSql('select id from print_jobs where photo_ids @> to_jsonb($1::int)', [
      photoId,
    ])
  ).rows.length;
const moderationOf = async (photoId: number) =>
  (await t.app.container.repositories.photos.findById(photoId))?.moderation;
const until = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};
const selfieSearch = async (): Promise<number[]> => {
  const grant = await t.ok(endpoints.selfieUploadAccess, {
    ...publicKey(),
    content_type: 'image/jpeg',
    face_consent_version: CONSENT,
  });
  const bytes = await makeJpeg({ seed: (seed += 1), width: SELFIE_WIDTH, height: 400 });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: 'selfie.jpg', contentType: 'image/jpeg' }),
  );
  await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  const found = await t.ok(endpoints.keySearchByFace, {
    ...publicKey(),
    photo_url_list: [grant.key],
    face_consent_version: CONSENT,
  });
  return found.photos.map((p) => p.id);
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url }, { faceEngine: new ScriptedFaceEngine() });
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth one' },
    admin,
  );
  robotId = created.id;
  robot = { key_type: 'robot', key_value: created.api_key };
  event = await createEvent(t, world.adminA, {
    full_name: 'Moderated gala',
    robot_id_array: [robotId],
    enable_facial_recognition: 1,
    is_photo_printer_active: 1,
    is_print_every_photo: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Mod_1'],
    notification_data: notificationData(),
    opts: { description: 'd', moderationEnabled: 1, moderationSkipOwnerUploads: 1 },
  });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
}, 120_000);
afterAll(async () => {
  for (const client of clients) client.close();
  await t.close();
  await smtp.close();
});

describe('a held photo reaches nobody until approved, then everything once', () => {
  it('public, private and attendee keys, the stream, face search, auto-print and the topic mail', async () => {
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email: 'ann@example.com' },
      as(world.adminA),
    );
    const ann = generated.attendees[0]!.uid;
    const attendeeKey = {
      key_type: 'attendee' as const,
      key_value: await attendeeAlbumKey(t, ann),
    };
    const stream = await openSse(photoStreamUrlAt(base, publicKey()));
    clients.push(stream);
    await expect.poll(() => stream.raw()).toContain('retry: ');

    const held = await upload(robot, event, { width: ANNA_WIDTH, attendeeUid: ann, tags: ['vip'] });
    expect(await moderationOf(held.id)).toBe('pending');
    // The operator sees it, in the album and in the queue (with what it can be filtered by).
    const owner = await t.ok(endpoints.ownerPhotoList, { event_id: event.id }, admin);
    expect(owner.photos.map((p) => p.id)).toContain(held.id);
    const queue = await t.ok(endpoints.moderationQueue, { event_id: event.id }, admin);
    expect(queue.photos.map((p) => p.id)).toEqual([held.id]);
    expect(queue).toMatchObject({
      total_count: 1,
      robots: [{ id: robotId, name: 'Booth one' }],
      tags: ['vip'],
    });
    expect(
      (await t.ok(endpoints.moderationQueue, { event_id: event.id, tag: '#VIP' }, admin))
        .total_count,
    ).toBe(1);
    expect(
      (await t.ok(endpoints.moderationQueue, { event_id: event.id, tag: 'other' }, admin))
        .total_count,
    ).toBe(0);
    expect(
      (
        await t.ok(
          endpoints.moderationQueue,
          { event_id: event.id, robot_id: robotId + 999 },
          admin,
        )
      ).total_count,
    ).toBe(0);

    // No guest key lists it, no face search finds it, nothing printed, no mail queued.
    expect(await guestIds(publicKey())).not.toContain(held.id);
    expect(await guestIds(privateKey())).not.toContain(held.id);
    expect(await guestIds(attendeeKey)).not.toContain(held.id);
    expect(await selfieSearch()).not.toContain(held.id);
    expect(await printJobsOf(held.id)).toBe(0);
    expect(await topicMails('ann@example.com')).toHaveLength(0);
    expect(await t.app.container.repositories.faces.scanOf(held.id)).toBeFalsy();

    // Approve: the photo is out at once, and what photo.ready starts follows.
    const approvedAt = Date.now();
    expect(
      await t.ok(
        endpoints.moderationDecide,
        { event_id: event.id, photo_id_array: [held.id], decision: 'approve' },
        admin,
      ),
    ).toEqual({ approved: 1, rejected: 0 });
    expect(await guestIds(publicKey())).toContain(held.id);
    expect(await guestIds(privateKey())).toContain(held.id);
    expect(await guestIds(attendeeKey)).toContain(held.id);
    const pushed = await stream.waitFor(
      (m) => m.event === 'photo' && (JSON.parse(m.data) as Photo).id === held.id,
      30_000,
    );
    expect(pushed.at).toBeGreaterThanOrEqual(approvedAt);
    await until(
      () => moderationOf(held.id),
      (m) => m === 'approved',
      'the release',
    );
    await until(
      () => printJobsOf(held.id),
      (n) => n === 1,
      'the auto-print',
    );
    await until(
      () => t.app.container.repositories.faces.scanOf(held.id),
      (scan) => !!scan,
      'the face scan',
    );
    expect(await selfieSearch()).toContain(held.id);
    const mails = await until(
      () => topicMails('ann@example.com'),
      (r) => r.length > 0,
      'the mail',
    );
    expect(mails).toHaveLength(1);
    // Delivered over SMTP by the outbox (as its job does; the job's timing is the outbox's tests').
    // The outbox's own job may have claimed the message first (status `sending`): then this call
    // leaves it to the job, and the test waits for the job's delivery.
    await t.app.container.services.outbox.deliver(mails[0]!.id);
    await vi.waitFor(
      async () =>
        expect((await t.app.container.repositories.outbox.findById(mails[0]!.id))?.status).toBe(
          'sent',
        ),
      { timeout: 30_000, interval: 100 },
    );
    const photoMails = () => smtp.messages.filter((m) => /^Subject: New photo\r$/m.test(m.text));
    expect(photoMails().map((m) => m.to)).toEqual([['ann@example.com']]);

    // A crash after the announcement but before it was stored: the next round announces again,
    // and nobody gets a second mail or print.
    await t.database.executeSql(`update photos set moderation = 'releasing' where id = $1`, [
      held.id,
    ]);
    expect(await t.app.container.services.photoModeration.release()).toEqual({ released: 1 });
    expect(await moderationOf(held.id)).toBe('approved');
    expect(await topicMails('ann@example.com')).toHaveLength(1);
    expect(await printJobsOf(held.id)).toBe(1);
    expect(photoMails()).toHaveLength(1);

    // The log says who approved it.
    const log = await t.ok(endpoints.moderationLog, { event_id: event.id }, admin);
    expect(log.entries[0]).toMatchObject({
      photo_id: held.id,
      decision: 'approve',
      user_email: 'admin-a@example.com',
    });
  });
});

describe('reject', () => {
  it('needs a reason, deletes the photo and its storage, and keeps the log row', async () => {
    const photo = await upload(robot, event);
    const row = (await t.app.container.repositories.photos.findById(photo.id))!;
    const keys = [row.storageKey, ...Object.values(row.derivatives)];
    for (const key of keys) expect(await t.app.container.storage.head(key), key).toBeTruthy();

    const noReason = await t.call(
      endpoints.moderationDecide,
      { event_id: event.id, photo_id_array: [photo.id], decision: 'reject', reason: ' ' },
      admin,
    );
    expect(errorOf(noReason)).toMatchObject({ status: 400, message_key: 'delete_reason_required' });
    expect(await moderationOf(photo.id)).toBe('pending');

    expect(
      await t.ok(
        endpoints.moderationDecide,
        {
          event_id: event.id,
          photo_id_array: [photo.id],
          decision: 'reject',
          reason: 'Brand guidelines <b>',
        },
        admin,
      ),
    ).toEqual({ approved: 0, rejected: 1 });
    expect(await t.app.container.repositories.photos.findById(photo.id)).toBeUndefined();
    for (const key of keys)
      await until(
        () => t.app.container.storage.head(key),
        (found) => !found,
        `the deletion of ${key}`,
      );
    const log = await t.ok(endpoints.moderationLog, { event_id: event.id }, admin);
    expect(log.entries[0]).toMatchObject({
      photo_id: photo.id,
      file_name: row.fileName,
      decision: 'reject',
      reason: 'Brand guidelines <b>',
      user_email: 'admin-a@example.com',
    });
  });

  it('refuses ids that are not waiting photos of the event, and changes nothing', async () => {
    const waiting = await upload(robot, event);
    const other = await createEvent(t, world.adminA, { full_name: 'Unmoderated' });
    const elsewhere = await upload(admin, other);
    expect(await moderationOf(elsewhere.id)).toBe('approved');
    for (const ids of [
      [waiting.id, elsewhere.id],
      [waiting.id, 99_999_999],
    ]) {
      const refused = await t.call(
        endpoints.moderationDecide,
        { event_id: event.id, photo_id_array: ids, decision: 'approve' },
        admin,
      );
      expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'not_found' });
    }
    expect(await moderationOf(waiting.id)).toBe('pending');
  });
});

describe('uploads that skip moderation', () => {
  it('an operator’s upload skips it when the setting says so, and waits when it does not', async () => {
    const skipped = await upload(admin, event);
    expect(await moderationOf(skipped.id)).toBe('approved');
    expect(await guestIds(publicKey())).toContain(skipped.id);

    const strict = await createEvent(t, world.adminA, {
      full_name: 'Strict',
      opts: { description: 'd', moderationEnabled: 1, moderationSkipOwnerUploads: 0 },
    });
    const held = await upload(admin, strict);
    expect(await moderationOf(held.id)).toBe('pending');
    const roamer = await upload(
      { key_type: 'event_owner', key_value: strict.owner_api_key },
      strict,
    );
    expect(await moderationOf(roamer.id)).toBe('pending');
    expect(await guestIds({ key_type: 'public', key_value: strict.public_api_key })).toEqual([]);
  });
});
