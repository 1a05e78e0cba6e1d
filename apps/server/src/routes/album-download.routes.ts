import type { FastifyInstance } from 'fastify';
import { ALBUM_DOWNLOAD_PATH } from '@flashbulb/shared';
import type { AlbumDownloadService } from '../services/albums/album-download.service.ts';
import { registerZipTicketRoute } from './zip-ticket.route.ts';

/** `GET /api/v1/album/download?ticket=…`: the zip a `createAlbumDownload` ticket names. */
export const registerAlbumDownloadRoutes = (
  app: FastifyInstance,
  downloads: AlbumDownloadService,
): void =>
  registerZipTicketRoute(app, {
    path: ALBUM_DOWNLOAD_PATH,
    summary: 'The zip of a download ticket (see /album/download/create)',
    tag: 'albums',
    open: (ticket) => downloads.open(ticket),
  });
