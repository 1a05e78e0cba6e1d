import { endpoints, RESET_CODE_MAX_TRIES } from '@flashbulb/shared';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_EMAIL, signedInAdmin } from '../helpers/identity.ts';
import { startSmtpPeer, type ReceivedMail } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;

beforeEach(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({
    SMTP_URL: smtp.url,
    FLASHBULB_PUBLIC_URL: 'https://photos.example.com',
  });
});
afterEach(async () => {
  await t.close();
  await smtp.close();
});

const codeFrom = (mail: ReceivedMail): string => {
  const match = /password is (\d{6})/.exec(mail.text);
  if (!match) throw new Error(`no code in ${mail.raw}`);
  return match[1]!;
};
const keyOf = (body: unknown) => (body as { error: { message_key: string } }).error.message_key;

describe('forgot password', () => {
  it('e-mails a code over SMTP that sets a new password and ends other sessions', async () => {
    const admin = await signedInAdmin(t);
    const reply = await t.call(endpoints.forgotPassword, { username: ADMIN_EMAIL.toUpperCase() });
    expect(reply.body).toEqual({
      status: 'ok',
      result: { code_delivery_details: { delivery_medium: 'EMAIL' } },
    });
    const mail = await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL));
    expect(mail.raw).toContain('Subject: Your Flashbulb password reset code');
    expect(mail.text).toContain('https://photos.example.com/');
    const code = codeFrom(mail);

    const wrong = await t.call(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code: code === '000000' ? '000001' : '000000',
      new_password: 'a brand new password',
    });
    expect(keyOf(wrong.body)).toBe('code_mismatch');

    const weak = await t.call(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'password',
    });
    expect(keyOf(weak.body)).toBe('invalid_password');

    await t.ok(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'a brand new password',
    });
    // The old session is over.
    const me = await t.call(endpoints.myInfo, {}, { authorization: admin.authorization });
    expect(me.statusCode).toBe(401);
    const refreshed = await t.call(endpoints.refresh, { refresh_token: admin.refreshToken });
    expect(refreshed.statusCode).toBe(401);
    // The code works once.
    const again = await t.call(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'another new password',
    });
    expect(keyOf(again.body)).toBe('code_mismatch');
    // The new password signs in.
    const signIn = await t.call(endpoints.signIn, {
      username: ADMIN_EMAIL,
      password: 'a brand new password',
    });
    expect(signIn.body).toMatchObject({
      status: 'ok',
      result: { challenge_name: 'SOFTWARE_TOKEN_MFA' },
    });
  });

  it('answers the same for an unknown account and sends nothing', async () => {
    await signedInAdmin(t);
    const unknown = await t.call(endpoints.forgotPassword, { username: 'nobody@example.com' });
    const known = await t.call(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.body).toEqual(known.body);
    await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL));
    // Both requests' jobs have run (the job stores its mail in the outbox, and only the outbox
    // sends): no outbox row for the unknown address then means no message will ever go there.
    await expect
      .poll(
        async () => {
          const jobs = await t.database.executeSql(
            `select state from pgboss.job where name = 'auth.password-reset'`,
          );
          return jobs.rows.map((r) => r.state);
        },
        { timeout: 20_000 },
      )
      .toEqual(['completed', 'completed']);
    const { rows } = await t.database.executeSql(
      `select recipient from outbox where recipient in ($1, $2)`,
      ['nobody@example.com', ADMIN_EMAIL],
    );
    expect(rows.map((r) => r.recipient)).toEqual([ADMIN_EMAIL]);
    expect(smtp.messages.filter((m) => m.to.includes('nobody@example.com'))).toHaveLength(0);
    const confirm = await t.call(endpoints.confirmForgotPassword, {
      username: 'nobody@example.com',
      code: '123456',
      new_password: 'a brand new password',
    });
    expect(keyOf(confirm.body)).toBe('code_mismatch');
  });

  it('expires the code after 15 minutes', async () => {
    await signedInAdmin(t);
    await t.ok(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    const code = codeFrom(await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL)));
    t.clock.advance(15 * 60_000 + 1);
    const late = await t.call(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'a brand new password',
    });
    expect(keyOf(late.body)).toBe('expired_code');
  });

  it('gives a code five tries', async () => {
    await signedInAdmin(t);
    await t.ok(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    const code = codeFrom(await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL)));
    const wrongCode = code === '999999' ? '999998' : '999999';
    for (let i = 0; i < RESET_CODE_MAX_TRIES; i += 1) {
      const response = await t.call(endpoints.confirmForgotPassword, {
        username: ADMIN_EMAIL,
        code: wrongCode,
        new_password: 'a brand new password',
      });
      expect(keyOf(response.body)).toBe('code_mismatch');
    }
    t.clock.advance(2000); // past the lockout wait, so only the code's own limit speaks
    const sixth = await t.call(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'a brand new password',
    });
    expect(keyOf(sixth.body)).toBe('expired_code');
  });

  it('a reset revokes the API keys of the account too, not only its sessions', async () => {
    const admin = await signedInAdmin(t);
    const key = await t.ok(
      endpoints.createApiKey,
      { name: 'cli' },
      { authorization: admin.authorization },
    );
    expect((await t.call(endpoints.myInfo, {}, { authorization: key.api_key })).statusCode).toBe(
      200,
    );
    await t.ok(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    const code = codeFrom(await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL)));
    await t.ok(endpoints.confirmForgotPassword, {
      username: ADMIN_EMAIL,
      code,
      new_password: 'a brand new password',
    });
    expect((await t.call(endpoints.myInfo, {}, { authorization: key.api_key })).statusCode).toBe(
      401,
    );
  });

  it('does the same work for every account: the request queues one job, the job mails', async () => {
    await signedInAdmin(t);
    const queued = async () =>
      (
        await t.database.executeSql(
          "select data->>'username' as username from pgboss.job where name = 'auth.password-reset' order by created_on",
        )
      ).rows.map((row) => row.username);
    await t.ok(endpoints.forgotPassword, { username: 'nobody@example.com' });
    await t.ok(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    // Known or not, the request did the same: one job each, nothing else.
    expect(await queued()).toEqual(['nobody@example.com', ADMIN_EMAIL]);
    // The job mails the known account its code.
    codeFrom(await smtp.waitFor((m) => m.to.includes(ADMIN_EMAIL)));
  });

  it('refuses malformed codes and bodies', async () => {
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const response = await t.call(endpoints.confirmForgotPassword, {
        username: ADMIN_EMAIL,
        code,
        new_password: 'a brand new password',
      });
      expect(response.statusCode).toBe(400);
      expect((response.body as { error: { field: string } }).error.field).toBe('code');
    }
    const missing = await t.call(endpoints.forgotPassword, {});
    expect(keyOf(missing.body)).toBe('email_required');
  });
});
