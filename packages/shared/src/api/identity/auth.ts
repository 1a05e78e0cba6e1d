import { z } from 'zod';
import { defineEndpoint } from '../endpoint.ts';
import {
  emailSchema,
  newPasswordSchema,
  passwordInputSchema,
  recoveryCodeSchema,
  resetCodeSchema,
  totpCodeSchema,
  usernameSchema,
} from '../../rules/identity.ts';

export const challengeNames = ['NEW_PASSWORD_REQUIRED', 'MFA_SETUP', 'SOFTWARE_TOKEN_MFA'] as const;
export const challengeNameSchema = z.enum(challengeNames, { error: 'invalid_challenge' });
export type ChallengeName = z.infer<typeof challengeNameSchema>;

export const sessionSchema = z
  .string({ error: 'invalid_session' })
  .min(1, 'invalid_session')
  .max(512, 'invalid_session')
  .describe('Opaque sign-in session from the previous step (valid 10 minutes)');

export const authenticationResultSchema = z.object({
  access_token: z.string().describe('Send as `Authorization: Bearer <token>` on owner calls'),
  id_token: z.string().describe('Signed claims about the user (sub, email, role)'),
  refresh_token: z.string().describe('Exchange at auth/refresh for new tokens; single use'),
  expires_in: z.number().int().describe('Seconds until the access token expires'),
  token_type: z.literal('Bearer'),
});
export type AuthenticationResult = z.infer<typeof authenticationResultSchema>;

/** What sign-in and respond-to-challenge answer: tokens, or the next challenge. */
export const signInResultSchema = z.union([
  z.object({ authentication_result: authenticationResultSchema }),
  z.object({ challenge_name: challengeNameSchema, session: z.string() }),
]);
export type SignInResult = z.infer<typeof signInResultSchema>;

const okResult = z.object({}).describe('Empty on success');

/** Shown once, when made: the server keeps only their keyed hashes. */
const recoveryCodesSchema = z
  .array(z.string())
  .describe('Ten recovery codes (abcde-fgh0k), each usable once in place of an authenticator code');

/**
 * A signed-in user adding or replacing an authenticator, or minting recovery codes, proves again
 * who they are: the password or a current code (a stolen access token alone is not enough).
 */
const proofOfUserFields = {
  password: passwordInputSchema.optional(),
  code: totpCodeSchema.optional(),
};

/** What that proof may answer. */
const PROOF_OF_USER_ERRORS = [
  'unauthorized_user',
  'password_required',
  'user_name_or_password_incorrect',
  'code_mismatch',
  'too_many_attempts',
  'mfa_not_set_up',
] as const;

export const signIn = defineEndpoint({
  path: '/auth/sign-in',
  auth: 'none',
  tag: 'auth',
  summary: 'Sign in with e-mail and password; answers tokens or the next challenge',
  body: z.object({ username: usernameSchema, password: passwordInputSchema }),
  result: signInResultSchema,
  errors: [
    'user_name_or_password_incorrect',
    'too_many_attempts',
    'temporary_password_expired',
    'user_disabled',
  ],
  rateLimited: true,
});

export const respondToChallenge = defineEndpoint({
  path: '/auth/respond-to-challenge',
  auth: 'none',
  tag: 'auth',
  summary: 'Answer NEW_PASSWORD_REQUIRED, MFA_SETUP or SOFTWARE_TOKEN_MFA',
  body: z.object({
    challenge_name: challengeNameSchema,
    session: sessionSchema,
    new_password: newPasswordSchema.optional(),
    code: totpCodeSchema.optional(),
    recovery_code: recoveryCodeSchema
      .optional()
      .describe('SOFTWARE_TOKEN_MFA without the authenticator: one unused recovery code instead'),
  }),
  result: signInResultSchema,
  errors: [
    'invalid_session',
    'invalid_challenge',
    'invalid_password',
    'code_required',
    'code_mismatch',
    'recovery_code_format',
    'recovery_code_mismatch',
    'too_many_attempts',
    'mfa_not_set_up',
  ],
  rateLimited: true,
});

export const associateSoftwareToken = defineEndpoint({
  path: '/auth/associate-software-token',
  auth: 'owner_optional',
  tag: 'auth',
  // During sign-in (MFA_SETUP) the challenge session is enough; a signed-in user adding or
  // replacing an authenticator also shows the password or a current code of the one they have.
  summary:
    'Start authenticator set-up: a new TOTP secret and its otpauth URI (signed in: with password or current code)',
  body: z.object({
    session: sessionSchema.optional(),
    ...proofOfUserFields,
  }),
  result: z.object({
    secret_code: z.string().describe('Base32 secret, for typing into the app by hand'),
    otpauth_uri: z.string().describe('otpauth://totp/… for a QR code; issuer Flashbulb'),
    session: z.string().optional().describe('Continue the MFA_SETUP flow with this session'),
  }),
  errors: ['invalid_session', ...PROOF_OF_USER_ERRORS],
  rateLimited: true,
});

export const verifySoftwareToken = defineEndpoint({
  path: '/auth/verify-software-token',
  auth: 'owner_optional',
  tag: 'auth',
  summary: 'Confirm the authenticator with a first code; it becomes the user’s two-factor',
  body: z.object({
    session: sessionSchema.optional(),
    code: totpCodeSchema,
    friendly_device_name: z.string().trim().max(100, 'invalid_value').optional(),
  }),
  result: z.object({
    status: z.literal('SUCCESS'),
    session: z.string().optional(),
    recovery_codes: recoveryCodesSchema,
  }),
  errors: [
    'invalid_session',
    'unauthorized_user',
    'code_mismatch',
    'too_many_attempts',
    'mfa_not_set_up',
  ],
  rateLimited: true,
});

