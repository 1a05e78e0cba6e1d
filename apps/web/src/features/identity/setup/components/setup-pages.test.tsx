import { beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  eventOwner,
  installConsoleApi,
  listedRobot,
  OWNER,
  orgAdmin,
  storedEvent,
  superUser,
} from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const navLabels = () =>
  within(screen.getByRole('navigation'))
    .getAllByRole('link')
    .map((link) => link.textContent);

/** The robot "Gate" of organisation 3, feeding event GALA, last upload on 1 May 2026. */
const gateRobot = (uploadCount: number) =>
  listedRobot({
    name: 'Gate',
    event_id: 7,
    event_name: 'GALA',
    last_upload_date: '2026-05-01T10:00:00.000Z',
    upload_count: uploadCount,
  });

describe('set-up screens', { timeout: 20_000 }, () => {
  it('shows the set-up menu by role: admins see organisations and robots, event owners only API keys', async () => {
    installConsoleApi({ user: eventOwner });
    const { unmount } = renderApp('/');
    await waitFor(() => expect(navLabels()).toContain('API keys'));
    expect(navLabels()).toEqual(['Overview', 'Events', 'API keys', 'Print desk', 'Payments']);
    unmount();

    installConsoleApi({ user: orgAdmin });
    renderApp('/');
    await waitFor(() => expect(navLabels()).toContain('Robots'));
    expect(navLabels()).toEqual([
      'Overview',
      'Events',
      'Organisations',
      'Robots',
      'API keys',
      'Users',
      'Print desk',
      'Payments',
      'Insight',
      'Webhooks',
      'Privacy log',
    ]);
  });

  it('lets an admin invite a user (no password: the server mails one), disable and reset two-factor', async () => {
    const owner = { ...eventOwner, id: 7, mfa_enabled: true };
    const api = installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/user/list/retrieve`]: { ok: { users: [orgAdmin, owner] } },
        [`${OWNER}/user/create`]: (body): FakeReply => ({
          ok: { ...owner, id: 8, email: (body as { email: string }).email, mfa_enabled: false },
        }),
        [`${OWNER}/user/update`]: { ok: { ...owner, disabled: true } },
        [`${OWNER}/user/mfa/reset`]: { ok: { ...owner, mfa_enabled: false } },
      },
    });
    renderApp('/users');
    await waitFor(() => expect(screen.getAllByTestId('user-row')).toHaveLength(2));
    // The actions column has a header but its cells no label: on a phone they sit under the card.
    const cells = [...screen.getAllByTestId('user-row')[1]!.querySelectorAll('td')];
    expect(cells.map((cell) => cell.dataset.label)).toEqual([
      'E-mail',
      'Role',
      'Organisation',
      'Status',
      undefined,
    ]);
    const user = userEvent.setup();
    // Nobody changes themselves: the admin's own row has no actions.
    const [own, other] = screen.getAllByTestId('user-row');
    expect(within(own!).queryByRole('button', { name: 'Disable' })).toBeNull();
    await user.click(within(other!).getByRole('button', { name: 'Disable' }));
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/user/update`)[0]?.body).toEqual({ id: 7, disabled: true }),
    );
    await user.click(within(other!).getByRole('button', { name: 'Reset two-factor' }));
    await waitFor(() => expect(api.callsTo(`${OWNER}/user/mfa/reset`)[0]?.body).toEqual({ id: 7 }));

    // An admin is not offered the super user role.
    await user.click(screen.getByRole('textbox', { name: 'Role' }));
    expect(
      (await screen.findAllByRole('option', { name: 'Admin', hidden: true })).length,
    ).toBeGreaterThan(0);
    expect(screen.queryAllByRole('option', { name: 'Super user', hidden: true })).toEqual([]);
    await user.keyboard('{Escape}');
    await user.type(screen.getByLabelText('E-mail'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Invite user' }));
    expect((await screen.findByTestId('user-invited')).textContent).toContain('new@example.com');
    expect(api.callsTo(`${OWNER}/user/create`)[0]?.body).toEqual({
      email: 'new@example.com',
      role: 3,
      organisation_id: 3,
    });
  });

  it('lets a super user create an organisation and shows the server refusal on the field', async () => {
    const created: string[] = [];
    const api = installConsoleApi({
      user: superUser,
      routes: {
        [`${OWNER}/organisation/create`]: (body): FakeReply => {
          const name = (body as { name: string }).name;
          if (name === 'Acme Events') return { nok: 'organisation_exists', status: 409 };
          created.push(name);
          return { ok: { id: 9, name, created_date: '2026-11-23T10:00:00.000Z' } };
        },
      },
    });
    renderApp('/organisations');
    await waitFor(() => expect(screen.getAllByTestId('organisation-row')).toHaveLength(2));
    const user = userEvent.setup();
    const field = screen.getByLabelText('New organisation name');
    await user.type(field, 'Acme Events');
    await user.click(screen.getByRole('button', { name: 'Create organisation' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    expect(created).toEqual([]);

    await user.clear(field);
    await user.type(field, 'Gamma Weddings');
    await user.click(screen.getByRole('button', { name: 'Create organisation' }));
    expect((await screen.findByTestId('organisation-created')).textContent).toContain(
      'Gamma Weddings',
    );
    expect(created).toEqual(['Gamma Weddings']);
    // The list is asked again after the change.
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/organisation/list/retrieve`).length).toBeGreaterThan(1),
    );
  });

  it('does not offer organisation creation to an admin (super users only)', async () => {
    installConsoleApi({ user: orgAdmin });
    renderApp('/organisations');
    await waitFor(() =>
      expect(screen.getAllByTestId('organisation-row').length).toBeGreaterThan(0),
    );
    expect(screen.queryByLabelText('New organisation name')).toBeNull();
  });

  it('creates a robot in the admin’s organisation and shows its key once', async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/robot/create`]: (body): FakeReply => ({
          ok: {
            id: 5,
            name: (body as { name: string }).name,
            organisation_id: 3,
            event_id: null,
            event_name: null,
            last_upload_date: null,
            upload_count: 0,
            api_key: 'robot-secret-key-123',
          },
        }),
      },
    });
    renderApp('/robots');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Robot name'), 'Booth 1');
    // Two organisations listed: the admin's own is preselected.
    await user.click(screen.getByRole('button', { name: 'Create robot' }));
    expect((await screen.findByTestId('shown-once-key')).textContent).toBe('robot-secret-key-123');
    expect(api.callsTo(`${OWNER}/robot/create`)[0]?.body).toEqual({
      organisation_id: 3,
      name: 'Booth 1',
    });
  });

  it('lists each robot with the event it feeds and its last upload, and says how to connect one', async () => {
    installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/robot/list/retrieve`]: {
          ok: {
            robots: [gateRobot(12), listedRobot({ id: 6, name: 'Spare' })],
          },
        },
      },
    });
    renderApp('/robots');
    const rows = await screen.findAllByTestId('robot-row');
    expect(rows).toHaveLength(2);
    expect(rows[0]!.textContent).toContain('GALA');
    expect(rows[0]!.textContent).toContain(new Date('2026-05-01T10:00:00.000Z').toLocaleString());
    expect(within(rows[0]!).getByTestId('robot-upload-count').textContent).toBe('12 photos in all');
    expect(rows[1]!.textContent).toContain(
      'Not connected: pick it in the event editor, General → Robots',
    );
    expect(within(rows[1]!).queryByTestId('robot-upload-count')).toBeNull();
    // On a phone each value shows its column's name (card-table.css); the buttons' cell none.
    expect([...rows[0]!.querySelectorAll('td')].map((cell) => cell.dataset.label)).toEqual([
      'Name',
      'Organisation',
      'Connected event',
      'Last upload',
      undefined,
    ]);
  });

  it('shows the robot activity log, filtered by robot and event from the address, a page at a time', async () => {
    const entry = (id: number, kind: 'upload' | 'activity', name: string, type = 'info') => ({
      kind,
      id,
      at: `2026-05-01T10:0${id}:00.000Z`,
      robot_id: 5,
      robot_name: 'Gate',
      event_id: 7,
      event_name: 'GALA',
      name,
      type,
      photo_id: kind === 'upload' ? id : null,
    });
    const api = installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/robot/list/retrieve`]: {
          ok: {
            robots: [gateRobot(2)],
          },
        },
        [`${OWNER}/robot/activity/list`]: (body): FakeReply =>
          (body as { cursor?: string }).cursor
            ? { ok: { entries: [entry(1, 'upload', 'IMG_1.jpg')], next_cursor: null } }
            : {
                ok: {
                  entries: [
                    entry(3, 'activity', 'Printed', 'warning'),
                    entry(2, 'upload', 'IMG_2.jpg'),
                  ],
                  next_cursor: 'c1',
                },
              },
      },
    });
    renderApp('/robots?event=7&robot=5');
    await waitFor(() => expect(screen.getAllByTestId('robot-activity-row')).toHaveLength(2));
    expect(api.callsTo(`${OWNER}/robot/activity/list`)[0]?.body).toEqual({
      robot_id: 5,
      event_id: 7,
      limit: 50,
    });
    const rows = screen.getAllByTestId('robot-activity-row');
    expect(rows[0]!.textContent).toContain('Warning');
    expect(rows[0]!.textContent).toContain('Printed');
    expect(rows[1]!.textContent).toContain('Upload');
    expect(rows[1]!.textContent).toContain('IMG_2.jpg');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(screen.getAllByTestId('robot-activity-row')).toHaveLength(3));
    expect(api.callsTo(`${OWNER}/robot/activity/list`).at(-1)?.body).toMatchObject({
      cursor: 'c1',
    });
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it('asks for an organisation before robots when there is none', async () => {
    installConsoleApi({
      user: superUser,
      routes: { [`${OWNER}/organisation/list/retrieve`]: { ok: { organisations: [] } } },
    });
    renderApp('/robots');
    expect((await screen.findByTestId('robots-need-organisation')).textContent).toContain(
      'Create an organisation first',
    );
  });

  it('creates an API key with a label (shown once), lists last use and revokes', async () => {
    const keys = [
      {
        id: 1,
        name: 'laptop',
        prefix: 'fbk_ab',
        created_date: '2026-11-01T10:00:00.000Z',
        last_used_date: null,
      },
    ];
    const api = installConsoleApi({
      user: eventOwner,
      routes: {
        [`${OWNER}/user/api-key/list/retrieve`]: () => ({ ok: { api_keys: keys } }),
        [`${OWNER}/user/api-key/create`]: (body): FakeReply => {
          const key = {
            id: 2,
            name: (body as { name: string }).name,
            prefix: 'fbk_cd',
            created_date: '2026-11-23T10:00:00.000Z',
            last_used_date: null,
          };
          keys.push(key);
          return { ok: { ...key, api_key: 'fbk_cd-the-whole-secret' } };
        },
        [`${OWNER}/user/api-key/delete`]: (body): FakeReply => {
          const index = keys.findIndex((k) => k.id === (body as { id: number }).id);
          keys.splice(index, 1);
          return { ok: {} };
        },
      },
    });
    renderApp('/api-keys');
    await waitFor(() => expect(screen.getAllByTestId('api-key-row')).toHaveLength(1));
    expect(screen.getByTestId('api-key-row').textContent).toContain('Never');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Label of the new key'), 'cli');
    await user.click(screen.getByRole('button', { name: 'Create API key' }));
    expect((await screen.findByTestId('shown-once-key')).textContent).toBe(
      'fbk_cd-the-whole-secret',
    );
    await waitFor(() => expect(screen.getAllByTestId('api-key-row')).toHaveLength(2));
    // The list never holds the secret itself.
    expect(
      screen
        .getAllByTestId('api-key-row')
        .some((row) => row.textContent?.includes('the-whole-secret')),
    ).toBe(false);

    await user.click(screen.getByRole('button', { name: 'Revoke laptop' }));
    await waitFor(() => expect(screen.getAllByTestId('api-key-row')).toHaveLength(1));
    expect(api.callsTo(`${OWNER}/user/api-key/delete`)[0]?.body).toEqual({ id: 1 });
  });
});

