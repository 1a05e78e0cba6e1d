import { endpoints } from '@flashbulb/shared';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig, parseTrustProxy } from '../../src/config.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/**
 * A failed sign-in (its own user name each time, so the lockout stays out of it) from a client
 * that says it is `forwardedFor`; answers the HTTP status.
 */
const signInFrom = async (app: TestApp, forwardedFor: string, n: number) =>
  (
    await app.call(
      endpoints.signIn,
      { username: `nobody-${n}@example.com`, password: 'wrong password' },
      { headers: { 'x-forwarded-for': forwardedFor } },
    )
  ).statusCode;

describe('FLASHBULB_TRUST_PROXY', () => {
  it('refuses `true` (every hop trusted) and anything it does not understand, at start', () => {
    expect(() => loadConfig({ FLASHBULB_TRUST_PROXY: 'true' })).toThrow(
      /FLASHBULB_TRUST_PROXY=true would trust every hop/,
    );
    expect(() => loadConfig({ FLASHBULB_TRUST_PROXY: 'yes' })).toThrow(/FLASHBULB_TRUST_PROXY/);
    expect(() => loadConfig({ FLASHBULB_TRUST_PROXY: '10.0.0.0/33' })).toThrow(
      /not understood: 10\.0\.0\.0\/33/,
    );
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('0')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy('2')).toBe(2);
    expect(parseTrustProxy(' 10.0.0.0/8, 127.0.0.1 ,::1,loopback')).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
      '::1',
      'loopback',
    ]);
  });

  it('with one proxy hop, a client that rotates the left-most X-Forwarded-For is still one client', async () => {
    t = await createTestApp({ FLASHBULB_TRUST_PROXY: '1', FLASHBULB_AUTH_RATE_LIMIT: '3' });
    const statuses: number[] = [];
    for (let i = 1; i <= 5; i += 1)
      statuses.push(await signInFrom(t, `10.9.9.${i}, 203.0.113.7`, i));
    expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
    expect(statuses.slice(3)).toEqual([429, 429]);
    // Another client behind the same proxy has its own budget.
    expect(await signInFrom(t, '10.9.9.1, 203.0.113.8', 9)).not.toBe(429);
  });

  it('with a proxy list, only those proxies may speak for the client', async () => {
    // The test's requests come from 127.0.0.1: a listed proxy, so the hop before it is the client.
    t = await createTestApp({
      FLASHBULB_TRUST_PROXY: '127.0.0.1/32',
      FLASHBULB_AUTH_RATE_LIMIT: '2',
    });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i += 1)
      statuses.push(await signInFrom(t, `10.9.9.${i}, 198.51.100.4`, i));
    expect(statuses.slice(2)).toEqual([429, 429]);
  });

  it('without a proxy, X-Forwarded-For is not read at all', async () => {
    t = await createTestApp({ FLASHBULB_AUTH_RATE_LIMIT: '2' });
    const statuses: number[] = [];
    for (let i = 1; i <= 4; i += 1) statuses.push(await signInFrom(t, `198.51.100.${i}`, i));
    expect(statuses.slice(2)).toEqual([429, 429]);
  });
});
