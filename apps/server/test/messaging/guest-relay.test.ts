import { API_BASE, endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createEvent, createEventWorld, errorOf, type EventWorld } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// The guest limits, low enough to reach in a test. One proxy hop: each test's client has its own
// address (X-Forwarded-For), so the per-address budgets of one test leave the others alone.
const LIMITS = [
  'mailPerAddressHourly=6',
  'mailPerKeyHourly=9',
  'mailPerEventHourly=12',
  'mailPerRecipientHourly=2',
  'smsPerAddressHourly=1',
  'registerPerAddressHourly=2',
].join(',');

let t: TestApp;
let other: FastifyInstance;
let world: EventWorld;
let event: FlashbulbEvent;
let photoUid: string;
let sent = 0;

/** Fresh recipient addresses (the per-recipient budget is not what most tests look at). */
const recipients = (n: number) =>
  Array.from({ length: n }, () => {
    sent += 1;
    return `guest${sent}@example.com`;
  });

const send = (
  from: string,
  body: Record<string, unknown>,
  app: FastifyInstance = t.app,
): Promise<{ statusCode: number; body: unknown }> =>
  app
    .inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.sendMiniAlbumLink.path}`,
      headers: { 'x-forwarded-for': from },
      payload: {
        key_type: 'public',
        key_value: event.public_api_key,
        photo_uid_array: [photoUid],
        receiver_full_name: 'Ann',
        ...body,
      },
    })
    .then((r) => ({ statusCode: r.statusCode, body: r.json() }));

const counts = async () => {
  const { rows } = await t.database.executeSql(
    `select (select count(*)::int from mini_albums) as albums,
            (select count(*)::int from outbox where channel = 'mail') as mails,
            (select count(*)::int from outbox where channel = 'sms') as sms`,
    [],
  );
  return rows[0] as { albums: number; mails: number; sms: number };
};

beforeAll(async () => {
  t = await createTestApp({ FLASHBULB_TRUST_PROXY: '1', FLASHBULB_GUEST_LIMITS: LIMITS });
  // A second API process on the same database: budgets must hold across both.
  other = await buildApp(t.config, { database: t.database, clock: t.clock, worker: false });
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, {
    full_name: 'Relay Gala',
    is_sms_enabled: 1,
    sms_body_template: 'Hi {user_name}, your photos: {image_url}',
    email_body_template_share: 'Hi {user_name}, {sender_name_or_email} shared photos: {image_url}',
  });
  photoUid = (await insertReadyPhoto(t, event)).uid;
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

describe('no relay: event/mini-album/send-link with a guest key', () => {
  it('shows placeholder values as text, never as links (HTML, text part and SMS)', async () => {
    const response = await send('198.51.100.1', {
      email_to_address_array: ['reader@example.com'],
      receiver_full_name: 'verify at https://evil.example/login',
      sms_number: '(212) 555-0101',
    });
    expect(response.statusCode).toBe(200);
    const { rows } = await t.database.executeSql(
      `select channel, content from outbox where recipient in ('reader@example.com', '2125550101')`,
      [],
    );
    const mail = rows.find((r) => r.channel === 'mail')?.content as { html: string; text: string };
    const sms = rows.find((r) => r.channel === 'sms')?.content as { body: string };
    expect(mail.html).not.toMatch(/href="https:\/\/evil/);
    expect(mail.html).not.toContain('https://evil.example/login');
    expect(mail.text).not.toContain('https://evil.example/login');
    expect(sms.body).not.toContain('https://evil.example/login');
    // Still readable: the same characters with zero-width spaces between.
    expect(mail.text.replace(/\u200B/g, '')).toContain('verify at https://evil.example/login');
    expect(mail.html.replace(/\u200B/g, '')).toContain('verify at https://evil.example/login');
    // The album's own link is a link.
    expect(mail.html).toMatch(/<a href="http[^"]+\?mId=/);
  });

  it('sends to at most 5 recipients per call, however the entries are split; refused calls store nothing', async () => {
    const before = await counts();
    const many = await send('198.51.100.2', {
      email_to_address_array: [recipients(40).join(', ')],
    });
    expect(errorOf(many)).toMatchObject({
      status: 400,
      message_key: 'too_many_recipients',
      field: 'email_to_address_array',
    });
    const six = await send('198.51.100.2', {
      email_to_address_array: [...recipients(3), recipients(3).join(',')],
    });
    expect(errorOf(six)).toMatchObject({ status: 400, message_key: 'too_many_recipients' });
    expect(await counts()).toEqual(before);
    // An operator is not a guest: the owner path keeps its 20 entries.
    const owner = await t.call(
      endpoints.sendMiniAlbumLink,
      { event_id: event.id, photo_uid_array: [photoUid], email_to_address_array: recipients(8) },
      { authorization: world.adminA.authorization },
    );
    expect(owner.body.status).toBe('ok');
  });

  it('holds hourly budgets per client address, per key and per event across processes (429)', async () => {
    // Address budget 6: five from one process, then two more from the other are one too many.
    expect((await send('203.0.113.1', { email_to_address_array: recipients(5) })).statusCode).toBe(
      200,
    );
    const before = await counts();
    const overAddress = await send('203.0.113.1', { email_to_address_array: recipients(2) }, other);
    expect(errorOf(overAddress)).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    expect(await counts()).toEqual(before);
    expect(
      (await send('203.0.113.1', { email_to_address_array: recipients(1) }, other)).statusCode,
    ).toBe(200);

    // Key budget 9 (the public key has sent 1 + 6 by now): another client gets 2 more, not 3.
    expect(
      errorOf(await send('203.0.113.2', { email_to_address_array: recipients(3) }, other)),
    ).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    expect((await send('203.0.113.2', { email_to_address_array: recipients(2) })).statusCode).toBe(
      200,
    );

    // Event budget 12 (9 so far, plus the operator's sends, which do not count): the private key
    // is another key of the same event; 3 more fit, the fourth does not.
    const privateKey = { key_type: 'private', key_value: event.private_api_key };
    expect(
      (await send('203.0.113.3', { ...privateKey, email_to_address_array: recipients(3) }))
        .statusCode,
    ).toBe(200);
    expect(
      errorOf(await send('203.0.113.4', { ...privateKey, email_to_address_array: recipients(1) })),
    ).toMatchObject({ status: 429, message_key: 'too_many_requests' });
  });

  it('holds a budget per recipient and per address for SMS', async () => {
    const other2 = 'other-event-guest@example.com';
    const second = await createEvent(t, world.adminA, {
      full_name: 'Second Gala',
      is_sms_enabled: 1,
      sms_body_template: 'Hi {user_name}: {image_url}',
    });
    const uid = (await insertReadyPhoto(t, second)).uid;
    const sendSecond = (from: string, body: Record<string, unknown>) =>
      send(from, {
        key_value: second.public_api_key,
        photo_uid_array: [uid],
        ...body,
      });
    // The same mailbox at most twice an hour, whoever asks.
    expect((await sendSecond('192.0.2.10', { email_to_address_array: [other2] })).statusCode).toBe(
      200,
    );
    expect((await sendSecond('192.0.2.11', { email_to_address_array: [other2] })).statusCode).toBe(
      200,
    );
    expect(
      errorOf(await sendSecond('192.0.2.12', { email_to_address_array: [other2] })),
    ).toMatchObject({ status: 429, message_key: 'too_many_requests' });
    // One SMS per client address an hour.
    expect((await sendSecond('192.0.2.13', { sms_number: '(212) 555-0102' })).statusCode).toBe(200);
    expect(errorOf(await sendSecond('192.0.2.13', { sms_number: '(212) 555-0103' }))).toMatchObject(
      { status: 429, message_key: 'too_many_requests' },
    );
  });
});

describe('no relay: webapp/register', () => {
  it('mails at most the hourly budget per client address, across processes', async () => {
    const register = (app: FastifyInstance, email: string) =>
      app
        .inject({
          method: 'POST',
          url: `${API_BASE}${endpoints.webappRegister.path}`,
          headers: { 'x-forwarded-for': '198.51.100.77' },
          payload: { event_name: event.name, email },
        })
        .then((r) => ({ statusCode: r.statusCode, body: r.json<unknown>() }));
    const [a, b, c] = recipients(3);
    expect((await register(t.app, a!)).statusCode).toBe(200);
    expect((await register(other, b!)).statusCode).toBe(200);
    const before = await counts();
    expect(errorOf(await register(t.app, c!))).toMatchObject({
      status: 429,
      message_key: 'too_many_requests',
    });
    expect(await counts()).toEqual(before);
  });
});
