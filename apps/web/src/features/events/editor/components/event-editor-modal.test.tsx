import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FlashbulbEvent, User } from '@flashbulb/shared';
import {
  eventOwner,
  installConsoleApi,
  listedRobot,
  OWNER,
  orgAdmin,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import { renderEventEditor } from '../../../../test/event-editor.tsx';

const UPDATE = `${OWNER}/event/update`;
const CREATE = `${OWNER}/event/create`;
const LIST = `${OWNER}/event/basic-list/retrieve`;

/** The editor of event ABCD as the events page opens it from the address (`#ename=ABCD`). */
const openEdit = async () => {
  renderApp('/events#ename=ABCD');
  return editorDialog();
};

/**
 * The editor of event ABCD alone, for what the editor does by itself: the page around it (the
 * session restore, the shell, the event list) only adds render time. What the page does around it
 * (closing it, reloading the list) keeps `openEdit`.
 */
const openEditor = (user: User = orgAdmin) => renderEventEditor(storedEvent(), user);

const editorDialog = async () => {
  const dialog = await screen.findByRole('dialog', { name: 'Edit event Summer Gala' });
  await within(dialog).findByLabelText(/^Title/);
  return dialog;
};

const bodyOf = (calls: { body: unknown }[], index = 0) =>
  calls[index]?.body as Record<string, unknown> & { opts: Record<string, unknown> };

afterEach(() => {
  vi.useRealTimers();
});

describe('event editor: add, edit, copy, delete', () => {
  it('adds an event in the admin’s organisation: no code shown, button Add, closes and reloads the list', async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      events: [],
      routes: {
        [CREATE]: {
          ok: storedEvent({
            id: 9,
            name: 'NEWW',
            full_name: 'Launch',
            email_from_address: 'hello@acme.example',
            email_from_address_verified: false,
          }),
        },
      },
    });
    renderApp('/events');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New event' }));
    // The full editor is the new-event steps' "All settings".
    await user.click(
      within(await screen.findByRole('dialog', { name: 'New event' })).getByRole('button', {
        name: 'All settings (Advanced)',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add event' });
    expect(within(dialog).queryByTestId('event-name-container')).toBeNull();
    expect(within(dialog).getByLabelText<HTMLInputElement>('Organisation').value).toBe(
      'Acme Events',
    );
    expect(within(dialog).queryByRole('button', { name: 'Duplicate Event' })).toBeNull();

    await user.type(within(dialog).getByLabelText(/^Title/), 'Launch');
    await user.type(within(dialog).getByLabelText(/^Description/), 'Product launch');
    await user.click(within(dialog).getByRole('tab', { name: 'E-mail configuration' }));
    await user.type(within(dialog).getByLabelText(/^From address/), 'hello@acme.example');
    const listCalls = api.callsTo(LIST).length;
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));

    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add event' })).toBeNull());
    const body = bodyOf(api.callsTo(CREATE));
    expect(body).toMatchObject({
      organisation_id: 3,
      full_name: 'Launch',
      email_from_address: 'hello@acme.example',
    });
    expect(body.opts).toMatchObject({ description: 'Product launch' });
    expect(body).not.toHaveProperty('id');
    expect(body).not.toHaveProperty('flashbulb_api_token');
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listCalls));
    // The new address is not verified yet: the user is told a verification e-mail went out.
    expect(await screen.findByText(/We sent a verification e-mail to/)).toBeTruthy();
  });

  it('edits: shows the code, Update sends id and event_last_updated_date, and stays open', async () => {
    const saved = storedEvent({
      full_name: 'Summer Gala 2',
      updated_date: '2026-11-21T00:00:00.000Z',
    });
    const api = installConsoleApi({ routes: { [UPDATE]: { ok: saved } } });
    const dialog = await openEditor();
    expect(within(dialog).getByTestId('event-name-container').textContent).toContain('');
    expect(within(dialog).getByLabelText<HTMLInputElement>('Event name (code)').value).toBe('ABCD');
    const user = userEvent.setup();
    const title = within(dialog).getByLabelText(/^Title/);
    await user.clear(title);
    await user.type(title, 'Summer Gala 2');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    expect(bodyOf(api.callsTo(UPDATE))).toMatchObject({
      id: 7,
      event_last_updated_date: '2026-11-20T10:00:00.000Z',
      full_name: 'Summer Gala 2',
    });
    expect(await screen.findByRole('dialog', { name: 'Edit event Summer Gala 2' })).toBeTruthy();
    // No changed from address: no verification notice.
    expect(screen.queryByText(/We sent a verification e-mail/)).toBeNull();
  });

  it('tells that a verification e-mail went out when Update changed the from address', async () => {
    const saved = storedEvent({
      email_from_address: 'new@acme.example',
      email_from_address_verified: false,
    });
    installConsoleApi({ routes: { [UPDATE]: { ok: saved } } });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'E-mail configuration' }));
    const from = within(dialog).getByLabelText(/^From address/);
    await user.clear(from);
    await user.type(from, 'new@acme.example');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    expect(
      await screen.findByText(/We sent a verification e-mail to new@acme\.example/),
    ).toBeTruthy();
  });

  it('copies: title gets _copy, the code is hidden, robots are cleared, Save creates', async () => {
    const event = storedEvent({ robot_id_array: [5] });
    const api = installConsoleApi({
      events: [event],
      routes: {
        [`${OWNER}/robot/list/retrieve`]: {
          ok: {
            robots: [listedRobot({ event_id: 7, event_name: 'ABCD' })],
          },
        },
        [CREATE]: { ok: storedEvent({ id: 8, name: 'COPY', full_name: 'Summer Gala_copy' }) },
      },
    });
    const dialog = await openEdit();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Duplicate Event' }));
    const copy = await screen.findByRole('dialog', { name: 'Duplicate event' });
    expect(within(copy).getByLabelText<HTMLInputElement>(/^Title/).value).toBe('Summer Gala_copy');
    expect(within(copy).queryByTestId('event-name-container')).toBeNull();
    expect(within(copy).queryByRole('button', { name: 'Update' })).toBeNull();
    await user.click(within(copy).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.callsTo(CREATE)).toHaveLength(1));
    const body = bodyOf(api.callsTo(CREATE));
    expect(body).toMatchObject({
      full_name: 'Summer Gala_copy',
      robot_id_array: [],
      organisation_id: 3,
    });
    expect(body).not.toHaveProperty('id');
    expect(api.callsTo(UPDATE)).toHaveLength(0);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('deletes from the menu after a confirm naming the photo count and the typed code, closes and reloads the list', async () => {
    const api = installConsoleApi({
      routes: {
        [`${OWNER}/event/delete`]: { ok: {} },
        [`${OWNER}/event/photo-count-info/retrieve`]: {
          ok: { total: 42, visible: 40, hidden: 2, originals: 42, printed: 0, processing: 0 },
        },
      },
    });
    const dialog = await openEdit();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'More' }));
    // No layout in the test DOM, so Mantine keeps the opened dropdown `display: none` (its
    // `hideDetached` check sees a 0×0 button); the item is there once the menu opened.
    await user.click(await screen.findByRole('menuitem', { name: 'Delete event', hidden: true }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the event?' });
    expect((await within(confirm).findByText('42 photos are deleted with it.')).textContent).toBe(
      '42 photos are deleted with it.',
    );
    expect(api.callsTo(`${OWNER}/event/photo-count-info/retrieve`)[0]?.body).toEqual({
      event_id: 7,
    });
    const remove = within(confirm).getByRole('button', { name: 'Delete event' });
    // Nothing happens until the event code is typed.
    expect(remove.hasAttribute('disabled')).toBe(true);
    const code = within(confirm).getByLabelText('Type the event code ABCD to confirm');
    await user.type(code, 'ABCE');
    expect(remove.hasAttribute('disabled')).toBe(true);
    await user.clear(code);
    await user.type(code, 'abcd');
    expect(api.callsTo(`${OWNER}/event/delete`)).toHaveLength(0);
    const listCalls = api.callsTo(LIST).length;
    await user.click(within(confirm).getByRole('button', { name: 'Delete event' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo(`${OWNER}/event/delete`)[0]?.body).toEqual({ event_id: 7 });
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listCalls));
  });

  it('lets a super user choose the organisation, reloading robots and templates for it; fixed on edit', async () => {
    const api = installConsoleApi({ user: superUser, events: [] });
    renderApp('/events');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New event' }));
    // The full editor is the new-event steps' "All settings".
    await user.click(
      within(await screen.findByRole('dialog', { name: 'New event' })).getByRole('button', {
        name: 'All settings (Advanced)',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add event' });
    await user.click(within(dialog).getByRole('textbox', { name: 'Organisation' }));
    await user.click(await screen.findByRole('option', { name: 'Beta Shows', hidden: true }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/robot/list/retrieve`).map((c) => c.body)).toContainEqual({
        organisation_id: 4,
      }),
    );
    await user.click(within(dialog).getByRole('tab', { name: 'Printing' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/ppt/list/retrieve`).map((c) => c.body)).toContainEqual({
        organisation_id: 4,
        is_watermark: 0,
      }),
    );
    await user.click(within(dialog).getByRole('tab', { name: 'Watermarks' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/ppt/list/retrieve`).map((c) => c.body)).toContainEqual({
        organisation_id: 4,
        is_watermark: 1,
      }),
    );
  });

  it('asks a super user to choose the organisation before adding', async () => {
    const api = installConsoleApi({ user: superUser, events: [] });
    renderApp('/events');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'New event' }));
    // The full editor is the new-event steps' "All settings".
    await user.click(
      within(await screen.findByRole('dialog', { name: 'New event' })).getByRole('button', {
        name: 'All settings (Advanced)',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Add event' });
    await user.click(within(dialog).getByRole('button', { name: 'Add' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('Choose an organisation')).toBeTruthy();
    expect(api.callsTo(CREATE)).toHaveLength(0);
  });

  it('keeps the organisation fixed when editing', async () => {
    installConsoleApi({ user: superUser });
    const dialog = await openEditor(superUser);
    expect(
      within(dialog).getByRole('textbox', { name: 'Organisation' }).hasAttribute('disabled'),
    ).toBe(true);
  });
});

describe('event editor: saving', () => {
  it('refuses what the shared rules refuse: a popup lists the texts, the first tab opens, fields are marked', async () => {
    const api = installConsoleApi({ routes: { [UPDATE]: { ok: storedEvent() } } });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'SMS' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Send SMS' }));
    const sms = within(dialog).getByLabelText('SMS text');
    await user.clear(sms);
    await user.type(sms, 'Hi {{user_name}}, no link');
    await user.click(within(dialog).getByRole('tab', { name: 'General' }));
    await user.clear(within(dialog).getByLabelText(/^Title/));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));

    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('Please enter the event title')).toBeTruthy();
    expect(
      within(popup).getByText('The SMS text must contain {user_name} and {image_url}'),
    ).toBeTruthy();
    expect(api.callsTo(UPDATE)).toHaveLength(0);
    // Each problem names its field by label and tab.
    expect(
      within(popup)
        .getAllByTestId('issue-item')
        .map((item) => item.textContent),
    ).toEqual([
      'Title (General): Please enter the event title',
      'SMS text (SMS): The SMS text must contain {user_name} and {image_url}',
    ]);
    // Each tab holding an error carries the count; the others none.
    expect(within(dialog).getByTestId('tab-errors-general').textContent).toBe('1');
    expect(within(dialog).getByTestId('tab-errors-sms').textContent).toBe('1');
    expect(within(dialog).queryByTestId('tab-errors-email')).toBeNull();
    await user.click(within(popup).getByRole('button', { name: 'OK' }));
    // The first failing field's tab is open, with the field marked.
    expect(within(dialog).getByRole('tab', { name: 'General' }).getAttribute('aria-selected')).toBe(
      'true',
    );
    const title = within(dialog).getByLabelText(/^Title/);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    expect(within(dialog).getByText('Please enter the event title')).toBeTruthy();
    await user.click(within(dialog).getByRole('tab', { name: 'SMS' }));
    expect(within(dialog).getByLabelText('SMS text').getAttribute('aria-invalid')).toBe('true');
    // Typing clears the mark, and the tab's count with it.
    await user.type(within(dialog).getByLabelText('SMS text'), ' {{image_url}}');
    expect(within(dialog).getByLabelText('SMS text').getAttribute('aria-invalid')).toBe('false');
    expect(within(dialog).queryByTestId('tab-errors-sms')).toBeNull();
    expect(within(dialog).getByTestId('tab-errors-general').textContent).toBe('1');
  });

  it('jumps from a named problem to its tab and focuses the field', async () => {
    installConsoleApi();
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'E-mail configuration' }));
    await user.clear(within(dialog).getByLabelText(/^From name/));
    await user.click(within(dialog).getByRole('tab', { name: 'General' }));
    await user.clear(within(dialog).getByLabelText(/^Title/));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(dialog).getByTestId('tab-errors-email').textContent).toBe('1');
    await user.click(within(popup).getByText('From name'));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Please correct the marked fields' })).toBeNull(),
    );
    expect(
      within(dialog)
        .getByRole('tab', { name: 'E-mail configuration' })
        .getAttribute('aria-selected'),
    ).toBe('true');
    await waitFor(() =>
      expect(document.activeElement).toBe(within(dialog).getByLabelText(/^From name/)),
    );
  });

  it('marks the field the server names in a field error and opens its tab', async () => {
    installConsoleApi({
      routes: { [UPDATE]: { nok: 'valid_url', field: 'opts.supportLink', status: 400 } },
    });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'SMS' }));
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const popup = await screen.findByRole('dialog', { name: 'Please correct the marked fields' });
    expect(within(popup).getByText('Please enter valid url')).toBeTruthy();
    await user.click(within(popup).getByRole('button', { name: 'OK' }));
    expect(within(dialog).getByLabelText('Support link').getAttribute('aria-invalid')).toBe('true');
  });

  it('on a conflict offers Keep editing (stays) or Reload (reloads the list, closes)', async () => {
    const api = installConsoleApi({
      routes: { [UPDATE]: { nok: 'event_was_updated_by_another_user', status: 409 } },
    });
    const dialog = await openEdit();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Title/), '!');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    let conflict = await screen.findByRole('dialog', { name: 'Changed by another user' });
    await user.click(within(conflict).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Changed by another user' })).toBeNull(),
    );
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Title/).value).toBe('Summer Gala!');

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    conflict = await screen.findByRole('dialog', { name: 'Changed by another user' });
    const listCalls = api.callsTo(LIST).length;
    await user.click(within(conflict).getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(api.callsTo(LIST).length).toBeGreaterThan(listCalls));
  });

  it('asks before turning auto-delete on; cancelling aborts the save, confirming saves', async () => {
    const api = installConsoleApi({ routes: { [UPDATE]: { ok: storedEvent() } } });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'Photo configuration' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Delete photos automatically' }));
    await user.type(within(dialog).getByLabelText('Auto-delete after (days)'), '45');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    let confirm = await screen.findByRole('dialog', { name: 'Delete photos automatically?' });
    expect(within(confirm).getByText(/deleted for good 45 days/)).toBeTruthy();
    await user.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Delete photos automatically?' })).toBeNull(),
    );
    expect(api.callsTo(UPDATE)).toHaveLength(0);

    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    confirm = await screen.findByRole('dialog', { name: 'Delete photos automatically?' });
    await user.click(
      within(confirm).getByRole('button', { name: 'Yes, delete them automatically' }),
    );
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    expect(bodyOf(api.callsTo(UPDATE)).photo_auto_delete_days).toBe(45);
  });

  it('does not ask again on edit when the auto-delete days did not change', async () => {
    const event = storedEvent({ photo_auto_delete_days: 60 });
    const api = installConsoleApi({ events: [event], routes: { [UPDATE]: { ok: event } } });
    const dialog = await openEditor();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    expect(screen.queryByRole('dialog', { name: 'Delete photos automatically?' })).toBeNull();
  });

  it('saves without blocking the form: one call, "Saved at HH:MM" until the next edit', async () => {
    const saved = storedEvent({ full_name: 'Summer Gala 2026' });
    const api = installConsoleApi({ routes: { [UPDATE]: { ok: saved } } });
    const dialog = await openEditor();
    const user = userEvent.setup();
    const reads = api.callsTo(`${OWNER}/event/full-data/retrieve`).length;
    await user.type(within(dialog).getByLabelText(/^Title/), ' 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const status = await within(dialog).findByTestId('saved-at');
    const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' });
    // The minute may turn between the save and this line.
    expect([time.format(new Date(Date.now() - 60_000)), time.format(new Date())]).toContain(
      status.textContent?.replace('Saved at ', ''),
    );
    expect(api.callsTo(UPDATE)).toHaveLength(1);
    // The reply is the stored event: the editor does not read it again.
    expect(api.callsTo(`${OWNER}/event/full-data/retrieve`)).toHaveLength(reads);
    // Nothing is locked: the title takes typing at once, and the saved state goes with the edit.
    const title = within(dialog).getByLabelText<HTMLInputElement>(/^Title/);
    expect(title.closest('fieldset')?.disabled).toBe(false);
    await user.type(title, '!');
    expect(title.value).toBe('Summer Gala 2026!');
    expect(within(dialog).queryByTestId('saved-at')).toBeNull();
  });

  it('warns about unsaved changes when closing, and lets the user keep editing or discard', async () => {
    installConsoleApi();
    const dialog = await openEdit();
    const user = userEvent.setup();
    await user.type(within(dialog).getByLabelText(/^Title/), ' 2026');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    let warning = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    expect(within(warning).getByText('You have unsaved changes')).toBeTruthy();
    await user.click(within(warning).getByRole('button', { name: 'Keep editing' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Unsaved changes' })).toBeNull(),
    );
    expect(within(dialog).getByLabelText<HTMLInputElement>(/^Title/).value).toBe(
      'Summer Gala 2026',
    );

    // The browser asks too when the page is left.
    const leave = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(true);

    await user.click(within(dialog).getByRole('button', { name: 'Close the editor' }));
    warning = await screen.findByRole('dialog', { name: 'Unsaved changes' });
    await user.click(within(warning).getByRole('button', { name: 'Discard changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('closes without a warning when nothing changed', async () => {
    installConsoleApi();
    const dialog = await openEdit();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    const leave = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(leave);
    expect(leave.defaultPrevented).toBe(false);
  });
});

describe('event editor: secure fields', () => {
  const withSecrets = (): FlashbulbEvent =>
    storedEvent({ secure_fields_set: ['stripe_secret_key', 'flashbulb_api_token'] });
  const SECURE_PROPS = `${OWNER}/event/secure-props/retrieve`;
  /** The editor of an event with two secrets set, on its Paid tab; Reveal would load these. */
  const openPaidTab = async (
    routes: NonNullable<Parameters<typeof installConsoleApi>[0]>['routes'] = {},
  ) => {
    const api = installConsoleApi({
      events: [withSecrets()],
      routes: {
        ...routes,
        [SECURE_PROPS]: {
          ok: {
            shopify_api_pass: '',
            shopify_api_key: '',
            stripe_secret_key: 'sk_live_1',
            flashbulb_api_token: 'tok',
            monobank_token: '',
            square_access_token: '',
            kiosk_staff_pin: '',
          },
        },
      },
    });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'Paid' }));
    return { api, dialog, user };
  };

  it('shows admins which are set, sends only the ones typed in, and reveals on request', async () => {
    const { api, dialog, user } = await openPaidTab({ [UPDATE]: { ok: withSecrets() } });
    const stripe = within(dialog).getByLabelText('Stripe secret key');
    expect(stripe.getAttribute('type')).toBe('password');
    expect(within(dialog).getByText('A value is set. Leave empty to keep it.')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Monobank token'), 'mono-1');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    const body = bodyOf(api.callsTo(UPDATE));
    expect(body.monobank_token).toBe('mono-1');
    for (const field of [
      'stripe_secret_key',
      'flashbulb_api_token',
      'shopify_api_key',
      'shopify_api_pass',
    ])
      expect(body).not.toHaveProperty(field);
    expect(api.callsTo(SECURE_PROPS)).toHaveLength(0);
  });

  it('loads the values with Reveal', async () => {
    const { api, dialog, user } = await openPaidTab();
    await user.click(within(dialog).getByRole('button', { name: 'Reveal' }));
    await waitFor(() =>
      expect(within(dialog).getByLabelText<HTMLInputElement>('Stripe secret key').value).toBe(
        'sk_live_1',
      ),
    );
    expect(api.callsTo(SECURE_PROPS)[0]?.body).toEqual({
      event_name: 'ABCD',
    });
  });

  it('fills a new API token after confirming the token reset', async () => {
    const api = installConsoleApi({ routes: { [UPDATE]: { ok: storedEvent() } } });
    const dialog = await openEditor();
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Generate a new token' }));
    const popup = await screen.findByRole('dialog', { name: 'Use a new API token?' });
    const token = within(popup).getByTestId('new-api-token').textContent ?? '';
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/);
    await user.click(within(popup).getByRole('button', { name: 'Use this token' }));
    expect(within(dialog).getByLabelText<HTMLInputElement>('Flashbulb API token').value).toBe(
      token,
    );
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(api.callsTo(UPDATE)).toHaveLength(1));
    expect(bodyOf(api.callsTo(UPDATE)).flashbulb_api_token).toBe(token);
  });

  it('hides secure fields from event owners and never loads them', async () => {
    const api = installConsoleApi({ user: eventOwner, events: [withSecrets()] });
    const dialog = await openEditor(eventOwner);
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('tab', { name: 'Paid' }));
    expect(within(dialog).queryByLabelText('Stripe secret key')).toBeNull();
    await user.click(within(dialog).getByRole('tab', { name: 'General' }));
    expect(within(dialog).queryByLabelText('Flashbulb API token')).toBeNull();
    await user.click(within(dialog).getByRole('tab', { name: 'Watermarks' }));
    expect(within(dialog).queryByRole('table', { name: 'Public templates' })).toBeNull();
    expect(api.callsTo(SECURE_PROPS)).toHaveLength(0);
    expect(
      api
        .callsTo(`${OWNER}/ppt/list/retrieve`)
        .filter((c) => (c.body as { is_watermark: number }).is_watermark === 1),
    ).toHaveLength(0);
  });
});
