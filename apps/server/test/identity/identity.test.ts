import { AUTH_COOKIE_PATH, endpoints, TEMPORARY_PASSWORD_DAYS } from '@flashbulb/shared';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { totpAt } from '../../src/lib/totp.ts';
import { wrongCode } from '../helpers/totp-codes.ts';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  createAndSignInUser,
  firstSignInWithMfaSetup,
  Role,
  secretFromUri,
  signedInAdmin,
  signInWithCode,
} from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { REFRESH_REUSE_GRACE_MS } from '../../src/services/identity/auth.service.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ FLASHBULB_MFA_EXEMPT_USERS: 'kiosk-operator@example.com' });
});
afterEach(async () => {
  await t.close();
});

const errorOf = (body: { status: string; error?: unknown }) =>
  (body as { error: { message_key: string; field?: string } }).error;

/** Signs the first administrator in, then creates an organisation and a user with a temporary password. */
const adminWithNewUser = async (
  organisationName: string,
  email: string,
  role: Role,
  temporaryPassword: string,
) => {
  const admin = await signedInAdmin(t);
  const organisation = await t.ok(
    endpoints.createOrganisation,
    { name: organisationName },
    { authorization: admin.authorization },
  );
  await t.ok(
    endpoints.createUser,
    { email, role, organisation_id: organisation.id, temporary_password: temporaryPassword },
    { authorization: admin.authorization },
  );
};

