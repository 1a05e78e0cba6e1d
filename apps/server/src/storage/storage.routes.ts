import fastifyMultipart from '@fastify/multipart';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { LOCAL_STORAGE_PATH, LocalStorage } from './local-storage.ts';
import { isProtectedKey } from './key-space.ts';
import { errorXml, postResponseXml, S3Error } from './s3-error.ts';
import { EXPIRES_PARAM } from './signed-get.ts';
import {
  assertValidKey,
  DEFAULT_CACHE_CONTROL,
  StorageError,
  type LocalObjectReader,
  type StorageRepository,
} from './storage.repository.ts';

/** S3's own ceiling for a POST upload; each grant's content-length-range is the real limit. */
const MAX_POST_BYTES = 5 * 1024 ** 3;
/** S3 allows 20 KB of form fields before the file; a policy is a few hundred bytes. */
const MAX_FIELD_BYTES = 20 * 1024;

/**
 * User content is served from our own origin: never let it run as a page or script here, whatever
 * content type a grant allowed.
 */
const OBJECT_HEADERS = {
  'x-content-type-options': 'nosniff',
  'content-security-policy': "default-src 'none'; sandbox",
  // Objects are public-read; other sites (shares, kiosks on other hosts) may embed them.
  'cross-origin-resource-policy': 'cross-origin',
  'accept-ranges': 'bytes',
};

export const sendError = (request: FastifyRequest, reply: FastifyReply, error: S3Error) => {
  // Discard what is left of the body (the multipart parser may have stopped reading it), so the
  // client reads the XML instead of a reset socket and the connection can end cleanly.
  request.raw.unpipe();
  request.raw.resume();
  return reply
    .code(error.status)
    .header('x-content-type-options', 'nosniff')
    .type('application/xml')
    .send(request.method === 'HEAD' ? undefined : errorXml(error, request.id));
};

const asS3Error = (error: unknown): S3Error | null => {
  if (error instanceof S3Error) return error;
  if (error instanceof StorageError) {
    return error.code === 'NoSuchKey'
      ? new S3Error('NoSuchKey', 'The specified key does not exist.')
      : new S3Error('InvalidArgument', error.message);
  }
  if (!(error instanceof Error)) return null;
  const code = 'code' in error ? error.code : undefined;
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new S3Error(
        'EntityTooLarge',
        'Your proposed upload exceeds the maximum allowed size',
        {
          MaxSizeAllowed: MAX_POST_BYTES,
        },
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new S3Error(
        'MalformedPOSTRequest',
        'The body of your POST request is not well-formed multipart/form-data.',
      );
    case 'FST_PREMATURE_CLOSE':
    case 'ECONNRESET':
    case 'ERR_STREAM_PREMATURE_CLOSE':
      return new S3Error(
        'IncompleteBody',
        'You did not provide the number of bytes specified by the Content-Length HTTP header',
      );
    default:
      break;
  }
  // busboy's own parse errors ("Unexpected end of form", "Malformed part header", …).
  if (/form|part|boundary|multipart/i.test(error.message)) {
    return new S3Error(
      'MalformedPOSTRequest',
      'The body of your POST request is not well-formed multipart/form-data.',
    );
  }
  return null;
};