describe('first-run checklist', { timeout: 20_000 }, () => {
  beforeEach(() => window.localStorage.clear());

  const countRoute = (total: number) => ({
    [`${OWNER}/event/photo-count-info/retrieve`]: {
      ok: { total, visible: total, hidden: 0, originals: total, printed: 0, processing: 0 },
    },
  });

  it('walks an empty install through organisation → event → robot → share, from the server state', async () => {
    installConsoleApi({
      user: superUser,
      events: [],
      routes: { [`${OWNER}/organisation/list/retrieve`]: { ok: { organisations: [] } } },
    });
    renderApp('/');
    await screen.findByTestId('first-run-checklist');
    const done = (id: string) => screen.getByTestId(`checklist-${id}`).getAttribute('data-done');
    expect(['organisation', 'event', 'robot', 'share'].map(done)).toEqual([
      'false',
      'false',
      'false',
      'false',
    ]);
  });

  it('offers the album link to copy once the rest is done, and disappears when it is copied', async () => {
    const user = userEvent.setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    installConsoleApi({
      user: orgAdmin,
      events: [storedEvent({ public_api_key: 'pub-key-1' })],
      routes: countRoute(3),
    });
    renderApp('/');
    await screen.findByTestId('first-run-checklist');
    expect(screen.getByTestId('checklist-robot').getAttribute('data-done')).toBe('true');
    expect(screen.getByTestId('checklist-share').getAttribute('data-done')).toBe('false');
    await user.click(screen.getByRole('button', { name: 'Copy album link' }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('pub-key-1'));
    await waitFor(() => expect(screen.queryByTestId('first-run-checklist')).toBeNull());
  });

  it('is not shown when every step is done', async () => {
    window.localStorage.setItem('flashbulb.firstRun.albumLinkShared', '1');
    const api = installConsoleApi({ user: orgAdmin, routes: countRoute(1) });
    renderApp('/');
    await waitFor(() =>
      expect(api.callsTo(`${OWNER}/event/photo-count-info/retrieve`).length).toBeGreaterThan(0),
    );
    await screen.findByTestId('my-info-email');
    expect(screen.queryByTestId('first-run-checklist')).toBeNull();
  });
});

describe('organisation rename', { timeout: 20_000 }, () => {
  it('lets an admin rename their own organisation only, and marks a taken name', async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/organisation/update`]: (body): FakeReply => {
          const { id, name } = body as { id: number; name: string };
          if (name === 'Beta Shows')
            return { nok: 'organisation_exists', status: 409, field: 'name' };
          return { ok: { id, name, created_date: '2026-01-01T00:00:00.000Z' } };
        },
      },
    });
    renderApp('/organisations');
    await waitFor(() => expect(screen.getAllByTestId('organisation-row')).toHaveLength(2));
    // Acme Events (id 3) is the admin's; Beta Shows is not.
    expect(screen.queryByRole('button', { name: 'Rename Beta Shows' })).toBeNull();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rename Acme Events' }));
    const field = screen.getByLabelText('New name of Acme Events');
    await user.clear(field);
    await user.type(field, 'Beta Shows');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(field.getAttribute('aria-invalid')).toBe('true'));
    await user.clear(field);
    await user.type(field, 'Acme Weddings');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('New name of Acme Events')).toBeNull());
    expect(api.callsTo(`${OWNER}/organisation/update`).map((c) => c.body)).toEqual([
      { id: 3, name: 'Beta Shows' },
      { id: 3, name: 'Acme Weddings' },
    ]);
  });
  it("sets the organisation's currency with its name (its prices and orders use it)", async () => {
    const api = installConsoleApi({
      user: orgAdmin,
      routes: {
        [`${OWNER}/organisation/update`]: (body): FakeReply => {
          const { id, name, currency } = body as { id: number; name: string; currency?: string };
          return { ok: { id, name, currency: currency ?? 'USD', created_date: '2026-01-01' } };
        },
      },
    });
    renderApp('/organisations');
    await waitFor(() => expect(screen.getAllByTestId('organisation-row')).toHaveLength(2));
    expect(screen.getAllByRole('cell', { name: 'USD' }).length).toBeGreaterThan(0);
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Rename Acme Events' }));
    await user.selectOptions(
      screen.getByRole('combobox', { name: 'Currency of Acme Events' }),
      'EUR',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo(`${OWNER}/organisation/update`)).toHaveLength(1));
    expect(api.callsTo(`${OWNER}/organisation/update`)[0]?.body).toEqual({
      id: 3,
      name: 'Acme Events',
      currency: 'EUR',
    });
  });
});
