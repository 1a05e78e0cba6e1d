import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Signed, expiring GET URLs for the local backend (`/storage/<key>?expires=…&signature=…`): the
 * local twin of an S3 presigned GET. The signature is the base64url HMAC-SHA256 of
 * `GET\n<key>\n<expires>` under the storage secret; `expires` is a unix time in seconds.
 */

export const EXPIRES_PARAM = 'expires';
export const SIGNATURE_PARAM = 'signature';

/** Default lifetime of a storage-level signed GET (the hop after the media route's check). */
export const SIGNED_GET_SECONDS = 60;

/**
 * An expiry at least `seconds` from now, rounded up to a multiple of `seconds`: every URL issued
 * within one window is the same URL (browsers and CDNs can cache it), and it lives between
 * `seconds` and `2 × seconds`.
 */
export const roundedExpiry = (now: Date, seconds: number): number => {
  // rounded up: floored, a URL issued at 10:01:00.400 would expire at 10:02:00, 59.6 s later
  const nowSeconds = Math.ceil(now.getTime() / 1000);
  return Math.ceil((nowSeconds + seconds) / seconds) * seconds;
};

export const signStorageGet = (secret: string, key: string, expires: number): string =>
  createHmac('sha256', secret).update(`GET\n${key}\n${expires}`, 'utf8').digest('base64url');

export type SignedGetCheck = 'ok' | 'missing' | 'expired' | 'bad-signature';

/** Checks the query of a local signed GET; constant-time on the signature. */
export const checkStorageGet = (
  secret: string,
  key: string,
  query: Record<string, unknown>,
  now: Date,
): SignedGetCheck => {
  const expiresText = query[EXPIRES_PARAM];
  const signature = query[SIGNATURE_PARAM];
  if (typeof expiresText !== 'string' || typeof signature !== 'string') return 'missing';
  if (!/^\d{1,12}$/.test(expiresText)) return 'bad-signature';
  const expires = Number(expiresText);
  if (!signaturesMatch(signature, signStorageGet(secret, key, expires))) return 'bad-signature';
  if (now.getTime() >= expires * 1000) return 'expired';
  return 'ok';
};

export const signaturesMatch = (given: string, expected: string): boolean => {
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
};
