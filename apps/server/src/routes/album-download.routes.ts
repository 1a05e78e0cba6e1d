import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ALBUM_DOWNLOAD_PATH, API_BASE } from '@flashbulb/shared';
import type { AlbumDownloadService } from '../services/albums/album-download.service.ts';

/**
 * `GET /api/v1/album/download?ticket=…`: the zip a `createAlbumDownload` ticket names,
 * streamed as it is written (`Content-Disposition: attachment`, so the album page stays open).
 * A GET, not an endpoint of the contract: the browser downloads it itself. Errors before the
 * first byte are the usual envelope (`not_found` for an unreadable or expired ticket).
 */
export const registerAlbumDownloadRoutes = (
  app: FastifyInstance,
  downloads: AlbumDownloadService,
): void => {
  app.get<{ Querystring: { ticket?: string } }>(
    `${API_BASE}${ALBUM_DOWNLOAD_PATH}`,
    {
      schema: {
        summary: 'The zip of a download ticket (see /album/download/create)',
        tags: ['albums'],
        querystring: z.object({ ticket: z.string().max(8192).optional() }),
      },
    },
    async (request, reply) => {
      const { fileName, body } = await downloads.open(request.query.ticket ?? '');
      const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      request.raw.on('close', () => {
        if (!reply.raw.writableFinished) body.destroy();
      });
      return reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
        )
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
