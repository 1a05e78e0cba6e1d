import { createHash, randomUUID } from 'node:crypto';
import { copyFile, link, mkdir, open, readdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Clock } from '../lib/clock.ts';
import { verifyPostForm, type AcceptedPost } from './post-form.ts';
import { createPostPolicyFields, type SigningCredentials } from './post-policy.ts';
import { S3Error } from './s3-error.ts';
import {
  checkStorageGet,
  EXPIRES_PARAM,
  roundedExpiry,
  SIGNATURE_PARAM,
  SIGNED_GET_SECONDS,
  signStorageGet,
  type SignedGetCheck,
} from './signed-get.ts';
import {
  assertValidKey,
  checkGrantInput,
  DEFAULT_CACHE_CONTROL,
  encodeKeyForUrl,
  StorageError,
  type GetOptions,
  type ListedObject,
  type LocalObjectReader,
  type OpenedObject,
  type PutOptions,
  type StorageRepository,
  type StoredObject,
  type StoredObjectInfo,
  type UploadGrant,
  type UploadGrantInput,
} from './storage.repository.ts';

/** Where the local backend is reached: uploads POST here, objects are GET under it. */
export const LOCAL_STORAGE_PATH = '/storage';

export interface LocalStorageOptions {
  /** `${FLASHBULB_DATA_DIR}/storage`. */
  root: string;
  /** The server's public base URL; grants and object URLs point at our own routes. */
  baseUrl: string;
  credentials: SigningCredentials;
  clock: Clock;
  region?: string;
  bucket?: string;
}

/** What follows each object's bytes in its file: its metadata (see `LocalStorage`). */
interface Trailer {
  contentType: string;
  etag: string;
  cacheControl: string;
}

const FOOTER_MAGIC = Buffer.from('FBO1', 'ascii');
const FOOTER_BYTES = 8; // uint32 BE trailer length + magic
/** Temp files older than this were left by a crash (an upload never takes a day). */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

const errorCode = (error: unknown): string | undefined =>
  error instanceof Error && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;

/**
 * Counts and hashes the bytes on their way to disk, stops the stream the moment it passes the
 * size limit (so an oversized upload is never fully written), and appends the trailer.
 */
class ObjectEncoder extends Transform {
  size = 0;
  etag = '';
  private readonly md5 = createHash('md5');
  constructor(
    private readonly meta: Omit<Trailer, 'etag'>,
    private readonly minBytes: number,
    private readonly maxBytes: number,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.size += chunk.length;
    if (this.size > this.maxBytes) {
      callback(
        new S3Error('EntityTooLarge', 'Your proposed upload exceeds the maximum allowed size', {
          MaxSizeAllowed: this.maxBytes,
        }),
      );
      return;
    }
    this.md5.update(chunk);
    callback(null, chunk);
  }
  override _flush(callback: TransformCallback): void {
    if (this.size < this.minBytes) {
      callback(
        new S3Error(
          'EntityTooSmall',
          'Your proposed upload is smaller than the minimum allowed size',
          {
            ProposedSize: this.size,
            MinSizeAllowed: this.minBytes,
          },
        ),
      );
      return;
    }
    this.etag = `"${this.md5.digest('hex')}"`;
    const trailer = Buffer.from(JSON.stringify({ ...this.meta, etag: this.etag }), 'utf8');
    const footer = Buffer.alloc(FOOTER_BYTES);
    footer.writeUInt32BE(trailer.length, 0);
    FOOTER_MAGIC.copy(footer, 4);
    callback(null, Buffer.concat([trailer, footer]));
  }
}

/**
 * Objects on local disk under `root/objects/<key>`.
 *
 * Each file holds the object's bytes followed by a small JSON trailer (content type, ETag, cache
 * control) and an 8-byte footer. Keeping metadata in the same file as the bytes means one
 * `rename` publishes both: a crash leaves the old object or the new one, never new bytes with old
 * metadata (which a sidecar file could). Writes go to `root/tmp` (same filesystem), are fsynced,
 * then renamed into place.
 */
