import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const signedInAs = (user: typeof adminUser) =>
  ({
    '/auth/refresh': { ok: tokens('restored') },
    '/flashbulb-owner/user/my-info/retrieve': { ok: user },
    '/auth/setup-status': { ok: { needs_first_admin: false } },
    '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
    '/auth/mfa/recovery-codes/retrieve': {
      ok: { remaining: 10, total: 10, generated_at: null, last_used_at: null },
    },
  }) as const;

describe('the second factor at sign-in', () => {
  it('lets an exempt user choose the authenticator: the server’s refusal is said, its yes is kept', async () => {
    const api = installFakeApi({
      ...signedInAs({ ...adminUser, mfa_exempt: true, mfa_enabled: false }),
      '/auth/set-mfa-preference': [{ nok: 'mfa_not_set_up' }, { ok: {} }],
    });
    renderApp();
    const user = userEvent.setup();
    const card = within(await screen.findByRole('region', { name: 'Second factor at sign-in' }));
    expect(card.getByRole<HTMLInputElement>('radio', { name: /password alone/ }).checked).toBe(
      true,
    );
    // Nothing to save until the choice changes.
    expect(card.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
    expect(screen.queryByRole('region', { name: 'Two-factor recovery codes' })).toBeNull();

    await user.click(card.getByRole('radio', { name: /authenticator app/ }));
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await card.findByText('Set up your authenticator app first')).toBeTruthy();

    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await card.findByTestId('second-factor-saved')).toHaveProperty(
      'textContent',
      'Saved: you will enter an authenticator code at sign-in.',
    );
    // The session follows the server: the recovery codes that go with the authenticator show.
    expect(await screen.findByRole('region', { name: 'Two-factor recovery codes' })).toBeTruthy();
    expect(api.callsTo('/auth/set-mfa-preference').map((call) => call.body)).toEqual([
      { software_token_mfa_settings: { enabled: true, preferred_mfa: true } },
      { software_token_mfa_settings: { enabled: true, preferred_mfa: true } },
    ]);

    await user.click(card.getByRole('radio', { name: /password alone/ }));
    await user.click(card.getByRole('button', { name: 'Save' }));
    expect(await card.findByText('Saved: your password alone signs you in.')).toBeTruthy();
    expect(api.callsTo('/auth/set-mfa-preference').at(-1)?.body).toEqual({
      software_token_mfa_settings: { enabled: false, preferred_mfa: false },
    });
  });

  it('offers no choice to a user whose only second factor is the authenticator', async () => {
    installFakeApi(signedInAs(adminUser));
    renderApp();
    expect(await screen.findByRole('region', { name: 'My account' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Second factor at sign-in' })).toBeNull();
  });
});
