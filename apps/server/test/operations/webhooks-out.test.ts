import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints, WEBHOOK_EVENT_TYPES, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebhookSender } from '../../src/repositories/operations/webhook-sender.ts';
import { WEBHOOK_DISABLE_AFTER_FAILURES } from '../../src/services/operations/webhook-out.service.ts';
import { apiKeyAuth, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

interface Received {
  headers: Record<string, string | string[] | undefined>;
  raw: string;
  body: { id: string; type: string; data: Record<string, unknown> };
}

/** A webhook receiver: records every POST, answers the next status from `answers` (else 200). */
class Receiver {
  readonly received: Received[] = [];
  answers: number[] = [];
  always: number | null = null;
  private server: Server | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        this.received.push({
          headers: request.headers,
          raw,
          body: JSON.parse(raw) as Received['body'],
        });
        response.statusCode = this.always ?? this.answers.shift() ?? 200;
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }
}

/** What a receiver does with the docs' scheme: HMAC-SHA256 of "<t>.<raw body>" with the secret. */
const verify = (secret: string, received: Received): boolean => {
  const header = String(received.headers['flashbulb-signature'] ?? '');
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  if (!parts.t || !parts.v1) return false;
  const expected = createHmac('sha256', secret).update(`${parts.t}.${received.raw}`).digest();
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
};

const waitFor = async (check: () => boolean | Promise<boolean>, what: string) => {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let robot: { key_type: 'robot'; key_value: string };
let admin: { authorization: string };
const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
  t = await createTestApp({ FLASHBULB_WEBHOOKS_ALLOW_PRIVATE: 'true' });
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth' },
    admin,
  );
  robot = { key_type: 'robot', key_value: created.api_key };
  event = await createEvent(t, world.adminA, { robot_id_array: [created.id] });
});
afterAll(async () => {
  await t.close();
  await receiver.stop();
});

/** Emits a product fact on the bus, as its service does once the fact is stored. */
const emitFact = async (type: (typeof WEBHOOK_EVENT_TYPES)[number], n: number) => {
  const bus = t.app.container.bus;
  const eventId = event.id;
  switch (type) {
    case 'photo.ready':
      return bus.emit('photo.ready', { photoId: n, eventId });
    case 'attendee.created':
      return bus.emit('attendee.created', { attendeeId: n, uid: `UID${n}`, eventId });
    case 'lead.created':
      return bus.emit('lead.created', { leadId: n, eventId });
    case 'payment.paid':
      return bus.emit('payment.confirmed', { paymentId: n, eventId });
    case 'payment.refunded':
      return bus.emit('payment.refunded', { paymentId: n, eventId });
    case 'print.finished':
      return bus.emit('print.finished', { printJobId: n, eventId });
  }
};

describe('outgoing webhook addresses', () => {
  it('refuses private, loopback and local names unless allowed; needs http(s)', async () => {
    const strict = new WebhookSender({
      allowPrivate: false,
      resolve: (host) => Promise.resolve(host === 'localhost' ? ['127.0.0.1'] : ['203.0.113.9']),
    });
    for (const url of [
      'http://127.0.0.1:8080/x',
      'http://10.1.2.3/x',
      'http://192.168.0.10/x',
      'http://172.20.0.1/x',
      'http://169.254.169.254/latest',
      'http://[::1]/x',
      'http://[::ffff:127.0.0.1]/x',
      'http://[fd00::1]/x',
      'http://localhost:3000/x',
    ])
      expect(await strict.check(url), url).toBe('private');
    expect(await strict.check('https://hooks.example.com/in')).toBe('ok');
    expect(await strict.check('https://203.0.113.10/in')).toBe('ok');
    expect(await strict.check('ftp://hooks.example.com/in')).toBe('invalid');
    expect(await strict.check('https://user:pw@hooks.example.com/in')).toBe('invalid');
    expect(await strict.check('not a url')).toBe('invalid');
    const open = new WebhookSender({ allowPrivate: true });
    expect(await open.check('http://127.0.0.1:8080/x')).toBe('ok');
  });

  it('refuses bad input with its key and stores nothing', async () => {
    const before = await t.ok(endpoints.webhookList, {}, admin);
    const noTypes = await t.call(
      endpoints.webhookCreate,
      { url: receiver.url, event_types: [] },
      admin,
    );
    expect(noTypes.statusCode).toBe(400);
    expect(noTypes.body).toMatchObject({ error: { message_key: 'webhook_event_types_required' } });
    const badUrl = await t.call(
      endpoints.webhookCreate,
      { url: 'javascript:alert(1)', event_types: ['photo.ready'] },
      admin,
    );
    expect(badUrl.body).toMatchObject({ error: { message_key: 'webhook_url_invalid' } });
    const otherEvent = await t.call(
      endpoints.webhookCreate,
      { url: receiver.url, event_types: ['photo.ready'], event_id: 2_000_000 },
      admin,
    );
    expect(otherEvent.body).toMatchObject({ error: { message_key: 'event_not_found' } });
    expect(await t.ok(endpoints.webhookList, {}, admin)).toEqual(before);
  });
});