describe('sign-in', () => {
  it('answers the same for an unknown user and a wrong password', async () => {
    await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const unknown = await t.call(endpoints.signIn, {
      username: 'nobody@example.com',
      password: ADMIN_PASSWORD,
    });
    const wrong = await t.call(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: 'not the password',
    });
    expect(unknown.statusCode).toBe(400);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.body).toEqual(wrong.body);
    expect(unknown.body).toEqual({
      status: 'nok',
      error: {
        type: 'global',
        message_key: 'user_name_or_password_incorrect',
        message: 'User Name or Password is incorrect',
      },
    });
  });

  it('refuses malformed bodies with a field key', async () => {
    const missing = await t.call(endpoints.signIn, { password: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(errorOf(missing.body)).toMatchObject({
      type: 'field',
      message_key: 'email_required',
      field: 'username',
    });
    const noPassword = await t.call(endpoints.signIn, { username: ADMIN_EMAIL, password: '' });
    expect(errorOf(noPassword.body)).toMatchObject({
      message_key: 'password_required',
      field: 'password',
    });
    const wrongType = await t.call(endpoints.signIn, { username: 42, password: 'x' });
    expect(errorOf(wrongType.body)).toMatchObject({ field: 'username' });
  });

  it('takes the first administrator through authenticator set-up to tokens', async () => {
    await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const first = await t.ok(endpoints.signIn, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    expect(first).toMatchObject({ challenge_name: 'MFA_SETUP' });
    const session = (first as { session: string }).session;

    // Tokens are not given before the authenticator is verified.
    const early = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'MFA_SETUP',
      session,
    });
    expect(errorOf(early.body).message_key).toBe('mfa_not_set_up');

    const associated = await t.ok(endpoints.associateSoftwareToken, { session });
    const uri = new URL(associated.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe(`/Flashbulb:${ADMIN_EMAIL}`);
    expect(uri.searchParams.get('issuer')).toBe('Flashbulb');
    expect(uri.searchParams.get('secret')).toBe(associated.secret_code);
    const secret = secretFromUri(associated.otpauth_uri);

    const wrong = await t.call(endpoints.verifySoftwareToken, {
      session,
      code: wrongCode(secret, t.clock.now().getTime()),
      friendly_device_name: 'x',
    });
    expect(wrong.statusCode).toBe(400);
    expect(errorOf(wrong.body)).toMatchObject({ message_key: 'code_mismatch', field: 'code' });

    const verified = await t.ok(endpoints.verifySoftwareToken, {
      session,
      code: totpAt(secret, t.clock.now().getTime()),
      friendly_device_name: 'My TOTP device',
    });
    expect(verified.status).toBe('SUCCESS');
    const done = await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'MFA_SETUP',
      session: verified.session ?? session,
    });
    expect(done).toHaveProperty('authentication_result.token_type', 'Bearer');
    const tokens = (done as { authentication_result: { access_token: string; expires_in: number } })
      .authentication_result;
    expect(tokens.expires_in).toBeGreaterThan(0);

    const me = await t.ok(endpoints.myInfo, {}, { authorization: `Bearer ${tokens.access_token}` });
    expect(me).toMatchObject({
      email: ADMIN_EMAIL,
      role: Role.SUPER_USER,
      mfa_enabled: true,
      status: 'CONFIRMED',
    });

    // The challenge session is used up.
    const again = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'MFA_SETUP',
      session,
    });
    expect(errorOf(again.body).message_key).toBe('invalid_session');
  });

  it('asks for the code once an authenticator is set up, accepting ±1 step and each code once', async () => {
    const admin = await signedInAdmin(t);
    const start = t.clock.now().getTime();
    // The set-up code (this step) cannot be used again.
    const replay = await t.ok(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    });
    expect(replay).toMatchObject({ challenge_name: 'SOFTWARE_TOKEN_MFA' });
    const replayed = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: (replay as { session: string }).session,
      code: totpAt(admin.secret, start),
    });
    expect(replayed.statusCode).toBe(400);
    expect(errorOf(replayed.body)).toMatchObject({ message_key: 'code_mismatch', field: 'code' });

    // The next step's code (clock drift of +1 step) works with the same session.
    const next = await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: (replay as { session: string }).session,
      code: totpAt(admin.secret, start + 30_000),
    });
    expect(next).toHaveProperty('authentication_result');

    // Two steps ahead is outside the window.
    const far = await t.ok(endpoints.signIn, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const tooFar = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: (far as { session: string }).session,
      code: totpAt(admin.secret, start + 90_000),
    });
    expect(errorOf(tooFar.body).message_key).toBe('code_mismatch');

    // A minute later, the then-previous step (−1) is accepted.
    t.clock.advance(90_000);
    const late = await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: (far as { session: string }).session,
      code: totpAt(admin.secret, t.clock.now().getTime() - 30_000),
    });
    expect(late).toHaveProperty('authentication_result');
  });

  it('refuses unknown sessions and mismatched challenges', async () => {
    await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const unknown = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'MFA_SETUP',
      session: 'made-up',
    });
    expect(unknown.statusCode).toBe(400);
    expect(errorOf(unknown.body)).toMatchObject({
      message_key: 'invalid_session',
      field: 'session',
    });
    const first = (await t.ok(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    })) as { session: string };
    const mismatch = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: first.session,
      code: '123456',
    });
    expect(errorOf(mismatch.body).message_key).toBe('invalid_challenge');
    const badName = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SMS_MFA',
      session: first.session,
    });
    expect(errorOf(badName.body)).toMatchObject({
      message_key: 'invalid_challenge',
      field: 'challenge_name',
    });
    // Sessions expire after 10 minutes.
    t.clock.advance(11 * 60_000);
    const expired = await t.call(endpoints.associateSoftwareToken, { session: first.session });
    expect(errorOf(expired.body).message_key).toBe('invalid_session');
  });

  it('signs exempt users in without two-factor', async () => {
    await adminWithNewUser(
      'Booth Co',
      'Kiosk-Operator@example.com',
      Role.EVENT_OWNER,
      'temporary-pass-1',
    );
    const first = (await t.ok(endpoints.signIn, {
      username: 'kiosk-operator@example.com',
      password: 'temporary-pass-1',
    })) as {
      challenge_name: string;
      session: string;
    };
    expect(first.challenge_name).toBe('NEW_PASSWORD_REQUIRED');
    const done = await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'NEW_PASSWORD_REQUIRED',
      session: first.session,
      new_password: 'my own kiosk password',
    });
    expect(done).toHaveProperty('authentication_result');
    const me = await t.ok(
      endpoints.myInfo,
      {},
      {
        authorization: `Bearer ${(done as { authentication_result: { access_token: string } }).authentication_result.access_token}`,
      },
    );
    expect(me).toMatchObject({ mfa_exempt: true, mfa_enabled: false });
  });
});