/** `bytes=a-b`, `bytes=a-`, `bytes=-n` → inclusive offsets; undefined = serve the whole object. */
const parseRange = (
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined => {
  const match = header?.match(/^bytes=(\d*)-(\d*)$/);
  if (!match) return undefined; // absent, or several ranges: answer the whole object (allowed)
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return undefined;
  let start: number;
  let end: number;
  if (from === '') {
    start = Math.max(0, size - Number(to));
    end = size - 1;
  } else {
    start = Number(from);
    end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  }
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
};

const etagMatches = (header: string, etag: string): boolean =>
  header.trim() === '*' ||
  header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag.replace(/^W\//, ''));

/**
 * The local backend's HTTP face, speaking S3: `POST /storage` takes presigned POST uploads,
 * `GET|HEAD /storage/<key>` serves objects. Registered only for the local backend (with S3,
 * browsers talk to the bucket). Multipart parsing is scoped to these routes, and does not read
 * the body up front, so the app's 1 MB JSON body limit does not apply to uploads.
 */
export const registerStorageRoutes = async (
  app: FastifyInstance,
  storage: StorageRepository,
): Promise<void> => {
  if (!(storage instanceof LocalStorage)) return;
  const local = storage;

  await app.register(async (scope) => {
    await scope.register(fastifyMultipart, {
      limits: {
        fieldNameSize: 200,
        fieldSize: MAX_FIELD_BYTES,
        fields: 64,
        files: 1,
        parts: 65,
        fileSize: MAX_POST_BYTES + 1,
      },
    });

    scope.setErrorHandler((error, request, reply) => {
      const known = asS3Error(error);
      if (!known) request.log.error({ err: error }, 'storage request failed');
      return sendError(
        request,
        reply,
        known ??
          new S3Error('InternalError', 'We encountered an internal error. Please try again.'),
      );
    });

    const upload = async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.isMultipart()) {
        throw new S3Error(
          'MalformedPOSTRequest',
          'The body of your POST request is not well-formed multipart/form-data.',
        );
      }
      const fields: Array<[string, string]> = [];
      for await (const part of request.parts()) {
        if (part.type === 'field') {
          if (part.valueTruncated || typeof part.value !== 'string') {
            throw new S3Error(
              'MaxPostPreDataLengthExceeded',
              'Your POST request fields preceding the upload file were too large.',
            );
          }
          fields.push([part.fieldname, part.value]);
          continue;
        }
        if (part.fieldname.toLowerCase() !== 'file') {
          throw new S3Error(
            'InvalidArgument',
            'POST requires exactly one file upload per request.',
            {
              ArgumentName: 'file',
            },
          );
        }
        const accepted = local.verifyPost(fields);
        // S3 puts the uploaded file's name where the key says `${filename}`.
        const key = accepted.key.replace('${filename}', part.filename);
        try {
          assertValidKey(key);
        } catch (error) {
          throw new S3Error(
            'InvalidArgument',
            error instanceof Error ? error.message : 'invalid key',
            {
              ArgumentName: 'key',
            },
          );
        }
        const contentType = accepted.contentType || part.mimetype || 'binary/octet-stream';
        const { etag } = await local.write(
          key,
          part.file,
          { contentType, cacheControl: DEFAULT_CACHE_CONTROL },
          // Never above the parser's cap: the writer fails the upload before busboy would cut
          // the file short, so a truncated file can never be published.
          { minBytes: accepted.minBytes, maxBytes: Math.min(accepted.maxBytes, MAX_POST_BYTES) },
        );
        void reply.header('etag', etag).header('location', local.publicUrl(key));
        if (accepted.successStatus !== 201) return reply.code(accepted.successStatus).send();
        return reply
          .code(201)
          .type('application/xml')
          .send(
            postResponseXml({ location: local.publicUrl(key), bucket: local.bucket, key, etag }),
          );
        // Fields after the file are ignored, as S3 does.
      }
      throw new S3Error('InvalidArgument', 'POST requires exactly one file upload per request.', {
        ArgumentName: 'file',
        ArgumentValue: '0',
      });
    };
    scope.post(LOCAL_STORAGE_PATH, { schema: { hide: true } }, upload);
    scope.post(`${LOCAL_STORAGE_PATH}/`, { schema: { hide: true } }, upload);

    scope.route({
      method: ['GET', 'HEAD'],
      url: `${LOCAL_STORAGE_PATH}/*`,
      schema: { hide: true },
      handler: async (request, reply) => {
        const key = (request.params as { '*': string })['*'];
        // An invalid key is a 400 whatever space it claims to be in.
        assertValidKey(key);
        if (isProtectedKey(key)) {
          // Protected objects only with a valid, unexpired signature (ADR 0006); the answer does
          // not say whether the object exists.
          const query = request.query as Record<string, unknown>;
          const check = local.checkSignedGet(key, query);
          if (check !== 'ok') throw accessDenied(check);
          return sendObject(request, reply, local, key, {
            cacheControl: privateUntil(Number(query[EXPIRES_PARAM]), local.now()),
          });
        }
        return sendObject(request, reply, local, key);
      },
    });
  });
};

/** A signed response may be kept by the browser only, and only until the URL expires. */
export const privateUntil = (expiresSeconds: number, now: Date): string =>
  `private, max-age=${Math.max(0, expiresSeconds - Math.ceil(now.getTime() / 1000))}`;

/** 403 as S3 answers a GET it refuses. */
export const accessDenied = (check: 'missing' | 'expired' | 'bad-signature'): S3Error =>
  check === 'expired'
    ? new S3Error('AccessDenied', 'Request has expired')
    : new S3Error('AccessDenied', 'Access Denied');

/**
 * Answers GET or HEAD with a local object: ETag, 304, ranges, the sandboxing headers. Shared by
 * `/storage/<key>` and the signed media route. `cacheControl` overrides the object's own (a signed
 * URL must not be cached past its expiry).
 */
export const sendObject = async (
  request: FastifyRequest,
  reply: FastifyReply,
  local: LocalObjectReader,
  key: string,
  options: { cacheControl?: string } = {},
): Promise<FastifyReply> => {
  // One open file answers the whole request: metadata and bytes of the same version even
  // if the object is replaced meanwhile.
  const object = await local.open(key);
  if (!object) {
    throw new S3Error('NoSuchKey', 'The specified key does not exist.', { Key: key });
  }
  const { info } = object;
  let sent = false;
  try {
    void reply.headers({
      ...OBJECT_HEADERS,
      etag: info.etag,
      'last-modified': info.lastModified.toUTCString(),
      'cache-control': options.cacheControl ?? info.cacheControl,
    });
    const ifNoneMatch = request.headers['if-none-match'];
    const ifModifiedSince = request.headers['if-modified-since'];
    const notModified = ifNoneMatch
      ? etagMatches(ifNoneMatch, info.etag)
      : ifModifiedSince !== undefined &&
        Math.floor(info.lastModified.getTime() / 1000) * 1000 <= Date.parse(ifModifiedSince);
    if (notModified) return await reply.code(304).send();

    const ifRange = request.headers['if-range'];
    const range =
      ifRange === undefined || ifRange === info.etag
        ? parseRange(request.headers.range, info.size)
        : undefined;
    if (range === 'unsatisfiable') {
      void reply.header('content-range', `bytes */${info.size}`);
      throw new S3Error('InvalidRange', 'The requested range is not satisfiable', {
        ActualObjectSize: info.size,
      });
    }
    const length = range ? range.end - range.start + 1 : info.size;
    void reply.type(info.contentType).header('content-length', length);
    if (range) {
      void reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`);
    }
    if (request.method === 'HEAD') return await reply.send();
    sent = true;
    return await reply.send(object.read(range));
  } finally {
    // The read stream owns the file from here; every other path closes it.
    if (!sent) await object.close();
  }
};
