import { connect } from 'node:net';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { API_BASE, endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapAdmin } from '../../src/bootstrap.ts';
import { loadConfig } from '../../src/config.ts';
import { resolveSecret } from '../../src/container/core.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

describe('secret.key is checked when read back', () => {
  const configFor = (dataDir: string) =>
    loadConfig({ FLASHBULB_DATA_DIR: dataDir, FLASHBULB_SECRET_KEY: '' });

  it('a secret.key shorter than 32 bytes refuses to start with a clear error', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-secret-'));
    try {
      await writeFile(path.join(dir, 'secret.key'), 'short-key\n');
      await expect(resolveSecret(configFor(dir))).rejects.toThrow(
        /secret\.key.*9 bytes.*at least 32/,
      );
      await writeFile(path.join(dir, 'secret.key'), '');
      await expect(resolveSecret(configFor(dir))).rejects.toThrow(/at least 32/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('a generated secret.key is long enough and read back as written', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-secret-'));
    try {
      const first = await resolveSecret(configFor(dir));
      expect(Buffer.byteLength(first)).toBeGreaterThanOrEqual(32);
      expect(await resolveSecret(configFor(dir))).toBe(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('first administrator: only from this machine or with the set-up token', () => {
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await createTestApp(
      { LOG_LEVEL: 'info' },
      { worker: false, logStream: { write: (line: string) => void lines.push(line) } },
    );
  });
  afterAll(async () => t?.close());

  const claim = (
    body: Record<string, unknown>,
    remoteAddress: string,
    headers: Record<string, string> = {},
  ) =>
    t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.createFirstAdmin.path}`,
      payload: body,
      remoteAddress,
      headers,
    });
  const status = (remoteAddress: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoints.setupStatus.path}`,
      payload: {},
      remoteAddress,
      headers,
    });
  const admin = { email: 'first@example.com', password: 'correct horse battery staple' };

  it('refuses a visitor from another address without the token, and says a token is needed', async () => {
    expect((await status('203.0.113.7')).json()).toEqual({
      status: 'ok',
      result: { needs_first_admin: true, needs_setup_token: true },
    });
    for (const [remote, headers] of [
      ['203.0.113.7', {}],
      // A reverse proxy on this machine: the socket is loopback, the visitor is not.
      ['127.0.0.1', { 'x-forwarded-for': '203.0.113.7' }],
      ['127.0.0.1', { forwarded: 'for=203.0.113.7' }],
    ] as const) {
      const refused = await claim(admin, remote, headers);
      expect(refused.statusCode, remote).toBe(403);
      expect(refused.json()).toMatchObject({
        status: 'nok',
        error: { message_key: 'setup_token_required', field: 'setup_token' },
      });
    }
    const wrong = await claim({ ...admin, setup_token: 'not-the-token' }, '203.0.113.7');
    expect(wrong.statusCode).toBe(403);
    expect((await status('127.0.0.1')).json()).toMatchObject({
      result: { needs_first_admin: true, needs_setup_token: false },
    });
  });

  it('prints the set-up token in the log at start; with it any address may claim', async () => {
    await bootstrapAdmin(t.app.container, t.config, t.app.log);
    const match = /set-up token ([\w-]{20,})/.exec(lines.join(''));
    expect(match).not.toBeNull();
    const created = await claim({ ...admin, setup_token: match![1] }, '203.0.113.7');
    expect(created.json()).toEqual({ status: 'ok', result: { email: admin.email } });
    // Done once: the loopback cannot claim again either.
    const again = await claim({ ...admin, email: 'second@example.com' }, '127.0.0.1');
    expect(again.json()).toMatchObject({ error: { message_key: 'setup_already_done' } });
  });
});

describe('request, header and body timeouts over a real socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp(
      { FLASHBULB_REQUEST_TIMEOUT_SECONDS: '3', FLASHBULB_HEADERS_TIMEOUT_SECONDS: '2' },
      { worker: false },
    );
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(async () => t?.close());

  /**
   * Sends `head`, then one byte of `trickle` every 250 ms; answers what the server wrote and how
   * long the connection stayed open (capped at 20 s).
   */
  const trickle = (head: string, trickleBytes: string) =>
    new Promise<{ reply: string; openMs: number }>((resolve) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      let reply = '';
      let sent = 0;
      const timer = setInterval(() => {
        if (socket.writable) socket.write(trickleBytes[sent % trickleBytes.length]!);
        sent += 1;
      }, 250);
      const cap = setTimeout(() => socket.destroy(), 20_000);
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (reply += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => {
        clearInterval(timer);
        clearTimeout(cap);
        resolve({ reply, openMs: Date.now() - started });
      });
      socket.write(head);
    });

  it('a body trickled byte by byte is cut at the request timeout with 408', async () => {
    const { reply, openMs } = await trickle(
      `POST ${API_BASE}${endpoints.signIn.path} HTTP/1.1\r\nHost: x\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"username":"',
      'a',
    );
    expect(openMs).toBeLessThan(10_000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
    expect(reply).toContain('"message_key":"request_timeout"');
  });

  it('headers trickled byte by byte are cut at the headers timeout', async () => {
    const { reply, openMs } = await trickle('GET / HTTP/1.1\r\nHost: x\r\nX-Slow: ', 'b');
    expect(openMs).toBeLessThan(8_000);
    expect(reply).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('the defaults are set and each can be changed', () => {
    const defaults = loadConfig({});
    expect(defaults.requestTimeoutSeconds).toBe(120);
    expect(defaults.headersTimeoutSeconds).toBe(15);
    expect(t.config.requestTimeoutSeconds).toBe(3);
  });
});
