import { writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../src/app.ts';
import { LocalStorage } from '../../src/storage/local-storage.ts';
import { createPostPolicyFields } from '../../src/storage/post-policy.ts';
import {
  filesUnder,
  grantForm,
  multipartBody,
  s3ErrorOf,
  type FormPart,
} from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

const STORAGE_SECRET = 'storage-secret-for-tests-0123456789';
let t: TestApp;
let storage: LocalStorage;

beforeAll(async () => {
  t = await createTestApp(
    { FLASHBULB_STORAGE_SECRET_ACCESS_KEY: STORAGE_SECRET },
    { worker: false },
  );
  if (!(t.app.container.storage instanceof LocalStorage)) throw new Error('expected local storage');
  storage = t.app.container.storage;
});
afterAll(async () => {
  await t.close();
});
beforeEach(async () => {
  t.clock.set(Date.now());
  await storage.deletePrefix('share/up/');
});

const SENTINEL = 'do-not-serve-me';
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(996, 7)]);

const grant = (overrides: { key?: string; maxBytes?: number; minBytes?: number } = {}) =>
  storage.createUploadGrant({
    key: overrides.key ?? 'share/up/e1/photo.jpg',
    contentType: 'image/jpeg',
    maxBytes: overrides.maxBytes ?? 2000,
    minBytes: overrides.minBytes ?? 100,
    expiresInSeconds: 600,
  });

/** A real socket for tests that need one (fetch, a client that dies); opened once per file. */
const listening = async (): Promise<number> => {
  if (!t.app.server.listening) await t.app.listen({ port: 0, host: '127.0.0.1' });
  return (t.app.server.address() as AddressInfo).port;
};

const post = async (parts: FormPart[], url = '/storage') => {
  const { payload, headers } = multipartBody(parts);
  const response = await t.app.inject({ method: 'POST', url, payload, headers });
  return { ...response, error: s3ErrorOf(response.body) };
};

/** Nothing under the storage root but what earlier tests kept, and no temp file. */
const expectNothingStored = async () => {
  expect(await filesUnder(path.join(storage.objectsDir, 'up'))).toEqual([]);
  expect(await filesUnder(storage.tmpDir)).toEqual([]);
};

