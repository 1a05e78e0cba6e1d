import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { installConsoleApi, OWNER, storedEvent } from '../../../../test/event-fixtures.ts';
import type { FakeReply } from '../../../../test/fake-api.ts';
import { renderApp } from '../../../../test/render-app.tsx';
import type { OrderListResult, OrderRow } from '../api/orders-api.ts';
import { ordersCsv } from '../utils/orders-csv.ts';
import { recordSavedBlobs, savedText } from '../../../../test/saved-files.ts';

const EVENT = storedEvent({
  id: 7,
  name: 'ABCD',
  full_name: 'Summer Gala',
  is_free: 0,
  time_zone: 'Europe/Berlin',
});
const LIST = `${OWNER}/payment/order-list`;
const REFUND = `${OWNER}/payment/refund`;

const order = (id: number, overrides: Partial<OrderRow> = {}): OrderRow => ({
  order_id: id,
  created_date: `2026-11-2${id}T10:00:00.000Z`,
  paid_date: `2026-11-2${id}T10:01:00.000Z`,
  attendee_uid: `ATT0000${id}`,
  button_text: 'Album',
  amount: 1550,
  currency: 'USD',
  status: 'paid',
  payments: [
    {
      payment_id: `pay_${'a'.repeat(25)}${id}`,
      provider: 'test',
      status: 'paid',
      failure_reason: null,
      created_date: `2026-11-2${id}T10:00:30.000Z`,
    },
  ],
  ...overrides,
});

const RESULT: OrderListResult = {
  orders: [
    order(2, {
      button_text: '=HYPERLINK("http://evil.example","x")',
      amount: 999,
      status: 'open',
      paid_date: null,
      payments: [
        {
          payment_id: `pay_${'b'.repeat(26)}`,
          provider: 'test',
          status: 'failed',
          failure_reason: 'card_declined',
          created_date: '2026-11-22T10:00:30.000Z',
        },
      ],
    }),
    order(1),
  ],
  totals: {
    paid_amount: 1550,
    paid_count: 1,
    by_day: [{ day: '2026-11-21', amount: 1550, count: 1 }],
    by_button: [{ button_text: 'Album', amount: 1550, count: 1 }],
  },
};

const PAID_ID = `pay_${'a'.repeat(25)}1`;

