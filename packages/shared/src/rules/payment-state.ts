/**
 * A payment's life: `pending → paid | failed | expired | cancelled`, `expired → paid`,
 * and `paid → refunded`. It only moves forward: once a payment has left `pending` nothing brings it
 * back, and the only way on from `paid` is a refund. `expired → paid` is a provider confirming a
 * payment our `payments.expire` job gave up on (a Stripe session stays payable for 24 h, a webhook
 * may arrive days late): the guest's money was taken, so it is honoured and unlocks
 * (docs/domains/payments.md, "Late confirmations"). Webhooks and status polls that arrive twice, late or out
 * of order therefore change a payment at most once per step (docs/adr/0008-payments.md).
 */

export const PAYMENT_STATUSES = [
  'pending',
  'paid',
  'failed',
  'expired',
  'cancelled',
  'refunded',
] as const;
export type PaymentStatusName = (typeof PAYMENT_STATUSES)[number];

const NEXT: Readonly<Record<PaymentStatusName, readonly PaymentStatusName[]>> = {
  pending: ['paid', 'failed', 'expired', 'cancelled'],
  paid: ['refunded'],
  failed: [],
  expired: ['paid'],
  cancelled: [],
  refunded: [],
};

export type PaymentTransition =
  /** Apply it: the status changes. */
  | { kind: 'move'; from: PaymentStatusName; to: PaymentStatusName }
  /** Already there (a duplicate or replayed report): nothing to do, and not an error. */
  | { kind: 'same'; status: PaymentStatusName }
  /** Backwards or sideways (a late `failed` after `paid`, `paid` after `cancelled`): ignored. */
  | { kind: 'refused'; from: PaymentStatusName; to: PaymentStatusName };

export const paymentTransition = (
  from: PaymentStatusName,
  to: PaymentStatusName,
): PaymentTransition => {
  if (from === to) return { kind: 'same', status: from };
  return NEXT[from].includes(to) ? { kind: 'move', from, to } : { kind: 'refused', from, to };
};

/** No report can move a payment out of these. */
export const isFinalPaymentStatus = (status: PaymentStatusName): boolean =>
  NEXT[status].length === 0;