describe('POST /storage (local presigned POST, checked as S3 does)', () => {
  it('stores a valid upload: 201 with S3 PostResponse XML, then GET returns it with its type', async () => {
    const { url, fields } = await grant();
    expect(new URL(url).pathname).toBe('/storage');
    const response = await post(grantForm(fields, JPEG));
    expect(response.statusCode).toBe(201);
    expect(response.headers['content-type']).toContain('application/xml');
    expect(response.body).toContain('<PostResponse>');
    expect(response.body).toContain('<Key>share/up/e1/photo.jpg</Key>');
    expect(response.body).toContain('<Bucket>flashbulb</Bucket>');
    expect(response.body).toContain(
      `<Location>${t.config.publicUrl}/storage/share/up/e1/photo.jpg</Location>`,
    );
    expect(response.body).toMatch(/<ETag>&quot;[0-9a-f]{32}&quot;<\/ETag>/);

    const read = await t.app.inject({ method: 'GET', url: '/storage/share/up/e1/photo.jpg' });
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toBe('image/jpeg');
    expect(read.rawPayload.equals(JPEG)).toBe(true);
    expect(await filesUnder(storage.tmpDir)).toEqual([]);
  });

  it('accepts the SDK-style field casing and ignores fields after the file', async () => {
    const { fields } = await grant();
    const renamed = Object.fromEntries(
      Object.entries(fields).map(([n, v]) => [
        n.startsWith('x-amz-')
          ? n.replace(/(^|-)\w/g, (c) => c.toUpperCase())
          : n === 'policy'
            ? 'Policy'
            : n,
        v,
      ]),
    );
    expect(Object.keys(renamed)).toContain('X-Amz-Signature');
    const response = await post([...grantForm(renamed, JPEG), { name: 'late', value: 'ignored' }]);
    expect(response.statusCode).toBe(201);
  });

  it('uploads far beyond the 1 MB JSON body limit when the grant allows it', async () => {
    const big = Buffer.alloc(3 * BODY_LIMIT_BYTES, 9);
    const { fields } = await grant({ maxBytes: 4 * BODY_LIMIT_BYTES });
    const response = await post(grantForm(fields, big));
    expect(response.statusCode).toBe(201);
    expect((await storage.head('share/up/e1/photo.jpg'))?.size).toBe(big.length);
  });

  type Case = {
    name: string;
    status: number;
    code: string;
    message?: RegExp;
    /** Changes the form the grant produced (and the clock) before posting. */
    tamper: (fields: Record<string, string>) => FormPart[];
  };
  const cases: Case[] = [
    {
      name: 'an expired policy',
      status: 403,
      code: 'AccessDenied',
      message: /^Invalid according to Policy: Policy expired\.$/,
      tamper: (fields) => {
        t.clock.advance(601_000);
        return grantForm(fields, JPEG);
      },
    },
    {
      name: 'another key',
      status: 403,
      code: 'AccessDenied',
      message: /Policy Condition failed: \["eq", "\$key", "share\/up\/e1\/photo.jpg"\]/,
      tamper: (fields) => grantForm({ ...fields, key: 'share/up/e1/other.jpg' }, JPEG),
    },
    {
      name: 'a file over the maximum',
      status: 400,
      code: 'EntityTooLarge',
      tamper: (fields) => grantForm(fields, Buffer.alloc(2001)),
    },
    {
      name: 'a file under the minimum',
      status: 400,
      code: 'EntityTooSmall',
      tamper: (fields) => grantForm(fields, Buffer.alloc(99)),
    },
    {
      name: 'another Content-Type',
      status: 403,
      code: 'AccessDenied',
      message: /Policy Condition failed: \["eq", "\$Content-Type", "image\/jpeg"\]/,
      tamper: (fields) => grantForm({ ...fields, 'Content-Type': 'text/html' }, JPEG),
    },
    {
      name: 'a bad signature',
      status: 403,
      code: 'SignatureDoesNotMatch',
      tamper: (fields) => grantForm({ ...fields, 'x-amz-signature': '0'.repeat(64) }, JPEG),
    },
    {
      name: 'a policy changed after signing',
      status: 403,
      code: 'SignatureDoesNotMatch',
      tamper: (fields) => {
        const policy = JSON.parse(Buffer.from(fields.policy ?? '', 'base64').toString()) as {
          conditions: unknown[];
        };
        policy.conditions = policy.conditions.map((c) =>
          Array.isArray(c) && c[0] === 'content-length-range' ? [c[0], 0, 1e9] : c,
        );
        const forged = Buffer.from(JSON.stringify(policy)).toString('base64');
        return grantForm({ ...fields, policy: forged }, Buffer.alloc(5000));
      },
    },
    {
      name: 'a missing signed field (acl)',
      status: 403,
      code: 'AccessDenied',
      message: /Policy Condition failed: \["eq", "\$acl", "public-read"\]/,
      tamper: ({ acl: _acl, ...fields }) => grantForm(fields, JPEG),
    },
    {
      name: 'a missing signature',
      status: 400,
      code: 'InvalidArgument',
      message: /x-amz-signature/,
      tamper: ({ 'x-amz-signature': _s, ...fields }) => grantForm(fields, JPEG),
    },
    {
      name: 'a missing key',
      status: 400,
      code: 'InvalidArgument',
      message: /must contain a field named 'key'/,
      tamper: ({ key: _k, ...fields }) => grantForm(fields, JPEG),
    },
    {
      name: 'a missing policy (anonymous upload)',
      status: 403,
      code: 'AccessDenied',
      tamper: ({ policy: _p, ...fields }) => grantForm(fields, JPEG),
    },
    {
      name: 'no file',
      status: 400,
      code: 'InvalidArgument',
      message: /exactly one file/,
      tamper: (fields) => grantForm(fields, JPEG).slice(0, -1),
    },
    {
      name: 'an extra field the policy does not name',
      status: 403,
      code: 'AccessDenied',
      message: /^Invalid according to Policy: Extra input fields: x-amz-meta-owner$/,
      tamper: (fields) => grantForm({ ...fields, 'x-amz-meta-owner': 'mallory' }, JPEG),
    },
    {
      name: 'a field sent twice',
      status: 400,
      code: 'InvalidArgument',
      tamper: (fields) => [{ name: 'key', value: 'share/up/e1/x.jpg' }, ...grantForm(fields, JPEG)],
    },
    {
      name: 'an unknown access key',
      status: 403,
      code: 'InvalidAccessKeyId',
      tamper: (fields) =>
        grantForm(
          {
            ...fields,
            'x-amz-credential': (fields['x-amz-credential'] ?? '').replace(/^[^/]+/, 'OTHER'),
          },
          JPEG,
        ),
    },
  ];

  it.each(cases)('refuses $name: $status $code, nothing stored', async (c) => {
    const { fields } = await grant();
    const response = await post(c.tamper(fields));
    expect(response.statusCode).toBe(c.status);
    expect(response.headers['content-type']).toContain('application/xml');
    expect(response.body).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<Error><Code>/);
    expect(response.error.code).toBe(c.code);
    if (c.message) expect(response.error.message).toMatch(c.message);
    await expectNothingStored();
  });

  it('allows fields named x-ignore-* without a condition, as S3 does', async () => {
    const { fields } = await grant();
    const ok = await post(grantForm({ ...fields, 'x-ignore-tracking': '1' }, JPEG));
    expect(ok.statusCode).toBe(201);
  });

  it('refuses a signed policy whose key would leave the storage root', async () => {
    // Even a correctly signed grant (a bug upstream) cannot write outside the root.
    const fields = createPostPolicyFields({
      credentials: {
        accessKeyId: t.config.storage.localAccessKeyId,
        secretAccessKey: STORAGE_SECRET,
      },
      region: storage.region,
      bucket: storage.bucket,
      key: '../../escape.jpg',
      contentType: 'image/jpeg',
      minBytes: 1,
      maxBytes: 5000,
      now: t.clock.now(),
      expiresInSeconds: 60,
    });
    const response = await post(grantForm(fields, JPEG));
    expect(response.statusCode).toBe(400);
    expect(response.error.code).toBe('InvalidArgument');
    expect(await filesUnder(path.dirname(storage.objectsDir))).toEqual([]);
  });

  it('answers a non-multipart POST with MalformedPOSTRequest', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/storage',
      payload: 'key=a',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.statusCode).toBe(400);
    expect(s3ErrorOf(response.body).code).toBe('MalformedPOSTRequest');
  });

  it('lets a real browser-style client read the XML of a refusal, even mid-file', async () => {
    // A browser's upload client parses Code/Message from the body (spec §7.1): the server must
    // answer cleanly instead of resetting the socket while the client is still sending.
    const port = await listening();
    const send = async (fields: Record<string, string>, bytes: number) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      form.append('file', new Blob([Buffer.alloc(bytes, 3)], { type: 'image/jpeg' }), 'p.jpg');
      const response = await fetch(`http://127.0.0.1:${port}/storage`, {
        method: 'POST',
        body: form,
      });
      return { status: response.status, error: s3ErrorOf(await response.text()) };
    };
    const { fields } = await grant({ maxBytes: 1_000_000 });
    expect(await send({ ...fields, key: 'share/up/other.jpg' }, 4_000_000)).toMatchObject({
      status: 403,
      error: { code: 'AccessDenied' },
    });
    expect(await send(fields, 4_000_000)).toMatchObject({
      status: 400,
      error: { code: 'EntityTooLarge' },
    });
    expect(await send(fields, 500_000)).toMatchObject({ status: 201 });
    expect((await storage.head('share/up/e1/photo.jpg'))?.size).toBe(500_000);
  });

  it('leaves no object and no temp file when the client dies mid-upload', async () => {
    const port = await listening();
    const { fields } = await grant({ maxBytes: 10_000_000 });
    const { payload, headers } = multipartBody(grantForm(fields, Buffer.alloc(8_000_000, 1)));
    const sentHalf = new Promise<void>((resolve) => {
      const req = httpRequest({
        host: '127.0.0.1',
        port,
        method: 'POST',
        path: '/storage',
        headers,
      });
      req.on('error', () => undefined);
      // Send the fields and part of the file, wait until the server has begun writing, then cut.
      req.write(payload.subarray(0, 3_000_000), () => {
        const poll = setInterval(() => {
          void filesUnder(storage.tmpDir).then((files) => {
            if (files.length > 0) {
              clearInterval(poll);
              req.destroy();
              resolve();
            }
          });
        }, 5);
      });
    });
    await sentHalf;
    // The server notices the closed socket, fails the pipeline and removes the temp file.
    await expect
      .poll(() => filesUnder(storage.tmpDir), { timeout: 5000, interval: 20 })
      .toEqual([]);
    expect(await storage.head('share/up/e1/photo.jpg')).toBeNull();
    await expectNothingStored();
  });
});

