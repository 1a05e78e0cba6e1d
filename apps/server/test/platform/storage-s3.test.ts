import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { presignGet } from '../../src/storage/presign-get.ts';
import { S3Storage, type S3StorageConfig } from '../../src/storage/s3-storage.ts';
import { endpoints, type FlashbulbEvent, type Photo } from '@flashbulb/shared';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { makeJpeg, waitForReady } from '../helpers/photos.ts';
import { pathOf, s3ErrorOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The S3 backend against s3rver, an in-process S3 emulator. s3rver checks request signatures but
 * not POST policies, so policies are proven on the local backend (storage-upload.test.ts); here
 * we prove the SDK calls work and that a grant has the right shape and stores through a real POST.
 */

const BUCKET = 'flashbulb-test';
let dir: string;
let server: S3rver;
let storage: S3Storage;
let endpoint: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [{ name: BUCKET }],
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
  storage = new S3Storage(s3Config());
});
afterAll(async () => {
  await storage?.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const s3Config = (): S3StorageConfig => ({
  bucket: BUCKET,
  region: 'us-east-1',
  endpoint,
  // s3rver's fixed credentials; it refuses requests signed with anything else.
  accessKeyId: 'S3RVER',
  secretAccessKey: 'S3RVER',
  forcePathStyle: true,
  publicUrl: undefined,
});

const text = async (body: Readable): Promise<string> => {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
};

describe('S3 storage backend (against s3rver)', () => {
  it('puts, heads, gets, copies, moves and deletes through the SDK', async () => {
    await storage.put('events/1/a.jpg', Buffer.from('hello s3'), 'image/jpeg', {
      cacheControl: 'public, max-age=31536000, immutable',
    });
    expect(await storage.head('events/1/a.jpg')).toMatchObject({
      contentType: 'image/jpeg',
      size: 8,
      cacheControl: 'public, max-age=31536000, immutable',
    });
    const object = await storage.get('events/1/a.jpg');
    expect(object?.contentType).toBe('image/jpeg');
    expect(await text(object!.body)).toBe('hello s3');

    await storage.copy('events/1/a.jpg', 'archive/a copy.jpg');
    expect(await text((await storage.get('archive/a copy.jpg'))!.body)).toBe('hello s3');
    expect((await storage.head('archive/a copy.jpg'))?.contentType).toBe('image/jpeg');
    await storage.move('archive/a copy.jpg', 'archive/b.jpg');
    expect(await storage.head('archive/a copy.jpg')).toBeNull();
    expect((await storage.head('archive/b.jpg'))?.size).toBe(8);
    await expect(storage.copy('missing.jpg', 'x.jpg')).rejects.toMatchObject({
      code: 'NoSuchKey',
    });

    await storage.delete('events/1/a.jpg');
    await storage.delete('events/1/a.jpg'); // idempotent
    expect(await storage.get('events/1/a.jpg')).toBeNull();
    expect(await storage.head('events/1/a.jpg')).toBeNull();
    expect(storage.publicUrl('archive/b c.jpg')).toBe(`${endpoint}/${BUCKET}/archive/b%20c.jpg`);
  });

  it('streams a Readable body and reads a byte range', async () => {
    await storage.put(
      'r/stream.txt',
      Readable.from([Buffer.from('0123'), Buffer.from('4567')]),
      'text/plain',
    );
    const part = await storage.get('r/stream.txt', { range: { start: 2, end: 5 } });
    expect(await text(part!.body)).toBe('2345');
    expect(part?.size).toBe(8);
  });

  it('deletes by prefix, leaving other keys', async () => {
    for (const key of ['p/12/a', 'p/12/b', 'p/123', 'p/2/c']) {
      await storage.put(key, Buffer.from(key), 'text/plain');
    }
    await storage.deletePrefix('p/12/');
    expect(await storage.head('p/12/a')).toBeNull();
    expect(await storage.head('p/123')).not.toBeNull();
    await storage.deletePrefix('p/1');
    expect(await storage.head('p/123')).toBeNull();
    expect(await storage.head('p/2/c')).not.toBeNull();
  });

  it('lists every object under a folder prefix with its time (the upload sweep)', async () => {
    const before = Date.now() - 60_000;
    for (const key of ['tmp/e1/u1/a.jpg', 'tmp/e1/u2/att_9/b.jpg', 'tmpx/c', 'other/tmp/d']) {
      await storage.put(key, Buffer.from(key), 'text/plain');
    }
    const listed: { key: string; size: number; at: number }[] = [];
    for await (const object of storage.list('tmp/')) {
      listed.push({ key: object.key, size: object.size, at: object.lastModified.getTime() });
    }
    expect(listed.map((o) => o.key).sort()).toEqual(['tmp/e1/u1/a.jpg', 'tmp/e1/u2/att_9/b.jpg']);
    expect(listed.find((o) => o.key === 'tmp/e1/u1/a.jpg')?.size).toBe('tmp/e1/u1/a.jpg'.length);
    expect(listed.every((o) => o.at > before)).toBe(true);
  });

  it('issues a presigned POST with the spec fields, which a browser-style POST stores', async () => {
    const grant = await storage.createUploadGrant({
      key: 'uploads/e1/photo.jpg',
      contentType: 'image/jpeg',
      maxBytes: 1000,
      minBytes: 1,
      expiresInSeconds: 300,
    });
    expect(grant.url).toBe(`${endpoint}/${BUCKET}`);
    expect(Object.keys(grant.fields).sort()).toEqual(
      [
        'Content-Type',
        'acl',
        'bucket',
        'key',
        'policy',
        'success_action_status',
        'x-amz-algorithm',
        'x-amz-credential',
        'x-amz-date',
        'x-amz-signature',
      ].sort(),
    );
    expect(grant.fields).toMatchObject({
      key: 'uploads/e1/photo.jpg',
      acl: 'public-read',
      success_action_status: '201',
      'Content-Type': 'image/jpeg',
      'x-amz-algorithm': 'AWS4-HMAC-SHA256',
    });
    expect(grant.fields['x-amz-credential']).toMatch(
      /^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/,
    );
    const policy = JSON.parse(Buffer.from(grant.fields.policy ?? '', 'base64').toString()) as {
      expiration: string;
      conditions: unknown[];
    };
    const expiresIn = Date.parse(policy.expiration) - Date.now();
    expect(expiresIn).toBeGreaterThan(290_000);
    expect(expiresIn).toBeLessThanOrEqual(300_000);
    expect(policy.conditions).toEqual(
      expect.arrayContaining([
        ['content-length-range', 1, 1000],
        { key: 'uploads/e1/photo.jpg' },
        { bucket: BUCKET },
        { acl: 'public-read' },
        { success_action_status: '201' },
        { 'Content-Type': 'image/jpeg' },
        { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
        { 'X-Amz-Credential': grant.fields['x-amz-credential'] },
        { 'X-Amz-Date': grant.fields['x-amz-date'] },
      ]),
    );

    // What the spec's upload client does: the fields in order, then the file last.
    const form = new FormData();
    for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
    form.append('file', new Blob([Buffer.from('jpeg bytes')], { type: 'image/jpeg' }), 'p.jpg');
    const response = await fetch(grant.url, { method: 'POST', body: form });
    expect(response.status).toBe(201);
    expect(await response.text()).toContain('<Key>uploads/e1/photo.jpg</Key>');
    const stored = await storage.get('uploads/e1/photo.jpg');
    expect(stored?.contentType).toBe('image/jpeg');
    expect(await text(stored!.body)).toBe('jpeg bytes');
  });

  it('carries a session token from the SDK credential chain into the grant and its policy', async () => {
    // Temporary credentials (instance roles, STS) come with a token S3 must see in the form.
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIATEMPORARY');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'temporary-secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session-token-value');
    const temporary = new S3Storage({
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint,
      accessKeyId: undefined,
      secretAccessKey: undefined,
      forcePathStyle: true,
      publicUrl: 'https://cdn.example/photos/',
    });
    try {
      const { fields } = await temporary.createUploadGrant({
        key: 'k.jpg',
        contentType: 'image/jpeg',
        maxBytes: 10,
      });
      expect(fields['x-amz-security-token']).toBe('session-token-value');
      expect(fields['x-amz-credential']).toMatch(/^ASIATEMPORARY\//);
      const policy = JSON.parse(Buffer.from(fields.policy ?? '', 'base64').toString()) as {
        conditions: unknown[];
      };
      expect(policy.conditions).toContainEqual({ 'X-Amz-Security-Token': 'session-token-value' });
      expect(temporary.publicUrl('a/b.jpg')).toBe('https://cdn.example/photos/a/b.jpg');
    } finally {
      vi.unstubAllEnvs();
      await temporary.close();
    }
  });

  it('refuses grants and keys it cannot honour before calling S3', async () => {
    await expect(
      storage.createUploadGrant({ key: '../x', contentType: 'image/jpeg', maxBytes: 1 }),
    ).rejects.toMatchObject({ code: 'InvalidKey' });
    await expect(
      storage.createUploadGrant({
        key: 'x',
        contentType: 'image/jpeg',
        maxBytes: 1,
        expiresInSeconds: 3600,
      }),
    ).rejects.toMatchObject({ code: 'InvalidGrant' });
    await expect(storage.put('a//b', Buffer.from('x'), 'text/plain')).rejects.toMatchObject({
      code: 'InvalidKey',
    });
  });

  describe('protected objects (ADR 0006)', () => {
    /** The ACL of every PutObject / CopyObject the backend sends, by key. */
    const aclsSent = async (work: () => Promise<void>): Promise<Record<string, unknown>> => {
      const sent: Record<string, unknown> = {};
      const original = storage.client.send.bind(storage.client);
      const spy = vi.spyOn(storage.client, 'send').mockImplementation(((command: {
        input: { Key?: string; ACL?: string };
      }) => {
        if (command.input.Key !== undefined) sent[command.input.Key] = command.input.ACL ?? null;
        return original(command as never);
      }) as never);
      try {
        await work();
      } finally {
        spy.mockRestore();
      }
      return sent;
    };

    it('writes protected keys without the public-read ACL and public keys with it', async () => {
      const sent = await aclsSent(async () => {
        await storage.put(
          'events/AB12/photos/uid_a_uid/thumbnail.jpg',
          Buffer.from('t'),
          'image/jpeg',
        );
        await storage.put(
          'protected/events/AB12/photos/uid_a_uid/preview.jpg',
          Buffer.from('p'),
          'image/jpeg',
        );
        await storage.put('tmp/AB12/upload.jpg', Buffer.from('o'), 'image/jpeg');
        // completion: the upload is copied into protected space; retention: into the archive
        await storage.copy(
          'tmp/AB12/upload.jpg',
          'protected/events/AB12/photos/uid_a_uid/original.jpg',
        );
        await storage.copy(
          'protected/events/AB12/photos/uid_a_uid/original.jpg',
          'archive/protected/events/AB12/photos/uid_a_uid/original.jpg',
        );
      });
      expect(sent).toEqual({
        'events/AB12/photos/uid_a_uid/thumbnail.jpg': 'public-read',
        'protected/events/AB12/photos/uid_a_uid/preview.jpg': null,
        'tmp/AB12/upload.jpg': null,
        'protected/events/AB12/photos/uid_a_uid/original.jpg': null,
        'archive/protected/events/AB12/photos/uid_a_uid/original.jpg': null,
      });
    });

    it('reads a protected object through a presigned GET that S3 accepts', async () => {
      const key = "protected/events/AB12/photos/uid_b_uid/it's (1) a+b.jpg";
      await storage.put(key, Buffer.from('original bytes'), 'image/jpeg');
      const url = await storage.signedGetUrl(key, { expiresInSeconds: 60 });
      expect(url.startsWith(`${endpoint}/${BUCKET}/protected/events/AB12/`)).toBe(true);
      const query = new URL(url).searchParams;
      expect(query.get('X-Amz-Algorithm')).toBe('AWS4-HMAC-SHA256');
      expect(query.get('X-Amz-SignedHeaders')).toBe('host');
      expect(Number(query.get('X-Amz-Expires'))).toBe(120);
      const response = await fetch(url);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe('original bytes');
      // the same URL within the window (browsers may cache it)
      expect(await storage.signedGetUrl(key, { expiresInSeconds: 60 })).toBe(url);
    });

    it('signs exactly as AWS documents it (the GET Object example of query authentication)', () => {
      // AWS docs, "Authenticating Requests: Using Query Parameters (AWS Signature Version 4)".
      // s3rver does not verify V4 signatures, so the signature is proven against AWS's own vector.
      const url = presignGet({
        base: 'https://examplebucket.s3.amazonaws.com',
        key: 'test.txt',
        region: 'us-east-1',
        credentials: {
          accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
          secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
        },
        signedAt: new Date('2013-05-24T00:00:00Z'),
        expiresInSeconds: 86400,
      });
      expect(url).toBe(
        'https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256' +
          '&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request' +
          '&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host' +
          '&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404',
      );
      // Every segment RFC 3986-encoded, as S3 canonicalises the path (`'`, `(`, `)` too).
      const special = presignGet({
        base: 'https://examplebucket.s3.amazonaws.com',
        key: "a b/it's (1)*.jpg",
        region: 'us-east-1',
        credentials: { accessKeyId: 'AKID', secretAccessKey: 'secret' },
        signedAt: new Date('2013-05-24T00:00:00Z'),
        expiresInSeconds: 60,
      });
      expect(new URL(special).pathname).toBe('/a%20b/it%27s%20%281%29%2A.jpg');
    });

    it('presigns with the SDK credential chain (session token included) at the store, not the CDN', async () => {
      vi.stubEnv('AWS_ACCESS_KEY_ID', 'ASIATEMPORARY');
      vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'temporary-secret');
      vi.stubEnv('AWS_SESSION_TOKEN', 'session-token-value');
      const temporary = new S3Storage({
        ...s3Config(),
        accessKeyId: undefined,
        secretAccessKey: undefined,
        publicUrl: 'https://cdn.example/photos',
      });
      try {
        const url = new URL(await temporary.signedGetUrl('protected/a.jpg'));
        expect(`${url.origin}${url.pathname}`).toBe(`${endpoint}/${BUCKET}/protected/a.jpg`);
        expect(url.searchParams.get('X-Amz-Security-Token')).toBe('session-token-value');
        expect(url.searchParams.get('X-Amz-Credential')).toMatch(/^ASIATEMPORARY\//);
        expect(temporary.publicUrl('events/a.jpg')).toBe('https://cdn.example/photos/events/a.jpg');
      } finally {
        vi.unstubAllEnvs();
        await temporary.close();
      }
    });

    it('is refused by S3 once expired', async () => {
      const key = 'protected/events/AB12/photos/uid_c_uid/original.jpg';
      await storage.put(key, Buffer.from('secret'), 'image/jpeg');
      // Issued three minutes ago for 60 s: at most 120 s valid, so expired now.
      const past = new S3Storage(s3Config(), { now: () => new Date(Date.now() - 180_000) });
      try {
        const expired = await fetch(await past.signedGetUrl(key, { expiresInSeconds: 60 }));
        expect(expired.status).toBe(403);
        expect(s3ErrorOf(await expired.text())).toEqual({
          code: 'AccessDenied',
          message: 'Request has expired',
        });
      } finally {
        await past.close();
      }
    });
  });
});

describe('protected photos on the S3 backend (ADR 0006)', () => {
  let t: TestApp;
  let admin: { authorization: string };
  let paid: FlashbulbEvent;
  let photo: Photo;
  let bytes: Buffer;
  let uploadKey: string;

  beforeAll(async () => {
    t = await createTestApp({
      FLASHBULB_S3_BUCKET: BUCKET,
      FLASHBULB_S3_ENDPOINT: endpoint,
      FLASHBULB_S3_ACCESS_KEY_ID: 'S3RVER',
      FLASHBULB_S3_SECRET_ACCESS_KEY: 'S3RVER',
      FLASHBULB_S3_FORCE_PATH_STYLE: 'true',
    });
    const world = await createEventWorld(t);
    admin = await apiKeyAuth(t, world.adminA);
    paid = await createEvent(t, world.adminA, { full_name: 'Paid on S3', is_free: 0 });
    // What a robot does: grant, POST to the bucket (acl=public-read in the form), completion.
    bytes = await makeJpeg({ seed: 91 });
    const grant = await t.ok(
      endpoints.photoUploadAccess,
      { event_name: paid.name, file_name: 'photo.jpg', content_type: 'image/jpeg' },
      admin,
    );
    expect(grant.fields.acl).toBe('public-read');
    const form = new FormData();
    for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
    form.append('file', new Blob([bytes], { type: 'image/jpeg' }), 'photo.jpg');
    expect((await fetch(grant.url, { method: 'POST', body: form })).status).toBe(201);
    uploadKey = grant.key;
    const done = await t.ok(endpoints.photoUploadComplete, { key: grant.key }, admin);
    photo = await waitForReady(t, admin.authorization, paid.id, done.id);
  });
  afterAll(async () => {
    await t?.close();
  });

  const media = (url: string | null) => t.app.inject({ method: 'GET', url: pathOf(url) });

  it('stores the original and the unwatermarked preview in protected space', async () => {
    const row = (await t.app.container.repositories.photos.findById(photo.id))!;
    expect(row.storageKey).toBe(
      `protected/events/${paid.name}/photos/uid_${photo.uid}_uid/original.jpg`,
    );
    expect(row.derivatives.preview).toBe(
      `protected/events/${paid.name}/photos/uid_${photo.uid}_uid/preview.jpg`,
    );
    // The upload itself is gone once completed.
    expect(uploadKey).toMatch(new RegExp(`^tmp/${paid.name}/`));
    expect(await t.app.container.storage.head(uploadKey)).toBeNull();
  });

  it('gives the public key the watermarked preview from the bucket and nothing signed', async () => {
    const [listed] = (
      await t.ok(endpoints.publicPhotoList, {
        key_type: 'public',
        key_value: paid.public_api_key,
        max_size: 10,
        page_number: 1,
      })
    ).photos;
    expect(listed!.urls.original).toBeNull();
    expect(listed!.urls.preview).toMatch(
      new RegExp(
        `^${endpoint}/${BUCKET}/events/${paid.name}/photos/uid_${photo.uid}_uid/protector-watermark-[0-9a-f]{12}\\.jpg$`,
      ),
    );
    const response = await fetch(listed!.urls.preview!);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/jpeg');
  });

  it('redirects a valid signed URL to a presigned GET of about a minute that reads the original', async () => {
    const owner = (await t.ok(endpoints.ownerPhotoList, { event_id: paid.id }, admin)).photos[0]!;
    const response = await media(owner.urls.original);
    expect(response.statusCode).toBe(302);
    expect(response.headers['cache-control']).toBe('no-store');
    const location = new URL(String(response.headers.location));
    expect(`${location.origin}${location.pathname}`).toBe(
      `${endpoint}/${BUCKET}/protected/events/${paid.name}/photos/uid_${photo.uid}_uid/original.jpg`,
    );
    expect(location.searchParams.get('X-Amz-Expires')).toBe('120');
    const object = await fetch(location);
    expect(object.status).toBe(200);
    expect(Buffer.from(await object.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('stops redirecting a guest’s signed URL once the photo is hidden, and after expiry', async () => {
    // A paid event's private key gets no original; once the event is made free it does.
    const [locked] = (
      await t.ok(endpoints.publicPhotoList, {
        key_type: 'private',
        key_value: paid.private_api_key,
        max_size: 10,
        page_number: 1,
      })
    ).photos;
    expect(locked!.urls.original).toBeNull();
    paid = await t.ok(
      endpoints.updateEvent,
      { id: paid.id, event_last_updated_date: paid.updated_date, is_free: 1 },
      admin,
    );
    const [guest] = (
      await t.ok(endpoints.publicPhotoList, {
        key_type: 'private',
        key_value: paid.private_api_key,
        max_size: 10,
        page_number: 1,
      })
    ).photos;
    expect((await media(guest!.urls.original)).statusCode).toBe(302);
    await t.ok(endpoints.updatePhoto, { id: photo.id, is_visible: 0 }, admin);
    const hidden = await media(guest!.urls.original);
    expect(hidden.statusCode).toBe(403);
    expect(hidden.headers.location).toBeUndefined();
    expect(s3ErrorOf(hidden.body).code).toBe('AccessDenied');
    await t.ok(endpoints.updatePhoto, { id: photo.id, is_visible: 1 }, admin);
    expect((await media(guest!.urls.original)).statusCode).toBe(302);

    t.clock.advance(3 * 3600_000);
    const late = await media(guest!.urls.original);
    expect(late.statusCode).toBe(403);
    expect(s3ErrorOf(late.body).message).toBe('Request has expired');
  });
});
