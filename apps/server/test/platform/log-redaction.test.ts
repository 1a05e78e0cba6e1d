import type { AddressInfo } from 'node:net';
import { API_BASE, endpoints, PHOTO_STREAM_PATH, photoStreamUrlAt } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redactUrl } from '../../src/http/log-redaction.ts';
import { createEvent, createEventWorld } from '../helpers/events.ts';
import { openSse } from '../helpers/sse.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const STREAM_PATH = `${API_BASE}${PHOTO_STREAM_PATH}`;
const lines: string[] = [];
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'info' },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
});
afterAll(async () => {
  await t.close();
});

describe('keys never reach the logs', () => {
  it('redacts every key-carrying query parameter and keeps the rest of the URL', () => {
    expect(redactUrl('/?pvId=SECRET&kType=evSB1&attendeeId=A1#x')).toBe(
      '/?pvId=[redacted]&kType=evSB1&attendeeId=[redacted]#x',
    );
    expect(redactUrl(`${STREAM_PATH}?key_type=private&key_value=abc%2Fdef`)).toBe(
      `${STREAM_PATH}?key_type=private&key_value=[redacted]`,
    );
    expect(redactUrl('/verify-from-address?token=t0k3n')).toBe(
      '/verify-from-address?token=[redacted]',
    );
    expect(redactUrl('/events?show=visible')).toBe('/events?show=visible');
    // Signed URLs (ADR 0006): the signature is a bearer token until it expires.
    expect(redactUrl('/media/photos/7/original?a=g&e=1795428000&s=uHKi_zJ2')).toBe(
      '/media/photos/7/original?a=g&e=1795428000&s=[redacted]',
    );
    expect(redactUrl('/storage/archive/x.jpg?expires=1795428000&signature=abc-DEF')).toBe(
      '/storage/archive/x.jpg?expires=1795428000&signature=[redacted]',
    );
    // Kiosk display tokens, print tickets and lead links are bearer tokens too.
    expect(redactUrl('/?kType=k&display=D1sPl4y&x=1')).toBe('/?kType=k&display=[redacted]&x=1');
    expect(redactUrl('/print?ticket=T1ck3t')).toBe('/print?ticket=[redacted]');
    expect(redactUrl('/lead?lead_token=L34d&ok=1')).toBe('/lead?lead_token=[redacted]&ok=1');
    expect(redactUrl('/media/photos/7/original?sort=s&ss=1')).toBe(
      '/media/photos/7/original?sort=s&ss=1',
    );
  });

  it('logs album links and the live stream without their keys', async () => {
    const world = await createEventWorld(t);
    const event = await createEvent(t, world.adminA, { full_name: 'Logged Gala' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const stream = await openSse(
      photoStreamUrlAt(base, { key_type: 'private', key_value: event.private_api_key }),
    );
    expect(stream.status).toBe(200);
    stream.close();
    await t.app.inject({ method: 'GET', url: `/?eId=${encodeURIComponent(event.owner_api_key)}` });
    await t.call(endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: event.public_api_key,
      max_size: 10,
    });

    const log = lines.join('');
    // The requests were logged…
    expect(log).toContain(`${STREAM_PATH}?key_type=private&key_value=[redacted]`);
    expect(log).toContain('/?eId=[redacted]');
    // …and no key of the event appears anywhere.
    for (const secret of [event.private_api_key, event.owner_api_key, event.public_api_key]) {
      expect(log).not.toContain(secret);
      expect(log).not.toContain(encodeURIComponent(secret));
    }
  });
});
