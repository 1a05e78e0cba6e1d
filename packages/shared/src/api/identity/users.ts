import { z } from 'zod';
import { isCurrencyCode } from '../../rules/currency.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { emailSchema, newPasswordSchema, roleSchema } from '../../rules/identity.ts';

const idSchema = z
  .number({ error: 'invalid_value' })
  .int('invalid_value')
  .positive('invalid_value')
  .max(2_147_483_647, 'invalid_value');

export const organisationSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  currency: z
    .string()
    .default('USD')
    .describe('ISO 4217 code of every price, order and payment of the organisation (default USD)'),
  created_date: z.string().describe('ISO 8601'),
});
export type Organisation = z.infer<typeof organisationSchema>;

export const userSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  organisation_id: z.number().int().nullable(),
  organisation_name: z.string().nullable(),
  mfa_enabled: z.boolean().describe('An authenticator app is set up and preferred'),
  mfa_exempt: z.boolean().describe('Listed in FLASHBULB_MFA_EXEMPT_USERS'),
  status: z.enum(['FORCE_CHANGE_PASSWORD', 'CONFIRMED']),
  disabled: z.boolean().describe('Disabled by an administrator: cannot sign in or call the API'),
  created_date: z.string(),
});
export type User = z.infer<typeof userSchema>;

/** The signed-in user as my-info answers it: the user, and what every console page must show. */
export const myInfoSchema = userSchema.extend({
  test_payments: z
    .boolean()
    // A server from before the switch says nothing: no banner.
    .default(false)
    .describe(
      'The built-in test payment provider is on (FLASHBULB_PAYMENTS_PROVIDER=test): test cards unlock albums, no real money is taken; the console shows a banner on every page',
    ),
});
export type MyInfo = z.infer<typeof myInfoSchema>;

export const myInfo = defineEndpoint({
  path: `${OWNER_PREFIX}/user/my-info/retrieve`,
  auth: 'owner',
  tag: 'users',
  summary: 'The signed-in user',
  body: z.object({}),
  result: myInfoSchema,
  errors: ['unauthorized_user'],
});

export const createUser = defineEndpoint({
  path: `${OWNER_PREFIX}/user/create`,
  auth: 'owner',
  tag: 'users',
  summary:
    'Create a user with a temporary password (e-mailed when not given). Super users: any; admins: within their organisation, never a super user',
  body: z.object({
    email: emailSchema,
    role: roleSchema,
    organisation_id: idSchema.nullable().optional(),
    temporary_password: newPasswordSchema.optional(),
  }),
  result: userSchema,
  errors: [
    'unauthorized_user',
    'forbidden',
    'user_exists',
    'organisation_not_found',
    'invalid_password',
  ],
});

export const listUsers = defineEndpoint({
  path: `${OWNER_PREFIX}/user/list/retrieve`,
  auth: 'owner',
  tag: 'users',
  summary:
    'Users (super users: all, or one organisation; admins: their organisation; event owners: refused)',
  body: z.object({ organisation_id: idSchema.optional() }),
  result: z.object({ users: z.array(userSchema) }),
  errors: ['unauthorized_user', 'forbidden'],
});

export const updateUser = defineEndpoint({
  path: `${OWNER_PREFIX}/user/update`,
  auth: 'owner',
  tag: 'users',
  summary:
    'Change a user’s role, organisation or disabled flag. Super users: any user; admins: users of their organisation, never to or from super user, never another organisation; nobody changes themselves. Disabling ends the user’s sessions.',
  body: z.object({
    id: idSchema,
    role: roleSchema.optional(),
    organisation_id: idSchema.nullable().optional(),
    disabled: z.boolean({ error: 'invalid_value' }).optional(),
  }),
  result: userSchema,
  errors: ['unauthorized_user', 'forbidden', 'user_not_found', 'organisation_not_found'],
});

export const resetUserMfa = defineEndpoint({
  path: `${OWNER_PREFIX}/user/mfa/reset`,
  auth: 'owner',
  tag: 'users',
  summary:
    'Reset a user’s two-factor: the authenticator is forgotten and set up again at the next sign-in (same reach as user/update)',
  body: z.object({ id: idSchema }),
  result: userSchema,
  errors: ['unauthorized_user', 'forbidden', 'user_not_found'],
});

export const apiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prefix: z.string().describe('First characters of the key, to recognise it'),
  created_date: z.string(),
  last_used_date: z.string().nullable(),
});

export const createApiKey = defineEndpoint({
  path: `${OWNER_PREFIX}/user/api-key/create`,
  auth: 'owner',
  tag: 'users',
  summary: 'Create an API key for the signed-in user; the key is shown only in this reply',
  body: z.object({
    name: z
      .string({ error: 'api_key_name_required' })
      .trim()
      .min(1, 'api_key_name_required')
      .max(100, 'invalid_value'),
  }),
  result: apiKeySchema.extend({ api_key: z.string().describe('Send as `Authorization: <key>`') }),
  errors: ['unauthorized_user'],
});

export const listApiKeys = defineEndpoint({
  path: `${OWNER_PREFIX}/user/api-key/list/retrieve`,
  auth: 'owner',
  tag: 'users',
  summary: 'The signed-in user’s API keys (never the keys themselves)',
  body: z.object({}),
  result: z.object({ api_keys: z.array(apiKeySchema) }),
  errors: ['unauthorized_user'],
});

export const deleteApiKey = defineEndpoint({
  path: `${OWNER_PREFIX}/user/api-key/delete`,
  auth: 'owner',
  tag: 'users',
  summary: 'Revoke one of the signed-in user’s API keys',
  body: z.object({ id: idSchema }),
  result: z.object({}),
  errors: ['unauthorized_user', 'api_key_not_found'],
});

export const listOrganisations = defineEndpoint({
  path: `${OWNER_PREFIX}/organisation/list/retrieve`,
  auth: 'owner',
  tag: 'organisations',
  summary: 'Organisations the user may see: all for super users, their own for others',
  body: z.object({}),
  result: z.object({ organisations: z.array(organisationSchema) }),
  errors: ['unauthorized_user'],
});

export const renameOrganisation = defineEndpoint({
  path: `${OWNER_PREFIX}/organisation/update`,
  auth: 'owner',
  tag: 'organisations',
  summary: 'Rename an organisation, or change its currency (super users: any; admins: their own)',
  body: z.object({
    id: idSchema,
    name: z
      .string({ error: 'organisation_name_required' })
      .trim()
      .min(1, 'organisation_name_required')
      .max(200, 'invalid_value'),
    currency: z
      .string({ error: 'invalid_value' })
      .trim()
      .toUpperCase()
      .refine(isCurrencyCode, 'invalid_value')
      .optional()
      .describe('ISO 4217 code (EUR, JPY); orders already made keep theirs'),
  }),
  result: organisationSchema,
  errors: ['unauthorized_user', 'forbidden', 'organisation_not_found', 'organisation_exists'],
});

export const createOrganisation = defineEndpoint({
  path: `${OWNER_PREFIX}/organisation/create`,
  auth: 'owner',
  tag: 'organisations',
  summary: 'Create an organisation (super users only)',
  body: z.object({
    name: z
      .string({ error: 'organisation_name_required' })
      .trim()
      .min(1, 'organisation_name_required')
      .max(200, 'invalid_value'),
  }),
  result: organisationSchema,
  errors: ['unauthorized_user', 'forbidden', 'organisation_exists'],
});

export { idSchema };
