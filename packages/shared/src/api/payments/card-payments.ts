import { z } from 'zod';
import {
  paymentIdField,
  paymentOfKeyBody,
  paymentStatusField,
  paymentStatusResult,
  paypalOrderResult,
  PROVIDER_PAYMENT_ERRORS,
  saleStartedResult,
} from './checkout-fields.ts';
import { EMAIL_MAX_LENGTH } from '../../rules/identity.ts';
import { defineEndpoint } from '../endpoint.ts';
import { kioskKeyBody } from '../events/events.ts';
import { createQrPayment } from './payments.ts';

/**
 * Card payments through a provider other than the QR checkout (albums
 * spec §7.3): PayPal's card checkout on the album page (the server creates and captures the
 * Orders v2 order; the page only shows PayPal's card form) and the venue's payment terminal
 * started from the kiosk. Amounts come from the event's pricing button, never from the client;
 * both move the same payment state machine as every other provider.
 */

const paymentId = paymentIdField('when the payment started');
const startErrors = createQrPayment.errors;
const paymentOfKey = paymentOfKeyBody(paymentId);
/** What asking a card reader (terminal, Square) about a sale may answer. */
const readerErrors = [
  'invalid_key',
  'unauthorized_user',
  'not_found',
  'payment_provider_unavailable',
  'payment_provider_error',
] as const;

export const paypalSettings = defineEndpoint({
  path: '/payment/paypal/settings',
  auth: 'key',
  tag: 'payments',
  summary:
    'Whether the album page offers PayPal’s card checkout, with the client id and environment its checkout script is loaded with (global settings)',
  body: z.object({ ...kioskKeyBody }),
  result: z.object({
    enabled: z.union([z.literal(0), z.literal(1)]),
    client_id: z.string(),
    environment: z.enum(['sandbox', 'live']),
    script_url: z
      .string()
      .describe(
        'PayPal’s checkout script with its query (client id, USD, capture); empty when off',
      ),
  }),
  errors: ['invalid_key', 'unauthorized_user'],
});

export const paypalCreateOrder = defineEndpoint({
  path: '/payment/paypal/create-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a PayPal card payment for a pricing button (USD, the attendee id as custom id and sku, no shipping): answers the Orders v2 order id PayPal’s card form approves. Idempotent by client_request_id',
  body: createQrPayment.body,
  result: paypalOrderResult,
  errors: startErrors,
});

export const paypalCaptureOrder = defineEndpoint({
  path: '/payment/paypal/capture-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'Captures the approved PayPal order of a payment on the server (the page’s word is never taken): paid unlocks the album; a declined card fails the payment',
  body: paymentOfKey,
  result: paymentStatusResult,
  errors: PROVIDER_PAYMENT_ERRORS,
});

export const terminalPay = defineEndpoint({
  path: '/payment/terminal/pay',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a sale on the venue’s payment terminal (`{terminal}/fcc/pay`) for a pricing button; the kiosk then polls check-status. Idempotent by client_request_id',
  body: createQrPayment.body,
  result: saleStartedResult({ request_id: z.string() }),
  errors: startErrors,
});

export const terminalCheckStatus = defineEndpoint({
  path: '/payment/terminal/check-status',
  auth: 'key',
  tag: 'payments',
  summary:
    'Asks the terminal about a sale (`{terminal}/fcc/check-status`) and moves the payment; `error_message` is the kiosk’s text: “Status check failed”, or “Error code - {code} {message}” for a terminal refusal',
  body: paymentOfKey,
  result: paymentStatusResult.extend({ error_message: z.string().nullable() }),
  errors: ['invalid_key', 'unauthorized_user', 'not_found', 'payment_provider_unavailable'],
});

export const terminalCancel = defineEndpoint({
  path: '/payment/terminal/cancel',
  auth: 'key',
  tag: 'payments',
  summary:
    'Cancels a terminal sale not yet paid (`{terminal}/fcc/cancel`); a sale the terminal already approved stays paid',
  body: paymentOfKey,
  result: paymentStatusResult,
  errors: readerErrors,
});

/**
 * Square card reader at the kiosk (albums spec §7.3): a Terminal checkout on the
 * reader paired in the console (its device id comes from the kiosk link); the event’s Square
 * access token is its `square_access_token` secure field, never sent by the kiosk.
 */
export const squareInitiatePayment = defineEndpoint({
  path: '/attendee/initiate-square-payment',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a sale on the paired Square reader (`POST /v2/terminals/checkouts`, amount in cents, our payment id as idempotency key and reference) for a pricing button; the kiosk then polls check-square-checkout-status. Square takes no sale under $1.00. Idempotent by client_request_id',
  body: createQrPayment.body.extend({
    device_id: z
      .string({ error: 'square_device_required' })
      .trim()
      .min(1, 'square_device_required')
      .max(200, 'invalid_value')
      .describe('The paired reader’s device id (from the kiosk link)'),
  }),
  result: saleStartedResult({ checkout_id: z.string() }),
  errors: [...startErrors, 'square_device_required'],
});

