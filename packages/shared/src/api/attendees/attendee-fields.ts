// The attendee id as every call that names an attendee takes it (album, kiosk, privacy, payments).
import { z } from 'zod';
import { ATTENDEE_ID_MAX_LENGTH } from '../../rules/attendee-id.ts';

/** An attendee id as typed or printed: room for the dashes and spaces a person may add. */
export const attendeeUidField = z
  .string({ error: 'invalid_attendee_id' })
  .trim()
  .min(1, 'invalid_attendee_id')
  .max(ATTENDEE_ID_MAX_LENGTH + 20, 'invalid_attendee_id')
  .describe('Attendee id; dashes, spaces and case are ignored');

/** What a call on an attendee's album answers when the key or the album does not let it in. */
export const ATTENDEE_KEY_ERRORS = [
  'invalid_key',
  'unauthorized_user',
  'invalid_attendee_id',
  'attendee_locked',
  'attendee_expired',
] as const;
