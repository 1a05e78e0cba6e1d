import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const signedOut = {
  '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
  '/auth/setup-status': { ok: { needs_first_admin: false } },
} as const;

const signInWith = async (email: string, password: string) => {
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('E-mail'), email);
  await user.type(screen.getByLabelText('Password'), password);
  await user.keyboard('{Enter}');
  return user;
};

describe('sign-in page', () => {
  it('says the spec\'s "User Name or Password is incorrect" for a wrong e-mail or password', async () => {
    const api = installFakeApi({
      ...signedOut,
      '/auth/sign-in': { nok: 'user_name_or_password_incorrect', status: 400 },
    });
    renderApp();
    await signInWith('Admin@Example.com ', 'wrong password');

    expect(await screen.findByText('User Name or Password is incorrect')).toBeTruthy();
    // The shared rules normalise the user name before it is sent.
    expect(api.callsTo('/auth/sign-in')[0]?.body).toEqual({
      username: 'admin@example.com',
      password: 'wrong password',
    });
  });

  it('validates with the shared rules before calling the server', async () => {
    const api = installFakeApi({ ...signedOut, '/auth/sign-in': { ok: tokens() } });
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign in' }));

    expect(await screen.findByText('Enter your e-mail address')).toBeTruthy();
    expect(screen.getByText('Enter your password')).toBeTruthy();
    expect(api.callsTo('/auth/sign-in')).toHaveLength(0);
  });

  it('asks for the authenticator code, keeps the modal open on a wrong code, then opens the console', async () => {
    const api = installFakeApi({
      ...signedOut,
      '/auth/sign-in': { ok: { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-session' } },
      '/auth/respond-to-challenge': (body) =>
        (body as { code?: string }).code === '123456'
          ? { ok: tokens('access-ok') }
          : { nok: 'code_mismatch' },
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
    });
    renderApp();
    const user = await signInWith('admin@example.com', 'correct horse battery');

    const dialog = await screen.findByRole('dialog', { name: 'Two-factor authentication' });
    const codeField = within(dialog).getByLabelText('Code');
    await waitFor(() => expect(document.activeElement).toBe(codeField));
    await user.type(codeField, '000000{Enter}');
    expect(
      await within(dialog).findByText('The code is not correct. Please try again'),
    ).toBeTruthy();

    await user.type(within(dialog).getByLabelText('Code'), '123456{Enter}');
    expect((await screen.findByTestId('header-email')).textContent).toBe('admin@example.com');
    expect(api.callsTo('/auth/respond-to-challenge').map((call) => call.body)).toEqual([
      { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-session', code: '000000' },
      { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-session', code: '123456' },
    ]);
    expect(
      api.callsTo('/flashbulb-owner/user/my-info/retrieve')[0]?.headers.get('authorization'),
    ).toBe('Bearer access-ok');
    expect(localStorage.getItem('role')).toBe('1');
  });

  it('returns to sign-in with the message when the challenge session expired', async () => {
    installFakeApi({
      ...signedOut,
      '/auth/sign-in': { ok: { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'old' } },
      '/auth/respond-to-challenge': { nok: 'invalid_session' },
    });
    renderApp();
    const user = await signInWith('admin@example.com', 'correct horse battery');
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByLabelText('Code'), '123456{Enter}');

    expect(
      await screen.findByText('This sign-in step has expired. Please sign in again'),
    ).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('signs out when my-info fails after the tokens (spec §4 step 5)', async () => {
    const api = installFakeApi({
      ...signedOut,
      '/auth/sign-in': { ok: tokens() },
      '/flashbulb-owner/user/my-info/retrieve': { nok: 'forbidden', status: 403 },
      '/auth/sign-out': { ok: {} },
    });
    renderApp();
    await signInWith('admin@example.com', 'correct horse battery');

    expect(await screen.findByText('You are not allowed to do this')).toBeTruthy();
    expect(api.callsTo('/auth/sign-out')).toHaveLength(1);
    expect(screen.queryByTestId('header-email')).toBeNull();
  });

  it('replaces a temporary password with the shared password rules', async () => {
    const api = installFakeApi({
      ...signedOut,
      '/auth/sign-in': { ok: { challenge_name: 'NEW_PASSWORD_REQUIRED', session: 'np-session' } },
      '/auth/respond-to-challenge': {
        ok: { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'next' },
      },
    });
    renderApp();
    const user = await signInWith('owner@example.com', 'temporary-123');

    const newPassword = await screen.findByLabelText('New password');
    await user.type(newPassword, 'password');
    await user.type(screen.getByLabelText('Confirm password'), 'password');
    await user.keyboard('{Enter}');
    expect(
      await screen.findByText(
        'Choose a password of at least 8 characters that is not a common password',
      ),
    ).toBeTruthy();

    await user.clear(newPassword);
    await user.type(newPassword, 'a long pass phrase');
    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'another pass phrase{Enter}');
    expect(await screen.findByText('The passwords do not match')).toBeTruthy();
    expect(api.callsTo('/auth/respond-to-challenge')).toHaveLength(0);

    await user.clear(screen.getByLabelText('Confirm password'));
    await user.type(screen.getByLabelText('Confirm password'), 'a long pass phrase{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Two-factor authentication' })).toBeTruthy();
    expect(api.callsTo('/auth/respond-to-challenge')[0]?.body).toEqual({
      challenge_name: 'NEW_PASSWORD_REQUIRED',
      session: 'np-session',
      new_password: 'a long pass phrase',
    });
  });
});