describe('new password required', () => {
  it('requires a new password that is long enough and not common, then two-factor set-up', async () => {
    await adminWithNewUser('Studio', 'owner@example.com', Role.EVENT_OWNER, 'temporary-pass-2');
    const first = (await t.ok(endpoints.signIn, {
      username: 'owner@example.com',
      password: 'temporary-pass-2',
    })) as { session: string };
    for (const bad of ['short', 'password123', 'Password123', '        x']) {
      const refused = await t.call(endpoints.respondToChallenge, {
        challenge_name: 'NEW_PASSWORD_REQUIRED',
        session: first.session,
        new_password: bad,
      });
      expect(errorOf(refused.body)).toMatchObject({
        message_key: 'invalid_password',
        field: 'new_password',
      });
    }
    const missing = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'NEW_PASSWORD_REQUIRED',
      session: first.session,
    });
    expect(errorOf(missing.body).message_key).toBe('invalid_password');
    // 64+ characters are allowed.
    const long = 'a long pass phrase that goes on and on and on well past sixty-four characters';
    const next = await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'NEW_PASSWORD_REQUIRED',
      session: first.session,
      new_password: long,
    });
    expect(next).toMatchObject({ challenge_name: 'MFA_SETUP' });
    // The temporary password no longer works; the new one does.
    const old = await t.call(endpoints.signIn, {
      username: 'owner@example.com',
      password: 'temporary-pass-2',
    });
    expect(errorOf(old.body).message_key).toBe('user_name_or_password_incorrect');
    await firstSignInWithMfaSetup(t, 'owner@example.com', long);
  });

  it('refuses a temporary password after 7 days', async () => {
    await adminWithNewUser('Studio', 'late@example.com', Role.ADMIN, 'temporary-pass-3');
    t.clock.advance(TEMPORARY_PASSWORD_DAYS * 86_400_000 + 1000);
    const late = await t.call(endpoints.signIn, {
      username: 'late@example.com',
      password: 'temporary-pass-3',
    });
    expect(errorOf(late.body).message_key).toBe('temporary_password_expired');
  });
});

