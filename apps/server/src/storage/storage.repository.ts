import type { Readable } from 'node:stream';

/**
 * Object storage (DESIGN.md §1): local disk by default, any S3-compatible store at scale. Browsers
 * upload straight to the store with an upload grant (an S3 presigned POST) and read public objects
 * from `publicUrl(key)`, protected ones (key-space.ts, ADR 0006) only through `signedGetUrl(key)`;
 * the server itself uses put/get/… for derivatives, archives and clean-up.
 */
export interface StorageRepository {
  readonly backend: 'local' | 's3';
  /** A presigned POST the browser submits as multipart/form-data (fields first, `file` last). */
  createUploadGrant(input: UploadGrantInput): Promise<UploadGrant>;
  /** Writes the whole object or nothing: readers see the old object or the new one. */
  put(
    key: string,
    body: Buffer | Readable,
    contentType: string,
    options?: PutOptions,
  ): Promise<void>;
  /** The object's bytes (or one byte range of them), or null when there is no such key. */
  get(key: string, options?: GetOptions): Promise<StoredObject | null>;
  head(key: string): Promise<StoredObjectInfo | null>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Deletes every object whose key starts with `prefix` (non-empty). */
  deletePrefix(prefix: string): Promise<void>;
  /** Copies an object with its content type and cache control; throws NoSuchKey if missing. */
  copy(fromKey: string, toKey: string): Promise<void>;
  /** copy, then delete the source. */
  move(fromKey: string, toKey: string): Promise<void>;
  /**
   * Every object under a folder prefix (ending in `/`; `''` for every object), in no particular
   * order, with its last modification time. For housekeeping (the upload sweep, backups, the
   * integrity check), not for serving lists.
   */
  list(prefix: string): AsyncIterable<ListedObject>;
  /**
   * Where a browser GETs a public object (no signature). For a protected key (`isProtectedKey`)
   * this URL answers 403: hand out `signedGetUrl` instead, after an access check.
   */
  publicUrl(key: string): string;
  /**
   * A short-lived GET URL for any key (local: HMAC-signed `/storage/<key>?expires&signature`; S3:
   * a presigned GET). Stable within a window of `expiresInSeconds` (default 60), which it lives
   * at least and at most twice. Callers check access first: whoever holds the URL can read.
   */
  signedGetUrl(key: string, options?: { expiresInSeconds?: number }): Promise<string>;
  /**
   * Reads this process answers itself: local disk streams its objects (`/storage`, the signed
   * media route); null for S3, whose readers are sent to a presigned GET instead.
   */
  localReader(): LocalObjectReader | null;
  /**
   * A versioned bucket only (S3): makes an older version of the object its current one again
   * (a server-side copy; no bytes pass through this process). False when the bucket no longer
   * has that version.
   */
  restoreVersion?(key: string, versionId: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * An object opened for one read: its metadata and its bytes come from the same file, even if the
 * key is replaced or deleted meanwhile. Call `read` once (the stream then closes it) or `close`.
 */
export interface OpenedObject {
  info: StoredObjectInfo;
  read(range?: ByteRange): Readable;
  close(): Promise<void>;
}

/** Local disk's objects, read by this process to answer a GET. */
export interface LocalObjectReader {
  open(key: string): Promise<OpenedObject | null>;
  /** The storage clock (signed URLs expire by it). */
  now(): Date;
}

export interface UploadGrantInput {
  key: string;
  /** The exact Content-Type the browser must send (and that GET answers later). */
  contentType: string;
  maxBytes: number;
  /** Default 1: an empty file is refused. */
  minBytes?: number;
  /** Default 600, at most 600 (spec: a temporary grant). */
  expiresInSeconds?: number;
}

/** `url` and the form `fields` to POST before the `file` field (spec §3 "Upload grant"). */
export interface UploadGrant {
  url: string;
  fields: Record<string, string>;
}

export interface PutOptions {
  /** Default `public, max-age=3600`; immutable derivatives pass a year + `immutable`. */
  cacheControl?: string;
}

/** Inclusive byte offsets, already checked against the object's size by the caller. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface GetOptions {
  range?: ByteRange;
  /** A versioned bucket's older version of the object (S3 only). */
  versionId?: string;
}

export interface StoredObjectInfo {
  contentType: string;
  /** Size of the whole object in bytes. */
  size: number;
  /** Quoted, as in HTTP (`"…"`). */
  etag: string;
  lastModified: Date;
  cacheControl: string;
  /** The version read, in a versioned S3 bucket; absent elsewhere. */
  versionId?: string;
}

export interface ListedObject {
  key: string;
  size: number;
  lastModified: Date;
}

export interface StoredObject extends StoredObjectInfo {
  /** The whole object, or only `range` when one was asked for. */
  body: Readable;
}

export const DEFAULT_CACHE_CONTROL = 'public, max-age=3600';
export const MAX_GRANT_SECONDS = 600;
export const MAX_KEY_BYTES = 1024;

export type StorageErrorCode = 'InvalidKey' | 'NoSuchKey' | 'KeyConflict' | 'InvalidGrant';

export class StorageError extends Error {
  constructor(
    readonly code: StorageErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'StorageError';
  }
}

/**
 * Keys are S3 keys, but the local backend maps them onto paths, so anything that could leave the
 * storage root or alias another key is refused on both backends (same rules everywhere, so a key
 * that works locally works on S3 and back): no `..`/`.`/empty segments, no leading or trailing `/`,
 * no backslash, no control characters, at most 1024 UTF-8 bytes.
 */
export const assertValidKey = (key: string, kind: 'key' | 'prefix' = 'key'): void => {
  const fail = (why: string): never => {
    throw new StorageError('InvalidKey', `invalid storage ${kind} (${why})`);
  };
  if (typeof key !== 'string' || key.length === 0) fail('empty');
  if (Buffer.byteLength(key, 'utf8') > MAX_KEY_BYTES) fail('longer than 1024 bytes');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what we refuse
  if (/[\u0000-\u001f\u007f]/.test(key)) fail('control character');
  if (key.includes('\\')) fail('backslash');
  if (key.startsWith('/')) fail('leading slash');
  const segments = key.split('/');
  // A prefix may end with `/` ("everything in this folder"); a key may not (it names a folder).
  if (kind === 'prefix' && segments.length > 1 && segments.at(-1) === '') segments.pop();
  for (const segment of segments) {
    if (segment === '') fail('empty segment');
    if (segment === '.' || segment === '..') fail('dot segment');
  }
};

/** `a/b c.jpg` → `a/b%20c.jpg`: each segment encoded, slashes kept (as S3 and our route expect). */
export const encodeKeyForUrl = (key: string): string =>
  key.split('/').map(encodeURIComponent).join('/');

/** Shared by both backends: the limits a grant may carry. */
export const checkGrantInput = (
  input: UploadGrantInput,
): { minBytes: number; expiresInSeconds: number } => {
  assertValidKey(input.key);
  const minBytes = input.minBytes ?? 1;
  const expiresInSeconds = input.expiresInSeconds ?? MAX_GRANT_SECONDS;
  const fail = (why: string): never => {
    throw new StorageError('InvalidGrant', `invalid upload grant: ${why}`);
  };
  // The content type is echoed back on every GET; keep it a plain MIME type.
  if (!/^[\w.+-]+\/[\w.+-]+(;[ \w.+=-]*)?$/.test(input.contentType)) fail('content type');
  if (!Number.isSafeInteger(input.maxBytes) || input.maxBytes < 1) fail('maxBytes');
  if (!Number.isSafeInteger(minBytes) || minBytes < 0 || minBytes > input.maxBytes) {
    fail('minBytes');
  }
  if (
    !Number.isInteger(expiresInSeconds) ||
    expiresInSeconds < 1 ||
    expiresInSeconds > MAX_GRANT_SECONDS
  ) {
    fail('expiresInSeconds (1–600)');
  }
  return { minBytes, expiresInSeconds };
};
