import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * DNS rebinding against outgoing webhooks, through the app: an endpoint whose name resolved to a
 * public address when it was saved and resolves to 127.0.0.1 when a delivery goes out is refused
 * at sending time, and the delivery log says why; nothing reaches the server's own network.
 */

const HOST = 'hooks.rebind.test';
let t: TestApp;
let server: Server;
let port = 0;
let received = 0;
const resolutions: string[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    received += 1;
    request.resume();
    response.end('ok');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // The name answers a public address once (when the endpoint is saved), then loopback.
  t = await createTestApp(
    {},
    {
      webhookResolve: (host) => {
        resolutions.push(host);
        return Promise.resolve(resolutions.length === 1 ? ['203.0.113.9'] : ['127.0.0.1']);
      },
    },
  );
});
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean, what: string) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

describe('an endpoint whose name rebinds to loopback after it was saved', () => {
  it('is refused at delivery, recorded as failed with the reason, and never reached', async () => {
    const world = await createEventWorld(t);
    const admin = await apiKeyAuth(t, world.adminA);
    const event = await createEvent(t, world.adminA);
    const created = await t.ok(
      endpoints.webhookCreate,
      { url: `http://${HOST}:${port}/hooks`, event_types: ['lead.created'], event_id: event.id },
      admin,
    );
    expect(resolutions).toEqual([HOST]);

    await t.app.container.bus.emit('lead.created', { leadId: 1, eventId: event.id });
    const [delivery] = await waitFor(
      async () =>
        (await t.ok(endpoints.webhookDeliveries, { id: created.endpoint.id }, admin)).deliveries,
      (deliveries) => deliveries[0]?.status === 'failed',
      'the delivery to fail',
    );
    expect(delivery).toMatchObject({
      event_type: 'lead.created',
      status: 'failed',
      attempts: 1,
      last_status_code: null,
      last_error: 'the address is private or local',
      next_attempt_date: null,
    });
    expect(received).toBe(0);
    // Resolved once for the delivery: the refusal is about the address it would have used.
    expect(resolutions).toEqual([HOST, HOST]);
  });
});
