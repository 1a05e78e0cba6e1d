import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * AWS Signature Version 4 for browser POST uploads, written from AWS's documentation
 * ("Browser-based uploads using POST", "Calculating a signature"): the policy is a JSON document,
 * base64-encoded; the signature is the hex HMAC-SHA256 of that base64 text under the signing key
 * HMAC(HMAC(HMAC(HMAC("AWS4" + secret, yyyymmdd), region), "s3"), "aws4_request").
 * The local backend both issues and checks these; the S3 backend's grants come from the SDK.
 */

export const SIGV4_ALGORITHM = 'AWS4-HMAC-SHA256';
export const S3_SERVICE = 's3';

export interface SigningCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string;
}

/** A policy condition: `{field: value}`, `[op, "$field", value]` or a content-length range. */
export type PolicyCondition =
  | Record<string, string>
  | ['eq' | 'starts-with', string, string]
  | ['content-length-range', number, number];

export interface PostPolicy {
  expiration: string;
  conditions: PolicyCondition[];
}

/** `2026-01-02T03:04:05.678Z` → `20260102T030405Z` (x-amz-date). */
export const toAmzDate = (date: Date): string =>
  date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');

/** Policy `expiration`: ISO 8601 without milliseconds, as the SDK writes it. */
export const toPolicyExpiration = (date: Date): string =>
  date.toISOString().replace(/\.\d{3}Z$/, 'Z');

const hmac = (key: Buffer | string, data: string): Buffer =>
  createHmac('sha256', key).update(data, 'utf8').digest();

export const deriveSigningKey = (
  secretAccessKey: string,
  shortDate: string,
  region: string,
  service = S3_SERVICE,
): Buffer => {
  const dateKey = hmac(`AWS4${secretAccessKey}`, shortDate);
  const regionKey = hmac(dateKey, region);
  const serviceKey = hmac(regionKey, service);
  return hmac(serviceKey, 'aws4_request');
};

/** The `x-amz-signature` of a base64 policy. */
export const signPolicy = (
  secretAccessKey: string,
  shortDate: string,
  region: string,
  policyBase64: string,
): string =>
  createHmac('sha256', deriveSigningKey(secretAccessKey, shortDate, region))
    .update(policyBase64, 'utf8')
    .digest('hex');

/** Constant-time comparison of two hex signatures (no early exit that leaks a prefix match). */
export const signaturesEqual = (expected: string, given: string): boolean => {
  const a = Buffer.from(expected, 'utf8');
  const b = Buffer.from(given, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
};

export interface PostPolicyInput {
  credentials: SigningCredentials;
  region: string;
  bucket: string;
  key: string;
  contentType: string;
  minBytes: number;
  maxBytes: number;
  now: Date;
  expiresInSeconds: number;
}

/**
 * The form fields of a presigned POST, in the order the browser must send them (`file` goes
 * last). Every field except the policy and the signature has a matching policy condition, so
 * S3 (or our local endpoint) refuses any other key, type, size or extra field.
 */
export const createPostPolicyFields = (input: PostPolicyInput): Record<string, string> => {
  const { credentials, region, now } = input;
  const amzDate = toAmzDate(now);
  const shortDate = amzDate.slice(0, 8);
  const credential = `${credentials.accessKeyId}/${shortDate}/${region}/${S3_SERVICE}/aws4_request`;
  const signed: Record<string, string> = {
    key: input.key,
    acl: 'public-read',
    success_action_status: '201',
    'Content-Type': input.contentType,
    'x-amz-credential': credential,
    'x-amz-algorithm': SIGV4_ALGORITHM,
    'x-amz-date': amzDate,
    ...(credentials.sessionToken ? { 'x-amz-security-token': credentials.sessionToken } : {}),
  };
  const policy: PostPolicy = {
    expiration: toPolicyExpiration(new Date(now.getTime() + input.expiresInSeconds * 1000)),
    conditions: [
      { bucket: input.bucket },
      ['eq', '$key', input.key],
      { acl: signed.acl ?? '' },
      { success_action_status: signed.success_action_status ?? '' },
      ['eq', '$Content-Type', input.contentType],
      ['content-length-range', input.minBytes, input.maxBytes],
      { 'x-amz-credential': credential },
      { 'x-amz-algorithm': SIGV4_ALGORITHM },
      { 'x-amz-date': amzDate },
      ...(credentials.sessionToken ? [{ 'x-amz-security-token': credentials.sessionToken }] : []),
    ],
  };
  const policyBase64 = Buffer.from(JSON.stringify(policy), 'utf8').toString('base64');
  return {
    ...signed,
    policy: policyBase64,
    'x-amz-signature': signPolicy(credentials.secretAccessKey, shortDate, region, policyBase64),
  };
};
