import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../test/fake-api.ts';
import { renderApp } from '../test/render-app.tsx';
import { CONSOLE_PATHS, isConsolePath } from './console-paths.ts';
import consoleAppSource from './console-app.tsx?raw';

describe('site root', () => {
  it('offers to create the first administrator on a fresh installation, then sign-in', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: true } },
      '/auth/create-first-admin': { ok: { email: 'boss@example.com' } },
    });
    renderApp();
    expect(
      await screen.findByRole('heading', { name: 'Create the first administrator' }),
    ).toBeTruthy();

    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), ' Boss@Example.com');
    await user.type(screen.getByLabelText('Password'), 'a long pass phrase');
    await user.type(screen.getByLabelText('Confirm password'), 'a long pass phrase{Enter}');

    expect(
      await screen.findByText(
        'The administrator boss@example.com was created. Sign in to continue.',
      ),
    ).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.getByLabelText<HTMLInputElement>('E-mail').value).toBe('boss@example.com');
    expect(api.callsTo('/auth/create-first-admin').map((call) => call.body)).toEqual([
      { email: 'boss@example.com', password: 'a long pass phrase' },
    ]);
  });

  it('says on every console page that test payments are on when my-info says so, and nothing otherwise', async () => {
    for (const on of [true, false]) {
      installFakeApi({
        '/auth/refresh': { ok: tokens('restored') },
        '/flashbulb-owner/user/my-info/retrieve': { ok: { ...adminUser, test_payments: on } },
        '/auth/setup-status': { ok: { needs_first_admin: false } },
        '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
      });
      const view = renderApp();
      expect(await screen.findByRole('heading', { name: 'My events' })).toBeTruthy();
      const banner = screen.queryByText('Test payments are on — no real money is taken');
      if (on) expect(banner?.closest('[role="status"]')).toBeTruthy();
      else expect(banner).toBeNull();
      view.unmount();
    }
  });

  it('shows “Page not found” on an unknown console page, signed in (back to my events) and signed out (to sign-in)', async () => {
    installFakeApi({
      '/auth/refresh': { ok: tokens('restored') },
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
    });
    const view = renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Back to my events' }));
    expect(await screen.findByRole('heading', { name: 'My events' })).toBeTruthy();
    view.unmount();

    installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
    });
    // Signed out, an unknown address is said to be unknown too (not the sign-in form), with the
    // way to sign in; a real console page still goes to sign-in.
    const signedOut = renderApp('/no-such-page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('link', { name: 'Sign in' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    signedOut.unmount();
    renderApp('/events/ABCD/no-such-tab');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeTruthy();
  });

  it('knows every console page the signed-in console routes (the signed-out gate says the rest is unknown)', () => {
    const routed = [...consoleAppSource.matchAll(/<Route\s+path="([^"*]+)"/g)].map((m) => m[1]);
    expect(routed.length).toBeGreaterThan(10);
    expect([...CONSOLE_PATHS].sort()).toEqual(routed.sort());
    expect(isConsolePath('/events/ABCD/orders')).toBe(true);
    expect(isConsolePath('/events')).toBe(true);
    expect(isConsolePath('/')).toBe(true);
    expect(isConsolePath('/no-such-page')).toBe(false);
    expect(isConsolePath('/events/ABCD/nope')).toBe(false);
  });

  it('asks a visitor from another machine for the set-up token of the server log', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: true, needs_setup_token: true } },
      '/auth/create-first-admin': { ok: { email: 'boss@example.com' } },
    });
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Set-up token'), ' t0k3n-from-the-log ');
    await user.type(screen.getByLabelText('E-mail'), 'boss@example.com');
    await user.type(screen.getByLabelText('Password'), 'a long pass phrase');
    await user.type(screen.getByLabelText('Confirm password'), 'a long pass phrase{Enter}');
    await waitFor(() =>
      expect(api.callsTo('/auth/create-first-admin').map((call) => call.body)).toEqual([
        {
          email: 'boss@example.com',
          password: 'a long pass phrase',
          setup_token: 't0k3n-from-the-log',
        },
      ]),
    );
  });

  it('restores the session from the refresh cookie once, shows my-info, and signs out', async () => {
    const api = installFakeApi({
      '/auth/refresh': { ok: tokens('restored') },
      '/flashbulb-owner/user/my-info/retrieve': {
        ok: { ...adminUser, role: 2, organisation_name: 'Acme Events' },
      },
      '/auth/sign-out': { ok: {} },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
    });
    renderApp();

    expect((await screen.findByTestId('my-info-email')).textContent).toBe('admin@example.com');
    expect(screen.getByTestId('my-info-role').textContent).toBe('Admin');
    expect(screen.getByTestId('my-info-organisation').textContent).toBe('Acme Events');
    expect(await screen.findByRole('heading', { name: 'My events' })).toBeTruthy();
    expect(localStorage.getItem('role')).toBe('2');
    // StrictMode runs effects twice; a second refresh would reuse a single-use token.
    expect(api.callsTo('/auth/refresh')).toHaveLength(1);
    expect(api.callsTo('/auth/refresh')[0]?.body).toEqual({});
    expect(api.callsTo('/flashbulb-owner/user/my-info/retrieve')).toHaveLength(1);

    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(api.callsTo('/auth/sign-out')[0]?.headers.get('authorization')).toBe('Bearer restored');
    expect(localStorage.getItem('role')).toBeNull();
    expect(screen.queryByTestId('header-email')).toBeNull();
  });

  it('never ends the session on the server when the refresh or my-info of a load gets no answer (a page being left)', async () => {
    // A page the user leaves while it restores the session: the browser cancels its calls. The
    // page opened next restores the same session, so this one must not sign it out.
    for (const missing of ['/auth/refresh', '/flashbulb-owner/user/my-info/retrieve']) {
      const api = installFakeApi({
        '/auth/refresh': { ok: tokens('restored') },
        '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
        [missing]: { networkError: true },
        '/auth/sign-out': { ok: {} },
        '/auth/setup-status': { ok: { needs_first_admin: false } },
      });
      const view = renderApp();
      expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
      expect(api.callsTo(missing)).toHaveLength(1);
      expect(api.callsTo('/auth/sign-out')).toHaveLength(0);
      view.unmount();
    }
  });

  it('asks for no refresh on a cold load without a session cookie (no 401 in the console)', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
    });
    renderApp('/', { sessionCookie: false });
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(api.callsTo('/auth/refresh')).toHaveLength(0);
  });

  it('sends a signed-out visitor of a console path back to the site root', async () => {
    installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
    });
    renderApp('/events');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('shows the console routes to a signed-in user', async () => {
    installFakeApi({
      '/auth/refresh': { ok: tokens() },
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
      '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
    });
    renderApp('/events');
    expect(await screen.findByRole('heading', { name: 'My events' })).toBeTruthy();
    expect(screen.queryByTestId('my-info-email')).toBeNull();
  });
});

