import type { FastifyInstance } from 'fastify';
import type { PhotoRepository } from '../repositories/photos/photo.repository.ts';
import { MEDIA_PATH, type PhotoUrls } from '../services/photos/photo-urls.ts';
import { LocalStorage } from '../storage/local-storage.ts';
import { S3Error } from '../storage/s3-error.ts';
import { SIGNED_GET_SECONDS } from '../storage/signed-get.ts';
import { accessDenied, privateUntil, sendError, sendObject } from '../storage/storage.routes.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';

/**
 * `GET|HEAD /media/photos/<id>/<variant>?a&e&s`: the signed media URLs the photo presenter hands
 * out for protected objects (ADR 0006). The signature and expiry are checked, then the photo as it
 * is now: it must exist, and for guest audiences be visible and ready — so hiding a photo stops
 * its signed URLs at once. Local storage streams the bytes; S3 answers a redirect to a presigned
 * GET of about a minute. Errors are S3-style XML, like `/storage`.
 */
export const registerMediaRoutes = async (
  app: FastifyInstance,
  deps: { urls: PhotoUrls; photos: PhotoRepository; storage: StorageRepository },
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
        const checked = deps.urls.check(id, variant, request.query as Record<string, unknown>);
        if (!checked.ok) throw accessDenied(checked.reason);
        const { grant } = checked;
        const row = await deps.photos.findById(grant.photoId);
        if (!row) throw new S3Error('NoSuchKey', 'The specified key does not exist.');
        if (grant.audience === 'g' && (row.isVisible !== 1 || row.status !== 'ready')) {
          throw new S3Error('AccessDenied', 'Access Denied');
        }
        const key = deps.urls.keyOf(row, grant.variant);
        if (!key) throw new S3Error('NoSuchKey', 'The specified key does not exist.');
        if (deps.storage instanceof LocalStorage) {
          return sendObject(request, reply, deps.storage, key, {
            cacheControl: privateUntil(grant.expires, deps.storage.now()),
          });
        }
        const location = await deps.storage.signedGetUrl(key, {
          expiresInSeconds: SIGNED_GET_SECONDS,
        });
        // Not cached: the next read checks the photo again.
        return reply
          .code(302)
          .header('location', location)
          .header('cache-control', 'no-store')
          .send();
      },
    });
    done();
  });
};