describe('GET|HEAD /storage/<key>', () => {
  beforeEach(async () => {
    await storage.put('share/up/serve/a b.jpg', JPEG, 'image/jpeg');
  });

  it('serves the object with type, length, ETag, Last-Modified, caching and safety headers', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject({
      'content-type': 'image/jpeg',
      'content-length': String(JPEG.length),
      'cache-control': 'public, max-age=3600',
      'x-content-type-options': 'nosniff',
      'accept-ranges': 'bytes',
    });
    expect(response.headers.etag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(Date.parse(String(response.headers['last-modified']))).not.toBeNaN();
    expect(String(response.headers['content-security-policy'])).toContain('sandbox');
    expect(response.rawPayload.equals(JPEG)).toBe(true);
    expect(storage.publicUrl('share/up/serve/a b.jpg')).toBe(
      `${t.config.publicUrl}/storage/share/up/serve/a%20b.jpg`,
    );
  });

  it('answers HEAD with the headers and no body', async () => {
    const response = await t.app.inject({
      method: 'HEAD',
      url: '/storage/share/up/serve/a%20b.jpg',
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/jpeg');
    expect(response.headers['content-length']).toBe(String(JPEG.length));
    expect(response.body).toBe('');
  });

  it('answers 304 to a matching If-None-Match or a fresh If-Modified-Since', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/storage/share/up/serve/a%20b.jpg' });
    const etag = String(first.headers.etag);
    const again = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { 'if-none-match': `"other", ${etag}` },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const stale = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { 'if-none-match': '"other"' },
    });
    expect(stale.statusCode).toBe(200);
    const since = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { 'if-modified-since': String(first.headers['last-modified']) },
    });
    expect(since.statusCode).toBe(304);
  });

  it('serves byte ranges (206) and refuses unsatisfiable ones (416)', async () => {
    const part = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { range: 'bytes=0-3' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-3/${JPEG.length}`);
    expect(part.rawPayload.equals(JPEG.subarray(0, 4))).toBe(true);
    const tail = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { range: 'bytes=-10' },
    });
    expect(tail.rawPayload.equals(JPEG.subarray(-10))).toBe(true);
    const beyond = await t.app.inject({
      method: 'GET',
      url: '/storage/share/up/serve/a%20b.jpg',
      headers: { range: `bytes=${JPEG.length}-` },
    });
    expect(beyond.statusCode).toBe(416);
    expect(s3ErrorOf(beyond.body).code).toBe('InvalidRange');
  });

  it('answers 404 NoSuchKey XML for a missing object (and a bodiless 404 to HEAD)', async () => {
    const missing = await t.app.inject({ method: 'GET', url: '/storage/share/up/serve/none.jpg' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toContain('application/xml');
    expect(s3ErrorOf(missing.body)).toEqual({
      code: 'NoSuchKey',
      message: 'The specified key does not exist.',
    });
    const head = await t.app.inject({ method: 'HEAD', url: '/storage/share/up/serve/none.jpg' });
    expect(head.statusCode).toBe(404);
    expect(head.body).toBe('');
  });

  it.each([
    ['/storage/..%2Fsecret.key', 400],
    ['/storage/..%2F..%2Fsecret.key', 400],
    ['/storage/share/up/..%5C..%5Csecret.key', 400],
    ['/storage/%2Fetc%2Fpasswd', 400],
    ['/storage/up%00/x', 400],
    // The URL parser resolves these dot segments before routing: the request never reaches us.
    ['/storage/share/up/%2E%2E/%2E%2E/%2E%2E/secret.key', 404],
  ])('refuses the traversal %s (%i) without reading outside the root', async (url, status) => {
    // Sentinels where a traversal from the objects folder would land.
    await writeFile(path.join(storage.objectsDir, '..', 'secret.key'), SENTINEL);
    await writeFile(path.join(t.config.dataDir, 'secret.key'), SENTINEL);
    const response = await t.app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(status);
    if (status === 400) expect(s3ErrorOf(response.body).code).toBe('InvalidArgument');
    expect(response.body).not.toContain(SENTINEL);
  });
});
