import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Lead } from '@flashbulb/shared';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import * as download from '../../../../lib/download-text.ts';

const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala', collect_leads: 1 });
const LIST = `${OWNER}/lead/list/retrieve`;
const EXPORT = `${OWNER}/lead/export`;
const DELETE = `${OWNER}/lead/delete`;

const lead = (id: number, over: Partial<Lead> = {}): Lead => ({
  id,
  full_name: `Guest ${id}`,
  email: `guest${id}@example.com`,
  company_name: null,
  phone: null,
  source: 'public',
  consent_version: '0badf00d',
  consent_text: 'We may send you offers. https://gala.example/privacy',
  consented_date: new Date(Date.UTC(2026, 10, 1, 12, id)).toISOString(),
  created_date: new Date(Date.UTC(2026, 10, 1, 12, id)).toISOString(),
  updated_date: new Date(Date.UTC(2026, 10, 1, 12, id)).toISOString(),
  ...over,
});

const rows = () =>
  within(screen.getByRole('table', { name: 'Leads' }))
    .getAllByRole('row')
    .slice(1);

describe('console Leads page', { timeout: 40_000 }, () => {
  it('lists the event’s leads as text, searches them, exports the server’s CSV and deletes one on request', async () => {
    let stored = [
      lead(1, { full_name: '<img src=x onerror=alert(1)>', company_name: 'Engines' }),
      lead(2, { full_name: 'Ada Lovelace', phone: '5551234567' }),
      lead(3, { full_name: 'Grace Hopper', company_name: 'Navy', consented_date: null }),
    ];
    const save = vi.spyOn(download, 'downloadText').mockImplementation(() => undefined);
    const api = installConsoleApi({
      events: [EVENT],
      routes: {
        [LIST]: (): FakeReply => ({ ok: { leads: stored } }),
        [EXPORT]: (): FakeReply => ({
          ok: { file_name: 'leads-ABCD.csv', csv: 'name,email\r\nAda,ada@example.com\r\n' },
        }),
        [DELETE]: (raw): FakeReply => {
          const ids = (raw as { lead_id_array: number[] }).lead_id_array;
          stored = stored.filter((l) => !ids.includes(l.id));
          return { ok: { deleted: ids.length } };
        },
      },
    });
    renderApp('/events/abcd/leads');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('heading', { name: 'Leads of Summer Gala' })).toBeTruthy();
    expect(api.callsTo(LIST)[0]?.body).toEqual({ event_id: 7 });
    // Guest text is shown as text, never markup.
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    expect(within(rows()[2]!).getByText('not asked')).toBeTruthy();

    const user = userEvent.setup();
    const search = screen.getByLabelText('Search leads');
    await user.type(search, 'navy');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('Grace Hopper')).toBeTruthy();
    await user.clear(search);
    // Phone digits match however they are typed.
    await user.type(search, '555-123');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(within(rows()[0]!).getByText('Ada Lovelace')).toBeTruthy();
    await user.clear(search);
    await user.type(search, 'nobody');
    expect(await screen.findByText('No lead matches “nobody”.')).toBeTruthy();
    await user.clear(search);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(save).toHaveBeenCalledTimes(1));
    expect(save).toHaveBeenCalledWith('leads-ABCD.csv', 'name,email\r\nAda,ada@example.com\r\n');
    expect(api.callsTo(EXPORT)[0]?.body).toEqual({ event_id: 7 });

    await waitFor(() => expect(rows()).toHaveLength(3));
    await user.click(screen.getByRole('button', { name: 'Delete the lead of Ada Lovelace' }));
    await user.click(await screen.findByRole('button', { name: 'Delete lead' }));
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(api.callsTo(DELETE)[0]?.body).toEqual({ event_id: 7, lead_id_array: [2] });
    expect(screen.queryByText('Ada Lovelace')).toBeNull();
    save.mockRestore();
  });

  it('shows the server’s refusal (an event the operator does not manage)', async () => {
    installConsoleApi({
      events: [EVENT],
      routes: { [LIST]: { nok: 'event_not_found', status: 404 } },
    });
    renderApp('/events/abcd/leads');
    expect(await screen.findByRole('alert')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Leads' })).toBeNull();
  });

  it('points an event that does not collect leads to the right editor tab, with a link to it', async () => {
    installConsoleApi({
      events: [{ ...EVENT, collect_leads: 0 }],
      routes: { [LIST]: { ok: { leads: [] } } },
    });
    renderApp('/events/abcd/leads');
    const note = await screen.findByTestId('leads-not-collecting');
    // The setting sits on the editor's Photo configuration tab (not Sharing).
    expect(note.textContent).toContain('Photo configuration › Collect leads');
    expect(
      within(note).getByRole('link', { name: 'Open the event editor' }).getAttribute('href'),
    ).toBe('/events#ename=ABCD');
  });
});
