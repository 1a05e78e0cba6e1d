import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An in-process S3 bucket store with versioning on, for what s3rver lacks (it answers
 * `NotImplemented` to `?versioning` and `?versions`). Written from AWS's public S3 API reference
 * (docs.aws.amazon.com/AmazonS3/latest/API: PutObject, CopyObject, GetObject, HeadObject,
 * DeleteObject, DeleteObjects, ListObjectsV2, ListObjectVersions, GetBucketVersioning; "Using
 * versioning in S3 buckets"), path-style requests only, signatures not checked:
 * - every PUT (and copy) adds a version with a new `x-amz-version-id`; the newest is the current
 *   object. GET/HEAD `?versionId=` read that version (404 `NoSuchVersion` if there is none);
 * - DELETE without a version id adds a delete marker (the key then answers 404 `NoSuchKey` with
 *   `x-amz-delete-marker: true`, and lists leave it out); DELETE with `?versionId=` removes that
 *   version for good;
 * - `x-amz-copy-source: bucket/key?versionId=…` copies that version (content type and cache
 *   control with it: the `COPY` directive);
 * - `GET /<bucket>?versions&prefix=` lists `Version` and `DeleteMarker` entries, keys in order and
 *   each key's versions newest first, `IsLatest` on the newest; `?list-type=2` lists current
 *   objects; `?versioning` answers `Enabled`.
 * `requests` records every call (method, key, version id, whether it was a copy) for assertions.
 */

interface Version {
  versionId: string;
  body: Buffer | null; // null: a delete marker
  contentType: string;
  cacheControl: string | null;
  etag: string;
  lastModified: Date;
}

export interface S3DoubleRequest {
  method: string;
  bucket: string;
  key: string;
  versionId: string | null;
  copySource: string | null;
  query: string;
}

export interface S3VersionedDouble {
  url: string;
  requests: S3DoubleRequest[];
  /** Every version of a key, newest first (delete markers included, `body` null). */
  versions(bucket: string, key: string): Version[];
  close(): Promise<void>;
}

const xml = (s: string) => s.replace(/[<>&'"]/g, (c) => `&#${c.charCodeAt(0)};`);

const unxml = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

const readBody = async (req: IncomingMessage): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
};

export const startS3VersionedDouble = async (buckets: string[]): Promise<S3VersionedDouble> => {
  const store = new Map<string, Map<string, Version[]>>(buckets.map((b) => [b, new Map()]));
  const requests: S3DoubleRequest[] = [];
  let clock = 0;
  const newVersionId = () =>
    `${(++clock).toString().padStart(6, '0')}.${randomBytes(6).toString('hex')}`;

  /** An S3 error document (a HEAD answers the status and headers only). */
  const error = (
    res: ServerResponse,
    status: number,
    code: string,
    headers: Record<string, string> = {},
    head = false,
  ) => {
    res.writeHead(status, { 'content-type': 'application/xml', ...headers });
    res.end(
      head
        ? undefined
        : `<?xml version="1.0" encoding="UTF-8"?><Error><Code>${code}</Code><Message>${code}</Message></Error>`,
    );
  };

  const addVersion = (
    bucket: Map<string, Version[]>,
    key: string,
    version: Omit<Version, 'versionId' | 'lastModified'>,
  ) => {
    const list = bucket.get(key) ?? [];
    const made: Version = { ...version, versionId: newVersionId(), lastModified: new Date() };
    list.unshift(made);
    bucket.set(key, list);
    return made;
  };

  const current = (bucket: Map<string, Version[]>, key: string): Version | null => {
    const latest = bucket.get(key)?.[0];
    return latest && latest.body ? latest : null;
  };

  const sendObject = (res: ServerResponse, version: Version, head: boolean) => {
    res.writeHead(200, {
      'content-type': version.contentType,
      'content-length': String(version.body!.length),
      etag: version.etag,
      'last-modified': version.lastModified.toUTCString(),
      'x-amz-version-id': version.versionId,
      ...(version.cacheControl ? { 'cache-control': version.cacheControl } : {}),
    });
    res.end(head ? undefined : version.body);
  };

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://double');
      const [, bucketName = '', ...rest] = url.pathname.split('/');
      const key = decodeURIComponent(rest.join('/'));
      const versionId = url.searchParams.get('versionId');
      const copySource = (req.headers['x-amz-copy-source'] as string | undefined) ?? null;
      requests.push({
        method: req.method ?? '',
        bucket: bucketName,
        key,
        versionId,
        copySource,
        query: url.search,
      });
      const bucket = store.get(bucketName);
      const body = await readBody(req);
      if (!bucket) return error(res, 404, 'NoSuchBucket');
      const head = req.method === 'HEAD';

      if (key === '') {
        if (req.method === 'GET' && url.searchParams.has('versioning')) {
          res.writeHead(200, { 'content-type': 'application/xml' });
          return res.end(
            '<?xml version="1.0" encoding="UTF-8"?><VersioningConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Status>Enabled</Status></VersioningConfiguration>',
          );
        }
        const prefix = url.searchParams.get('prefix') ?? '';
        const keys = [...bucket.keys()].filter((k) => k.startsWith(prefix)).sort();
        if (req.method === 'GET' && url.searchParams.has('versions')) {
          const entries = keys.flatMap((k) =>
            bucket
              .get(k)!
              .map((v, i) =>
                v.body
                  ? `<Version><Key>${xml(k)}</Key><VersionId>${v.versionId}</VersionId><IsLatest>${i === 0}</IsLatest><LastModified>${v.lastModified.toISOString()}</LastModified><ETag>${xml(v.etag)}</ETag><Size>${v.body.length}</Size><StorageClass>STANDARD</StorageClass></Version>`
                  : `<DeleteMarker><Key>${xml(k)}</Key><VersionId>${v.versionId}</VersionId><IsLatest>${i === 0}</IsLatest><LastModified>${v.lastModified.toISOString()}</LastModified></DeleteMarker>`,
              ),
          );
          res.writeHead(200, { 'content-type': 'application/xml' });
          return res.end(
            `<?xml version="1.0" encoding="UTF-8"?><ListVersionsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucketName}</Name><Prefix>${xml(prefix)}</Prefix><KeyMarker></KeyMarker><VersionIdMarker></VersionIdMarker><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${entries.join('')}</ListVersionsResult>`,
          );
        }
        if (req.method === 'GET') {
          const contents = keys.flatMap((k) => {
            const v = current(bucket, k);
            return v
              ? [
                  `<Contents><Key>${xml(k)}</Key><LastModified>${v.lastModified.toISOString()}</LastModified><ETag>${xml(v.etag)}</ETag><Size>${v.body!.length}</Size><StorageClass>STANDARD</StorageClass></Contents>`,
                ]
              : [];
          });
          res.writeHead(200, { 'content-type': 'application/xml' });
          return res.end(
            `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>${bucketName}</Name><Prefix>${xml(prefix)}</Prefix><KeyCount>${contents.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${contents.join('')}</ListBucketResult>`,
          );
        }
        if (req.method === 'POST' && url.searchParams.has('delete')) {
          const text = body.toString('utf8');
          for (const match of text.matchAll(/<Object>([\s\S]*?)<\/Object>/g)) {
            const k = /<Key>([\s\S]*?)<\/Key>/.exec(match[1]!)?.[1];
            if (!k) continue;
            const plain = unxml(k);
            if (current(bucket, plain))
              addVersion(bucket, plain, {
                body: null,
                contentType: '',
                cacheControl: null,
                etag: '',
              });
          }
          res.writeHead(200, { 'content-type': 'application/xml' });
          return res.end(
            '<?xml version="1.0" encoding="UTF-8"?><DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"></DeleteResult>',
          );
        }
        return error(res, 501, 'NotImplemented');
      }

      if (req.method === 'PUT' && copySource) {
        const source = decodeURIComponent(copySource.replace(/^\//, ''));
        const [path, query = ''] = source.split('?');
        const slash = path!.indexOf('/');
        const from = store.get(path!.slice(0, slash));
        const fromKey = path!.slice(slash + 1);
        const fromVersion = new URLSearchParams(query).get('versionId');
        const version = from
          ? fromVersion
            ? (from.get(fromKey) ?? []).find((v) => v.versionId === fromVersion && v.body)
            : current(from, fromKey)
          : undefined;
        if (!version) return error(res, 404, fromVersion ? 'NoSuchVersion' : 'NoSuchKey');
        const made = addVersion(bucket, key, {
          body: version.body,
          contentType: version.contentType,
          cacheControl: version.cacheControl,
          etag: version.etag,
        });
        res.writeHead(200, {
          'content-type': 'application/xml',
          'x-amz-version-id': made.versionId,
          'x-amz-copy-source-version-id': version.versionId,
        });
        return res.end(
          `<?xml version="1.0" encoding="UTF-8"?><CopyObjectResult><LastModified>${made.lastModified.toISOString()}</LastModified><ETag>${xml(made.etag)}</ETag></CopyObjectResult>`,
        );
      }
      if (req.method === 'PUT') {
        const made = addVersion(bucket, key, {
          body,
          contentType: req.headers['content-type'] ?? 'binary/octet-stream',
          cacheControl: req.headers['cache-control'] ?? null,
          etag: `"${createHash('md5').update(body).digest('hex')}"`,
        });
        res.writeHead(200, { etag: made.etag, 'x-amz-version-id': made.versionId });
        return res.end();
      }
      if (req.method === 'GET' || head) {
        const list = bucket.get(key) ?? [];
        if (versionId) {
          const version = list.find((v) => v.versionId === versionId);
          if (!version) return error(res, 404, 'NoSuchVersion', {}, head);
          if (!version.body)
            return error(res, 405, 'MethodNotAllowed', { 'x-amz-delete-marker': 'true' }, head);
          return sendObject(res, version, head);
        }
        const version = current(bucket, key);
        if (!version)
          return error(
            res,
            404,
            'NoSuchKey',
            list[0] ? { 'x-amz-delete-marker': 'true' } : {},
            head,
          );
        return sendObject(res, version, head);
      }
      if (req.method === 'DELETE') {
        if (versionId) {
          bucket.set(
            key,
            (bucket.get(key) ?? []).filter((v) => v.versionId !== versionId),
          );
          res.writeHead(204, { 'x-amz-version-id': versionId });
          return res.end();
        }
        const marker = addVersion(bucket, key, {
          body: null,
          contentType: '',
          cacheControl: null,
          etag: '',
        });
        res.writeHead(204, { 'x-amz-delete-marker': 'true', 'x-amz-version-id': marker.versionId });
        return res.end();
      }
      return error(res, 501, 'NotImplemented');
    })().catch((failure: unknown) => {
      res.writeHead(500);
      res.end(String(failure));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    versions: (bucket, key) => [...(store.get(bucket)?.get(key) ?? [])],
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
};
