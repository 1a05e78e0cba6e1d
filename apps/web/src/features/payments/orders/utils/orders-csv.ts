import { minorToDecimal } from '@flashbulb/shared';
import { formatEventTime, type EventClock } from '@flashbulb/shared/rules/event-time';
import { toCsv } from '../../../../lib/csv.ts';
import type { OrderRow } from '../api/orders-api.ts';

export interface OrdersCsvHeader {
  readonly order: string;
  readonly created: string;
  readonly paid: string;
  readonly attendee: string;
  readonly button: string;
  readonly amount: string;
  readonly currency: string;
  readonly status: string;
  readonly payment: string;
  readonly provider: string;
  readonly paymentStatus: string;
}

/**
 * The orders sheet: one line per payment (an order without payments gets one line). Every cell
 * goes through `csvCell`, so a button text or id that starts like a formula (= + - @ tab CR) stays
 * text in a spreadsheet. Amounts are decimals of each order's currency, named in the next column (`15.50` EUR, `1550` JPY).
 * Times are the event's local time with its zone (`2026-11-21 11:00 Europe/Berlin`).
 */
export const ordersCsv = (
  orders: readonly OrderRow[],
  header: OrdersCsvHeader,
  clock: EventClock,
): string => {
  const time = (iso: string | null) => (iso ? formatEventTime(clock, new Date(iso)) : null);
  const rows: (string | number | null)[][] = [
    [
      header.order,
      header.created,
      header.paid,
      header.attendee,
      header.button,
      header.amount,
      header.currency,
      header.status,
      header.payment,
      header.provider,
      header.paymentStatus,
    ],
  ];
  for (const order of orders) {
    const base = [
      order.order_id,
      time(order.created_date),
      time(order.paid_date),
      order.attendee_uid,
      order.button_text,
      minorToDecimal(order.amount, order.currency),
      order.currency,
      order.status,
    ];
    if (order.payments.length === 0) rows.push([...base, null, null, null]);
    for (const payment of order.payments)
      rows.push([...base, payment.payment_id, payment.provider, payment.status]);
  }
  return toCsv(rows);
};
