import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Insight, InsightEventRow, InsightTotals } from '@flashbulb/shared';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import { AppProviders } from '../../../../app/app-providers.tsx';
import { createQueryClient } from '../../../../lib/query-client.ts';
import { InsightDashboard } from './insight-dashboard.tsx';
import { renderApp } from '../../../../test/render-app.tsx';
import { boothsTable, eventsTable, tableCsv, totalsTable } from '../utils/insight-tables.ts';
import { recordSavedBlobs, savedText } from '../../../../test/saved-files.ts';

const EVENT = storedEvent({ id: 7, name: 'ABCD', full_name: 'Summer Gala' });
const EVENT_INSIGHT = `${OWNER}/insight/event`;
const ORG_INSIGHT = `${OWNER}/insight/organisation`;

const zeros: InsightTotals = {
  photos: 0,
  views: 0,
  unique_visitors: 0,
  downloads: 0,
  shares: 0,
  leads: 0,
  mails_delivered: 0,
  mails_bounced: 0,
  sms_delivered: 0,
  sms_bounced: 0,
  prints: 0,
  orders_paid: 0,
  revenue: 0,
  refunds: 0,
  face_searches: 0,
};

const hours = Array.from({ length: 24 }, (_, hour) => ({ hour, total: hour === 14 ? 9 : 0 }));

const INSIGHT: Insight = {
  currency: 'EUR',
  totals: {
    ...zeros,
    photos: 12,
    views: 40,
    unique_visitors: 25,
    downloads: 7,
    shares: 3,
    leads: 5,
    mails_delivered: 4,
    mails_bounced: 1,
    prints: 6,
    orders_paid: 2,
    revenue: 2500,
    refunds: 500,
  },
  shares_by_channel: [
    { channel: 'facebook', count: 2 },
    { channel: 'whatsapp', count: 1 },
  ],
  booths: [
    {
      robot_id: 4,
      name: '=Booth "A"',
      photos: 10,
      downloads: 6,
      shares: 3,
      prints: 5,
      revenue: 2000,
      refunds: 500,
    },
    {
      robot_id: null,
      name: null,
      photos: 2,
      downloads: 1,
      shares: 0,
      prints: 1,
      revenue: 500,
      refunds: 0,
    },
  ],
  timeline_unit: 'hour',
  timeline: [
    {
      at: '2026-11-21 14:00',
      photos: 12,
      views: 30,
      downloads: 5,
      shares: 3,
      leads: 5,
      prints: 6,
      face_searches: 0,
    },
    {
      at: '2026-11-21 15:00',
      photos: 0,
      views: 10,
      downloads: 2,
      shares: 0,
      leads: 0,
      prints: 0,
      face_searches: 0,
    },
  ],
  busiest_hours: hours,
};

const label = (key: string) => key;

