import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isProtectedKey, legacyTwin, protectedTwin } from '../../src/storage/key-space.ts';
import type { LocalStorage } from '../../src/storage/local-storage.ts';
import { s3ErrorOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * ADR 0006 on the local backend: one rule says which keys are protected, and `GET|HEAD
 * /storage/<protected key>` answers 403 AccessDenied unless the URL carries a valid, unexpired
 * signature from `signedGetUrl`.
 */

let t: TestApp;
let storage: LocalStorage;

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  storage = t.app.container.storage as LocalStorage;
});
afterAll(async () => {
  await t.close();
});

const path = (url: string): string => {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
};

describe('the key rule', () => {
  it.each([
    ['protected/events/AB12/photos/uid_x_uid/original.jpg', true],
    ['protected/events/AB12/photos/uid_x_uid/preview.jpg', true],
    ['archive/protected/events/AB12/photos/uid_x_uid/original.jpg', true],
    ['archive/events/AB12/photos/uid_x_uid/original.jpg', true],
    ['tmp/AB12/0b7e4c1e-0000-4000-8000-000000000000/photo.jpg', true],
    ['selfies/AB12/a.jpg', true],
    ['faces/AB12/ignore/a.jpg', true],
    // before the migration, originals and previews lay next to the public files
    ['events/AB12/photos/uid_x_uid/original.jpg', true],
    ['events/AB12/photos/uid_x_uid/original.mp4', true],
    ['events/AB12/photos/uid_x_uid/preview.jpg', true],
    // a key space nobody listed is private
    ['somewhere/new.jpg', true],
    ['secret.key', true],
    ['events/AB12/photos/uid_x_uid/thumbnail.jpg', false],
    ['events/AB12/photos/uid_x_uid/protector-watermark.jpg', false],
    ['events/AB12/photos/uid_x_uid/photo-watermark.jpg', false],
    ['events/AB12/photos/uid_x_uid/live-view-watermark.jpg', false],
    ['data/AB12.json', false],
    ['share/4/logo.png', false],
    ['stock-images/AB12/frame.png', false],
  ])('%s → protected %s', (key, expected) => {
    expect(isProtectedKey(key)).toBe(expected);
  });

  it('maps old keys to their protected twins and back', () => {
    const pairs = [
      [
        'events/AB12/photos/uid_x_uid/original.jpg',
        'protected/events/AB12/photos/uid_x_uid/original.jpg',
      ],
      [
        'events/AB12/photos/uid_x_uid/preview.jpg',
        'protected/events/AB12/photos/uid_x_uid/preview.jpg',
      ],
      [
        'archive/events/AB12/photos/uid_x_uid/original.png',
        'archive/protected/events/AB12/photos/uid_x_uid/original.png',
      ],
    ] as const;
    for (const [old, twin] of pairs) {
      expect(protectedTwin(old)).toBe(twin);
      expect(legacyTwin(twin)).toBe(old);
      expect(isProtectedKey(twin)).toBe(true);
    }
    expect(protectedTwin('events/AB12/photos/uid_x_uid/thumbnail.jpg')).toBeNull();
    expect(protectedTwin('protected/events/AB12/photos/uid_x_uid/original.jpg')).toBeNull();
    expect(legacyTwin('events/AB12/photos/uid_x_uid/thumbnail.jpg')).toBeNull();
  });
});

