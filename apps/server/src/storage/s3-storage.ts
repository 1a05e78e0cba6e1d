import { Readable } from 'node:stream';
import {
  CopyObjectCommand,
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
  paginateListObjectsV2,
} from '@aws-sdk/client-s3';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import type { Clock } from '../lib/clock.ts';
import { isProtectedKey } from './key-space.ts';
import { presignGet } from './presign-get.ts';
import { roundedExpiry, SIGNED_GET_SECONDS } from './signed-get.ts';
import {
  assertValidKey,
  checkGrantInput,
  DEFAULT_CACHE_CONTROL,
  encodeKeyForUrl,
  StorageError,
  type GetOptions,
  type ListedObject,
  type PutOptions,
  type StorageRepository,
  type StoredObject,
  type StoredObjectInfo,
  type UploadGrant,
  type UploadGrantInput,
} from './storage.repository.ts';

export interface S3StorageConfig {
  bucket: string;
  region: string;
  /** Unset = AWS; set for MinIO, R2, Ceph, s3rver… */
  endpoint: string | undefined;
  /** Unset = the SDK's default chain (env, profile, instance role — which adds a session token). */
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  forcePathStyle: boolean;
  /** Base URL browsers read objects from (a CDN); derived from endpoint/bucket when unset. */
  publicUrl: string | undefined;
}

const isNotFound = (error: unknown): boolean =>
  error instanceof S3ServiceException &&
  (error.name === 'NoSuchKey' ||
    error.name === 'NotFound' ||
    error.$metadata.httpStatusCode === 404);

/** An object's metadata as GetObject and HeadObject both report it. */
const objectInfo = (out: {
  ContentType?: string;
  ContentLength?: number;
  ETag?: string;
  LastModified?: Date;
  CacheControl?: string;
  VersionId?: string;
}): StoredObjectInfo => ({
  contentType: out.ContentType ?? 'binary/octet-stream',
  size: out.ContentLength ?? 0,
  etag: out.ETag ?? '',
  lastModified: out.LastModified ?? new Date(0),
  cacheControl: out.CacheControl ?? DEFAULT_CACHE_CONTROL,
  // An unversioned (or suspended) bucket answers no id, or the literal "null".
  ...(out.VersionId && out.VersionId !== 'null' ? { versionId: out.VersionId } : {}),
});

/** The SDK's field names, normalised to the lower-case names our local grants use (S3 reads form field names case-insensitively). */
const FIELD_NAMES: Record<string, string> = {
  policy: 'policy',
  'x-amz-algorithm': 'x-amz-algorithm',
  'x-amz-credential': 'x-amz-credential',
  'x-amz-date': 'x-amz-date',
  'x-amz-security-token': 'x-amz-security-token',
  'x-amz-signature': 'x-amz-signature',
};

/**
 * Any S3-compatible store through the AWS SDK v3. Public objects (key-space.ts) are public-read:
 * the spec's upload client sends `acl=public-read`, so on AWS the bucket needs ACLs enabled
 * (Object Ownership "ObjectWriter" or "BucketOwnerPreferred") and public ACLs not blocked; put and
 * copy set that ACL on public keys only. Protected keys are written private (no ACL) and read
 * through presigned GETs (`signedGetUrl`). Uploads land under `tmp/` with the grant's
 * public-read ACL (robots send it), under an unguessable key that completion copies into
 * protected space and deletes.
 */
export class S3Storage implements StorageRepository {
  readonly backend = 's3';
  readonly client: S3Client;
  private readonly base: string;

  private readonly readBase: string;