export const squareCheckoutStatus = defineEndpoint({
  path: '/attendee/check-square-checkout-status',
  auth: 'key',
  tag: 'payments',
  summary:
    'Reads the sale’s Terminal checkout from Square (`GET /v2/terminals/checkouts/:id`) and moves the payment: COMPLETED pays (and unlocks), CANCELED cancels, TIMED_OUT expires',
  body: paymentOfKey,
  result: paymentStatusResult.extend({ checkout_status: z.string().nullable() }),
  errors: readerErrors,
});

export const squareCancelCheckout = defineEndpoint({
  path: '/attendee/cancel-square-checkout',
  auth: 'key',
  tag: 'payments',
  summary:
    'Cancels the sale’s Terminal checkout at Square (`POST /v2/terminals/checkouts/:id/cancel`); a checkout the buyer already paid stays paid',
  body: paymentOfKey,
  result: paymentStatusResult,
  errors: readerErrors,
});

/**
 * Shop calls (albums spec §7.3): Shopify draft orders of the event's shop
 * (`shopDomain` opt, `shopify_api_pass` secure field), line items from the pricing button, the
 * event's order tags and, for prints, its shipping address. Paid only on Shopify's word.
 */
const shopErrors = [...startErrors] as const;
const shopSale = createQrPayment.body.extend({
  // A counter sale (paid at the counter) is the kiosk's: its display token with the private key.
  display: kioskKeyBody.display,
  email: z
    .email({ error: 'email_invalid' })
    .max(EMAIL_MAX_LENGTH, 'email_invalid')
    .optional()
    .describe('The buyer’s e-mail for the order (optional)'),
});
const shopStarted = saleStartedResult({
  draft_order_id: z.string(),
  order_id: z.string(),
  invoice_url: z.string(),
});

export const shopifyCreateDraftOrder = defineEndpoint({
  path: '/shopify/admin/create-draft-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a sale as a draft order at the event’s Shopify shop (`POST draft_orders.json`); answers its invoice URL. Idempotent by client_request_id',
  body: shopSale,
  result: shopStarted.omit({ order_id: true }),
  errors: shopErrors,
});

const completeErrors = PROVIDER_PAYMENT_ERRORS;

export const shopifyCompleteDraftOrder = defineEndpoint({
  path: '/shopify/admin/complete-draft-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'The buyer paid at the shop’s counter: completes the draft order (`payment_pending=false`); the payment is paid once Shopify’s order is `paid`',
  body: paymentOfKey,
  result: z.object({ payment_id: z.string(), order_id: z.string(), status: paymentStatusField }),
  errors: completeErrors,
});

export const shopifyCompleteDraftOrderSelfCheckout = defineEndpoint({
  path: '/shopify/admin/complete-draft-order-self-checkout',
  auth: 'key',
  tag: 'payments',
  summary:
    'Completes the draft order as pending payment (`payment_pending=true`): the buyer pays on Shopify’s checkout and `orders/paid` confirms',
  body: shopifyCompleteDraftOrder.body,
  result: shopifyCompleteDraftOrder.result,
  errors: completeErrors,
});

export const shopifyBuyFromKiosk = defineEndpoint({
  path: '/shopify/buy-product-from-kiosk',
  auth: 'key',
  tag: 'payments',
  summary:
    'A counter sale at the shop kiosk: the draft order, completed as paid at the counter; the payment is paid on Shopify’s order',
  body: shopSale,
  result: shopStarted,
  errors: shopErrors,
});

export const shopifyBuyFromKioskSelfCheckout = defineEndpoint({
  path: '/shopify/buy-product-from-kiosk-self-checkout',
  auth: 'key',
  tag: 'payments',
  summary:
    'A self-checkout sale: the draft order whose invoice URL the kiosk shows as a QR code; `orders/paid` confirms',
  body: shopSale,
  result: shopStarted,
  errors: shopErrors,
});

export const shopifySendReceipt = defineEndpoint({
  path: '/shopify/send-receipt',
  auth: 'key',
  tag: 'payments',
  summary:
    'Shopify e-mails the sale’s order invoice to the buyer (`POST draft_orders/:id/send_invoice.json`)',
  body: z.object({
    ...kioskKeyBody,
    payment_id: paymentId,
    email: z.email({ error: 'email_invalid' }).max(EMAIL_MAX_LENGTH, 'email_invalid'),
  }),
  result: z.object({ payment_id: z.string(), sent: z.literal(1) }),
  errors: [...completeErrors, 'email_invalid'],
});