describe('console Insight pages', { timeout: 40_000 }, () => {
  let created: Blob[] = [];
  beforeEach(() => {
    created = recordSavedBlobs();
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows the event’s tiles, timeline, booths and channels; each CSV is the table on screen', async () => {
    const api = installConsoleApi({
      events: [EVENT],
      routes: {
        [EVENT_INSIGHT]: {
          ok: {
            ...INSIGHT,
            event: { id: 7, name: 'ABCD', full_name: 'Summer Gala', time_zone: '' },
          },
        },
      },
    });
    renderApp('/events/abcd/insight');
    // The first visit loads the page's chunk (with the chart library): slow on a busy runner.
    expect(
      await screen.findByRole('heading', { name: 'Insight: Summer Gala' }, { timeout: 30_000 }),
    ).toBeTruthy();
    await screen.findByTestId('insight-dashboard');
    expect(api.callsTo(EVENT_INSIGHT)[0]?.body).toEqual({ event_id: 7 });
    const tiles = screen.getAllByTestId('insight-tile').map((tile) => tile.textContent);
    expect(tiles).toContain('Views40');
    expect(tiles).toContain('Unique visitors25');
    expect(tiles).toContain('Mails delivered / bounced4 / 1');
    expect(tiles).toContain('Revenue€25.00');
    expect(tiles).toContain('Refunds€5.00');
    // What the event kept: the refunds taken off, the way the booths show it too.
    expect(tiles).toContain('Net revenue€20.00');
    expect(screen.queryByTestId('insight-empty')).toBeNull();

    const booths = screen.getByRole('table', { name: 'Booths' });
    const boothRows = within(booths)
      .getAllByRole('row')
      .map((row) => row.textContent);
    expect(boothRows).toEqual([
      'BoothPhotos inDownloadsSharesPrintsRevenueRefundsNet revenue',
      '=Booth "A"10635€20.00€5.00€15.00',
      'Console and guest uploads2101€5.00€0.00€5.00',
    ]);
    const timeline = screen.getByRole('table', { name: 'Timeline' });
    expect(within(timeline).getAllByRole('row')).toHaveLength(3);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Export Booths as CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    // The file is the table: same header, same rows, the formula kept as text.
    expect((await savedText(created[0]!)).split('\r\n')).toEqual([
      'Booth,Photos in,Downloads,Shares,Prints,Revenue,Refunds,Net revenue',
      `"'=Booth ""A""",10,6,3,5,€20.00,€5.00,€15.00`,
      'Console and guest uploads,2,1,0,1,€5.00,€0.00,€5.00',
      '',
    ]);
    await user.click(screen.getByRole('button', { name: /^Export Timeline/ }));
    await waitFor(() => expect(created).toHaveLength(2));
    expect((await savedText(created[1]!)).split('\r\n').slice(0, 2)).toEqual([
      'Hour,Photos in,Views,Downloads,Shares,Leads,Prints,Face searches',
      '2026-11-21 14:00,12,30,5,3,5,6,0',
    ]);
    await user.click(screen.getByRole('button', { name: 'Export Totals as CSV' }));
    await waitFor(() => expect(created).toHaveLength(3));
    const totals = await savedText(created[2]!);
    expect(totals).toContain('Revenue,€25.00');
    expect(totals).toContain('Net revenue,€20.00');
    expect(totals).toContain('Mails delivered / bounced,4 / 1');
  });

  it('loading, then a new event’s empty state with nothing to export; a refusal is said', () => {
    const queryClient = createQueryClient();
    const view = (insight: Insight | undefined, error: string | null = null) => (
      <AppProviders queryClient={queryClient}>
        <InsightDashboard insight={insight} fileCode="ABCD" error={error} />
      </AppProviders>
    );
    const { rerender } = render(view(undefined));
    expect(screen.getByTestId('insight-loading')).toBeTruthy();
    rerender(
      view({
        ...INSIGHT,
        totals: zeros,
        booths: [],
        shares_by_channel: [],
        timeline: [],
        busiest_hours: hours.map((h) => ({ ...h, total: 0 })),
      }),
    );
    expect(screen.getByTestId('insight-empty')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Booths' })).toBeNull();
    expect(
      screen.getByRole<HTMLButtonElement>('button', { name: 'Export Booths as CSV' }).disabled,
    ).toBe(true);
    rerender(view(undefined, 'Forbidden'));
    expect(screen.getByRole('alert').textContent).toBe('Forbidden');
  });

  it('the organisation page lists its events and exports them', async () => {
    const events: InsightEventRow[] = [
      { ...zeros, ...INSIGHT.totals, event_id: 7, name: 'ABCD', full_name: 'Summer Gala' },
      { ...zeros, event_id: 8, name: 'EFGH', full_name: 'Winter Ball' },
    ];
    const api = installConsoleApi({
      events: [EVENT],
      routes: { [ORG_INSIGHT]: { ok: { ...INSIGHT, events } } },
    });
    renderApp('/insight');
    const table = await screen.findByRole('table', { name: 'Events' }, { timeout: 30_000 });
    expect(api.callsTo(ORG_INSIGHT)[0]?.body).toEqual({});
    expect(within(table).getAllByRole('row')[2]!.textContent).toBe(
      'Winter BallEFGH0000000€0.00€0.00€0.00',
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Export Events as CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    expect((await savedText(created[0]!)).split('\r\n')[1]).toBe(
      'Summer Gala,ABCD,12,40,25,7,3,5,6,€25.00,€5.00,€20.00',
    );
  });
});

describe('insight tables', () => {
  it('every table’s CSV is its header and rows, formula starts neutralised', () => {
    const booths = boothsTable(INSIGHT, label);
    expect(booths.rows[1]).toEqual(['noBooth', 2, 1, 0, 1, '€5.00', '€0.00', '€5.00']);
    expect(tableCsv(booths).split('\r\n')[1]).toBe(`"'=Booth ""A""",10,6,3,5,€20.00,€5.00,€15.00`);
    const totals = totalsTable(INSIGHT, label);
    expect(totals.rows.find(([name]) => name === 'revenue')).toEqual(['revenue', '€25.00']);
    const events = eventsTable(
      [{ ...zeros, event_id: 1, name: 'WXYZ', full_name: '+Gala', revenue: 1234 }],
      'USD',
      label,
    );
    expect(tableCsv(events).split('\r\n')[1]).toBe(`'+Gala,WXYZ,0,0,0,0,0,0,0,$12.34,$0.00,$12.34`);
  });
});
