import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const RECOVERY_CODES = Array.from({ length: 10 }, (_, i) => `abcd${i}-fgh0k`);

/** jsdom's Blob has no text(): read it as the browser's FileReader does. */
const readBlob = (blob: Blob) =>
  new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.onerror = () => reject(reader.error ?? new Error('unreadable blob'));
    reader.readAsText(blob);
  });

/** Catches the files the page hands to the browser's download (object URLs of blobs). */
const captureDownloads = () => {
  const files: { name: string; type: string; text: () => Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  const create = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
    const url = `blob:fake/${blobs.size}`;
    blobs.set(url, blob as Blob);
    return url;
  });
  const revoke = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs.get(this.href);
    if (blob) files.push({ name: this.download, type: blob.type, text: () => readBlob(blob) });
  });
  return {
    files,
    restore: () => {
      create.mockRestore();
      revoke.mockRestore();
      click.mockRestore();
    },
  };
};

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
        { ok: { status: 'SUCCESS', session: 'setup-3', recovery_codes: RECOVERY_CODES } },
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

    // The recovery codes, shown once: sign-in waits until the user says they are saved.
    const shown = await within(dialog).findAllByTestId('recovery-code');
    expect(shown.map((code) => code.textContent)).toEqual(RECOVERY_CODES);
    expect(api.callsTo('/auth/respond-to-challenge')).toHaveLength(0);
    const downloads = captureDownloads();
    await user.click(within(dialog).getByRole('button', { name: 'Download .txt' }));
    expect(downloads.files).toHaveLength(1);
    expect(downloads.files[0]!.name).toBe('flashbulb-recovery-codes.txt');
    expect(downloads.files[0]!.type).toMatch(/^text\/plain/);
    expect(await downloads.files[0]!.text()).toContain(RECOVERY_CODES.join('\n'));
    downloads.restore();
    await user.click(within(dialog).getByRole('button', { name: 'I have saved them — continue' }));

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
      '/auth/verify-software-token': { ok: { status: 'SUCCESS', recovery_codes: [] } },
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

describe('recovery codes', () => {
  it('signs in with a recovery code instead of the authenticator code', async () => {
    const api = installFakeApi({
      '/auth/refresh': { nok: 'unauthorized_user', status: 401 },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/auth/sign-in': { ok: { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-1' } },
      '/auth/respond-to-challenge': [
        { nok: 'recovery_code_mismatch', field: 'recovery_code' },
        { ok: tokens('access-by-recovery') },
      ],
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
    });
    renderApp();
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail'), 'admin@example.com');
    await user.type(screen.getByLabelText('Password'), 'correct horse battery{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Two-factor authentication' });
    await user.click(
      await within(dialog).findByRole('button', { name: 'Lost your phone? Use a recovery code' }),
    );
    // The shared rule first: a code too short never reaches the server.
    await user.type(within(dialog).getByLabelText('Recovery code'), 'abc{Enter}');
    expect(
      await within(dialog).findByText(
        'A recovery code has 10 letters and digits, like abcde-fgh0k',
      ),
    ).toBeTruthy();
    expect(api.callsTo('/auth/respond-to-challenge')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Recovery code'));
    await user.type(within(dialog).getByLabelText('Recovery code'), 'ZZZZZ-ZZZZZ{Enter}');
    expect(
      await within(dialog).findByText('This recovery code is wrong or was already used'),
    ).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Recovery code'));
    await user.type(within(dialog).getByLabelText('Recovery code'), 'ABCD1 FGH0K{Enter}');
    expect((await screen.findByTestId('header-email')).textContent).toBe('admin@example.com');
    expect(api.callsTo('/auth/respond-to-challenge').map((call) => call.body)).toEqual([
      { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-1', recovery_code: 'zzzzzzzzzz' },
      { challenge_name: 'SOFTWARE_TOKEN_MFA', session: 'mfa-1', recovery_code: 'abcd1fgh0k' },
    ]);
  });

  it('shows how many are left on the overview and makes a new set behind the password', async () => {
    const api: ReturnType<typeof installFakeApi> = installFakeApi({
      '/auth/refresh': { ok: tokens('restored') },
      '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
      '/auth/setup-status': { ok: { needs_first_admin: false } },
      '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
      // Before the new set: 2 of 10 left; after it, 10 fresh ones.
      '/auth/mfa/recovery-codes/retrieve': () =>
        api.callsTo('/auth/mfa/recovery-codes/regenerate').length < 2
          ? {
              ok: {
                remaining: 2,
                total: 10,
                generated_at: '2026-11-01T10:00:00.000Z',
                last_used_at: '2026-11-20T10:00:00.000Z',
              },
            }
          : {
              ok: {
                remaining: 10,
                total: 10,
                generated_at: '2026-11-27T10:00:00.000Z',
                last_used_at: null,
              },
            },
      '/auth/mfa/recovery-codes/regenerate': [
        { nok: 'user_name_or_password_incorrect', field: 'password' },
        { ok: { recovery_codes: RECOVERY_CODES } },
      ],
    });
    renderApp();
    const user = userEvent.setup();
    expect((await screen.findByTestId('recovery-codes-remaining')).textContent).toBe(
      '2 of 10 left',
    );
    expect(screen.getByTestId('recovery-codes-last-used')).toBeTruthy();
    expect(screen.getByText('Only a few codes are left: make a new set.')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Make new codes' }));
    const dialog = await screen.findByRole('dialog', { name: 'New recovery codes' });
    await user.type(within(dialog).getByLabelText('Current password'), 'wrong{Enter}');
    expect(await within(dialog).findByText('User Name or Password is incorrect')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Current password'));
    await user.type(within(dialog).getByLabelText('Current password'), 'right one{Enter}');
    const shown = await screen.findAllByTestId('recovery-code');
    expect(shown.map((code) => code.textContent)).toEqual(RECOVERY_CODES);
    expect(api.callsTo('/auth/mfa/recovery-codes/regenerate').map((call) => call.body)).toEqual([
      { password: 'wrong' },
      { password: 'right one' },
    ]);
    await user.click(screen.getByRole('button', { name: 'Done' }));
    await waitFor(() =>
      expect(screen.getByTestId('recovery-codes-remaining').textContent).toBe('10 of 10 left'),
    );
    expect(screen.queryByTestId('recovery-code')).toBeNull();
  });
});
