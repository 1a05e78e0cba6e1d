import type { AddressInfo } from 'node:net';
import {
  API_BASE,
  endpoints,
  PHOTO_STREAM_PATH,
  photoStreamUrlAt,
  type FlashbulbEvent,
  type Photo,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { openSse, type SseClient } from '../helpers/sse.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const STREAM_PATH = `${API_BASE}${PHOTO_STREAM_PATH}`;

let t: TestApp;
let base: string;
let admin: { authorization: string };
let event: FlashbulbEvent;
let otherEvent: FlashbulbEvent;
let robot: UploadAuth;
let closed = false;
const clients: SseClient[] = [];

const stream = async (keyType: string, keyValue: string): Promise<SseClient> => {
  const client = await openSse(photoStreamUrlAt(base, { key_type: keyType, key_value: keyValue }));
  clients.push(client);
  return client;
};
const photoOf = (client: SseClient, uid: string) =>
  client.messages.find((m) => m.event === 'photo' && (JSON.parse(m.data) as Photo).uid === uid);
const isPhoto = (uid: string) => (m: { event: string; data: string }) =>
  m.event === 'photo' && (JSON.parse(m.data) as Photo).uid === uid;

beforeAll(async () => {
  t = await createTestApp();
  const { world, robotId, ...keys } = await createRobotWorld(t);
  ({ admin, robot } = keys);
  event = await createEvent(t, world.adminA, { robot_id_array: [robotId] });
  otherEvent = await createEvent(t, world.adminB, { full_name: 'Other' });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const client of clients) client.close();
  if (!closed) await t.close();
});

describe('live photo stream (server-sent events)', () => {
  it('refuses a wrong key with the 401 envelope before streaming', async () => {
    const response = await fetch(`${base}${STREAM_PATH}?key_type=public&key_value=nope`);
    expect(response.status).toBe(401);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toMatchObject({
      status: 'nok',
      error: { message_key: 'unauthorized_user' },
    });
    const missing = await fetch(`${base}${STREAM_PATH}?key_type=public`);
    expect(missing.status).toBe(401);
  });

  it('pushes a robot upload to the public stream within 2 s of its derivatives being ready', async () => {
    const publicA = await stream('public', event.public_api_key);
    const publicB = await stream('public', otherEvent.public_api_key);
    expect(publicA.status).toBe(200);
    expect(publicA.contentType).toContain('text/event-stream');
    await expect.poll(() => publicA.raw()).toContain('retry: ');

    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 1 }));
    const ready = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    const readySeen = Date.now();
    expect(ready.status).toBe('ready');
    const message = await publicA.waitFor(isPhoto(uploaded.uid), 2_000);
    expect(message.at - readySeen).toBeLessThan(2_000);
    const pushed = JSON.parse(message.data) as Photo;
    // As the public list presents it: derivatives, no original for the public key.
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: event.public_api_key,
      max_size: 10,
      page_number: 1,
    });
    expect(pushed).toEqual(list.photos.find((p) => p.uid === uploaded.uid));
    expect(pushed.urls.original).toBeNull();
    // A free event (the default): the public's preview is a signed media URL (ADR 0006).
    expect(pushed.urls.preview).toMatch(
      new RegExp(`^${t.config.publicUrl}/media/photos/${uploaded.id}/preview\\?a=g&e=\\d+&s=`),
    );
    // The guest view (guest-presenters.test.ts): no storage path, robot or attendee id.
    for (const field of ['full_path', 'robot_id', 'attendee_uid'])
      expect(pushed).not.toHaveProperty(field);
    // Another event's key hears nothing of it.
    await new Promise((r) => setTimeout(r, 300));
    expect(publicB.messages).toHaveLength(0);
  });

  it('never pushes a hidden photo to a public key; the owner key gets it; showing it pushes it', async () => {
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 2 }));
    await waitForReady(t, admin.authorization, event.id, uploaded.id);
    await t.ok(endpoints.updatePhoto, { id: uploaded.id, is_visible: 0 }, admin);

    const publicA = await stream('public', event.public_api_key);
    const ownerA = await stream('event_owner', event.owner_api_key);
    const publicB = await stream('public', otherEvent.public_api_key);
    await expect.poll(() => ownerA.raw()).toContain('retry: ');
    // The photo becomes ready again (reprocess): a "ready" notice for a hidden photo.
    await t.ok(endpoints.curationReprocess, { photo_id: uploaded.id }, admin);
    await ownerA.waitFor(isPhoto(uploaded.uid), 10_000);
    await new Promise((r) => setTimeout(r, 300));
    expect(photoOf(publicA, uploaded.uid)).toBeUndefined();

    // The public stream is alive: a visible photo arrives, and showing the hidden one pushes it.
    const visible = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 3 }));
    await publicA.waitFor(isPhoto(visible.uid), 10_000);
    expect(photoOf(publicA, uploaded.uid)).toBeUndefined();
    await t.ok(endpoints.updatePhoto, { id: uploaded.id, is_visible: 1 }, admin);
    await publicA.waitFor(isPhoto(uploaded.uid), 2_000);
    expect(publicB.messages).toHaveLength(0);
  });

  it('many streams of one event: each gets the photo once, from one read of its row', async () => {
    const many = await Promise.all(
      Array.from({ length: 12 }, () => stream('public', event.public_api_key)),
    );
    for (const client of many) await expect.poll(() => client.raw()).toContain('retry: ');
    const rows = t.app.container.repositories.photos;
    const reads = vi.spyOn(rows, 'findById');
    try {
      const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 4 }));
      for (const client of many) await client.waitFor(isPhoto(uploaded.uid), 10_000);
      await new Promise((r) => setTimeout(r, 200));
      for (const client of many)
        expect(client.messages.filter(isPhoto(uploaded.uid))).toHaveLength(1);
      // The stream's reads of this photo: one per notice (ready), not one per stream.
      const streamReads = reads.mock.calls.filter(([id]) => id === uploaded.id).length;
      expect(streamReads).toBeLessThan(many.length);
    } finally {
      reads.mockRestore();
      for (const client of many) client.close();
    }
  });

  it('ends open streams on client disconnect and on shutdown without hanging', async () => {
    const gone = await stream('public', event.public_api_key);
    await expect.poll(() => gone.raw()).toContain('retry: ');
    gone.close();
    const open = await stream('private', event.private_api_key);
    await expect.poll(() => open.raw()).toContain('retry: ');
    const started = Date.now();
    closed = true;
    await t.close();
    expect(Date.now() - started).toBeLessThan(10_000);
    await open.waitForEnd(2_000);
  });
});
