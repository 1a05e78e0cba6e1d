import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from './endpoint.ts';

/**
 * Payment providers' owner calls (issue 11; albums spec §4 card reader pairing, §7.3). The Square
 * access token is the operator's own: it is passed through to Square for this call and never
 * stored, logged or answered. Square's refusals (a wrong token, an unknown location) answer ok with
 * Square's own text in `error_message`, as the spec's popup shows it.
 */

const accessToken = z
  .string({ error: 'square_access_token_required' })
  .trim()
  .max(500, 'invalid_value')
  // Sent as an HTTP header: printable ASCII only (Square's tokens are), anything else is ours to refuse.
  .regex(/^[\x21-\x7e]*$/, 'invalid_value')
  .describe('The Square access token (never stored)');

const errorMessage = z
  .string()
  .nullable()
  .describe('Square’s own error text (`errors[].detail`) when Square refused; null otherwise');

export const squareLocations = defineEndpoint({
  path: `${OWNER_PREFIX}/square/locations`,
  auth: 'owner',
  tag: 'payments',
  summary: 'The Square account’s locations (`GET /v2/locations`), for pairing a card reader',
  body: z.object({ access_token: accessToken }),
  result: z.object({
    locations: z.array(z.object({ id: z.string(), name: z.string() })),
    error_message: errorMessage,
  }),
  errors: ['unauthorized_user', 'square_access_token_required', 'payment_provider_error'],
});

export const squareCreateDeviceCode = defineEndpoint({
  path: `${OWNER_PREFIX}/square/create-device-code`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'A Terminal API device code at a location (`POST /v2/devices/codes`): the reader signs in with `code`',
  body: z.object({
    access_token: accessToken,
    name: z.string({ error: 'square_device_name_required' }).trim().max(200, 'invalid_value'),
    location_id: z.string({ error: 'square_location_required' }).trim().max(200, 'invalid_value'),
  }),
  result: z.object({
    device_code: z.object({ id: z.string(), code: z.string(), status: z.string() }).nullable(),
    error_message: errorMessage,
  }),
  errors: [
    'unauthorized_user',
    'square_access_token_required',
    'square_device_name_required',
    'square_location_required',
    'square_create_device_error',
  ],
});

export const squareGetDeviceCode = defineEndpoint({
  path: `${OWNER_PREFIX}/square/get-device-code`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'A device code’s pairing state (`GET /v2/devices/codes/:id`): `device_id` is empty while the reader is still unpaired',
  body: z.object({
    access_token: accessToken,
    id: z
      .string({ error: 'invalid_value' })
      .trim()
      .min(1, 'invalid_value')
      .max(200, 'invalid_value'),
  }),
  result: z.object({
    device_code: z.object({ id: z.string(), status: z.string(), device_id: z.string() }).nullable(),
    error_message: errorMessage,
  }),
  errors: ['unauthorized_user', 'square_access_token_required', 'square_get_device_error'],
});
