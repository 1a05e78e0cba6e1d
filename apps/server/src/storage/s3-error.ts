/**
 * Errors as S3 answers them: the upload client (spec §7.1) parses `Code` and `Message` out of an
 * XML body, so our local endpoint speaks the same codes, statuses and texts as Amazon S3.
 */
export type S3ErrorCode =
  | 'AccessDenied'
  | 'SignatureDoesNotMatch'
  | 'InvalidAccessKeyId'
  | 'EntityTooLarge'
  | 'EntityTooSmall'
  | 'InvalidArgument'
  | 'InvalidPolicyDocument'
  | 'MalformedPOSTRequest'
  | 'MaxPostPreDataLengthExceeded'
  | 'IncompleteBody'
  | 'NoSuchKey'
  | 'InvalidRange'
  | 'MethodNotAllowed'
  | 'InternalError';

const STATUS: Record<S3ErrorCode, number> = {
  AccessDenied: 403,
  SignatureDoesNotMatch: 403,
  InvalidAccessKeyId: 403,
  EntityTooLarge: 400,
  EntityTooSmall: 400,
  InvalidArgument: 400,
  InvalidPolicyDocument: 400,
  MalformedPOSTRequest: 400,
  MaxPostPreDataLengthExceeded: 400,
  IncompleteBody: 400,
  NoSuchKey: 404,
  InvalidRange: 416,
  MethodNotAllowed: 405,
  InternalError: 500,
};

export class S3Error extends Error {
  readonly status: number;
  constructor(
    readonly code: S3ErrorCode,
    message: string,
    /** Extra elements S3 adds, e.g. MaxSizeAllowed, Key. */
    readonly details: Record<string, string | number> = {},
  ) {
    super(message);
    this.name = 'S3Error';
    this.status = STATUS[code];
  }
}

export const escapeXml = (text: string): string =>
  text.replace(/[<>&'"]/g, (c) =>
    c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '&' ? '&amp;' : c === "'" ? '&apos;' : '&quot;',
  );

const element = (name: string, value: string | number): string =>
  `<${name}>${escapeXml(String(value))}</${name}>`;

export const XML_HEADER = '<?xml version="1.0" encoding="UTF-8"?>\n';

export const errorXml = (error: S3Error, requestId: string): string =>
  XML_HEADER +
  '<Error>' +
  element('Code', error.code) +
  element('Message', error.message) +
  Object.entries(error.details)
    .map(([name, value]) => element(name, value))
    .join('') +
  element('RequestId', requestId) +
  '</Error>';

export const postResponseXml = (p: {
  location: string;
  bucket: string;
  key: string;
  etag: string;
}): string =>
  XML_HEADER +
  '<PostResponse>' +
  element('Location', p.location) +
  element('Bucket', p.bucket) +
  element('Key', p.key) +
  element('ETag', p.etag) +
  '</PostResponse>';
