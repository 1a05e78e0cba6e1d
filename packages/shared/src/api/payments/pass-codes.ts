import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { idSchema } from '../identity/users.ts';

/**
 * The owner's pass-code list: an event's employee unlock codes (`secret_code_list`), each a
 * person's first and last name with a 4-character code.
 */

export const passCodeSchema = z.object({
  first_name: z.string(),
  last_name: z.string(),
  code: z.string(),
});
const passCodeList = z.object({ pass_codes: z.array(passCodeSchema) });
const personName = z
  .string({ error: 'unlock_code_name_invalid' })
  .trim()
  .min(1, 'unlock_code_name_invalid')
  .max(60, 'unlock_code_name_invalid');
const passCode = z
  .string({ error: 'unlock_code_invalid' })
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9]{4}$/, 'unlock_code_invalid');

export const retrievePassCodeList = defineEndpoint({
  path: `${OWNER_PREFIX}/event/pass-code/list/retrieve`,
  auth: 'owner',
  tag: 'events',
  summary:
    'The event’s pass codes (employee unlock codes: first name, last name, 4-character code)',
  body: z.object({ event_id: idSchema }),
  result: passCodeList,
  errors: ['event_not_found', 'forbidden'],
});

export const updatePassCode = defineEndpoint({
  path: `${OWNER_PREFIX}/event/pass-code/update`,
  auth: 'owner',
  tag: 'events',
  summary:
    'Add or change one pass code: the person’s entry (by first and last name) gets `code`, or a new random code when none is given. Codes are unique within the event',
  body: z.object({
    event_id: idSchema,
    first_name: personName,
    last_name: personName,
    code: passCode.optional(),
  }),
  result: passCodeList.extend({ pass_code: passCodeSchema }),
  errors: [
    'event_not_found',
    'forbidden',
    'unlock_code_invalid',
    'unlock_code_name_invalid',
    'pass_code_taken',
    'event_was_updated_by_another_user',
  ],
});

export const deletePassCode = defineEndpoint({
  path: `${OWNER_PREFIX}/event/pass-code/delete`,
  auth: 'owner',
  tag: 'events',
  summary: 'Remove one pass code from the event',
  body: z.object({ event_id: idSchema, code: passCode }),
  result: passCodeList,
  errors: [
    'event_not_found',
    'forbidden',
    'not_found',
    'unlock_code_invalid',
    'event_was_updated_by_another_user',
  ],
});
