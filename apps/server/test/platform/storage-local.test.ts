import { mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { S3Client } from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { createStorage } from '../../src/storage/create-storage.ts';
import { LocalStorage } from '../../src/storage/local-storage.ts';
import {
  createPostPolicyFields,
  deriveSigningKey,
  signPolicy,
  toAmzDate,
} from '../../src/storage/post-policy.ts';
import { assertValidKey, StorageError } from '../../src/storage/storage.repository.ts';
import { filesUnder } from '../helpers/storage.ts';
import { TestClock } from '../helpers/test-app.ts';

const credentials = { accessKeyId: 'AKIDLOCAL', secretAccessKey: 'local-secret-0123456789abcdef' };

let root: string;
let storage: LocalStorage;
let clock: TestClock;

beforeEach(async () => {
  root = await mkdtemp(path.join(tmpdir(), 'flashbulb-storage-'));
  clock = new TestClock(Date.parse('2026-03-04T05:06:07.890Z'));
  storage = new LocalStorage({ root, baseUrl: 'http://photos.test/', credentials, clock });
  await storage.init();
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const text = async (body: Readable): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

describe('local storage repository', () => {
  it('puts, heads, gets (whole and a range), copies, moves and deletes', async () => {
    await storage.put('events/1/a.jpg', Buffer.from('hello world'), 'image/jpeg');
    const info = await storage.head('events/1/a.jpg');
    expect(info).toMatchObject({
      contentType: 'image/jpeg',
      size: 11,
      // S3's ETag of a single-part object is the quoted MD5 of its bytes.
      etag: '"5eb63bbbe01eeed093cb22bb8f5acdc3"',
      cacheControl: 'public, max-age=3600',
    });
    const whole = await storage.get('events/1/a.jpg');
    expect(await text(whole!.body)).toBe('hello world');
    const part = await storage.get('events/1/a.jpg', { range: { start: 6, end: 10 } });
    expect(await text(part!.body)).toBe('world');

    await storage.put('d/immutable.webp', Readable.from([Buffer.from('x')]), 'image/webp', {
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect((await storage.head('d/immutable.webp'))?.cacheControl).toBe(
      'public, max-age=31536000, immutable',
    );

    await storage.copy('events/1/a.jpg', 'archive/a.jpg');
    expect(await text((await storage.get('archive/a.jpg'))!.body)).toBe('hello world');
    expect((await storage.head('archive/a.jpg'))?.contentType).toBe('image/jpeg');
    await storage.move('archive/a.jpg', 'archive/b.jpg');
    expect(await storage.head('archive/a.jpg')).toBeNull();
    expect((await storage.head('archive/b.jpg'))?.size).toBe(11);
    await expect(storage.copy('nope.jpg', 'x.jpg')).rejects.toMatchObject({ code: 'NoSuchKey' });
    await expect(storage.move('nope.jpg', 'x.jpg')).rejects.toMatchObject({ code: 'NoSuchKey' });

    await storage.delete('events/1/a.jpg');
    await storage.delete('events/1/a.jpg'); // idempotent
    expect(await storage.get('events/1/a.jpg')).toBeNull();
    expect(await storage.head('never/was.jpg')).toBeNull();
    expect(storage.publicUrl('events/1/a b.jpg')).toBe(
      'http://photos.test/storage/events/1/a%20b.jpg',
    );
  });

  it('a copy keeps its bytes when the source is replaced or deleted (copies share no state)', async () => {
    await storage.put('share/a.txt', Buffer.from('first'), 'text/plain');
    await storage.copy('share/a.txt', 'share/b.txt');
    await storage.put('share/a.txt', Buffer.from('second, longer'), 'text/csv');
    const b = await storage.get('share/b.txt');
    expect(await text(b!.body)).toBe('first');
    expect(b!.contentType).toBe('text/plain');
    await storage.delete('share/a.txt');
    expect(await text((await storage.get('share/b.txt'))!.body)).toBe('first');
    await expect(storage.copy('share/a.txt', 'share/c.txt')).rejects.toMatchObject({
      code: 'NoSuchKey',
    });
  });

  it('stores an empty object and replaces an object whole', async () => {
    await storage.put('empty.txt', Buffer.alloc(0), 'text/plain');
    expect(await text((await storage.get('empty.txt'))!.body)).toBe('');
    await storage.put('k.txt', Buffer.from('old'), 'text/plain');
    await storage.put('k.txt', Buffer.from('new!'), 'text/csv');
    expect(await storage.head('k.txt')).toMatchObject({ size: 4, contentType: 'text/csv' });
  });

  it('deletes by prefix: a folder, or every name starting with the last segment', async () => {
    for (const key of ['e/12/a.jpg', 'e/12/t/b.jpg', 'e/123.jpg', 'e/13/c.jpg', 'f/12/d.jpg']) {
      await storage.put(key, Buffer.from(key), 'image/jpeg');
    }
    await storage.deletePrefix('e/12/');
    expect(await storage.head('e/12/a.jpg')).toBeNull();
    expect(await storage.head('e/12/t/b.jpg')).toBeNull();
    expect(await storage.head('e/123.jpg')).not.toBeNull();

    await storage.deletePrefix('e/1');
    expect(await storage.head('e/123.jpg')).toBeNull();
    expect(await storage.head('e/13/c.jpg')).toBeNull();
    expect(await storage.head('f/12/d.jpg')).not.toBeNull();
    await storage.deletePrefix('nothing/here/');
    expect(() => assertValidKey('', 'prefix')).toThrow(StorageError);
    await expect(storage.deletePrefix('')).rejects.toMatchObject({ code: 'InvalidKey' });
  });

  it('a write that fails half-way leaves the old object and no temp file', async () => {
    await storage.put('photo.jpg', Buffer.from('the old bytes'), 'image/jpeg');
    // A source that delivers some bytes, then dies: what a crashed client or disk error looks like.
    const dying = new Readable({
      read() {
        this.push(Buffer.alloc(64 * 1024, 1));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(storage.put('photo.jpg', dying, 'image/png')).rejects.toThrow('connection lost');
    expect(await storage.head('photo.jpg')).toMatchObject({ contentType: 'image/jpeg', size: 13 });
    expect(await text((await storage.get('photo.jpg'))!.body)).toBe('the old bytes');
    expect(await filesUnder(storage.tmpDir)).toEqual([]);

    const fresh = new Readable({
      read() {
        this.destroy(new Error('gone'));
      },
    });
    await expect(storage.put('new.jpg', fresh, 'image/jpeg')).rejects.toThrow('gone');
    expect(await storage.head('new.jpg')).toBeNull();
    expect(await filesUnder(root)).toEqual(['objects/photo.jpg']);
  });

  it('enforces a size range while writing and keeps nothing outside it', async () => {
    const write = (bytes: number) =>
      storage.write(
        'sized.bin',
        Readable.from([Buffer.alloc(bytes)]),
        { contentType: 'application/octet-stream', cacheControl: 'no-cache' },
        { minBytes: 2, maxBytes: 4 },
      );
    await expect(write(5)).rejects.toMatchObject({ code: 'EntityTooLarge' });
    await expect(write(1)).rejects.toMatchObject({ code: 'EntityTooSmall' });
    expect(await filesUnder(root)).toEqual([]);
    await expect(write(4)).resolves.toMatchObject({ size: 4 });
  });

  it('sweeps temp files a crash left behind, and only old ones', async () => {
    const stale = path.join(storage.tmpDir, 'stale.part');
    const live = path.join(storage.tmpDir, 'live.part');
    await writeFile(stale, 'x');
    await writeFile(live, 'y');
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    await utimes(stale, twoDaysAgo, twoDaysAgo);
    await storage.init();
    expect(await filesUnder(storage.tmpDir)).toEqual(['live.part']);
  });

  const badKeys = [
    '../secret.key',
    'a/../../x',
    'a/./b',
    '/etc/passwd',
    'a\\..\\b',
    'a//b',
    'folder/',
    'nul\u0000.jpg',
    'line\nbreak',
    '..',
    '',
    'x'.repeat(1025),
  ];
  it.each(
    badKeys.map((k) => [
      k.length > 40 ? `${k.slice(0, 8)}… (${k.length} characters)` : JSON.stringify(k),
      k,
    ]),
  )('refuses the key %s everywhere', async (_label, key) => {
    expect(() => assertValidKey(key)).toThrow(StorageError);
    await expect(storage.put(key, Buffer.from('x'), 'text/plain')).rejects.toMatchObject({
      code: 'InvalidKey',
    });
    await expect(storage.get(key)).rejects.toMatchObject({ code: 'InvalidKey' });
    await expect(storage.delete(key)).rejects.toMatchObject({ code: 'InvalidKey' });
    await expect(
      storage.createUploadGrant({ key, contentType: 'image/jpeg', maxBytes: 10 }),
    ).rejects.toMatchObject({ code: 'InvalidKey' });
    expect(await filesUnder(root)).toEqual([]);
  });

  it('accepts ordinary keys, unicode included, up to 1024 bytes', () => {
    for (const key of [
      'a.jpg',
      'events/7/uid_x_uid.jpg',
      'fotos/été 2026/1.jpg',
      'k'.repeat(1024),
      '.hidden',
      'a..b',
    ]) {
      expect(() => assertValidKey(key)).not.toThrow();
    }
  });

  it('reports a key that collides with another key used as a folder', async () => {
    await storage.put('a', Buffer.from('1'), 'text/plain');
    await expect(storage.put('a/b', Buffer.from('2'), 'text/plain')).rejects.toMatchObject({
      code: 'KeyConflict',
    });
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('refuses grants it cannot honour', async () => {
    const base = { key: 'a.jpg', contentType: 'image/jpeg', maxBytes: 100 };
    await expect(
      storage.createUploadGrant({ ...base, expiresInSeconds: 601 }),
    ).rejects.toMatchObject({
      code: 'InvalidGrant',
    });
    await expect(storage.createUploadGrant({ ...base, maxBytes: 0 })).rejects.toMatchObject({
      code: 'InvalidGrant',
    });
    await expect(storage.createUploadGrant({ ...base, minBytes: 101 })).rejects.toMatchObject({
      code: 'InvalidGrant',
    });
    await expect(
      storage.createUploadGrant({ ...base, contentType: 'text/html\r\nx-evil: 1' }),
    ).rejects.toMatchObject({ code: 'InvalidGrant' });
  });
});

describe('local upload grants', () => {
  it('have the S3 presigned-POST shape, with a policy that pins everything', async () => {
    const grant = await storage.createUploadGrant({
      key: 'kioskMedia/e1/photo.jpg',
      contentType: 'image/jpeg',
      maxBytes: 5_000_000,
      minBytes: 10,
      expiresInSeconds: 300,
    });
    expect(grant.url).toBe('http://photos.test/storage');
    expect(Object.keys(grant.fields)).toEqual([
      'key',
      'acl',
      'success_action_status',
      'Content-Type',
      'x-amz-credential',
      'x-amz-algorithm',
      'x-amz-date',
      'policy',
      'x-amz-signature',
    ]);
    expect(grant.fields).toMatchObject({
      key: 'kioskMedia/e1/photo.jpg',
      acl: 'public-read',
      success_action_status: '201',
      'Content-Type': 'image/jpeg',
      'x-amz-credential': 'AKIDLOCAL/20260304/us-east-1/s3/aws4_request',
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
      'x-amz-date': '20260304T050607Z',
    });
    expect(grant.fields['x-amz-signature']).toMatch(/^[0-9a-f]{64}$/);
    const policy: unknown = JSON.parse(
      Buffer.from(grant.fields.policy ?? '', 'base64').toString('utf8'),
    );
    expect(policy).toEqual({
      expiration: '2026-03-04T05:11:07Z',
      conditions: [
        { bucket: 'flashbulb' },
        ['eq', '$key', 'kioskMedia/e1/photo.jpg'],
        { acl: 'public-read' },
        { success_action_status: '201' },
        ['eq', '$Content-Type', 'image/jpeg'],
        ['content-length-range', 10, 5_000_000],
        { 'x-amz-credential': 'AKIDLOCAL/20260304/us-east-1/s3/aws4_request' },
        { 'x-amz-algorithm': 'AWS4-HMAC-SHA256' },
        { 'x-amz-date': '20260304T050607Z' },
      ],
    });
  });

  it('carry and require a session token when the signer has one', () => {
    const fields = createPostPolicyFields({
      credentials: { ...credentials, sessionToken: 'token-1' },
      region: 'us-east-1',
      bucket: 'flashbulb',
      key: 'a.jpg',
      contentType: 'image/jpeg',
      minBytes: 1,
      maxBytes: 10,
      now: clock.now(),
      expiresInSeconds: 60,
    });
    expect(fields['x-amz-security-token']).toBe('token-1');
    expect(storage.verifyPost(Object.entries(fields)).key).toBe('a.jpg');
    const swapped = Object.entries({ ...fields, 'x-amz-security-token': 'token-2' });
    expect(() => storage.verifyPost(swapped)).toThrow(
      'Policy Condition failed: ["eq", "$x-amz-security-token", "token-1"]',
    );
  });

  it('sign exactly as the AWS SDK does for the same credentials, date and policy', async () => {
    // AWS's worked example of the signing key (docs: "Examples of how to derive a signing key").
    expect(
      deriveSigningKey(
        'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
        '20120215',
        'us-east-1',
        'iam',
      ).toString('hex'),
    ).toBe('f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d');

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(clock.now());
    try {
      const client = new S3Client({ region: 'us-east-1', credentials });
      const sdk = await createPresignedPost(client, {
        Bucket: 'flashbulb',
        Key: 'a/b.jpg',
        Expires: 600,
        Fields: { acl: 'public-read', 'Content-Type': 'image/jpeg' },
        Conditions: [['content-length-range', 1, 1000]],
      });
      client.destroy();
      const shortDate = toAmzDate(clock.now()).slice(0, 8);
      expect(sdk.fields['X-Amz-Date']).toBe(toAmzDate(clock.now()));
      expect(
        signPolicy(credentials.secretAccessKey, shortDate, 'us-east-1', sdk.fields.Policy ?? ''),
      ).toBe(sdk.fields['X-Amz-Signature']);
      // …and our verifier accepts the SDK's grant as S3 would (names in the SDK's casing).
      const fields = Object.entries(sdk.fields);
      expect(storage.verifyPost(fields)).toMatchObject({
        key: 'a/b.jpg',
        contentType: 'image/jpeg',
        minBytes: 1,
        maxBytes: 1000,
      });
      expect(() =>
        storage.verifyPost(fields.map(([n, v]) => [n, n === 'key' ? 'a/c.jpg' : v] as const)),
      ).toThrow('Policy Condition failed: ["eq", "$key", "a/b.jpg"]');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('createStorage', () => {
  it('defaults to local disk in the data dir, signing with a secret derived from the app secret', async () => {
    const config = loadConfig({
      FLASHBULB_DATA_DIR: root,
      FLASHBULB_PUBLIC_URL: 'https://fb.test',
    });
    const a = await createStorage(config, 'app-secret-one-0123456789abcdef0123', clock);
    const b = await createStorage(config, 'app-secret-two-0123456789abcdef0123', clock);
    expect(a).toBeInstanceOf(LocalStorage);
    expect(a.publicUrl('x/y.jpg')).toBe('https://fb.test/storage/x/y.jpg');
    const input = { key: 'x/y.jpg', contentType: 'image/jpeg', maxBytes: 10 };
    const grantA = await a.createUploadGrant(input);
    const grantB = await b.createUploadGrant(input);
    expect(grantA.fields['x-amz-credential']).toMatch(/^flashbulb-local\//);
    expect(grantA.fields['x-amz-signature']).not.toBe(grantB.fields['x-amz-signature']);
    expect(() => (a as LocalStorage).verifyPost(Object.entries(grantA.fields))).not.toThrow();
    expect(() => (a as LocalStorage).verifyPost(Object.entries(grantB.fields))).toThrow(
      'signature we calculated does not match',
    );
    expect(await filesUnder(path.join(root, 'storage'))).toEqual([]);
  });

  it('chooses S3 when a bucket is configured', async () => {
    const config = loadConfig({
      FLASHBULB_DATA_DIR: root,
      FLASHBULB_S3_BUCKET: 'photos',
      FLASHBULB_S3_REGION: 'eu-west-1',
    });
    const s3 = await createStorage(config, 'unused-secret-0123456789abcdef0123456', clock);
    expect(s3.backend).toBe('s3');
    expect(s3.publicUrl('a/b c.jpg')).toBe('https://photos.s3.eu-west-1.amazonaws.com/a/b%20c.jpg');
    await s3.close();
  });
});
