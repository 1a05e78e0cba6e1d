import { z } from 'zod';
import { ATTENDEE_ID_MAX_LENGTH } from '../rules/attendee-id.ts';
import { defineEndpoint } from './endpoint.ts';
import { keyBody } from './events.ts';

/**
 * Paid albums (issue 10; albums spec §3, §7.2, §7.3, §9): unlocking an attendee's album at the
 * desk with an employee's code, and (next) orders and payments. Amounts are integer cents, USD.
 */

const attendeeUid = z
  .string({ error: 'invalid_attendee_id' })
  .trim()
  .min(1, 'invalid_attendee_id')
  .max(ATTENDEE_ID_MAX_LENGTH + 20, 'invalid_attendee_id')
  .describe('Attendee id; dashes, spaces and case are ignored');

export const attendeeUnlock = defineEndpoint({
  path: '/attendee/unlock',
  auth: 'key',
  tag: 'payments',
  summary:
    'Cash sale at the desk: an employee’s unlock code unlocks the attendee’s album for the key’s event and records the employee. Private or event-owner key; wrong codes are rate-limited per kiosk',
  body: z.object({
    ...keyBody,
    attendee_uid: attendeeUid,
    unlock_code: z
      .string({ error: 'invalid_unlock_code' })
      .trim()
      .min(1, 'invalid_unlock_code')
      .max(20, 'invalid_unlock_code')
      .describe('The employee’s 4-character code (case is ignored)'),
  }),
  result: z.object({
    attendee_uid: z.string(),
    event_id: z.number().int(),
    unlocked: z.literal(1),
  }),
  errors: [
    'invalid_key',
    'unauthorized_user',
    'invalid_attendee_id',
    'attendee_locked',
    'attendee_expired',
    'invalid_unlock_code',
    'too_many_attempts',
  ],
});
