import { createHash, createHmac } from 'node:crypto';
import {
  deriveSigningKey,
  S3_SERVICE,
  SIGV4_ALGORITHM,
  toAmzDate,
  type SigningCredentials,
} from './post-policy.ts';

/**
 * An S3 presigned GET (AWS Signature Version 4, "authenticating requests: using query
 * parameters"), written from AWS's documentation: the canonical request
 * `GET\n<path>\n<sorted query>\nhost:<host>\n\nhost\nUNSIGNED-PAYLOAD` is hashed into the string to
 * sign, which the SigV4 signing key signs. Only the `host` header is signed, so any browser can
 * follow the URL.
 */

/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const rfc3986 = (text: string): string =>
  encodeURIComponent(text).replace(
    /[!'()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );

export interface PresignGetInput {
  /** The bucket's read base: `https://bucket.s3.region.amazonaws.com` or `https://host/bucket`. */
  base: string;
  key: string;
  credentials: SigningCredentials;
  region: string;
  /** The signing time; rounding it makes the URL stable within a window. */
  signedAt: Date;
  expiresInSeconds: number;
}

export const presignGet = (input: PresignGetInput): string => {
  const { credentials, region } = input;
  // Each segment RFC 3986-encoded: S3 compares against exactly this canonical path.
  const objectUrl = new URL(
    `${input.base.replace(/\/+$/, '')}/${input.key.split('/').map(rfc3986).join('/')}`,
  );
  const amzDate = toAmzDate(input.signedAt);
  const shortDate = amzDate.slice(0, 8);
  const scope = `${shortDate}/${region}/${S3_SERVICE}/aws4_request`;
  const query: [string, string][] = [
    ['X-Amz-Algorithm', SIGV4_ALGORITHM],
    ['X-Amz-Credential', `${credentials.accessKeyId}/${scope}`],
    ['X-Amz-Date', amzDate],
    ['X-Amz-Expires', String(input.expiresInSeconds)],
    ['X-Amz-SignedHeaders', 'host'],
    ...(credentials.sessionToken
      ? ([['X-Amz-Security-Token', credentials.sessionToken]] as [string, string][])
      : []),
  ];
  const canonicalQuery = query
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalRequest = [
    'GET',
    objectUrl.pathname,
    canonicalQuery,
    `host:${objectUrl.host}`,
    '',
    'host',
    'UNSIGNED-PAYLOAD',
  ].join('\n');
  const stringToSign = [
    SIGV4_ALGORITHM,
    amzDate,
    scope,
    createHash('sha256').update(canonicalRequest, 'utf8').digest('hex'),
  ].join('\n');
  const signature = createHmac(
    'sha256',
    deriveSigningKey(credentials.secretAccessKey, shortDate, region),
  )
    .update(stringToSign, 'utf8')
    .digest('hex');
  return `${objectUrl.origin}${objectUrl.pathname}?${canonicalQuery}&X-Amz-Signature=${signature}`;
};