describe('sessions', () => {
  it('rotates refresh tokens and ends a session whose old refresh token is replayed', async () => {
    const admin = await signedInAdmin(t);
    const first = await t.ok(endpoints.refresh, { refresh_token: admin.refreshToken });
    expect(first.authentication_result.refresh_token).not.toBe(admin.refreshToken);
    const newAuth = `Bearer ${first.authentication_result.access_token}`;
    await t.ok(endpoints.myInfo, {}, { authorization: newAuth });
    // Replaying the rotated-out token after the grace window is refused and ends the session.
    t.clock.advance(REFRESH_REUSE_GRACE_MS + 1000);
    const replay = await t.call(endpoints.refresh, { refresh_token: admin.refreshToken });
    expect(replay.statusCode).toBe(401);
    expect(errorOf(replay.body).message_key).toBe('unauthorized_user');
    const after = await t.call(endpoints.myInfo, {}, { authorization: newAuth });
    expect(after.statusCode).toBe(401);
    const rotatedToo = await t.call(endpoints.refresh, {
      refresh_token: first.authentication_result.refresh_token,
    });
    expect(rotatedToo.statusCode).toBe(401);
  });

  it('rotates again when the replaced token comes back within seconds (a page load raced the refresh)', async () => {
    const admin = await signedInAdmin(t);
    const first = await t.ok(endpoints.refresh, { refresh_token: admin.refreshToken });
    // The browser never saw `first` (its answer was dropped) and sends the old token again.
    t.clock.advance(REFRESH_REUSE_GRACE_MS - 5000);
    const again = await t.ok(endpoints.refresh, { refresh_token: admin.refreshToken });
    const latest = again.authentication_result.refresh_token;
    expect(latest).not.toBe(first.authentication_result.refresh_token);
    await t.ok(
      endpoints.myInfo,
      {},
      { authorization: `Bearer ${again.authentication_result.access_token}` },
    );
    // The window does not move with it: the old token later ends the session.
    t.clock.advance(10_000);
    const late = await t.call(endpoints.refresh, { refresh_token: admin.refreshToken });
    expect(late.statusCode).toBe(401);
    const afterTheft = await t.call(endpoints.refresh, { refresh_token: latest });
    expect(afterTheft.statusCode).toBe(401);
  });

  it('answers both of two refreshes sent at once with one token (two page loads of one browser)', async () => {
    const admin = await signedInAdmin(t);
    // The race: both requests look the token up before either rotates it. The first rotation
    // waits until the second request has looked the token up.
    const { sessions } = t.app.container.repositories;
    let lookups = 0;
    let secondLookedUp = (): void => undefined;
    const bothLookedUp = new Promise<void>((resolve) => (secondLookedUp = resolve));
    const realFind = sessions.findByRefreshHash.bind(sessions);
    const realRotate = sessions.rotate.bind(sessions);
    const findSpy = vi.spyOn(sessions, 'findByRefreshHash').mockImplementation(async (hash) => {
      const row = await realFind(hash);
      lookups += 1;
      if (lookups === 2) secondLookedUp();
      return row;
    });
    let rotations = 0;
    const rotateSpy = vi.spyOn(sessions, 'rotate').mockImplementation(async (...args) => {
      rotations += 1;
      if (rotations === 1) await bothLookedUp;
      return realRotate(...args);
    });
    try {
      const [a, b] = await Promise.all([
        t.call(endpoints.refresh, { refresh_token: admin.refreshToken }),
        t.call(endpoints.refresh, { refresh_token: admin.refreshToken }),
      ]);
      expect(lookups).toBeGreaterThanOrEqual(2);
      expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
      // One of the two new tokens is the session's current one: it keeps the session going.
      const tokens = [a, b].map((r) => {
        if (r.body.status !== 'ok') throw new Error('refused');
        return r.body.result.authentication_result.refresh_token;
      });
      findSpy.mockRestore();
      rotateSpy.mockRestore();
      const next = await Promise.any(
        tokens.map((token) => t.ok(endpoints.refresh, { refresh_token: token })),
      );
      await t.ok(
        endpoints.myInfo,
        {},
        { authorization: `Bearer ${next.authentication_result.access_token}` },
      );
    } finally {
      findSpy.mockRestore();
      rotateSpy.mockRestore();
    }
  });

  it('sets an httpOnly refresh cookie and refreshes from it', async () => {
    await t.ok(endpoints.createFirstAdmin, {
      email: ADMIN_EMAIL,
      password: 'correct horse battery staple',
    });
    const first = (await t.ok(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: 'correct horse battery staple',
    })) as { session: string };
    const associated = await t.ok(endpoints.associateSoftwareToken, { session: first.session });
    await t.ok(endpoints.verifySoftwareToken, {
      session: first.session,
      code: totpAt(associated.secret_code, t.clock.now().getTime()),
    });
    const response = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'MFA_SETUP',
      session: first.session,
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/^flashbulb_refresh=[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).toContain(`Path=${AUTH_COOKIE_PATH}`);
    // Next to it, the session hint the web app reads before asking for a refresh: no secret in it,
    // readable by scripts, site-wide, and cleared with the refresh cookie.
    const cookies = [response.headers['set-cookie'] ?? []].flat().map(String);
    const hint = cookies.find((c) => c.startsWith('flashbulb_session='));
    expect(hint).toMatch(/^flashbulb_session=1;/);
    expect(hint).not.toContain('HttpOnly');
    expect(hint).toContain('Path=/;');
    expect(hint).toContain('SameSite=Strict');
    const cookie = setCookie.split(';')[0]!;
    const refreshed = await t.call(endpoints.refresh, {}, { cookie });
    expect(refreshed.statusCode).toBe(200);
    expect(refreshed.body).toHaveProperty('result.authentication_result.access_token');
    const none = await t.call(endpoints.refresh, {});
    expect(none.statusCode).toBe(401);
    expect([none.headers['set-cookie'] ?? []].flat().map(String)).toContainEqual(
      expect.stringMatching(/^flashbulb_session=;.*Expires=Thu, 01 Jan 1970/),
    );
  });

  it('refuses the access token and refresh token after sign-out', async () => {
    const admin = await signedInAdmin(t);
    await t.ok(endpoints.myInfo, {}, { authorization: admin.authorization });
    await t.ok(
      endpoints.signOut,
      { refresh_token: admin.refreshToken },
      { authorization: admin.authorization },
    );
    const me = await t.call(endpoints.myInfo, {}, { authorization: admin.authorization });
    expect(me.statusCode).toBe(401);
    expect(me.body).toEqual({
      status: 'nok',
      error: {
        type: 'global',
        message_key: 'unauthorized_user',
        message: 'Your session has expired. Please log in again',
      },
    });
    const refreshed = await t.call(endpoints.refresh, { refresh_token: admin.refreshToken });
    expect(refreshed.statusCode).toBe(401);
  });

  it('refuses expired, forged and malformed access tokens', async () => {
    const admin = await signedInAdmin(t);
    const [header, payload] = admin.accessToken.split('.');
    const forgedPayload = Buffer.from(
      JSON.stringify({ typ: 'access', sub: '1', sid: 'x', exp: 9e9 }),
    ).toString('base64url');
    for (const authorization of [
      `Bearer ${header}.${forgedPayload}.${admin.accessToken.split('.')[2]}`,
      `Bearer ${header}.${payload}.AAAA`,
      'Bearer nonsense',
      'Bearer ',
      'fbk_not-a-key',
    ]) {
      const response = await t.call(endpoints.myInfo, {}, { authorization });
      expect(response.statusCode, authorization).toBe(401);
    }
    t.clock.advance(61 * 60_000);
    const expired = await t.call(endpoints.myInfo, {}, { authorization: admin.authorization });
    expect(expired.statusCode).toBe(401);
  });
});

