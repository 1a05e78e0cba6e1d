import { z } from 'zod';
import { ATTENDEE_KEY_ERRORS, attendeeUidField } from '../attendees/attendee-fields.ts';
import {
  chosenPhotoUidsField,
  clientRequestIdField,
  currencyField,
  PAYMENT_CANCEL_ERRORS,
  paymentChargeResult,
  PAYMENT_START_ERRORS,
  paymentIdField,
  paymentOfKeyBody,
  paymentStatusField,
  paymentStatusResult,
  photoCountField,
  pricedButtonsResult,
  pricingButtonIndexField,
  qrCheckoutResult,
} from './checkout-fields.ts';
import { defineEndpoint, OWNER_PREFIX } from '../endpoint.ts';
import { printCopiesField, printPhotoUidsField } from '../printing/print-fields.ts';
import { idSchema } from '../identity/users.ts';
import { kioskKeyBody } from '../events/events.ts';

/**
 * Paid albums (albums spec §3, §7.2, §7.3, §9): unlocking an attendee's album at the
 * desk with an employee's code, and (next) orders and payments. Amounts are integer cents, USD.
 */

const unlockCodeField = z
  .string({ error: 'invalid_unlock_code' })
  .trim()
  .min(1, 'invalid_unlock_code')
  .max(20, 'invalid_unlock_code')
  .describe('The employee’s 4-character code (case is ignored)');

export const attendeeUnlock = defineEndpoint({
  path: '/attendee/unlock',
  auth: 'key',
  tag: 'payments',
  summary:
    'Cash sale at the desk: an employee’s unlock code unlocks the attendee’s album for the key’s event and records the employee. The kiosk only (the private key with the event’s display token `display`), for attendees of its event; wrong codes are rate-limited per kiosk',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    unlock_code: unlockCodeField,
  }),
  result: z.object({
    attendee_uid: z.string(),
    event_id: z.number().int(),
    unlocked: z.literal(1),
  }),
  errors: [...ATTENDEE_KEY_ERRORS, 'invalid_unlock_code', 'too_many_attempts'],
});

const paymentId = paymentIdField('by create-qr-payment');
const paymentOfKey = paymentOfKeyBody(paymentId);

export const createQrPayment = defineEndpoint({
  path: '/payment/create-qr-payment',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a payment for a pricing button of the key’s event: the amount (integer cents, USD) comes from the button’s formula, the checkout URL is shown as a QR code. Private, event-owner or the attendee’s own key; idempotent by client_request_id',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    pricing_button_index: pricingButtonIndexField,
    photo_uids: chosenPhotoUidsField
      .optional()
      .describe('The photos chosen; without: the attendee’s whole album of the event'),
    client_request_id: clientRequestIdField,
  }),
  result: qrCheckoutResult,
  errors: [...ATTENDEE_KEY_ERRORS, 'not_found', 'photos_required', ...PAYMENT_START_ERRORS],
});

export const checkQrStatus = defineEndpoint({
  path: '/payment/check-qr-status',
  auth: 'key',
  tag: 'payments',
  summary: 'The status of a payment of the key’s event (the kiosk polls it while the QR is shown)',
  body: paymentOfKey,
  result: paymentChargeResult,
  errors: ['invalid_key', 'unauthorized_user', 'not_found'],
});

export const disableQrLink = defineEndpoint({
  path: '/payment/disable-qr-link',
  auth: 'key',
  tag: 'payments',
  summary:
    'Cancels a pending payment (the kiosk closed its QR code); a payment already paid stays paid',
  body: paymentOfKey,
  result: paymentStatusResult,
  errors: PAYMENT_CANCEL_ERRORS,
});

export const testProviderPay = defineEndpoint({
  path: '/payment/test-provider/pay',
  auth: 'none',
  tag: 'payments',
  summary:
    'The built-in test provider’s checkout form: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined. The result reaches the server as the provider’s signed webhook',
  body: z.object({
    payment_id: paymentId,
    card_number: z
      .string({ error: 'card_invalid' })
      .trim()
      .min(1, 'card_invalid')
      .max(30, 'card_invalid'),
  }),
  result: paymentStatusResult,
  errors: ['not_found', 'card_invalid'],
});

export const testProviderCheckout = defineEndpoint({
  path: '/payment/test-provider/checkout',
  auth: 'none',
  tag: 'payments',
  summary:
    'The built-in test provider’s checkout page reads what it charges: the amount (integer cents), what is bought and from whom, and the payment’s status. The unguessable payment id is the only key, as with a hosted checkout link',
  body: z.object({ payment_id: paymentId }),
  result: z.object({
    payment_id: z.string(),
    status: paymentStatusField,
    amount: z.number().int().describe('Integer cents: 1550 is $15.50'),
    currency: currencyField,
    description: z.string().describe('The pricing button’s text when ordered'),
    merchant: z.string().describe('The event’s name'),
  }),
  errors: ['not_found'],
});

