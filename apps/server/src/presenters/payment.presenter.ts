import type { CardReader, ConnectionProvider, PaymentConnection } from '@flashbulb/shared';
import type {
  CardReaderRow,
  PaymentConnectionRow,
} from '../repositories/payments/payment-connection.repository.ts';
import type { OrderRow, PaymentRow } from '../repositories/payments/payment.repository.ts';

/** A card reader as the owner's Payments page lists it. */
export const cardReaderForOwner = (row: CardReaderRow): CardReader => ({
  id: row.id,
  name: row.name,
  location_id: row.locationId,
  location_name: row.locationName,
  device_code_id: row.deviceCodeId,
  device_id: row.deviceId,
  paired: row.deviceId ? 1 : 0,
});

/**
 * A provider connection as the owner sees it: connected or not, the last four characters of its
 * secret and the last test — never the secret itself.
 */
export const paymentConnectionForOwner = (
  provider: ConnectionProvider,
  row?: PaymentConnectionRow,
): PaymentConnection => ({
  provider,
  connected: row ? 1 : 0,
  last_four: row?.lastFour ?? '',
  shop: row?.shop ?? '',
  tested_date: row?.testedAt?.toISOString() ?? null,
  test_ok: row?.testedAt ? (row.testError ? 0 : 1) : null,
  test_error: row?.testedAt ? row.testError || null : null,
});

/** One order of the owner's order list, with its payments. */
export const orderForOwner = <C extends string>(
  {
    order,
    attendeeUid,
    payments,
  }: { order: OrderRow; attendeeUid: string; payments: PaymentRow[] },
  currency: C,
) => ({
  order_id: order.id,
  created_date: order.createdAt.toISOString(),
  paid_date: order.paidAt?.toISOString() ?? null,
  attendee_uid: attendeeUid,
  button_text: order.buttonText,
  amount: order.amount,
  currency,
  status: order.status,
  payments: payments.map((p) => ({
    payment_id: p.publicId,
    provider: p.provider,
    status: p.status,
    failure_reason: p.failureReason,
    created_date: p.createdAt.toISOString(),
  })),
});