describe('authenticator management', () => {
  it('enrolling a new authenticator when signed in needs the password or the current code', async () => {
    const admin = await signedInAdmin(t);
    const asAdmin = { authorization: admin.authorization };
    const bare = await t.call(endpoints.associateSoftwareToken, {}, asAdmin);
    expect(bare.statusCode).toBe(400);
    expect(errorOf(bare.body)).toMatchObject({
      message_key: 'password_required',
      field: 'password',
    });
    const wrongPassword = await t.call(
      endpoints.associateSoftwareToken,
      { password: 'not the password' },
      asAdmin,
    );
    expect(wrongPassword.statusCode).toBe(400);
    expect(errorOf(wrongPassword.body)).toMatchObject({
      message_key: 'user_name_or_password_incorrect',
      field: 'password',
    });
    t.clock.advance(30_000);
    const badCode = await t.call(
      endpoints.associateSoftwareToken,
      { code: wrongCode(admin.secret, t.clock.now().getTime()) },
      asAdmin,
    );
    expect(errorOf(badCode.body)).toMatchObject({ message_key: 'code_mismatch', field: 'code' });
    // Nothing was started by the refusals: a verify finds no pending authenticator.
    const verify = await t.call(
      endpoints.verifySoftwareToken,
      { code: totpAt(admin.secret, t.clock.now().getTime()) },
      asAdmin,
    );
    expect(errorOf(verify.body).message_key).toBe('mfa_not_set_up');
    t.clock.advance(30_000);
    const byCode = await t.ok(
      endpoints.associateSoftwareToken,
      { code: totpAt(admin.secret, t.clock.now().getTime()) },
      asAdmin,
    );
    expect(byCode.secret_code).toMatch(/^[A-Z2-7]+$/);
    // The same code cannot be used twice.
    const replay = await t.call(
      endpoints.associateSoftwareToken,
      { code: totpAt(admin.secret, t.clock.now().getTime()) },
      asAdmin,
    );
    expect(errorOf(replay.body).message_key).toBe('code_mismatch');
  });

  it('lets a signed-in user replace the authenticator, and refuses turning two-factor off', async () => {
    const admin = await signedInAdmin(t);
    const associated = await t.ok(
      endpoints.associateSoftwareToken,
      { password: ADMIN_PASSWORD },
      { authorization: admin.authorization },
    );
    expect(associated.session).toBeUndefined();
    t.clock.advance(30_000);
    const wrongSecretCode = await t.call(
      endpoints.verifySoftwareToken,
      { code: totpAt(admin.secret, t.clock.now().getTime()) },
      { authorization: admin.authorization },
    );
    expect(errorOf(wrongSecretCode.body).message_key).toBe('code_mismatch');
    t.clock.advance(30_000);
    await t.ok(
      endpoints.verifySoftwareToken,
      { code: totpAt(associated.secret_code, t.clock.now().getTime()) },
      { authorization: admin.authorization },
    );
    t.clock.advance(30_000);
    await signInWithCode(t, ADMIN_EMAIL, ADMIN_PASSWORD, associated.secret_code);

    const off = await t.call(
      endpoints.setMfaPreference,
      { software_token_mfa_settings: { enabled: false, preferred_mfa: false } },
      { authorization: admin.authorization },
    );
    expect(off.statusCode).toBe(403);
    expect(errorOf(off.body).message_key).toBe('forbidden');
    await t.ok(
      endpoints.setMfaPreference,
      { software_token_mfa_settings: { enabled: true, preferred_mfa: true } },
      { authorization: admin.authorization },
    );
    const bad = await t.call(
      endpoints.setMfaPreference,
      { software_token_mfa_settings: { enabled: 'yes' } },
      { authorization: admin.authorization },
    );
    expect(bad.statusCode).toBe(400);
    const anonymous = await t.call(endpoints.setMfaPreference, {
      software_token_mfa_settings: { enabled: true, preferred_mfa: true },
    });
    expect(anonymous.statusCode).toBe(401);
    const anonymousAssociate = await t.call(endpoints.associateSoftwareToken, {});
    expect(anonymousAssociate.statusCode).toBe(401);
  });

  it('lets an exempt user turn the authenticator on and off', async () => {
    await adminWithNewUser(
      'Org',
      'kiosk-operator@example.com',
      Role.EVENT_OWNER,
      'temporary-pass-9',
    );
    const first = (await t.ok(endpoints.signIn, {
      username: 'kiosk-operator@example.com',
      password: 'temporary-pass-9',
    })) as { session: string };
    const done = (await t.ok(endpoints.respondToChallenge, {
      challenge_name: 'NEW_PASSWORD_REQUIRED',
      session: first.session,
      new_password: 'kiosk operator pass',
    })) as { authentication_result: { access_token: string } };
    const authorization = `Bearer ${done.authentication_result.access_token}`;
    const notYet = await t.call(
      endpoints.setMfaPreference,
      { software_token_mfa_settings: { enabled: true, preferred_mfa: true } },
      { authorization },
    );
    expect(errorOf(notYet.body).message_key).toBe('mfa_not_set_up');
    await t.ok(
      endpoints.setMfaPreference,
      { software_token_mfa_settings: { enabled: false, preferred_mfa: false } },
      { authorization },
    );
  });

  it('works for a user created by an admin through the whole first sign-in', async () => {
    const admin = await signedInAdmin(t);
    const organisation = await t.ok(
      endpoints.createOrganisation,
      { name: 'Org A' },
      { authorization: admin.authorization },
    );
    const user = await createAndSignInUser(
      t,
      admin,
      'second@example.com',
      Role.ADMIN,
      organisation.id,
    );
    const me = await t.ok(endpoints.myInfo, {}, { authorization: user.authorization });
    expect(me).toMatchObject({
      email: 'second@example.com',
      role: Role.ADMIN,
      organisation_id: organisation.id,
      organisation_name: 'Org A',
    });
  });
});