describe('forgot password', () => {
  it('always answers the same, then sets the new password and returns to sign-in', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/auth/forgot-password': { ok: { code_delivery_details: { delivery_medium: 'EMAIL' } } },
      '/auth/confirm-forgot-password': [{ nok: 'code_mismatch' }, { ok: {} }],
    });
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('link', { name: 'Forgot password?' }));
    await user.type(await screen.findByLabelText('E-mail'), 'owner@example.com{Enter}');
    expect(
      await screen.findByText(
        'If an account exists for this e-mail address, we sent a code to it.',
      ),
    ).toBeTruthy();
    expect(api.callsTo('/auth/forgot-password')[0]?.body).toEqual({
      username: 'owner@example.com',
    });

    await user.click(screen.getByRole('button', { name: 'I have a code' }));
    expect((await screen.findByLabelText<HTMLInputElement>('E-mail')).value).toBe(
      'owner@example.com',
    );
    await user.type(screen.getByLabelText('Code from the e-mail'), '654321');
    await user.type(screen.getByLabelText('New password'), 'a long pass phrase');
    await user.type(screen.getByLabelText('Confirm password'), 'a long pass phrase{Enter}');
    expect(await screen.findByText('The code is not correct. Please try again')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('Your password has been changed. Sign in with your new password.'),
    ).toBeTruthy();
    await waitFor(() => expect(api.callsTo('/auth/confirm-forgot-password')).toHaveLength(2));
    expect(api.callsTo('/auth/confirm-forgot-password')[1]?.body).toEqual({
      username: 'owner@example.com',
      code: '654321',
      new_password: 'a long pass phrase',
    });
  });
});
