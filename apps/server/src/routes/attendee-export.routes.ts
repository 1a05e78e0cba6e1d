import type { FastifyInstance } from 'fastify';
import { ATTENDEE_EXPORT_PATH } from '@flashbulb/shared';
import type { AttendeePrivacyService } from '../services/attendees/attendee-privacy.service.ts';
import { registerZipTicketRoute } from './zip-ticket.route.ts';

/** `GET /api/v1/attendee/export/download?ticket=…`: the ZIP an `exportAttendee` ticket names. */
export const registerAttendeeExportRoutes = (
  app: FastifyInstance,
  privacy: AttendeePrivacyService,
): void =>
  registerZipTicketRoute(app, {
    path: ATTENDEE_EXPORT_PATH,
    summary: 'The ZIP of an attendee export ticket (see /flashbulb-owner/attendee/export)',
    tag: 'attendees',
    open: (ticket) => privacy.open(ticket),
  });