describe('outgoing webhooks', () => {
  let secret = '';
  let endpointId = 0;

  it('adds an endpoint and shows its secret once', async () => {
    const created = await t.ok(
      endpoints.webhookCreate,
      { url: receiver.url, event_types: [...WEBHOOK_EVENT_TYPES], event_id: event.id },
      admin,
    );
    secret = created.secret;
    endpointId = created.endpoint.id;
    expect(secret).toMatch(/^whsec_[\w-]{20,}$/);
    expect(created.endpoint).toMatchObject({
      enabled: 1,
      event_id: event.id,
      secret_hint: secret.slice(-4),
    });
    const list = await t.ok(endpoints.webhookList, {}, admin);
    expect(list.endpoints.map((e) => e.id)).toContain(endpointId);
    expect(JSON.stringify(list)).not.toContain(secret);
    // Sealed at rest.
    const { rows } = await t.database.executeSql(
      'select secret from webhook_endpoints where id = $1',
      [endpointId],
    );
    expect(String(rows[0]?.secret)).not.toContain(secret);
  });

  it('signs a delivery of every kind of event; a receiver verifies each', async () => {
    // A real ingest for photo.ready; the other facts as their services emit them.
    const photo = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 7 }));
    for (const type of WEBHOOK_EVENT_TYPES.filter((type) => type !== 'photo.ready'))
      await emitFact(type, 100);
    await waitFor(() => receiver.received.length >= WEBHOOK_EVENT_TYPES.length, 'six deliveries');
    const byType = new Map(receiver.received.map((r) => [r.body.type, r]));
    expect([...byType.keys()].sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
    for (const received of receiver.received) {
      expect(verify(secret, received), received.body.type).toBe(true);
      expect(verify(`${secret}x`, received)).toBe(false);
      expect(received.headers['flashbulb-event-id']).toBe(received.body.id);
      expect(received.headers['content-type']).toBe('application/json');
    }
    expect(byType.get('photo.ready')?.body.data).toMatchObject({
      photo_id: photo.id,
      event_id: event.id,
    });
    expect(byType.get('payment.paid')?.body.data).toMatchObject({ payment_id: 100 });
    // The same fact again (a redone listener) is not delivered twice.
    await emitFact('lead.created', 100);
    await new Promise((r) => setTimeout(r, 500));
    expect(receiver.received.filter((r) => r.body.type === 'lead.created')).toHaveLength(1);
  });

  it('retries within a minute after a 500, with the same event id, and logs both attempts', async () => {
    receiver.received.length = 0;
    receiver.answers = [500];
    await emitFact('print.finished', 200);
    await waitFor(() => receiver.received.length === 1, 'the first attempt');
    const log = async () =>
      (await t.ok(endpoints.webhookDeliveries, { id: endpointId }, admin)).deliveries;
    await waitFor(async () => (await log())[0]?.status === 'queued', 'the retry scheduled');
    const [first] = await log();
    expect(first).toMatchObject({
      event_type: 'print.finished',
      attempts: 1,
      last_status_code: 500,
    });
    const wait = Date.parse(first!.next_attempt_date!) - t.clock.now().getTime();
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60_000);

    // The retry comes due (the worker's resume finds it as the scheduled job would).
    t.clock.advance(wait + 1000);
    await t.app.container.services.webhookOut.resumeDue();
    await waitFor(() => receiver.received.length === 2, 'the retry');
    const [one, two] = receiver.received;
    expect(two!.headers['flashbulb-event-id']).toBe(one!.headers['flashbulb-event-id']);
    expect(verify(secret, two!)).toBe(true);
    await waitFor(async () => (await log())[0]?.status === 'sent', 'the delivery sent');
    expect((await log())[0]).toMatchObject({ attempts: 2, last_status_code: 200 });

    // Replay from the log: a new delivery of the same body and event id.
    const replayed = await t.ok(endpoints.webhookReplay, { delivery_id: first!.id }, admin);
    expect(replayed.delivery.event_id).toBe(first!.event_id);
    await waitFor(() => receiver.received.length === 3, 'the replay');
    expect(receiver.received[2]!.raw).toBe(one!.raw);
  });

  it('disables itself after repeated failures, tells its creator, and then sends nothing', async () => {
    receiver.received.length = 0;
    receiver.always = 500;
    for (let n = 0; n < WEBHOOK_DISABLE_AFTER_FAILURES; n += 1)
      await emitFact('photo.ready', 1000 + n);
    const list = async () =>
      (await t.ok(endpoints.webhookList, {}, admin)).endpoints.find((e) => e.id === endpointId)!;
    await waitFor(async () => (await list()).enabled === 0, 'the endpoint disabled');
    expect((await list()).disabled_reason).toContain(`${WEBHOOK_DISABLE_AFTER_FAILURES} failed`);
    const { rows } = await t.database.executeSql(
      "select recipient from outbox where kind = 'webhook_disabled'",
      [],
    );
    expect(rows.map((r) => r.recipient)).toEqual(['admin-a@example.com']);

    // Nothing more: neither new facts nor the retries that were due.
    const seen = receiver.received.length;
    expect(seen).toBe(WEBHOOK_DISABLE_AFTER_FAILURES);
    receiver.always = null;
    await emitFact('photo.ready', 5000);
    t.clock.advance(10 * 60_000);
    await t.app.container.services.webhookOut.resumeDue();
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.received.length).toBe(seen);
    const replay = await t.call(
      endpoints.webhookReplay,
      {
        delivery_id: (await t.ok(endpoints.webhookDeliveries, { id: endpointId }, admin))
          .deliveries[0]!.id,
      },
      admin,
    );
    expect(replay.body).toMatchObject({ error: { message_key: 'webhook_disabled' } });

    // Enabled again: facts flow.
    const enabled = await t.ok(endpoints.webhookSetEnabled, { id: endpointId, enabled: 1 }, admin);
    expect(enabled.endpoint).toMatchObject({ enabled: 1, disabled_reason: null });
    await emitFact('photo.ready', 6000);
    await waitFor(() => receiver.received.length === seen + 1, 'a delivery after enabling');
  });

  it('keeps endpoints to their organisation', async () => {
    const adminB = await apiKeyAuth(t, world.adminB);
    const theirs = await t.call(endpoints.webhookDeliveries, { id: endpointId }, adminB);
    expect(theirs.statusCode).toBe(404);
    expect((await t.ok(endpoints.webhookList, {}, adminB)).endpoints).toEqual([]);
    await t.ok(endpoints.webhookDelete, { id: endpointId }, admin);
    expect((await t.ok(endpoints.webhookList, {}, admin)).endpoints).toEqual([]);
  });
});
