import { endpoints, Role, type SignInResult } from '@flashbulb/shared';
import { totpAt } from '../../src/lib/totp.ts';
import type { TestApp } from './test-app.ts';

export const ADMIN_EMAIL = 'admin@example.com';
export const ADMIN_PASSWORD = 'correct horse battery staple';

/** Reads the base32 secret out of an otpauth URI, as an authenticator app does. */
export const secretFromUri = (uri: string): string => {
  const secret = new URL(uri).searchParams.get('secret');
  if (!secret) throw new Error(`no secret in ${uri}`);
  return secret;
};

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  secret: string;
  authorization: string;
  /** The recovery codes shown when the authenticator was verified. */
  recoveryCodes: string[];
}

const expectChallenge = (result: SignInResult, name: string): string => {
  if (!('challenge_name' in result) || result.challenge_name !== name) {
    throw new Error(`expected ${name}, got ${JSON.stringify(result)}`);
  }
  return result.session;
};

/**
 * A user's first full sign-in: password, authenticator set-up with a code for the current step,
 * tokens. Later code-based sign-ins must use a later step (`clock.advance(30_000)`).
 */
export const firstSignInWithMfaSetup = async (
  t: TestApp,
  email: string,
  password: string,
): Promise<SignedIn> => {
  const first = await t.ok(endpoints.signIn, { username: email, password });
  let session = expectChallenge(first, 'MFA_SETUP');
  const associated = await t.ok(endpoints.associateSoftwareToken, { session });
  session = associated.session ?? session;
  const secret = secretFromUri(associated.otpauth_uri);
  const verified = await t.ok(endpoints.verifySoftwareToken, {
    session,
    code: totpAt(secret, t.clock.now().getTime()),
    friendly_device_name: 'My TOTP device',
  });
  const done = await t.ok(endpoints.respondToChallenge, {
    challenge_name: 'MFA_SETUP',
    session: verified.session ?? session,
  });
  if (!('authentication_result' in done)) throw new Error(`no tokens: ${JSON.stringify(done)}`);
  return {
    accessToken: done.authentication_result.access_token,
    refreshToken: done.authentication_result.refresh_token,
    secret,
    authorization: `Bearer ${done.authentication_result.access_token}`,
    recoveryCodes: verified.recovery_codes,
  };
};

/** Sign-in with password and a TOTP code for the clock's current step. */
export const signInWithCode = async (
  t: TestApp,
  email: string,
  password: string,
  secret: string,
) => {
  const first = await t.ok(endpoints.signIn, { username: email, password });
  const session = expectChallenge(first, 'SOFTWARE_TOKEN_MFA');
  const done = await t.ok(endpoints.respondToChallenge, {
    challenge_name: 'SOFTWARE_TOKEN_MFA',
    session,
    code: totpAt(secret, t.clock.now().getTime()),
  });
  if (!('authentication_result' in done)) throw new Error('no tokens');
  return {
    ...done.authentication_result,
    authorization: `Bearer ${done.authentication_result.access_token}`,
  };
};

/** Creates the first administrator and signs them in with two-factor set up. */
export const signedInAdmin = async (t: TestApp): Promise<SignedIn> => {
  await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
  return firstSignInWithMfaSetup(t, ADMIN_EMAIL, ADMIN_PASSWORD);
};

/** Creates a user with a known temporary password and takes them through their first sign-in. */
export const createAndSignInUser = async (
  t: TestApp,
  by: SignedIn,
  email: string,
  role: Role,
  organisationId: number | null,
): Promise<SignedIn> => {
  const temporary = 'temporary-pass-1234';
  await t.ok(
    endpoints.createUser,
    { email, role, organisation_id: organisationId, temporary_password: temporary },
    { authorization: by.authorization },
  );
  const first = await t.ok(endpoints.signIn, { username: email, password: temporary });
  const session = expectChallenge(first, 'NEW_PASSWORD_REQUIRED');
  const password = `${email}-chosen-password`;
  const next = await t.ok(endpoints.respondToChallenge, {
    challenge_name: 'NEW_PASSWORD_REQUIRED',
    session,
    new_password: password,
  });
  expectChallenge(next, 'MFA_SETUP');
  return firstSignInWithMfaSetup(t, email, password);
};

export { Role };
