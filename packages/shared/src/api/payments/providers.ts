import { z } from 'zod';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';

/**
 * Payment providers' owner calls (albums spec §4 card reader pairing, §7.3). The Square
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
  .describe(
    'The Square access token (never stored); empty: the organisation’s Square connection (its admins only)',
  );

const organisationId = z
  .number({ error: 'invalid_value' })
  .int('invalid_value')
  .positive('invalid_value')
  .optional()
  .describe('The organisation (super users: any; admins: their own, the default)');

const errorMessage = z
  .string()
  .nullable()
  .describe('Square’s own error text (`errors[].detail`) when Square refused; null otherwise');

export const squareLocations = defineEndpoint({
  path: `${OWNER_PREFIX}/square/locations`,
  auth: 'owner',
  tag: 'payments',
  summary: 'The Square account’s locations (`GET /v2/locations`), for pairing a card reader',
  body: z.object({ access_token: accessToken, organisation_id: organisationId }),
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
    organisation_id: organisationId,
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
    organisation_id: organisationId,
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

/**
 * The organisation's payment provider connections (console Payments page). Super
 * users and the organisation's admins manage them (the reach of the event's secure fields); the
 * secret is written once, sealed like the event's secure fields and never answered — only whether
 * it is connected, its last four characters and the outcome of the last credentials test. An event
 * whose own secure field is empty uses its organisation's connection (the event's field first).
 */
export const CONNECTION_PROVIDERS = ['square', 'stripe', 'shopify'] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

const connectionProvider = z.enum(CONNECTION_PROVIDERS, { error: 'invalid_value' });

export const paymentConnectionSchema = z.object({
  provider: connectionProvider,
  connected: z.union([z.literal(0), z.literal(1)]),
  last_four: z.string().describe('The last four characters of the secret; empty when unconnected'),
  shop: z.string().describe('Shopify’s shop domain (not secret); empty otherwise'),
  tested_date: z.string().nullable(),
  test_ok: z.union([z.literal(0), z.literal(1)]).nullable(),
  test_error: z
    .string()
    .nullable()
    .describe(
      'What the provider said was wrong at the last test (its own words, never the secret)',
    ),
});
export type PaymentConnection = z.infer<typeof paymentConnectionSchema>;

const connectionErrors = [
  'unauthorized_user',
  'forbidden',
  'organisation_not_found',
  'invalid_value',
] as const;

export const paymentConnectionList = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/connections`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'The organisation’s provider connections (Square, Stripe, Shopify), secrets never included',
  body: z.object({ organisation_id: organisationId }),
  result: z.object({ connections: z.array(paymentConnectionSchema) }),
  errors: connectionErrors,
});

export const paymentConnectionSave = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/connection/save`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'Connects a provider for the organisation (Square access token, Stripe secret key, Shopify shop domain and Admin API token); replaces an earlier connection, untested',
  body: z.object({
    organisation_id: organisationId,
    provider: connectionProvider,
    secret: z
      .string({ error: 'payment_secret_required' })
      .trim()
      .min(1, 'payment_secret_required')
      .max(500, 'invalid_value')
      // Sent as an HTTP header: printable ASCII only.
      .regex(/^[\x21-\x7e]*$/, 'invalid_value'),
    shop: z
      .string({ error: 'shopify_shop_invalid' })
      .trim()
      .max(200, 'shopify_shop_invalid')
      .optional(),
  }),
  result: paymentConnectionSchema,
  errors: [...connectionErrors, 'payment_secret_required', 'shopify_shop_invalid'],
});

export const paymentConnectionTest = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/connection/test`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'Tests a connection with one harmless call (Square `GET /v2/locations`, Stripe `GET /v1/account`, Shopify `GET /admin/api/<version>/shop.json`); the provider’s refusal in `test_error`',
  body: z.object({ organisation_id: organisationId, provider: connectionProvider }),
  result: paymentConnectionSchema,
  errors: [...connectionErrors, 'payment_connection_not_found', 'payment_provider_error'],
});

export const paymentConnectionDelete = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/connection/delete`,
  auth: 'owner',
  tag: 'payments',
  summary: 'Disconnects a provider from the organisation (its secret is deleted)',
  body: z.object({ organisation_id: organisationId, provider: connectionProvider }),
  result: paymentConnectionSchema,
  errors: [...connectionErrors, 'payment_connection_not_found'],
});

const readerId = z.number({ error: 'card_reader_not_found' }).int('card_reader_not_found');
export const cardReaderSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  location_id: z.string(),
  location_name: z.string(),
  device_code_id: z.string(),
  device_id: z.string().describe('Empty while the reader is still unpaired'),
  paired: z.union([z.literal(0), z.literal(1)]),
});
export type CardReader = z.infer<typeof cardReaderSchema>;

const text200 = (
  error: 'invalid_value' | 'square_device_name_required' | 'square_location_required',
) => z.string({ error }).trim().max(200, 'invalid_value');

export const cardReaderList = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/readers`,
  auth: 'owner',
  tag: 'payments',
  summary: 'The organisation’s card readers paired from the console, with their pairing state',
  body: z.object({ organisation_id: organisationId }),
  result: z.object({ readers: z.array(cardReaderSchema) }),
  errors: connectionErrors,
});

export const cardReaderSave = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/reader/save`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'Saves what the pairing popup learnt (name, location, device code id, device id or empty while unpaired) for the organisation; the same device code again updates its reader',
  body: z.object({
    organisation_id: organisationId,
    name: text200('square_device_name_required').min(1, 'square_device_name_required'),
    location_id: text200('square_location_required').min(1, 'square_location_required'),
    location_name: text200('invalid_value'),
    device_code_id: text200('invalid_value').min(1, 'invalid_value'),
    device_id: text200('invalid_value'),
  }),
  result: cardReaderSchema,
  errors: [...connectionErrors, 'square_device_name_required', 'square_location_required'],
});

export const cardReaderCheck = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/reader/check`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'Re-checks a reader’s pairing with the organisation’s Square connection (`GET /v2/devices/codes/:id`); Square’s refusal in `error_message`',
  body: z.object({ organisation_id: organisationId, id: readerId }),
  result: z.object({ reader: cardReaderSchema, error_message: errorMessage }),
  errors: [
    ...connectionErrors,
    'card_reader_not_found',
    'payment_connection_not_found',
    'square_get_device_error',
  ],
});

export const cardReaderDelete = defineEndpoint({
  path: `${OWNER_PREFIX}/payments/reader/delete`,
  auth: 'owner',
  tag: 'payments',
  summary: 'Removes a card reader from the organisation’s list (Square keeps the device)',
  body: z.object({ organisation_id: organisationId, id: readerId }),
  result: z.object({ deleted: z.literal(1) }),
  errors: [...connectionErrors, 'card_reader_not_found'],
});
