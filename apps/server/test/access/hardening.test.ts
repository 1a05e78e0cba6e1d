import { connect } from 'node:net';
import { API_BASE, endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let authorization: string;
let eventId: number;

beforeAll(async () => {
  t = await createTestApp();
  const world = await createEventWorld(t);
  authorization = world.adminA.authorization;
  eventId = (await createEvent(t, world.adminA)).id;
});
afterAll(async () => t?.close());

const expectNok = (
  response: { statusCode: number; body: unknown },
  status: number,
  key: string,
  field?: string,
): void => {
  expect(response.statusCode).toBe(status);
  expect(response.body).toMatchObject({
    status: 'nok',
    error: { message_key: key, ...(field ? { field } : {}) },
  });
};

describe('hardening: bad input is refused, never a 500', () => {
  it('a NUL in a string before sign-in answers invalid_value on that field', async () => {
    expectNok(
      await t.call(endpoints.signIn, { username: 'ann\u0000@example.com', password: 'x' }),
      400,
      'invalid_value',
      'username',
    );
    expectNok(
      await t.call(endpoints.forgotPassword, { username: '\u0000' }),
      400,
      'invalid_value',
      'username',
    );
  });

  it('half an emoji (an unpaired surrogate) answers invalid_value', async () => {
    const response = await t.call(
      endpoints.updateEvent,
      { id: eventId, full_name: 'Gala \uD83D', event_last_updated_date: 'x' },
      { authorization },
    );
    expect(response.statusCode).toBe(400);
    expect(response.body.status).toBe('nok');
  });

  it('an integer the database cannot hold answers invalid_value', async () => {
    expectNok(
      await t.call(
        endpoints.ownerPhotoList,
        { event_id: eventId, max_time_minutes: 2147483648 },
        { authorization },
      ),
      400,
      'invalid_value',
      'max_time_minutes',
    );
    expectNok(
      await t.call(endpoints.ownerPhotoList, { event_id: 2 ** 40 }, { authorization }),
      400,
      'invalid_value',
      'event_id',
    );
  });

  it('an owner call without credentials answers 401 whatever its body, malformed JSON too', async () => {
    expectNok(
      await t.call(endpoints.ownerPhotoList, { event_id: 'nope', extra: '\u0000' }),
      401,
      'unauthorized_user',
    );
    const raw = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.ownerPhotoList.path}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"event_id": ',
    });
    expect(raw.statusCode).toBe(401);
    expect(raw.json()).toMatchObject({
      status: 'nok',
      error: { message_key: 'unauthorized_user' },
    });
    // With credentials the same malformed body is a 400.
    const signedIn = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.ownerPhotoList.path}`,
      headers: { 'content-type': 'application/json', authorization },
      payload: '{"event_id": ',
    });
    expect(signedIn.statusCode).toBe(400);
  });

  it('a path-traversal URL on the API docs static files answers 404, not 500', async () => {
    for (const url of [
      '/api/docs/static/../../etc/passwd',
      '/api/docs/static/..%2f..%2fetc%2fpasswd',
      '/api/docs/static/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect([403, 404], url).toContain(response.statusCode);
      expect(response.body).not.toContain('root:');
    }
  });
});

describe('hardening over a real socket', () => {
  let port: number;
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });

  /** Sends raw bytes and answers the whole reply once the server closes or ends it. */
  const raw = (request: string): Promise<string> =>
    new Promise((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => {
        reply += chunk;
      });
      socket.on('close', () => resolve(reply));
      socket.on('error', (error) => (reply ? resolve(reply) : reject(error)));
      socket.write(request);
    });

  it('a 100 KB query value answers 431 in the envelope', async () => {
    const reply = await raw(
      `GET /api/v1/photo/stream?key_type=public&key_value=${'a'.repeat(100_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
    );
    expect(reply).toMatch(/^HTTP\/1\.1 431 /);
    const body = JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)) as unknown;
    expect(body).toMatchObject({ status: 'nok', error: { message_key: 'headers_too_large' } });
  });

  it('a path-traversal URL sent as is on the docs static files answers 404 in the envelope', async () => {
    for (const path of [
      '/api/docs/static/../../etc/passwd',
      '/api/docs/static/../../../../../../etc/passwd',
      '/api/docs/static/%2e%2e/%2e%2e/etc/passwd',
      '/api/docs/static/..%2f..%2fetc%2fpasswd',
    ]) {
      const reply = await raw(`GET ${path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
      expect(reply, path).toMatch(/^HTTP\/1\.1 40[34] /);
      expect(reply, path).not.toContain('root:');
    }
  });

  it('a malformed request line answers 400 in the envelope', async () => {
    const reply = await raw('GARBAGE\r\n\r\n');
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('"message_key":"invalid_request"');
  });
});
