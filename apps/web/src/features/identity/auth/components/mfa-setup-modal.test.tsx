import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const otpauthUri =
  'otpauth://totp/Flashbulb:admin%40example.com?secret=JBSWY3DPEHPK3PXP&issuer=Flashbulb';

describe('two-factor set-up modal', () => {
  it('shows a QR code and the key, verifies the first code, then answers the MFA_SETUP challenge', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/auth/sign-in': { ok: { challenge_name: 'MFA_SETUP', session: 'setup-1' } },
      '/auth/associate-software-token': {
        ok: { secret_code: 'JBSWY3DPEHPK3PXP', otpauth_uri: otpauthUri, session: 'setup-2' },
      },
      '/auth/verify-software-token': [
        { nok: 'code_mismatch' },
        { ok: { status: 'SUCCESS', session: 'setup-3' } },
      ],
      '/auth/respond-to-challenge': { ok: tokens('access-after-setup') },
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
    });
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery{Enter}');

    const dialog = await screen.findByRole('dialog', { name: 'Set up two-factor authentication' });
    const qr = await within(dialog).findByTestId('mfa-qr');
    expect(qr.tagName).toBe('IMG');
    expect(qr.getAttribute('width')).toBe('240');
    const src = qr.getAttribute('src') ?? '';
    expect(src.startsWith('data:image/svg+xml')).toBe(true);
    expect(decodeURIComponent(src)).toContain('<svg');
    expect(within(dialog).getByText("Can't scan? Enter this key")).toBeTruthy();
    expect(within(dialog).getByTestId('mfa-secret').textContent).toBe('JBSWY3DPEHPK3PXP');
    expect(within(dialog).getByText(/Install an authenticator app/)).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByLabelText('Code')));
    expect(api.callsTo('/auth/associate-software-token').map((call) => call.body)).toEqual([
      { session: 'setup-1' },
    ]);

    await user.type(within(dialog).getByLabelText('Code'), '111111{Enter}');
    expect(
      await within(dialog).findByText('The code is not correct. Please try again'),
    ).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Code'), '222222{Enter}');

    expect((await screen.findByTestId('header-email')).textContent).toBe('admin@example.com');
    expect(api.callsTo('/auth/verify-software-token').map((call) => call.body)).toEqual([
      { session: 'setup-2', code: '111111', friendly_device_name: 'My TOTP device' },
      { session: 'setup-2', code: '222222', friendly_device_name: 'My TOTP device' },
    ]);
    expect(api.callsTo('/auth/respond-to-challenge').map((call) => call.body)).toEqual([
      { challenge_name: 'MFA_SETUP', session: 'setup-3' },
    ]);
  });

  it('answers the challenge again without re-verifying when only respond-to-challenge failed', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/auth/sign-in': { ok: { challenge_name: 'MFA_SETUP', session: 'setup-1' } },
      '/auth/associate-software-token': {
        ok: { secret_code: 'JBSWY3DPEHPK3PXP', otpauth_uri: otpauthUri },
      },
      '/auth/verify-software-token': { ok: { status: 'SUCCESS' } },
      '/auth/respond-to-challenge': [{ networkError: true }, { ok: tokens() }],
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
    });
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery{Enter}');
    const dialog = await screen.findByRole('dialog');
    await user.type(await within(dialog).findByLabelText('Code'), '222222{Enter}');
    expect(await within(dialog).findByText('Something went wrong')).toBeTruthy();

    await user.click(within(dialog).getByRole('button', { name: 'Verify and continue' }));
    await waitFor(() => expect(screen.queryByTestId('header-email')).not.toBeNull());
    expect(api.callsTo('/auth/verify-software-token')).toHaveLength(1);
    // Without a new session from associate/verify, the challenge's own session continues the flow.
    expect(api.callsTo('/auth/respond-to-challenge').map((call) => call.body)).toEqual([
      { challenge_name: 'MFA_SETUP', session: 'setup-1' },
      { challenge_name: 'MFA_SETUP', session: 'setup-1' },
    ]);
  });
});
