import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createSecureContext } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  isPrivateAddress,
  WebhookSender,
} from '../../src/repositories/operations/webhook-sender.ts';

/**
 * Outgoing webhooks and DNS rebinding: a delivery resolves the endpoint's name once, refuses it
 * when any address is private or local, and connects to the address it checked (the HTTP client
 * never resolves the name again), keeping the URL's host as Host header and TLS server name.
 * The resolver is a double: each test says what the name answers on each call.
 */

interface Seen {
  host: string | undefined;
  url: string | undefined;
  body: string;
}

let server: Server;
let port = 0;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      seen.push({
        host: request.headers.host,
        url: request.url,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      response.statusCode = 204;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A resolver double answering `answers[n]` on its n-th call (the last one after that). */
const answering = (...answers: string[][]) => {
  const calls: string[] = [];
  const resolve = (host: string) => {
    calls.push(host);
    return Promise.resolve(answers[Math.min(calls.length - 1, answers.length - 1)]!);
  };
  return { resolve, calls };
};

describe('a delivery resolves once and connects to what it checked', () => {
  it('refuses a name that answers a public address to the check and loopback to the delivery', async () => {
    // `localhost` is also what the system resolver would answer 127.0.0.1 for: a client that
    // resolved the name again would reach the receiver.
    const url = `http://localhost:${port}/hooks`;
    const dns = answering(['203.0.113.9'], ['127.0.0.1']);
    const sender = new WebhookSender({ allowPrivate: false, resolve: dns.resolve });
    expect(await sender.check(url)).toBe('ok');
    const before = seen.length;
    await expect(sender.post(url, '{"a":1}', {})).rejects.toMatchObject({
      name: 'WebhookAddressRefused',
      verdict: 'private',
      message: 'the address is private or local',
    });
    expect(seen.length).toBe(before);
    // One resolution per step: the delivery asked once and connected to nothing.
    expect(dns.calls).toEqual(['localhost', 'localhost']);
  });

  it('refuses when any answer is private, IPv4-mapped and NAT64 spellings included', async () => {
    for (const answer of [
      ['203.0.113.9', '127.0.0.1'],
      ['::ffff:7f00:1'],
      ['::ffff:127.0.0.1'],
      ['::ffff:a9fe:a9fe'],
      ['64:ff9b::a00:1'],
      ['::127.0.0.1'],
      ['fd12:3456::1'],
      ['fe80::1'],
      ['::1'],
      ['::'],
      ['0.0.0.0'],
      ['169.254.169.254'],
    ]) {
      const sender = new WebhookSender({
        allowPrivate: false,
        resolve: answering(answer).resolve,
      });
      await expect(
        sender.post(`http://hooks.example:${port}/x`, '{}', {}),
        answer.join(','),
      ).rejects.toMatchObject({ verdict: 'private' });
      expect(await sender.check(`http://hooks.example:${port}/x`), answer.join(',')).toBe(
        'private',
      );
    }
    // A name that resolves to nothing usable is refused as invalid.
    const none = new WebhookSender({ allowPrivate: false, resolve: answering([]).resolve });
    await expect(none.post('http://hooks.example/x', '{}', {})).rejects.toMatchObject({
      verdict: 'invalid',
    });
  });

  it('tells public addresses from private ones', () => {
    for (const address of ['203.0.113.9', '8.8.8.8', '2001:4860:4860::8888', '::ffff:8.8.8.8'])
      expect(isPrivateAddress(address), address).toBe(false);
    for (const address of ['10.0.0.1', '192.168.1.1', '::ffff:c0a8:101', 'not-an-ip'])
      expect(isPrivateAddress(address), address).toBe(true);
  });

  it('connects to the resolved address with the URL’s host as Host header (FLASHBULB_WEBHOOKS_ALLOW_PRIVATE lets loopback through)', async () => {
    // `hooks.invalid` exists in no DNS: only the checked answer can take the request anywhere.
    const dns = answering(['127.0.0.1']);
    const sender = new WebhookSender({ allowPrivate: true, resolve: dns.resolve });
    const status = await sender.post(`http://hooks.invalid:${port}/in?kind=photo`, '{"b":2}', {
      'flashbulb-event-id': 'evt_1',
    });
    expect(status).toBe(204);
    expect(seen.at(-1)).toEqual({
      host: `hooks.invalid:${port}`,
      url: '/in?kind=photo',
      body: '{"b":2}',
    });
    expect(dns.calls).toEqual(['hooks.invalid']);
  });
});

describe('TLS to the checked address', () => {
  let dir = '';
  let tls: TlsServer;
  let tlsPort = 0;
  const serverNames: string[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'flashbulb-webhook-tls-'));
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    execFileSync('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      key,
      '-out',
      cert,
      '-days',
      '1',
      '-subj',
      '/CN=hooks.invalid',
    ]);
    const context = { key: readFileSync(key), cert: readFileSync(cert) };
    tls = createTlsServer(
      {
        ...context,
        SNICallback: (name, done) => {
          serverNames.push(name);
          done(null, createSecureContext(context));
        },
      },
      (_request, response) => response.end(),
    );
    await new Promise<void>((resolve) => tls.listen(0, '127.0.0.1', resolve));
    tlsPort = (tls.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => tls.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('sends the URL’s host as the TLS server name and verifies the certificate against it', async () => {
    const sender = new WebhookSender({
      allowPrivate: true,
      resolve: answering(['127.0.0.1']).resolve,
    });
    // The certificate is self-signed: verified (and refused), not skipped.
    await expect(sender.post(`https://hooks.invalid:${tlsPort}/in`, '{}', {})).rejects.toThrow(
      /self[- ]signed/i,
    );
    expect(serverNames).toEqual(['hooks.invalid']);
  });
});