describe('the reads every signed-in call makes (prepared statements)', () => {
  it('finds a session only before it expires and while it is not revoked', async () => {
    await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    const { sessions, users } = t.app.container.repositories;
    const user = await users.findByEmail(ADMIN_EMAIL);
    const expiresAt = new Date('2026-12-01T10:00:00.250Z');
    await sessions.create({ id: 'session-a', userId: user!.id, refreshTokenHash: 'a', expiresAt });
    await sessions.create({ id: 'session-b', userId: user!.id, refreshTokenHash: 'b', expiresAt });
    const before = new Date(expiresAt.getTime() - 1);
    expect((await sessions.findActive('session-a', before))?.user.email).toBe(ADMIN_EMAIL);
    expect((await sessions.findActive('session-b', before))?.session.id).toBe('session-b');
    expect(await sessions.findActive('session-a', expiresAt)).toBeUndefined();
    expect(await sessions.findActive('session-c', before)).toBeUndefined();
    await sessions.revoke('session-b', before);
    expect(await sessions.findActive('session-b', before)).toBeUndefined();
    expect((await sessions.findActive('session-a', before))?.session.id).toBe('session-a');
  });
});

describe('two-factor recovery codes', () => {
  const signInChallenge = async () => {
    const first = await t.ok(endpoints.signIn, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    return (first as { session: string }).session;
  };
  const useRecoveryCode = (session: string, recovery_code: string) =>
    t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session,
      recovery_code,
    });

  it('gives ten codes at set-up; each signs in once instead of a code, wrong ones are throttled, the count shows it', async () => {
    const admin = await signedInAdmin(t);
    const asAdmin = { authorization: admin.authorization };
    expect(admin.recoveryCodes).toHaveLength(10);
    expect(new Set(admin.recoveryCodes).size).toBe(10);
    for (const code of admin.recoveryCodes)
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);
    expect(await t.ok(endpoints.recoveryCodesStatus, {}, asAdmin)).toMatchObject({
      remaining: 10,
      total: 10,
      last_used_at: null,
    });
    // Shown once: only the set-up's answer carried them. The count answers none of them, and the
    // database keeps none in the clear (a hash each), so no later screen can show them again.
    const statusReply = JSON.stringify(
      (await t.call(endpoints.recoveryCodesStatus, {}, asAdmin)).body,
    );
    const stored = JSON.stringify(
      (await t.database.executeSql(`select * from mfa_recovery_codes`)).rows,
    ).toLowerCase();
    expect(stored).not.toBe('[]');
    for (const code of admin.recoveryCodes) {
      expect(statusReply).not.toContain(code);
      expect(stored).not.toContain(code);
      expect(stored).not.toContain(code.replace('-', ''));
    }

    // Typed in capitals without the dash: the same code.
    const session = await signInChallenge();
    const used = await useRecoveryCode(
      session,
      admin.recoveryCodes[0]!.replace('-', '').toUpperCase(),
    );
    expect(used.statusCode).toBe(200);
    expect(used.body).toHaveProperty('result.authentication_result.token_type', 'Bearer');
    const status = await t.ok(endpoints.recoveryCodesStatus, {}, asAdmin);
    expect(status).toMatchObject({ remaining: 9, total: 10 });
    expect(status.last_used_at).toBe(t.clock.now().toISOString());

    // Once only: the same code is refused the next time, as a counted failure.
    const again = await useRecoveryCode(await signInChallenge(), admin.recoveryCodes[0]!);
    expect(again.statusCode).toBe(400);
    expect(errorOf(again.body)).toMatchObject({
      message_key: 'recovery_code_mismatch',
      field: 'recovery_code',
    });
    // Malformed input changes nothing and says what a code looks like.
    const malformed = await useRecoveryCode(await signInChallenge(), '12345');
    expect(errorOf(malformed.body)).toMatchObject({
      message_key: 'recovery_code_format',
      field: 'recovery_code',
    });
    expect((await t.ok(endpoints.recoveryCodesStatus, {}, asAdmin)).remaining).toBe(9);

    // Wrong codes count toward the lockout like wrong authenticator codes.
    t.clock.advance(16 * 60_000);
    const lockedSession = await signInChallenge();
    for (let i = 0; i < 5; i += 1) {
      const wrong = await useRecoveryCode(lockedSession, 'zzzzz-zzzzz');
      expect(errorOf(wrong.body).message_key).toBe('recovery_code_mismatch');
    }
    // The sixth try, even with a right code, waits out the lockout and spends nothing.
    const locked = await useRecoveryCode(lockedSession, admin.recoveryCodes[2]!);
    expect(errorOf(locked.body).message_key).toBe('too_many_attempts');
    t.clock.advance(1_000);
    const ok = await useRecoveryCode(lockedSession, admin.recoveryCodes[2]!);
    expect(ok.body).toHaveProperty('result.authentication_result');
    expect((await t.ok(endpoints.recoveryCodesStatus, {}, asAdmin)).remaining).toBe(8);
  });

  it('regenerating (with the password) voids the old set; resetting two-factor removes the codes', async () => {
    const admin = await signedInAdmin(t);
    const asAdmin = { authorization: admin.authorization };
    const bare = await t.call(endpoints.regenerateRecoveryCodes, {}, asAdmin);
    expect(errorOf(bare.body)).toMatchObject({ message_key: 'password_required' });
    const wrong = await t.call(
      endpoints.regenerateRecoveryCodes,
      { password: 'not the password' },
      asAdmin,
    );
    expect(errorOf(wrong.body)).toMatchObject({ message_key: 'user_name_or_password_incorrect' });
    // An API key is not a signed-in session: it cannot mint codes.
    const key = await t.ok(endpoints.createApiKey, { name: 'script' }, asAdmin);
    const byKey = await t.call(
      endpoints.regenerateRecoveryCodes,
      { password: ADMIN_PASSWORD },
      { authorization: key.api_key },
    );
    expect(byKey.statusCode).toBe(401);

    const fresh = await t.ok(
      endpoints.regenerateRecoveryCodes,
      { password: ADMIN_PASSWORD },
      asAdmin,
    );
    expect(fresh.recovery_codes).toHaveLength(10);
    expect(fresh.recovery_codes.some((code) => admin.recoveryCodes.includes(code))).toBe(false);
    expect(await t.ok(endpoints.recoveryCodesStatus, {}, asAdmin)).toMatchObject({
      remaining: 10,
      total: 10,
    });

    const old = await useRecoveryCode(await signInChallenge(), admin.recoveryCodes[1]!);
    expect(errorOf(old.body).message_key).toBe('recovery_code_mismatch');
    const ok = await useRecoveryCode(await signInChallenge(), fresh.recovery_codes[1]!);
    expect(ok.body).toHaveProperty('result.authentication_result');

    // An administrator resetting two-factor removes the codes with the authenticator.
    const organisation = await t.ok(
      endpoints.createOrganisation,
      { name: 'Recovery org' },
      { authorization: admin.authorization },
    );
    const owner = await createAndSignInUser(
      t,
      admin,
      'owner-recovery@example.com',
      Role.EVENT_OWNER,
      organisation.id,
    );
    expect(owner.recoveryCodes).toHaveLength(10);
    const list = await t.ok(endpoints.listUsers, {}, { authorization: admin.authorization });
    const id = list.users.find((u) => u.email === 'owner-recovery@example.com')!.id;
    await t.ok(endpoints.resetUserMfa, { id }, { authorization: admin.authorization });
    const status = await t.ok(
      endpoints.recoveryCodesStatus,
      {},
      { authorization: owner.authorization },
    );
    expect(status).toMatchObject({ remaining: 0, total: 0 });
  });
});
