import { z } from 'zod';
import { attendeeUidField } from './attendee-fields.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';

/**
 * Privacy requests about one attendee (a guest who asks what is kept about them, or to be
 * forgotten): an owner exports everything as one ZIP, or erases it. Each answer is recorded in
 * the privacy log (who, when, which attendee id, how much; nothing about the person), which the
 * erasure leaves in place.
 */

/** Path below `/api/v1` of the export ZIP itself: `GET ?ticket=…` (from `exportAttendee`). */
export const ATTENDEE_EXPORT_PATH = '/attendee/export/download';
/** Seconds an export ticket stays valid. */
export const ATTENDEE_EXPORT_TICKET_SECONDS = 300;

/** How much of an attendee's data an export holds or an erasure removed. */
export const privacyCountsSchema = z.object({
  photos: z.number().int(),
  leads: z.number().int(),
  consents: z.number().int(),
  messages: z.number().int(),
  orders: z.number().int(),
  selfies: z.number().int(),
  profile_photos: z.number().int(),
});
export type PrivacyCounts = z.infer<typeof privacyCountsSchema>;

export const exportAttendee = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/export`,
  auth: 'owner',
  tag: 'attendees',
  summary:
    'Everything kept about one attendee as a ZIP (photos, leads, consents, messages, orders; JSON and CSV): answers a five-minute link to it',
  body: z.object({ attendee_uid: attendeeUidField }),
  result: z.object({
    url: z.string(),
    expires_in: z.number().int(),
    counts: privacyCountsSchema,
  }),
  errors: ['invalid_attendee_id', 'forbidden'],
});

export const eraseAttendee = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/erase`,
  auth: 'owner',
  tag: 'attendees',
  summary:
    'Erases one attendee: photos uploaded with their id deleted (detached when another album holds them), attached photos detached, selfies and face data, leads, messages and profile photos deleted; orders kept under a placeholder id',
  body: z.object({ attendee_uid: attendeeUidField }),
  result: z.object({
    placeholder_uid: z.string().describe('What their orders now show instead of the id'),
    deleted_photos: z.number().int(),
    detached_photos: z.number().int(),
    counts: privacyCountsSchema,
  }),
  errors: ['invalid_attendee_id', 'forbidden'],
});

export const privacyRequestSchema = z.object({
  id: z.number().int(),
  action: z.enum(['export', 'erase']),
  attendee_uid: z.string().describe('The id the attendee had when asked (kept after the erasure)'),
  organisation_id: z.number().int(),
  organisation_name: z.string(),
  actor_email: z.string().nullable().describe('Who answered it (null: the user is gone)'),
  created_date: z.string(),
  counts: z.record(z.string(), z.number()).describe('How much was exported or erased'),
});
export type PrivacyRequest = z.infer<typeof privacyRequestSchema>;

/** The privacy log: read-only; super users see every organisation, admins their own. */
export const privacyRequestList = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/privacy-log`,
  auth: 'owner',
  tag: 'attendees',
  summary:
    'The privacy log, newest first: each export and erasure (who, when, which attendee id, how much)',
  body: z.object({
    organisation_id: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .positive('invalid_value')
      .optional()
      .describe('Only this organisation (super users; an admin always sees their own)'),
    before_id: z
      .number({ error: 'invalid_value' })
      .int('invalid_value')
      .positive('invalid_value')
      .optional()
      .describe('The next page: entries older than this id'),
  }),
  result: z.object({
    requests: z.array(privacyRequestSchema),
    next_before_id: z.number().int().nullable(),
  }),
  errors: ['forbidden'],
});
