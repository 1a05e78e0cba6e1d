import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { adminUser, installFakeApi, tokens } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const signedIn = {
  '/auth/refresh': { ok: tokens('restored') },
  '/flashbulb-owner/user/my-info/retrieve': { ok: adminUser },
  '/auth/setup-status': { ok: { needs_first_admin: false } },
  '/flashbulb-owner/event/basic-list/retrieve': { ok: { events: [], total_count: 0 } },
} as const;

describe('change my password', () => {
  it("opens from the header, checks the rules, shows the server's error on its field, then confirms", async () => {
    const api = installFakeApi({
      ...signedIn,
      '/auth/change-password': [
        { nok: 'current_password_incorrect', field: 'previous_password' },
        { ok: {} },
      ],
    });
    renderApp();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Change password' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change your password' });
    const form = within(dialog);

    // The shared rules first: nothing reaches the server.
    await user.type(form.getByLabelText('New password'), 'password');
    await user.type(form.getByLabelText('Confirm password'), 'different');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Enter your password')).toBeTruthy();
    expect(
      form.getByText('Choose a password of at least 8 characters that is not a common password'),
    ).toBeTruthy();
    expect(form.getByText('The passwords do not match')).toBeTruthy();
    expect(api.callsTo('/auth/change-password')).toHaveLength(0);

    await user.type(form.getByLabelText('Current password'), 'my old password');
    await user.clear(form.getByLabelText('New password'));
    await user.type(form.getByLabelText('New password'), 'a brand new password');
    await user.clear(form.getByLabelText('Confirm password'));
    await user.type(form.getByLabelText('Confirm password'), 'a brand new password');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(await form.findByText('Your current password is not correct')).toBeTruthy();
    // On the field the server named, not only in the form's alert.
    const current = form.getByLabelText('Current password');
    expect(
      document.getElementById(current.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe('Your current password is not correct');

    await user.clear(form.getByLabelText('Current password'));
    await user.type(form.getByLabelText('Current password'), 'my real password');
    await user.click(form.getByRole('button', { name: 'Change password' }));
    expect(
      await form.findByText('Your password was changed. Your other sessions were signed out.'),
    ).toBeTruthy();
    expect(api.callsTo('/auth/change-password').map((call) => call.body)).toEqual([
      { previous_password: 'my old password', proposed_password: 'a brand new password' },
      { previous_password: 'my real password', proposed_password: 'a brand new password' },
    ]);
  });
});
