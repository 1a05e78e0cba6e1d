import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { PrivacyRequest } from '@flashbulb/shared';
import { eventOwner, installConsoleApi, OWNER } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';

const entry = (id: number, over: Partial<PrivacyRequest> = {}): PrivacyRequest => ({
  id,
  action: 'export',
  attendee_uid: `ATT${id}`,
  organisation_id: 3,
  organisation_name: 'Acme Events',
  actor_email: 'org-admin@example.com',
  created_date: '2026-11-27T09:00:00.000Z',
  counts: { photos: 3, leads: 1, orders: 0 },
  ...over,
});

describe('console privacy log', { timeout: 40_000 }, () => {
  it('lists exports and erasures (who, when, attendee id, result), an older page on demand', async () => {
    const api = installConsoleApi({
      routes: {
        [`${OWNER}/attendee/privacy-log`]: (body): FakeReply =>
          (body as { before_id?: number }).before_id === 5
            ? { ok: { requests: [entry(4)], next_before_id: null } }
            : {
                ok: {
                  requests: [
                    entry(6, {
                      action: 'erase',
                      attendee_uid: 'GUEST42',
                      actor_email: null,
                      counts: { photos: 2, deleted_photos: 1, selfies: 1 },
                    }),
                    entry(5),
                  ],
                  next_before_id: 5,
                },
              },
      },
    });
    renderApp('/privacy-log');
    const table = await screen.findByRole('table', { name: 'Privacy log' }, { timeout: 20_000 });
    const erase = within(table).getByText('GUEST42').closest('tr')!;
    expect(within(erase).getByText('Erasure')).toBeTruthy();
    expect(within(erase).getByText('(user removed)')).toBeTruthy();
    expect(erase.textContent).toContain('2 photos, 1 photos deleted, 1 selfies');
    const exported = within(table).getByText('ATT5').closest('tr')!;
    expect(exported.textContent).toContain('org-admin@example.com');
    expect(exported.textContent).toContain('3 photos, 1 leads');
    expect(exported.textContent).not.toContain('orders');
    expect(screen.getByRole('link', { name: 'Privacy log' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Older entries' }));
    await waitFor(() => expect(within(table).getByText('ATT4')).toBeTruthy());
    const bodies = api.callsTo(`${OWNER}/attendee/privacy-log`).map((c) => c.body);
    expect(bodies.at(-1)).toEqual({ before_id: 5 });
    expect(bodies.slice(0, -1).every((body) => JSON.stringify(body) === '{}')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Older entries' })).toBeNull();
  });

  it('is not in an event owner’s menu (the server refuses them too)', async () => {
    installConsoleApi({ user: eventOwner });
    renderApp('/');
    expect(await screen.findByRole('link', { name: 'Events' }, { timeout: 20_000 })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Privacy log' })).toBeNull();
  });
});