export const pricingButtonList = defineEndpoint({
  path: '/payment/pricing-buttons',
  auth: 'key',
  tag: 'payments',
  summary:
    'The key’s event’s pricing buttons with their prices in integer cents for this attendee and photo count (VIP by the attendee id); amounts are null when the event hides prices. Private, event-owner or the attendee’s own key',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    photo_count: photoCountField.describe(
      'Photos chosen; without: the attendee’s album of the event',
    ),
  }),
  result: pricedButtonsResult.extend({
    prints_free: z
      .union([z.literal(0), z.literal(1)])
      .describe('1: the kiosk prints without buying (a free event, or prints marked free)'),
    prints_remaining: z
      .number()
      .int()
      .describe('Prints this attendee bought at a kiosk and has not printed yet'),
    methods: z
      .array(z.string())
      .describe(
        'The ways to pay this event offers to the caller: the album page’s (attendee key) or the kiosk’s (other keys)',
      ),
    upsell_message: z
      .string()
      .nullable()
      .default(null)
      .describe(
        'The event’s upsell, offered once this attendee bought something at the event: the operator’s message (empty: none written); null when not offered',
      ),
  }),
  errors: ATTENDEE_KEY_ERRORS,
});

const printPhotoUids = printPhotoUidsField('Photos of the attendee’s album to print');
const printingCount = printCopiesField(
  'Copies of each photo (default 1; at most the event’s max_print_copies_count)',
);
/** Unlock-and-print retried with the same id answers the first request (no second print). */
const printRequestId = z
  .string({ error: 'invalid_value' })
  .trim()
  .min(1, 'invalid_value')
  .max(100, 'invalid_value')
  .optional()
  .describe(
    'Idempotency: the same id again (for this event) answers the stored print request instead of storing a second one. Ids starting with `order:` are the paid orders’ own (refused)',
  );
const unlockAndPrintResult = z.object({
  attendee_uid: z.string(),
  event_id: z.number().int(),
  unlocked: z.literal(1),
  print_request_id: z.number().int(),
  photo_count: z.number().int(),
});
const printErrors = [
  'invalid_attendee_id',
  'not_found',
  'photos_required',
  'per_request_count_error',
  'photos_copy_count_error',
  'invalid_value',
] as const;

export const attendeeUnlockAndPrint = defineEndpoint({
  path: '/attendee/unlock-and-print',
  auth: 'key',
  tag: 'payments',
  summary:
    'Desk sale with prints: an employee’s unlock code unlocks the album for the key’s event and stores a print request for the chosen photos (printed once the printing issue lands). Private or event-owner key',
  body: z.object({
    ...kioskKeyBody,
    attendee_uid: attendeeUidField,
    unlock_code: unlockCodeField,
    photo_uid_array: printPhotoUids,
    printing_count: printingCount,
    client_request_id: printRequestId,
  }),
  result: unlockAndPrintResult,
  errors: [
    'invalid_key',
    'unauthorized_user',
    'attendee_locked',
    'attendee_expired',
    'invalid_unlock_code',
    'too_many_attempts',
    ...printErrors,
  ],
});

export const ownerUnlockAndPrint = defineEndpoint({
  path: `${OWNER_PREFIX}/attendee/unlock-and-print`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'The event owner unlocks an attendee’s album for the event and stores a print request for the chosen photos',
  body: z.object({
    event_id: idSchema,
    attendee_uid: attendeeUidField,
    photo_uid_array: printPhotoUids,
    printing_count: printingCount,
    client_request_id: printRequestId,
  }),
  result: unlockAndPrintResult,
  errors: ['event_not_found', ...printErrors],
});

const orderSchema = z.object({
  order_id: z.number().int(),
  created_date: z.string(),
  paid_date: z.string().nullable(),
  attendee_uid: z.string(),
  button_text: z.string(),
  amount: z.number().int().describe('Integer cents'),
  currency: currencyField,
  status: z.enum(['open', 'paid', 'refunded']),
  payments: z.array(
    z.object({
      payment_id: z.string(),
      provider: z.string(),
      status: paymentStatusField,
      failure_reason: z.string().nullable(),
      created_date: z.string(),
    }),
  ),
});

export const orderList = defineEndpoint({
  path: `${OWNER_PREFIX}/payment/order-list`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'An event’s orders with their payments, newest first, and the paid totals per day (the event’s local day) and per button, in the minor unit of the organisation’s currency',
  body: z.object({ event_id: idSchema }),
  result: z.object({
    currency: z
      .string()
      .optional()
      .describe('ISO 4217: the organisation’s currency, which the totals are in'),
    orders: z.array(orderSchema),
    totals: z.object({
      paid_amount: z.number().int(),
      paid_count: z.number().int(),
      by_day: z.array(
        z.object({ day: z.string(), amount: z.number().int(), count: z.number().int() }),
      ),
      by_button: z.array(
        z.object({ button_text: z.string(), amount: z.number().int(), count: z.number().int() }),
      ),
    }),
  }),
  errors: ['event_not_found'],
});

export const refundPayment = defineEndpoint({
  path: `${OWNER_PREFIX}/payment/refund`,
  auth: 'owner',
  tag: 'payments',
  summary:
    'Refunds a paid payment of the event at its provider, marks it refunded and locks again what it unlocked (unless another paid order covers it)',
  body: z.object({ event_id: idSchema, payment_id: paymentId }),
  result: paymentStatusResult,
  errors: [
    'event_not_found',
    'not_found',
    'payment_not_paid',
    'payment_refund_unsupported',
    'payment_provider_unavailable',
    'payment_provider_error',
    'payment_provider_refused',
  ],
});