  constructor(
    private readonly config: S3StorageConfig,
    private readonly clock: Clock = { now: () => new Date() },
  ) {
    this.client = new S3Client({
      region: config.region,
      endpoint: config.endpoint,
      forcePathStyle: config.forcePathStyle,
      credentials:
        config.accessKeyId && config.secretAccessKey
          ? { accessKeyId: config.accessKeyId, secretAccessKey: config.secretAccessKey }
          : undefined,
      // Newer SDKs add CRC32 checksums (and aws-chunked bodies) to every upload; many
      // S3-compatible stores do not understand them. Only send checksums where S3 demands them.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    this.base = (config.publicUrl ?? defaultPublicBase(config)).replace(/\/+$/, '');
    // Presigned GETs go to the store itself: a CDN in front would not check S3's signature.
    this.readBase = defaultPublicBase(config).replace(/\/+$/, '');
  }

  async signedGetUrl(key: string, options: { expiresInSeconds?: number } = {}): Promise<string> {
    assertValidKey(key);
    const window = options.expiresInSeconds ?? SIGNED_GET_SECONDS;
    // Signed at the start of the window and valid until its rounded end: one URL per window.
    const expires = roundedExpiry(this.clock.now(), window);
    const signedAt = new Date((expires - 2 * window) * 1000);
    const credentials = await this.client.config.credentials();
    return presignGet({
      base: this.readBase,
      key,
      region: this.config.region,
      credentials: {
        accessKeyId: credentials.accessKeyId,
        secretAccessKey: credentials.secretAccessKey,
        ...(credentials.sessionToken ? { sessionToken: credentials.sessionToken } : {}),
      },
      signedAt,
      expiresInSeconds: 2 * window,
    });
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${this.base}/${encodeKeyForUrl(key)}`;
  }

  async createUploadGrant(input: UploadGrantInput): Promise<UploadGrant> {
    const { minBytes, expiresInSeconds } = checkGrantInput(input);
    const { url, fields } = await createPresignedPost(this.client, {
      Bucket: this.config.bucket,
      Key: input.key,
      Expires: expiresInSeconds,
      Fields: {
        acl: 'public-read',
        success_action_status: '201',
        'Content-Type': input.contentType,
      },
      // The SDK turns every field into an exact-match condition and adds bucket and key.
      Conditions: [['content-length-range', minBytes, input.maxBytes]],
    });
    const normalised: Record<string, string> = {};
    for (const [name, value] of Object.entries(fields)) {
      normalised[FIELD_NAMES[name.toLowerCase()] ?? name] = value;
    }
    return { url, fields: normalised };
  }

  async put(
    key: string,
    body: Buffer | Readable,
    contentType: string,
    options: PutOptions = {},
  ): Promise<void> {
    assertValidKey(key);
    // PutObject needs a length up front; a stream of unknown length is buffered (derivatives and
    // archives are small; browser uploads never pass through here).
    const bytes = Buffer.isBuffer(body) ? body : await collect(body);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.config.bucket,
        Key: key,
        Body: bytes,
        ContentLength: bytes.length,
        ContentType: contentType,
        CacheControl: options.cacheControl ?? DEFAULT_CACHE_CONTROL,
        ...(isProtectedKey(key) ? {} : { ACL: 'public-read' as const }),
      }),
    );
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | null> {
    assertValidKey(key);
    try {
      const { range } = options;
      const out = await this.client.send(
        new GetObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          Range: range ? `bytes=${range.start}-${range.end}` : undefined,
          VersionId: options.versionId,
        }),
      );
      if (!(out.Body instanceof Readable)) throw new Error('S3 GetObject body is not a stream');
      const total = out.ContentRange?.match(/\/(\d+)$/)?.[1];
      const info = objectInfo(out);
      return { ...info, body: out.Body, size: total ? Number(total) : info.size };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    assertValidKey(key);
    try {
      const out = await this.client.send(
        new HeadObjectCommand({ Bucket: this.config.bucket, Key: key }),
      );
      return objectInfo(out);
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.config.bucket, Key: key }));
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidKey(prefix, 'prefix');
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.config.bucket, Prefix: prefix },
    );
    for await (const page of pages) {
      const keys = (page.Contents ?? []).flatMap((o) => (o.Key ? [{ Key: o.Key }] : []));
      if (keys.length === 0) continue;
      // A page is at most 1000 keys, DeleteObjects' limit.
      const out = await this.client.send(
        new DeleteObjectsCommand({
          Bucket: this.config.bucket,
          Delete: { Objects: keys, Quiet: true },
        }),
      );
      const failed = out.Errors ?? [];
      if (failed.length > 0) {
        throw new Error(`S3 could not delete ${failed.length} objects under ${prefix}`);
      }
    }
  }

  async *list(prefix: string): AsyncGenerator<ListedObject> {
    if (prefix !== '') assertValidKey(prefix, 'prefix');
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.config.bucket, Prefix: prefix },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield {
          key: object.Key,
          size: object.Size ?? 0,
          lastModified: object.LastModified ?? new Date(0),
        };
      }
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    assertValidKey(fromKey);
    assertValidKey(toKey);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.config.bucket,
          Key: toKey,
          CopySource: `${this.config.bucket}/${encodeKeyForUrl(fromKey)}`,
          MetadataDirective: 'COPY',
          // A copy into protected space (completion, migration) is private whatever the source was.
          ...(isProtectedKey(toKey) ? {} : { ACL: 'public-read' as const }),
        }),
      );
    } catch (error) {
      if (isNotFound(error)) throw new StorageError('NoSuchKey', `no object ${fromKey}`);
      throw error;
    }
  }

  async move(fromKey: string, toKey: string): Promise<void> {
    if (fromKey === toKey) return;
    await this.copy(fromKey, toKey);
    await this.delete(fromKey);
  }

  async restoreVersion(key: string, versionId: string): Promise<boolean> {
    assertValidKey(key);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.config.bucket,
          Key: key,
          CopySource: `${this.config.bucket}/${encodeKeyForUrl(key)}?versionId=${encodeURIComponent(versionId)}`,
          MetadataDirective: 'COPY',
          ...(isProtectedKey(key) ? {} : { ACL: 'public-read' as const }),
        }),
      );
      return true;
    } catch (error) {
      if (
        isNotFound(error) ||
        (error instanceof S3ServiceException &&
          (error.name === 'NoSuchVersion' || error.name === 'InvalidArgument'))
      )
        return false;
      throw error;
    }
  }

  /** S3 readers get a presigned GET; this process streams nothing. */
  localReader(): null {
    return null;
  }

  close(): Promise<void> {
    this.client.destroy();
    return Promise.resolve();
  }
}

const defaultPublicBase = (config: S3StorageConfig): string => {
  if (!config.endpoint) {
    return config.forcePathStyle
      ? `https://s3.${config.region}.amazonaws.com/${config.bucket}`
      : `https://${config.bucket}.s3.${config.region}.amazonaws.com`;
  }
  const endpoint = new URL(config.endpoint);
  if (config.forcePathStyle) {
    return `${endpoint.origin}${endpoint.pathname.replace(/\/+$/, '')}/${config.bucket}`;
  }
  return `${endpoint.protocol}//${config.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/+$/, '')}`;
};

const collect = async (stream: Readable): Promise<Buffer> => {
  const chunks: Buffer[] = [];
  for await (const chunk of stream)
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as string));
  return Buffer.concat(chunks);
};