export class LocalStorage implements StorageRepository {
  readonly backend = 'local';
  readonly bucket: string;
  readonly region: string;
  readonly objectsDir: string;
  readonly tmpDir: string;
  private readonly baseUrl: string;

  constructor(private readonly options: LocalStorageOptions) {
    this.bucket = options.bucket ?? 'flashbulb';
    this.region = options.region ?? 'us-east-1';
    this.objectsDir = path.join(path.resolve(options.root), 'objects');
    this.tmpDir = path.join(path.resolve(options.root), 'tmp');
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  /** Creates the folders and removes temp files a crash left behind. */
  async init(): Promise<void> {
    await mkdir(this.objectsDir, { recursive: true });
    await mkdir(this.tmpDir, { recursive: true });
    const now = Date.now();
    for (const name of await readdir(this.tmpDir)) {
      const file = path.join(this.tmpDir, name);
      const info = await stat(file).catch(() => null);
      if (info && now - info.mtimeMs > STALE_TEMP_MS) await rm(file, { force: true });
    }
  }

  get uploadUrl(): string {
    return `${this.baseUrl}${LOCAL_STORAGE_PATH}`;
  }

  publicUrl(key: string): string {
    assertValidKey(key);
    return `${this.baseUrl}${LOCAL_STORAGE_PATH}/${encodeKeyForUrl(key)}`;
  }

  signedGetUrl(key: string, options: { expiresInSeconds?: number } = {}): Promise<string> {
    return new Promise((resolve) => {
      const url = this.publicUrl(key);
      const expires = roundedExpiry(
        this.options.clock.now(),
        options.expiresInSeconds ?? SIGNED_GET_SECONDS,
      );
      const signature = signStorageGet(this.options.credentials.secretAccessKey, key, expires);
      resolve(`${url}?${EXPIRES_PARAM}=${expires}&${SIGNATURE_PARAM}=${signature}`);
    });
  }

  localReader(): LocalObjectReader {
    return this;
  }

  now(): Date {
    return this.options.clock.now();
  }

  /** Whether a GET of `key` with this query carries a valid, unexpired signature. */
  checkSignedGet(key: string, query: Record<string, unknown>): SignedGetCheck {
    return checkStorageGet(
      this.options.credentials.secretAccessKey,
      key,
      query,
      this.options.clock.now(),
    );
  }

  createUploadGrant(input: UploadGrantInput): Promise<UploadGrant> {
    // Inside the executor, a refused input becomes a rejection like on the S3 backend.
    return new Promise((resolve) => {
      const grant = checkGrantInput(input);
      resolve({
        url: this.uploadUrl,
        fields: createPostPolicyFields({
          credentials: this.options.credentials,
          region: this.region,
          bucket: this.bucket,
          key: input.key,
          contentType: input.contentType,
          minBytes: grant.minBytes,
          maxBytes: input.maxBytes,
          now: this.options.clock.now(),
          expiresInSeconds: grant.expiresInSeconds,
        }),
      });
    });
  }

  /** Checks a POST upload's fields (everything before `file`) as S3 would; throws S3Error. */
  verifyPost(fields: ReadonlyArray<readonly [string, string]>): AcceptedPost {
    const { credentials } = this.options;
    return verifyPostForm(fields, {
      bucket: this.bucket,
      region: this.region,
      now: this.options.clock.now(),
      secretFor: (id) => (id === credentials.accessKeyId ? credentials.secretAccessKey : undefined),
    });
  }

  async put(
    key: string,
    body: Buffer | Readable,
    contentType: string,
    options: PutOptions = {},
  ): Promise<void> {
    await this.write(key, Buffer.isBuffer(body) ? Readable.from([body]) : body, {
      contentType,
      cacheControl: options.cacheControl ?? DEFAULT_CACHE_CONTROL,
    });
  }

  /**
   * Streams `source` into a temp file, enforcing the size range while streaming, then publishes
   * it with one rename. On any failure (limit, aborted source, disk) the temp file is removed and
   * the previous object, if any, is untouched.
   */
  async write(
    key: string,
    source: Readable,
    meta: Omit<Trailer, 'etag'>,
    limits: { minBytes?: number; maxBytes?: number } = {},
  ): Promise<{ etag: string; size: number }> {
    const target = this.pathOf(key);
    const temp = path.join(this.tmpDir, `${randomUUID()}.part`);
    const encoder = new ObjectEncoder(
      meta,
      limits.minBytes ?? 0,
      limits.maxBytes ?? Number.POSITIVE_INFINITY,
    );
    // The temp file is created before any byte flows: a write stream left to open it itself could
    // create it after a refused write had already cleaned up, leaving a stray file behind.
    const handle = await open(temp, 'wx');
    try {
      // `flush: true` fsyncs before close, so the rename never publishes unwritten blocks.
      await pipeline(source, encoder, handle.createWriteStream({ flush: true }));
      await this.publish(temp, target);
    } catch (error) {
      await handle.close().catch(() => undefined);
      await rm(temp, { force: true });
      throw error;
    }
    return { etag: encoder.etag, size: encoder.size };
  }

  async head(key: string): Promise<StoredObjectInfo | null> {
    const opened = await this.openObject(key);
    if (!opened) return null;
    await opened.handle.close();
    return opened.info;
  }

  async get(key: string, options: GetOptions = {}): Promise<StoredObject | null> {
    const object = await this.open(key);
    return object && { ...object.info, body: object.read(options.range) };
  }

  /**
   * An open object: its metadata and its bytes come from the same file, even if the key is
   * replaced or deleted meanwhile. Call `read` once (the stream then closes the file) or `close`.
   */
  async open(key: string): Promise<OpenedObject | null> {
    const opened = await this.openObject(key);
    if (!opened) return null;
    const { handle, info } = opened;
    return {
      info,
      read: (range) => {
        const start = range?.start ?? 0;
        const end = range?.end ?? info.size - 1;
        if (end < start) {
          // An empty object: createReadStream cannot express zero bytes.
          void handle.close();
          return Readable.from([]);
        }
        return handle.createReadStream({ start, end, autoClose: true });
      },
      close: () => handle.close(),
    };
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true }).catch((error: unknown) => {
      // A folder at that path is other keys' prefix, not this object.
      if (errorCode(error) !== 'ERR_FS_EISDIR' && errorCode(error) !== 'EISDIR') throw error;
    });
  }

  async deletePrefix(prefix: string): Promise<void> {
    assertValidKey(prefix, 'prefix');
    if (prefix.endsWith('/')) {
      await rm(this.pathOf(prefix.slice(0, -1), 'prefix'), { recursive: true, force: true });
      return;
    }
    // `events/12` matches `events/12/…` and `events/123.jpg`: every entry of the parent folder
    // whose name starts with the last segment.
    const target = this.pathOf(prefix, 'prefix');
    const parent = path.dirname(target);
    const start = path.basename(target);
    const names = await readdir(parent).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return [];
      throw error;
    });
    for (const name of names) {
      if (name.startsWith(start)) {
        await rm(path.join(parent, name), { recursive: true, force: true });
      }
    }
  }

  async copy(fromKey: string, toKey: string): Promise<void> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    const temp = path.join(this.tmpDir, `${randomUUID()}.part`);
    try {
      // Objects are never changed in place (every write publishes a new file by rename), so the
      // copy can share the source's bytes: a hard link costs nothing however large the photo.
      // Where links are refused (another filesystem, some network mounts) the bytes are copied.
      const linked = await link(from, temp).then(
        () => true,
        (error: unknown) => {
          if (errorCode(error) === 'ENOENT') throw error;
          return false;
        },
      );
      if (!linked) {
        await copyFile(from, temp);
        const handle = await open(temp, 'r+');
        await handle.sync().finally(() => handle.close());
      }
      await this.publish(temp, to);
    } catch (error) {
      await rm(temp, { force: true });
      if (errorCode(error) === 'ENOENT' && !(await this.exists(from))) {
        throw new StorageError('NoSuchKey', `no object ${fromKey}`);
      }
      throw error;
    }
  }

  async move(fromKey: string, toKey: string): Promise<void> {
    const from = this.pathOf(fromKey);
    const to = this.pathOf(toKey);
    if (!(await this.exists(from))) throw new StorageError('NoSuchKey', `no object ${fromKey}`);
    if (from === to) return;
    // Same filesystem: one rename moves bytes and metadata together.
    await this.publish(from, to);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  async *list(prefix: string): AsyncGenerator<ListedObject> {
    // '' lists every object (backups, the integrity check); a folder prefix ends with `/`.
    if (prefix !== '' && !prefix.endsWith('/'))
      throw new StorageError('InvalidKey', 'a list prefix ends with /');
    const root = prefix === '' ? this.objectsDir : this.pathOf(prefix.slice(0, -1), 'prefix');
    const walk = async function* (dir: string, keyPrefix: string): AsyncGenerator<ListedObject> {
      const entries = await readdir(dir, { withFileTypes: true }).catch((error: unknown) => {
        if (errorCode(error) === 'ENOENT' || errorCode(error) === 'ENOTDIR') return [];
        throw error;
      });
      for (const entry of entries) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) {
          yield* walk(full, `${keyPrefix}${entry.name}/`);
        } else if (entry.isFile()) {
          const info = await stat(full).catch(() => null);
          // Bytes plus the metadata trailer: the size is approximate, the key and time exact.
          if (info)
            yield { key: `${keyPrefix}${entry.name}`, size: info.size, lastModified: info.mtime };
        }
      }
    };
    yield* walk(root, prefix);
  }

  /** The file of a key, guaranteed inside the objects folder. */
  pathOf(key: string, kind: 'key' | 'prefix' = 'key'): string {
    assertValidKey(key, kind);
    const file = path.join(this.objectsDir, ...key.split('/'));
    // Belt and braces after assertValidKey: nothing resolves outside the root.
    if (!file.startsWith(this.objectsDir + path.sep)) {
      throw new StorageError('InvalidKey', `invalid storage ${kind} (outside the root)`);
    }
    return file;
  }

  private async exists(file: string): Promise<boolean> {
    const info = await stat(file).catch(() => null);
    return info?.isFile() ?? false;
  }

  private async publish(temp: string, target: string): Promise<void> {
    try {
      await mkdir(path.dirname(target), { recursive: true });
      await rename(temp, target);
    } catch (error) {
      const code = errorCode(error);
      // `a` exists as an object and `a/b` is asked for, or the other way round.
      if (code === 'ENOTDIR' || code === 'EISDIR' || code === 'EEXIST' || code === 'ENOTEMPTY') {
        throw new StorageError('KeyConflict', 'the key collides with another key as a folder');
      }
      throw error;
    }
    // Persist the rename itself (the directory entry), not only the file's blocks.
    const dir = await open(path.dirname(target), 'r').catch(() => null);
    await dir?.sync().catch(() => undefined);
    await dir?.close();
  }

  private async openObject(key: string) {
    const file = this.pathOf(key);
    const handle = await open(file, 'r').catch((error: unknown) => {
      const code = errorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return null;
      throw error;
    });
    if (!handle) return null;
    try {
      const info = await handle.stat();
      if (!info.isFile()) {
        await handle.close();
        return null;
      }
      const footer = Buffer.alloc(FOOTER_BYTES);
      if (info.size < FOOTER_BYTES) throw new Error(`storage object ${key} has no trailer`);
      await handle.read(footer, 0, FOOTER_BYTES, info.size - FOOTER_BYTES);
      const trailerLength = footer.readUInt32BE(0);
      if (!footer.subarray(4).equals(FOOTER_MAGIC) || trailerLength > info.size - FOOTER_BYTES) {
        throw new Error(`storage object ${key} has no trailer`);
      }
      const trailerBytes = Buffer.alloc(trailerLength);
      await handle.read(trailerBytes, 0, trailerLength, info.size - FOOTER_BYTES - trailerLength);
      const trailer = JSON.parse(trailerBytes.toString('utf8')) as Trailer;
      const result: StoredObjectInfo = {
        contentType: trailer.contentType,
        etag: trailer.etag,
        cacheControl: trailer.cacheControl,
        size: info.size - FOOTER_BYTES - trailerLength,
        lastModified: info.mtime,
      };
      return { handle, info: result };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }
}