describe('GET|HEAD /storage/<key> of protected objects', () => {
  const ARCHIVED = 'archive/protected/events/AB12/photos/uid_a_uid/original.jpg';
  const PUBLIC = 'events/AB12/photos/uid_a_uid/thumbnail.jpg';

  beforeAll(async () => {
    await storage.put(ARCHIVED, Buffer.from('archived original'), 'image/jpeg');
    await storage.put(PUBLIC, Buffer.from('thumbnail bytes'), 'image/jpeg');
  });

  it('serves a public object to anyone, as before', async () => {
    const response = await t.app.inject({ method: 'GET', url: path(storage.publicUrl(PUBLIC)) });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('thumbnail bytes');
  });

  it('answers 403 AccessDenied XML to GET and a bodiless 403 to HEAD without a signature', async () => {
    const url = path(storage.publicUrl(ARCHIVED));
    const get = await t.app.inject({ method: 'GET', url });
    expect(get.statusCode).toBe(403);
    expect(get.headers['content-type']).toContain('application/xml');
    expect(s3ErrorOf(get.body)).toEqual({ code: 'AccessDenied', message: 'Access Denied' });
    expect(get.body).not.toContain('archived original');
    const head = await t.app.inject({ method: 'HEAD', url });
    expect(head.statusCode).toBe(403);
    expect(head.body).toBe('');
  });

  it('answers 403 for a missing protected key too (no probing which objects exist)', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/storage/archive/protected/events/AB12/photos/uid_none_uid/original.jpg',
    });
    expect(response.statusCode).toBe(403);
    expect(s3ErrorOf(response.body).code).toBe('AccessDenied');
  });

  it('serves a signed URL until it expires and not after', async () => {
    // just past a minute: rounding down the seconds would give 59.6 s instead of at least 60
    t.clock.set(Date.UTC(2026, 0, 1, 10, 1, 0, 400));
    const signed = path(await storage.signedGetUrl(ARCHIVED, { expiresInSeconds: 60 }));
    const nowSeconds = t.clock.now().getTime() / 1000;
    const expires = Number(new URL(signed, 'http://x').searchParams.get('expires'));
    // at least 60 s, at most 120 s, on a minute boundary
    expect(expires % 60).toBe(0);
    expect(expires - nowSeconds).toBeGreaterThanOrEqual(60);
    expect(expires - nowSeconds).toBeLessThanOrEqual(120);

    const ok = await t.app.inject({ method: 'GET', url: signed });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe('archived original');
    expect(ok.headers['cache-control']).toMatch(/^private, max-age=\d+$/);
    expect(Number(/max-age=(\d+)/.exec(String(ok.headers['cache-control']))?.[1])).toBe(
      Math.max(0, expires - Math.ceil(nowSeconds)),
    );
    expect((await t.app.inject({ method: 'HEAD', url: signed })).statusCode).toBe(200);

    // one second before expiry it still works; at expiry it does not
    t.clock.set(expires * 1000 - 1000);
    expect((await t.app.inject({ method: 'GET', url: signed })).statusCode).toBe(200);
    t.clock.set(expires * 1000);
    const late = await t.app.inject({ method: 'GET', url: signed });
    expect(late.statusCode).toBe(403);
    expect(s3ErrorOf(late.body)).toEqual({ code: 'AccessDenied', message: 'Request has expired' });
  });

  it('is the same URL within one window (cacheable), another in the next', async () => {
    t.clock.set(Date.UTC(2026, 0, 1, 10, 0, 5));
    const first = await storage.signedGetUrl(ARCHIVED, { expiresInSeconds: 60 });
    t.clock.set(Date.UTC(2026, 0, 1, 10, 0, 55));
    expect(await storage.signedGetUrl(ARCHIVED, { expiresInSeconds: 60 })).toBe(first);
    t.clock.set(Date.UTC(2026, 0, 1, 10, 1, 5));
    expect(await storage.signedGetUrl(ARCHIVED, { expiresInSeconds: 60 })).not.toBe(first);
  });

  it('refuses a tampered signature, a moved expiry and another key’s signature', async () => {
    t.clock.set(Date.UTC(2026, 0, 1, 12, 0, 0));
    const signed = new URL(await storage.signedGetUrl(ARCHIVED));
    const signature = signed.searchParams.get('signature')!;
    const expires = signed.searchParams.get('expires')!;
    const base = path(storage.publicUrl(ARCHIVED));
    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const other = new URL(await storage.signedGetUrl('archive/protected/events/AB12/x.jpg'));
    for (const query of [
      `expires=${expires}&signature=${flipped}`,
      `expires=${Number(expires) + 3600}&signature=${signature}`,
      `expires=${expires}&signature=${other.searchParams.get('signature')!}`,
      `expires=${expires}`,
      `signature=${signature}`,
      `expires=soon&signature=${signature}`,
    ]) {
      const response = await t.app.inject({ method: 'GET', url: `${base}?${query}` });
      expect(response.statusCode, query).toBe(403);
      expect(s3ErrorOf(response.body)).toEqual({ code: 'AccessDenied', message: 'Access Denied' });
    }
    expect((await t.app.inject({ method: 'GET', url: path(signed.toString()) })).statusCode).toBe(
      200,
    );
  });

  it('keeps refusing invalid keys with 400 before any signature check', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/storage/archive//x.jpg' });
    expect(response.statusCode).toBe(400);
    expect(s3ErrorOf(response.body).code).toBe('InvalidArgument');
  });
});
