import type { FastifyInstance } from 'fastify';
import type { MediaAccessService } from '../services/photos/media-access.service.ts';
import { MEDIA_PATH } from '../services/photos/photo-urls.ts';
import { S3Error } from '../storage/s3-error.ts';
import { accessDenied, privateUntil, sendError, sendObject } from '../storage/storage.routes.ts';

/**
 * `GET|HEAD /media/photos/<id>/<variant>?a&e&s`: the signed media URLs the photo presenter hands
 * out for protected objects (ADR 0006). What a URL opens is the media access service's answer;
 * local storage streams the bytes, S3 answers a redirect to a presigned GET of about a minute.
 * Errors are S3-style XML, like `/storage`.
 */
export const registerMediaRoutes = async (
  app: FastifyInstance,
  deps: { media: MediaAccessService },
): Promise<void> => {
  await app.register((scope, _options, done) => {
    scope.setErrorHandler((error, request, reply) => {
      if (error instanceof S3Error) return sendError(request, reply, error);
      request.log.error({ err: error }, 'media request failed');
      return sendError(
        request,
        reply,
        new S3Error('InternalError', 'We encountered an internal error. Please try again.'),
      );
    });
    scope.route({
      method: ['GET', 'HEAD'],
      url: `${MEDIA_PATH}/:id/:variant`,
      schema: { hide: true },
      handler: async (request, reply) => {
        const { id, variant } = request.params as { id: string; variant: string };
        const read = await deps.media.read(id, variant, request.query as Record<string, unknown>);
        switch (read.kind) {
          case 'denied':
            throw read.reason === 'not-shown'
              ? new S3Error('AccessDenied', 'Access Denied')
              : accessDenied(read.reason);
          case 'missing':
            throw new S3Error('NoSuchKey', 'The specified key does not exist.');
          case 'stream':
            return sendObject(request, reply, read.reader, read.key, {
              cacheControl: privateUntil(read.expires, read.reader.now()),
            });
          case 'redirect':
            // Not cached: the next read checks the photo again.
            return reply
              .code(302)
              .header('location', read.location)
              .header('cache-control', 'no-store')
              .send();
        }
      },
    });
    done();
  });
};
