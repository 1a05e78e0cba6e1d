import { describe, expect, it } from 'vitest';
import {
  isFinalPaymentStatus,
  PAYMENT_STATUSES,
  paymentTransition,
  type PaymentStatusName,
} from '../src/index.ts';

/** Every pair of statuses and what a report of `to` does to a payment in `from`. */
const TABLE: Record<PaymentStatusName, Record<PaymentStatusName, 'move' | 'same' | 'refused'>> = {
  pending: {
    pending: 'same',
    paid: 'move',
    failed: 'move',
    expired: 'move',
    cancelled: 'move',
    refunded: 'refused', // nothing to refund before it is paid
  },
  paid: {
    pending: 'refused',
    paid: 'same',
    failed: 'refused', // a late decline after a confirmation changes nothing
    expired: 'refused',
    cancelled: 'refused',
    refunded: 'move',
  },
  failed: {
    pending: 'refused',
    paid: 'refused',
    failed: 'same',
    expired: 'refused',
    cancelled: 'refused',
    refunded: 'refused',
  },
  expired: {
    pending: 'refused',
    paid: 'move', // the provider took the money after our expiry job gave up: honoured
    failed: 'refused',
    expired: 'same',
    cancelled: 'refused',
    refunded: 'refused',
  },
  cancelled: {
    pending: 'refused',
    paid: 'refused', // a disabled QR link cannot be paid after all
    failed: 'refused',
    expired: 'refused',
    cancelled: 'same',
    refunded: 'refused',
  },
  refunded: {
    pending: 'refused',
    paid: 'refused', // a replayed confirmation does not re-unlock a refunded album
    failed: 'refused',
    expired: 'refused',
    cancelled: 'refused',
    refunded: 'same',
  },
};

describe('payment state machine', () => {
  const pairs = PAYMENT_STATUSES.flatMap((from) =>
    PAYMENT_STATUSES.map((to) => [from, to] as const),
  );

  it.each(pairs)('%s → %s', (from, to) => {
    expect(paymentTransition(from, to).kind).toBe(TABLE[from][to]);
  });

  it('only moves forward: no sequence of moves comes back to a status it left', () => {
    const reachable = (from: PaymentStatusName, seen = new Set<PaymentStatusName>()) => {
      for (const to of PAYMENT_STATUSES) {
        if (paymentTransition(from, to).kind !== 'move') continue;
        expect(seen.has(to), `${from} → ${to} returns`).toBe(false);
        reachable(to, new Set([...seen, from]));
      }
    };
    for (const status of PAYMENT_STATUSES) reachable(status, new Set([status]));
  });

  it('failed, cancelled and refunded are final; pending, paid and expired are not', () => {
    expect(PAYMENT_STATUSES.filter(isFinalPaymentStatus)).toEqual([
      'failed',
      'cancelled',
      'refunded',
    ]);
  });
});
