import { API_BASE, endpoints, PHOTO_STREAM_PATH, type FlashbulbEvent } from '@flashbulb/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createEvent, createRobotWorld, errorOf } from '../helpers/events.ts';
import { completeUpload, makeJpeg } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// Low budgets; one proxy hop, so each client names its address in X-Forwarded-For.
const LIMITS =
  'attendeeFailuresPerAddress=5,attendeeFailuresPerEvent=8,attendeeLookupsPerAddress=12';

let t: TestApp;
let other: FastifyInstance;
let w: Awaited<ReturnType<typeof createRobotWorld>>;
let event: FlashbulbEvent;

const call = (
  app: FastifyInstance,
  path: string,
  from: string,
  payload: Record<string, unknown>,
): Promise<{ statusCode: number; body: unknown }> =>
  app
    .inject({
      method: 'POST',
      url: `${API_BASE}${path}`,
      headers: { 'x-forwarded-for': from },
      payload,
    })
    .then((r) => ({ statusCode: r.statusCode, body: r.json() }));

const retrieve = (from: string, keyValue: string, app: FastifyInstance = t.app) =>
  call(app, endpoints.retrieveAttendee.path, from, { key_type: 'attendee', key_value: keyValue });

/** A booth upload carrying `attendeeUid` (the event has no id pattern: any id is taken). */
const boothUpload = async (attendeeUid: string) => {
  const grant = await t.ok(endpoints.photoUploadAccess, {
    ...w.robot,
    event_name: event.name,
    file_name: 'booth.jpg',
    content_type: 'image/jpeg',
    attendee_uid: attendeeUid,
  });
  const form = multipartBody(
    grantForm(grant.fields, await makeJpeg({ seed: 3 }), {
      filename: 'booth.jpg',
      contentType: 'image/jpeg',
    }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  expect((await completeUpload(t, w.robot, grant.key)).body.status).toBe('ok');
};

beforeAll(async () => {
  t = await createTestApp({ FLASHBULB_TRUST_PROXY: '1', FLASHBULB_GUEST_LIMITS: LIMITS });
  other = await buildApp(t.config, { database: t.database, clock: t.clock, worker: false });
  w = await createRobotWorld(t);
  event = await createEvent(t, w.world.adminA, {
    full_name: 'Wristbands',
    robot_id_array: [w.robotId],
  });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe('attendee albums cannot be enumerated', () => {
  it('a booth-chosen id opens its album only together with the private id', async () => {
    await boothUpload('1234');
    const { rows } = await t.database.executeSql(
      'select private_id, custom_uid from attendees where uid = $1',
      ['1234'],
    );
    const privateId = rows[0]?.private_id as string;
    expect(privateId).toMatch(/^[A-Z0-9]{8}$/);
    // The bare id opens nothing (as if unknown) …
    expect(errorOf(await retrieve('198.51.100.1', '1234'))).toMatchObject({
      message_key: 'invalid_attendee_id',
    });
    expect(errorOf(await retrieve('198.51.100.1', `1234~WRONG123`))).toMatchObject({
      message_key: 'invalid_attendee_id',
    });
    // … the id with its private id does, and that is the link the owner hands out.
    const opened = await retrieve('198.51.100.1', `1234~${privateId}`);
    expect(opened.statusCode).toBe(200);
    const listed = await t.database.executeSql(
      'select 1 from attendee_events ae join attendees a on a.id = ae.attendee_id where a.uid = $1 and ae.event_id = $2',
      ['1234', event.id],
    );
    expect(listed.rows).toHaveLength(1);
    // The web-app page's "my card id" registration does not open it by the bare id either.
    const byId = await call(t.app, endpoints.webappRegister.path, '198.51.100.1', {
      event_name: event.name,
      attendee_uid: '1234',
    });
    expect(errorOf(byId)).toMatchObject({ message_key: 'invalid_attendee_id' });
  });

  it('limits failed attendee-key lookups per client address, across processes (429)', async () => {
    const from = '203.0.113.50';
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1)
      statuses.push((await retrieve(from, `${9000 + i}`, i % 2 ? other : t.app)).statusCode);
    expect(statuses.every((s) => s === 404)).toBe(true);
    // Budget used up: refused before any lookup, whatever the id.
    expect(errorOf(await retrieve(from, '9100', other))).toMatchObject({
      status: 429,
      message_key: 'too_many_requests',
    });
    // Another client is not held back.
    expect((await retrieve('203.0.113.51', '9101')).statusCode).toBe(404);
  });

  it('limits all attendee-key lookups per client address', async () => {
    const from = '203.0.113.60';
    const { rows } = await t.database.executeSql(
      'select private_id from attendees where uid = $1',
      ['1234'],
    );
    const key = `1234~${rows[0]?.private_id as string}`;
    const statuses: number[] = [];
    for (let i = 0; i < 13; i += 1) statuses.push((await retrieve(from, key)).statusCode);
    expect(statuses.slice(0, 12).every((s) => s === 200)).toBe(true);
    expect(statuses[12]).toBe(429);
  });

  it("counts the live stream's attendee keys under the same budgets (no lookups beside them)", async () => {
    const from = '203.0.113.70';
    // Guessing through the stream (a GET outside the contract's calls) …
    const stream = (attendeeUid: string) =>
      t.app.inject({
        method: 'GET',
        url: `${API_BASE}${PHOTO_STREAM_PATH}?${new URLSearchParams({
          key_type: 'attendee',
          key_value: attendeeUid,
        })}`,
        headers: { 'x-forwarded-for': from },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await stream(`${9500 + i}`)).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    // … used up the address's failure budget: the stream and the calls refuse it now.
    const refused = await stream('9600');
    expect(refused.statusCode).toBe(429);
    expect(errorOf(await retrieve(from, '9601'))).toMatchObject({
      status: 429,
      message_key: 'too_many_requests',
    });
  });

  it('limits failed lookups per event where the call names its event', async () => {
    const statuses: number[] = [];
    // The first test's registration failed once for this event; seven more from four addresses
    // (at most two each: under the per-address budget) make eight …
    for (let i = 0; i < 7; i += 1) {
      const response = await call(t.app, endpoints.webappRegister.path, `192.0.2.${i % 4}`, {
        event_name: event.name,
        attendee_uid: `77${i}`,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses.every((s) => s === 404)).toBe(true);
    // … and the event's budget is used up, for a new address too.
    const next = await call(other, endpoints.webappRegister.path, '192.0.2.99', {
      event_name: event.name,
      attendee_uid: '7799',
    });
    expect(errorOf(next)).toMatchObject({ status: 429, message_key: 'too_many_requests' });
  });
});
