import type { FastifyInstance } from 'fastify';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { API_BASE, ZIP_ENTRIES_HEADER } from '@flashbulb/shared';

/**
 * A `GET <path>?ticket=…` that streams the ZIP a sealed ticket names, as it is written
 * (`Content-Disposition: attachment`, so the page that asked stays open). A GET outside the
 * contract: the browser downloads it itself. Errors before the first byte are the usual envelope
 * (`not_found` for an unreadable or expired ticket); a client that goes away stops the writing.
 */
export const registerZipTicketRoute = (
  app: FastifyInstance,
  route: {
    path: string;
    summary: string;
    tag: string;
    /** The zip; with its exact `length` and `entries` when known (the page's progress). */
    open: (
      ticket: string,
    ) => Promise<{ fileName: string; body: Readable; length?: number; entries?: number }>;
  },
): void => {
  app.get<{ Querystring: { ticket?: string } }>(
    `${API_BASE}${route.path}`,
    {
      schema: {
        summary: route.summary,
        tags: [route.tag],
        querystring: z.object({ ticket: z.string().max(8192).optional() }),
      },
    },
    async (request, reply) => {
      const { fileName, body, length, entries } = await route.open(request.query.ticket ?? '');
      const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
      request.raw.on('close', () => {
        if (!reply.raw.writableFinished) body.destroy();
      });
      if (length !== undefined) reply.header('content-length', length);
      if (entries !== undefined) reply.header(ZIP_ENTRIES_HEADER, entries);
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
