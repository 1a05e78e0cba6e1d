import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { API_BASE, ATTENDEE_EXPORT_PATH } from '@flashbulb/shared';
import type { AttendeePrivacyService } from '../services/attendees/attendee-privacy.service.ts';

/**
 * `GET /api/v1/attendee/export/download?ticket=…`: the ZIP an `exportAttendee` ticket names,
 * streamed as it is written. A GET outside the contract: the console's browser downloads it
 * itself. Before the first byte, errors are the usual envelope (`not_found`).
 */
export const registerAttendeeExportRoutes = (
  app: FastifyInstance,
  privacy: AttendeePrivacyService,
): void => {
  app.get<{ Querystring: { ticket?: string } }>(
    `${API_BASE}${ATTENDEE_EXPORT_PATH}`,
    {
      schema: {
        summary: 'The ZIP of an attendee export ticket (see /flashbulb-owner/attendee/export)',
        tags: ['attendees'],
        querystring: z.object({ ticket: z.string().max(8192).optional() }),
      },
    },
    async (request, reply) => {
      const { fileName, body } = await privacy.open(request.query.ticket ?? '');
      request.raw.on('close', () => {
        if (!reply.raw.writableFinished) body.destroy();
      });
      return reply
        .header('content-type', 'application/zip')
        .header(
          'content-disposition',
          `attachment; filename="${fileName.replace(/[^\w.-]/g, '_')}"`,
        )
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};
