import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_BASE, endpoints } from '@flashbulb/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('server core', () => {
  it('answers health once migrated, with security headers and a request id', async () => {
    t = await createTestApp();
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'abc-123' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers['x-request-id']).toBe('abc-123');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(String(response.headers['content-security-policy'])).toContain("default-src 'self'");
    expect(String(response.headers['content-security-policy'])).toContain("frame-ancestors 'self'");
    // Plain http: no HSTS (kiosks on a site network use http).
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('sends HSTS when reached over https behind a trusted proxy', async () => {
    t = await createTestApp({ FLASHBULB_TRUST_PROXY: '1' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-forwarded-proto': 'https' },
    });
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
  });

  it('answers unknown routes, bad JSON and oversize bodies with envelope keys', async () => {
    t = await createTestApp();
    const missing = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}/nothing/here`,
      payload: {},
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({
      status: 'nok',
      error: { type: 'global', message_key: 'not_found' },
    });

    const badJson = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.signIn.path}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"username": ',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({
      status: 'nok',
      error: { message_key: 'invalid_request' },
    });

    const notObject = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.signIn.path}`,
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(notObject.statusCode).toBe(400);
    expect(notObject.json()).toMatchObject({
      status: 'nok',
      error: { message_key: 'invalid_request' },
    });

    const huge = await t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.signIn.path}`,
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'a'.repeat(BODY_LIMIT_BYTES + 10), password: 'x' }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toMatchObject({ status: 'nok', error: { message_key: 'body_too_large' } });
  });

  it('hides internal failures behind Internal Error', async () => {
    t = await createTestApp();
    await t.database.executeSql('drop table users cascade');
    const response = await t.call(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    expect(response.statusCode).toBe(500);
    expect(response.body).toEqual({
      status: 'nok',
      error: { type: 'global', message_key: 'Internal Error', message: 'Something went wrong' },
    });
    expect(JSON.stringify(response.body)).not.toMatch(/users|relation|stack|at /i);
  });

  it('rate-limits identity calls per client address', async () => {
    t = await createTestApp({ FLASHBULB_AUTH_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      statuses.push(
        (await t.call(endpoints.signIn, { username: 'a@example.com', password: 'whatever' }))
          .statusCode,
      );
    }
    expect(statuses).toEqual([400, 400, 400, 429]);
    const limited = await t.call(endpoints.signIn, {
      username: 'a@example.com',
      password: 'whatever',
    });
    expect(limited.body).toMatchObject({ status: 'nok', error: { message_key: 'rate_limited' } });
    // Non-identity calls are not limited this way.
    expect((await t.call(endpoints.myInfo, {})).statusCode).toBe(401);
    // Instant-link lookups are: short codes must not be tried by the thousand.
    const lookups: number[] = [];
    for (let i = 0; i < 4; i += 1)
      lookups.push(
        (await t.call(endpoints.retrieveInstantPhoto, { instant: `ABCD-23456${i + 2}` }))
          .statusCode,
      );
    expect(lookups).toEqual([404, 404, 404, 429]);
  });

  it('rate-limits the pages of instant links per address too (a 404 tells a wrong code)', async () => {
    const dist = await mkdtemp(path.join(tmpdir(), 'flashbulb-dist-'));
    await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(path.join(dist, 'guest.html'), '<!doctype html><html><body></body></html>');
    t = await createTestApp({ FLASHBULB_AUTH_RATE_LIMIT: '3', FLASHBULB_WEB_DIST: dist });
    const pages: number[] = [];
    for (let i = 0; i < 4; i += 1)
      pages.push(
        (await t.app.inject({ method: 'GET', url: `/?instant=ABCD-23456${i + 2}` })).statusCode,
      );
    expect(pages).toEqual([404, 404, 404, 429]);
    // Album pages are not limited this way.
    expect((await t.app.inject({ method: 'GET', url: '/?pId=whatever' })).statusCode).toBe(200);
  });

  it('publishes OpenAPI for every endpoint of the contract at /api/docs', async () => {
    t = await createTestApp();
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ paths: Record<string, { post?: { summary?: string } }> }>();
    for (const endpoint of Object.values(endpoints)) {
      const path = `${API_BASE}${endpoint.path}`;
      expect(document.paths[path]?.post?.summary, path).toBe(endpoint.summary);
    }
    const ui = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(ui.statusCode).toBe(200);
    expect(ui.headers['content-type']).toContain('text/html');
  });
});

describe('first administrator', () => {
  it('is created once even when two requests race', async () => {
    t = await createTestApp();
    expect(await t.ok(endpoints.setupStatus, {})).toEqual({
      needs_first_admin: true,
      needs_setup_token: false,
    });
    const [a, b] = await Promise.all([
      t.call(endpoints.createFirstAdmin, {
        email: 'one@example.com',
        password: 'first good password',
      }),
      t.call(endpoints.createFirstAdmin, {
        email: 'two@example.com',
        password: 'second good password',
      }),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const rows = await t.database.executeSql('select count(*)::int as n from users');
    expect(rows.rows[0]).toEqual({ n: 1 });
    expect(await t.ok(endpoints.setupStatus, {})).toEqual({
      needs_first_admin: false,
      needs_setup_token: false,
    });
  });

  it('refuses a weak password and creates nothing', async () => {
    t = await createTestApp();
    const weak = await t.call(endpoints.createFirstAdmin, {
      email: 'one@example.com',
      password: 'password1',
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.body).toMatchObject({
      error: { message_key: 'invalid_password', field: 'password' },
    });
    expect(await t.ok(endpoints.setupStatus, {})).toEqual({
      needs_first_admin: true,
      needs_setup_token: false,
    });
  });
});

describe('web app serving', () => {
  it('serves hashed assets for a year, routes unknown pages to the app, and 404s missing assets', async () => {
    const { mkdir, mkdtemp, writeFile } = await import('node:fs/promises');
    const pathModule = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = await mkdtemp(pathModule.join(tmpdir(), 'flashbulb-dist-'));
    await mkdir(pathModule.join(dist, 'assets'), { recursive: true });
    await writeFile(pathModule.join(dist, 'index.html'), '<!doctype html><title>Flashbulb</title>');
    await writeFile(pathModule.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    t = await createTestApp({ FLASHBULB_WEB_DIST: dist });

    const asset = await t.app.inject({ method: 'GET', url: '/assets/app-abc123.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const page = await t.app.inject({ method: 'GET', url: '/events/ABCD' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['cache-control']).toBe('no-cache');
    const missing = await t.app.inject({ method: 'GET', url: '/assets/app-gone.js' });
    expect(missing.statusCode).toBe(404);
    const api = await t.app.inject({ method: 'GET', url: `${API_BASE}/nothing` });
    expect(api.statusCode).toBe(404);
  });

  it('sends guest links the guest build and every other page the console build', async () => {
    const { mkdir, mkdtemp, writeFile } = await import('node:fs/promises');
    const pathModule = await import('node:path');
    const { tmpdir } = await import('node:os');
    const dist = await mkdtemp(pathModule.join(tmpdir(), 'flashbulb-dist-'));
    await mkdir(pathModule.join(dist, 'assets'), { recursive: true });
    await writeFile(pathModule.join(dist, 'index.html'), '<!doctype html><title>console</title>');
    await writeFile(pathModule.join(dist, 'guest.html'), '<!doctype html><title>guest</title>');
    const app = await createTestApp({ FLASHBULB_WEB_DIST: dist });
    t = app;
    const titleOf = async (url: string) => {
      const reply = await app.app.inject({ method: 'GET', url });
      expect(reply.statusCode).toBe(200);
      expect(reply.headers['cache-control']).toBe('no-cache');
      return /<title>([^<]*)<\/title>/.exec(reply.body)?.[1];
    };
    // Album, slide show, kiosk, attendee and mini-album links (albums spec §2.1): the guest page.
    expect(await titleOf('/?pId=abc')).toBe('guest');
    expect(await titleOf('/?pId=abc&mode=slideshow')).toBe('guest');
    expect(await titleOf('/?pvId=abc&kiosk=true')).toBe('guest');
    expect(await titleOf('/?attId=ABCD-1234')).toBe('guest');
    expect(await titleOf('/?eName=NOPE')).toBe('guest');
    // The sign-in page, console routes and unknown parameters: the console.
    expect(await titleOf('/')).toBe('console');
    expect(await titleOf('/?foo=1')).toBe('console');
    expect(await titleOf('/events/ABCD?pId=abc')).toBe('console');
  });
});