export const regenerateRecoveryCodes = defineEndpoint({
  path: '/auth/mfa/recovery-codes/regenerate',
  auth: 'owner',
  tag: 'auth',
  // Like replacing the authenticator: a stolen access token alone must not mint codes.
  summary:
    'A new set of two-factor recovery codes (shown once); the old set stops working. Signed in, with password or a current code',
  body: z.object(proofOfUserFields),
  result: z.object({ recovery_codes: recoveryCodesSchema }),
  errors: PROOF_OF_USER_ERRORS,
  rateLimited: true,
});

export const recoveryCodesStatus = defineEndpoint({
  path: '/auth/mfa/recovery-codes/retrieve',
  auth: 'owner',
  tag: 'auth',
  summary: "How many of the signed-in user's recovery codes are left (never the codes)",
  body: z.object({}),
  result: z.object({
    remaining: z.number().int().describe('Unused codes of the current set'),
    total: z.number().int().describe('Codes in the current set; 0 when none were made'),
    generated_at: z.string().nullable().describe('ISO time the current set was made'),
    last_used_at: z.string().nullable().describe('ISO time a code of this set was last used'),
  }),
  errors: ['unauthorized_user'],
});

export const setMfaPreference = defineEndpoint({
  path: '/auth/set-mfa-preference',
  auth: 'owner',
  tag: 'auth',
  summary: 'Turn the authenticator on or off as the preferred second factor',
  body: z.object({
    software_token_mfa_settings: z.object({
      enabled: z.boolean({ error: 'invalid_value' }),
      preferred_mfa: z.boolean({ error: 'invalid_value' }),
    }),
  }),
  result: okResult,
  errors: ['unauthorized_user', 'mfa_not_set_up', 'forbidden'],
});

export const forgotPassword = defineEndpoint({
  path: '/auth/forgot-password',
  auth: 'none',
  tag: 'auth',
  summary: 'E-mail a 6-digit reset code (same reply whether or not the account exists)',
  body: z.object({ username: usernameSchema }),
  result: z.object({
    code_delivery_details: z.object({ delivery_medium: z.literal('EMAIL') }),
  }),
  errors: ['too_many_attempts'],
  rateLimited: true,
});

export const confirmForgotPassword = defineEndpoint({
  path: '/auth/confirm-forgot-password',
  auth: 'none',
  tag: 'auth',
  summary: 'Set a new password with the e-mailed code; ends every other session',
  body: z.object({
    username: usernameSchema,
    code: resetCodeSchema,
    new_password: newPasswordSchema,
  }),
  result: okResult,
  errors: ['code_mismatch', 'expired_code', 'too_many_attempts', 'invalid_password'],
  rateLimited: true,
});

export const changePassword = defineEndpoint({
  path: '/auth/change-password',
  auth: 'owner',
  tag: 'auth',
  summary:
    "Change the signed-in user's password (the current one first); every other session of the account ends, this one stays",
  body: z.object({
    previous_password: passwordInputSchema,
    proposed_password: newPasswordSchema,
  }),
  result: okResult,
  errors: [
    'unauthorized_user',
    'current_password_incorrect',
    'too_many_attempts',
    'invalid_password',
    'password_too_long',
  ],
  rateLimited: true,
});

export const refresh = defineEndpoint({
  path: '/auth/refresh',
  auth: 'none',
  tag: 'auth',
  summary:
    'New tokens for a refresh token (body or the httpOnly cookie); the refresh token rotates',
  body: z.object({ refresh_token: z.string().max(512, 'unauthorized_user').optional() }),
  result: z.object({ authentication_result: authenticationResultSchema }),
  errors: ['unauthorized_user'],
  rateLimited: true,
});

export const signOut = defineEndpoint({
  path: '/auth/sign-out',
  auth: 'owner_optional',
  tag: 'auth',
  summary: 'End the session: its access and refresh tokens are refused from then on',
  body: z.object({ refresh_token: z.string().max(512, 'unauthorized_user').optional() }),
  result: okResult,
  errors: [],
});

export const setupStatus = defineEndpoint({
  path: '/auth/setup-status',
  auth: 'none',
  tag: 'auth',
  summary: 'Whether the first administrator still has to be created',
  body: z.object({}),
  result: z.object({
    needs_first_admin: z.boolean(),
    needs_setup_token: z
      .boolean()
      .optional()
      .describe('The caller is not on the server machine: the claim needs the logged set-up token'),
  }),
  errors: [],
});

export const createFirstAdmin = defineEndpoint({
  path: '/auth/create-first-admin',
  auth: 'none',
  tag: 'auth',
  summary:
    'Create the first super user; only while there is no user at all, from the server machine or with the set-up token of its log',
  body: z.object({
    email: emailSchema,
    password: newPasswordSchema,
    setup_token: z.string().trim().max(200, 'setup_token_required').optional(),
  }),
  result: z.object({ email: z.string() }),
  errors: ['setup_already_done', 'invalid_password', 'setup_token_required'],
  rateLimited: true,
});