describe('console Orders page', { timeout: 40_000 }, () => {
  let created: Blob[] = [];
  beforeEach(() => {
    created = recordSavedBlobs();
  });
  afterEach(() => vi.restoreAllMocks());

  it('shows orders with their payments and status, and the paid totals per day and per button', async () => {
    const api = installConsoleApi({ events: [EVENT], routes: { [LIST]: { ok: RESULT } } });
    renderApp('/events/abcd/orders');
    const table = await screen.findByRole('table', { name: 'Orders' });
    expect(api.callsTo(LIST)[0]?.body).toEqual({ event_id: 7 });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = within(rows[0]!)
      .getAllByRole('cell')
      .map((c) => c.textContent);
    expect(first.slice(0, 6)).toEqual([
      '2',
      // The event's local time (Berlin, winter: UTC+1), not UTC.
      '2026-11-22 11:00 Europe/Berlin',
      'ATT00002',
      '=HYPERLINK("http://evil.example","x")',
      '$9.99',
      'Open',
    ]);
    expect(first[6]).toContain('Failed');
    // Only a paid payment can be refunded.
    expect(within(rows[0]!).queryByRole('button', { name: /^Refund/ })).toBeNull();
    expect(screen.getByTestId('orders-total').textContent).toBe('Paid: $15.50 in 1 order');
    const byDay = screen.getByRole('table', { name: 'Paid per day (UTC)' });
    expect(within(byDay).getAllByRole('row')[1]!.textContent).toBe('2026-11-21$15.501');
    const byButton = screen.getByRole('table', { name: 'Paid per button' });
    expect(within(byButton).getAllByRole('row')[1]!.textContent).toBe('Album$15.501');
  });

  it('shows every amount in the organisation’s currency (EUR), the refund too', async () => {
    const euros: OrderListResult = {
      ...RESULT,
      currency: 'EUR',
      orders: RESULT.orders.map((o) => ({ ...o, currency: 'EUR' })),
    };
    installConsoleApi({ events: [EVENT], routes: { [LIST]: { ok: euros } } });
    renderApp('/events/ABCD/orders');
    const table = await screen.findByRole('table', { name: 'Orders' });
    const first = within(within(table).getAllByRole('row')[1]!).getAllByRole('cell');
    expect(first[4]!.textContent).toBe('€9.99');
    expect(screen.getByTestId('orders-total').textContent).toBe('Paid: €15.50 in 1 order');
    const byDay = screen.getByRole('table', { name: 'Paid per day (UTC)' });
    expect(within(byDay).getAllByRole('row')[1]!.textContent).toBe('2026-11-21€15.501');
    const byButton = screen.getByRole('table', { name: 'Paid per button' });
    expect(within(byButton).getAllByRole('row')[1]!.textContent).toBe('Album€15.501');
    expect(document.body.textContent).not.toContain('$');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: `Refund payment ${PAID_ID}` }));
    expect((await screen.findByRole('dialog')).textContent).toContain('Refund €15.50');
  });

  it('refunds a paid payment after confirmation and reloads the list; a refusal is shown', async () => {
    const refunded: OrderListResult = {
      ...RESULT,
      orders: [
        RESULT.orders[0]!,
        order(1, {
          status: 'refunded',
          payments: [{ ...RESULT.orders[1]!.payments[0]!, status: 'refunded' }],
        }),
      ],
      totals: { paid_amount: 0, paid_count: 0, by_day: [], by_button: [] },
    };
    let done = false;
    let refundCalls = 0;
    const api = installConsoleApi({
      events: [EVENT],
      routes: {
        [LIST]: (): FakeReply => ({ ok: done ? refunded : RESULT }),
        // The first try is refused (changes nothing), the second refunds.
        [REFUND]: (): FakeReply => {
          refundCalls += 1;
          if (refundCalls === 1) return { nok: 'payment_not_paid', status: 409 };
          done = true;
          return { ok: { payment_id: PAID_ID, status: 'refunded' } };
        },
      },
    });
    renderApp('/events/ABCD/orders');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: `Refund payment ${PAID_ID}` }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Refund $15.50');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByRole('alert')).toBeTruthy();
    expect(api.callsTo(REFUND)[0]?.body).toEqual({ event_id: 7, payment_id: PAID_ID });
    expect(api.callsTo(REFUND)).toHaveLength(1);
    expect(screen.getByTestId('orders-total').textContent).toBe('Paid: $15.50 in 1 order');

    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await waitFor(() =>
      expect(screen.getByTestId('orders-total').textContent).toBe('Paid: $0.00 in 0 orders'),
    );
    expect(screen.queryByRole('button', { name: `Refund payment ${PAID_ID}` })).toBeNull();
    const rows = within(screen.getByRole('table', { name: 'Orders' })).getAllByRole('row');
    expect(rows[2]!.textContent).toContain('Refunded');
  });

  it('exports a formula-safe CSV, one line per payment', async () => {
    installConsoleApi({ events: [EVENT], routes: { [LIST]: { ok: RESULT } } });
    renderApp('/events/ABCD/orders');
    const user = userEvent.setup();
    await screen.findByRole('table', { name: 'Orders' });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(created).toHaveLength(1));
    const text = await savedText(created[0]!);
    const lines = text.split('\r\n');
    expect(lines[0]).toBe(
      'Order,Created,Paid,Attendee,Button,Amount,Currency,Status,Payment,Provider,Payment status',
    );
    // The formula is quoted and prefixed with an apostrophe: a spreadsheet shows it as text.
    expect(lines[1]).toBe(
      `2,2026-11-22 11:00 Europe/Berlin,,ATT00002,"'=HYPERLINK(""http://evil.example"",""x"")",9.99,USD,open,pay_${'b'.repeat(26)},test,failed`,
    );
    expect(lines[2]).toBe(
      `1,2026-11-21 11:00 Europe/Berlin,2026-11-21 11:01 Europe/Berlin,ATT00001,Album,15.50,USD,paid,${PAID_ID},test,paid`,
    );
  });
});

describe('ordersCsv', () => {
  const header = {
    order: 'o',
    created: 'c',
    paid: 'p',
    attendee: 'a',
    button: 'b',
    amount: 'm',
    currency: 'u',
    status: 's',
    payment: 'y',
    provider: 'v',
    paymentStatus: 'z',
  };
  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\tx', "'\tx"],
    ['\rx', `"'\rx"`],
    ['plain', 'plain'],
  ])('neutralises a cell starting %j', (text, cell) => {
    const csv = ordersCsv([order(1, { button_text: text, payments: [] })], header, EVENT);
    expect(csv.split('\r\n')[1]!.split(',')[4]).toBe(cell);
  });
  it('writes amounts in the currency’s own decimals (JPY whole yen, EUR cents)', () => {
    const csv = ordersCsv(
      [
        order(1, { currency: 'JPY', amount: 1550, payments: [] }),
        order(2, { currency: 'EUR', amount: 1550, payments: [] }),
      ],
      header,
      EVENT,
    );
    const lines = csv.split('\r\n');
    expect(lines[1]!.split(',').slice(5, 7)).toEqual(['1550', 'JPY']);
    expect(lines[2]!.split(',').slice(5, 7)).toEqual(['15.50', 'EUR']);
  });
  it('writes an order without payments on one line with empty payment cells', () => {
    const csv = ordersCsv([order(3, { payments: [] })], header, EVENT);
    expect(csv.split('\r\n')[1]).toMatch(/,paid,,,$/);
  });
});
