// Changing one's password while signed in: the current password first (a wrong one counts toward
// the lockout), the new one under the same rules as everywhere, other sessions end, this one stays.
import { endpoints } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf } from '../helpers/events.ts';
import { ADMIN_EMAIL, ADMIN_PASSWORD, signedInAdmin, signInWithCode } from '../helpers/identity.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('change my password', () => {
  it('needs the current password, keeps the rules, ends the other sessions and keeps this one', async () => {
    const admin = await signedInAdmin(t);
    t.clock.advance(30_000);
    const other = await signInWithCode(t, ADMIN_EMAIL, ADMIN_PASSWORD, admin.secret);
    const as = { authorization: admin.authorization };

    expect(
      errorOf(
        await t.call(
          endpoints.changePassword,
          { previous_password: 'not my password', proposed_password: 'a brand new password' },
          as,
        ),
      ),
    ).toMatchObject({
      status: 400,
      message_key: 'current_password_incorrect',
      field: 'previous_password',
    });
    expect(
      errorOf(
        await t.call(
          endpoints.changePassword,
          { previous_password: ADMIN_PASSWORD, proposed_password: 'password' },
          as,
        ),
      ),
    ).toMatchObject({ status: 400, message_key: 'invalid_password', field: 'proposed_password' });
    // Refused attempts changed nothing: the old password still signs in elsewhere.
    expect(
      (await t.call(endpoints.myInfo, {}, { authorization: other.authorization })).statusCode,
    ).toBe(200);

    await t.ok(
      endpoints.changePassword,
      { previous_password: ADMIN_PASSWORD, proposed_password: 'a brand new password' },
      as,
    );
    expect((await t.call(endpoints.myInfo, {}, as)).statusCode).toBe(200);
    expect(
      (await t.call(endpoints.myInfo, {}, { authorization: other.authorization })).statusCode,
    ).toBe(401);
    expect(
      errorOf(await t.call(endpoints.signIn, { username: ADMIN_EMAIL, password: ADMIN_PASSWORD })),
    ).toMatchObject({ message_key: 'user_name_or_password_incorrect' });
    t.clock.advance(30_000);
    await signInWithCode(t, ADMIN_EMAIL, 'a brand new password', admin.secret);
    // Without a session nobody changes anything.
    expect(
      (
        await t.call(endpoints.changePassword, {
          previous_password: 'a brand new password',
          proposed_password: 'yet another password',
        })
      ).statusCode,
    ).toBe(401);
  });
});
