import { endpoints, LOCKOUT_MAX_FAILURES_PER_HOUR } from '@flashbulb/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { totpAt } from '../../src/lib/totp.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signedInAdmin } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { wrongCode } from '../helpers/totp-codes.ts';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
});
afterEach(async () => {
  await t.close();
});

const attempt = async (password: string, username = ADMIN_EMAIL) => {
  const response = await t.call(endpoints.signIn, { username, password });
  return response.body.status === 'ok'
    ? 'ok'
    : (response.body as { error: { message_key: string } }).error.message_key;
};

describe('lockout', () => {
  it('allows five failures, then waits 2^(n−5) s after each further one', async () => {
    for (let i = 0; i < 5; i += 1)
      expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect');
    // Five failures: the next attempt waits 2^0 = 1 s — even with the right password.
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(999);
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(1);
    expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect'); // 6th failure
    // Now 2^1 = 2 s.
    t.clock.advance(1_999);
    expect(await attempt('wrong password')).toBe('too_many_attempts');
    t.clock.advance(1);
    expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect'); // 7th: 4 s
    t.clock.advance(3_999);
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(1);
    expect(await attempt(ADMIN_PASSWORD)).toBe('ok');
  });

  it('caps the wait at 15 minutes and forgets failures after 15 quiet minutes', async () => {
    // Fourteen failures, each after waiting out the lockout of the one before.
    for (let n = 1; n <= 14; n += 1) {
      expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect');
      t.clock.advance(2 ** Math.max(n - 5, 0) * 1000);
    }
    expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect'); // 15th
    // 2^(15−5) s would be 1024 s; the cap is 900 s.
    t.clock.advance(899_999);
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(1);
    // 15 minutes without a failure: the run is forgotten, five free failures again.
    for (let i = 0; i < 5; i += 1)
      expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect');
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(1000);
    expect(await attempt(ADMIN_PASSWORD)).toBe('ok');
  });

  it('allows at most 100 failures an hour per account, whatever succeeds in between', async () => {
    await t.close();
    // An exempt account gets tokens from the password alone, and a success ends the run of
    // failures — so only the hourly cap can stop this pattern.
    t = await createTestApp({ FLASHBULB_MFA_EXEMPT_USERS: ADMIN_EMAIL });
    await t.ok(endpoints.createFirstAdmin, { email: ADMIN_EMAIL, password: ADMIN_PASSWORD });
    for (let round = 0; round < LOCKOUT_MAX_FAILURES_PER_HOUR / 4; round += 1) {
      for (let i = 0; i < 4; i += 1)
        expect(await attempt('wrong password')).toBe('user_name_or_password_incorrect');
      // The 100th failure comes in the last round; until then a success ends each run.
      if (round < LOCKOUT_MAX_FAILURES_PER_HOUR / 4 - 1)
        expect(await attempt(ADMIN_PASSWORD)).toBe('ok');
      t.clock.advance(10_000);
    }
    expect(await attempt(ADMIN_PASSWORD)).toBe('too_many_attempts');
    t.clock.advance(60 * 60_000);
    expect(await attempt(ADMIN_PASSWORD)).toBe('ok');
  }, 120_000);

  it('treats an unknown user name exactly like a known one', async () => {
    for (let i = 0; i < 5; i += 1) {
      expect(await attempt('wrong', 'ghost@example.com')).toBe('user_name_or_password_incorrect');
    }
    expect(await attempt('wrong', 'ghost@example.com')).toBe('too_many_attempts');
    // Another account is not affected.
    expect(await attempt(ADMIN_PASSWORD)).not.toBe('too_many_attempts');
  });

  it('counts wrong two-factor codes as failures', async () => {
    await t.close();
    t = await createTestApp();
    const admin = await signedInAdmin(t);
    t.clock.advance(30_000);
    const first = (await t.ok(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: ADMIN_PASSWORD,
    })) as { session: string };
    for (let i = 0; i < 5; i += 1) {
      const response = await t.call(endpoints.respondToChallenge, {
        challenge_name: 'SOFTWARE_TOKEN_MFA',
        session: first.session,
        code: wrongCode(admin.secret, t.clock.now().getTime()),
      });
      expect((response.body as { error: { message_key: string } }).error.message_key).toBe(
        'code_mismatch',
      );
    }
    const locked = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: first.session,
      code: totpAt(admin.secret, t.clock.now().getTime()),
    });
    expect(locked.statusCode).toBe(429);
    expect((locked.body as { error: { message_key: string } }).error.message_key).toBe(
      'too_many_attempts',
    );
    t.clock.advance(1000);
    const ok = await t.call(endpoints.respondToChallenge, {
      challenge_name: 'SOFTWARE_TOKEN_MFA',
      session: first.session,
      code: totpAt(admin.secret, t.clock.now().getTime()),
    });
    expect(ok.statusCode).toBe(200);
  });
});
