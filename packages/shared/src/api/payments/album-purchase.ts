import { z } from 'zod';
import { isValidEmail } from '../../rules/identity.ts';
import {
  chosenPhotoUidsField,
  clientRequestIdField,
  PAYMENT_CANCEL_ERRORS,
  paymentChargeResult,
  PAYMENT_START_ERRORS,
  paymentIdField,
  paymentOfKeyBody,
  paymentStatusResult,
  paypalOrderResult,
  photoCountField,
  pricedButtonsResult,
  pricingButtonIndexField,
  PROVIDER_PAYMENT_ERRORS,
  qrCheckoutResult,
} from './checkout-fields.ts';
import { defineEndpoint } from '../endpoint.ts';
import { kioskKeyBody } from '../events/events.ts';

/**
 * Buying from a public or private album of a paid event (no attendee album yet): the guest picks
 * photos or the whole event, pays, and once the provider confirms gets a personal album (an
 * attendee key) holding what was bought, on screen and by e-mail. Amounts are integer cents, USD.
 */

const purchasePaymentBody = paymentOfKeyBody(paymentIdField('by album-purchase/create'));

export const albumPurchasePricing = defineEndpoint({
  path: '/payment/album-purchase/pricing-buttons',
  auth: 'key',
  tag: 'payments',
  summary:
    'A public or private album of a paid event: the event’s pricing buttons priced for the photos the key sees (the whole event) or for `photo_count` chosen photos; amounts null when the event hides prices',
  body: z.object({
    ...kioskKeyBody,
    photo_count: photoCountField.describe(
      'Photos chosen; without: every photo of the event the key sees',
    ),
  }),
  result: pricedButtonsResult.extend({
    methods: z.array(z.string()).describe('The ways to pay this album page offers'),
    max_print_photos: z
      .number()
      .int()
      .describe(
        'The most photos one purchase may print (the event’s max_print_photos_count): a button selling prints refuses more (`per_request_count_error`)',
      ),
    card_script_url: z
      .string()
      .optional()
      .describe(
        'PayPal’s checkout script for its card form (client id, currency, capture) when this album offers PayPal and it is set up; empty or absent: no card form',
      ),
  }),
  errors: ['invalid_key', 'unauthorized_user'],
});

export const albumPurchaseCreate = defineEndpoint({
  path: '/payment/album-purchase/create',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a purchase from a public or private album of a paid event: the chosen photos (or every photo the key sees) for a pricing button. The buyer’s personal album is made (or the one named by `buyer_album_uid` reused); it receives the photos, and they open, only once the provider confirms. Idempotent by client_request_id',
  body: z.object({
    ...kioskKeyBody,
    pricing_button_index: pricingButtonIndexField,
    photo_uids: chosenPhotoUidsField
      .optional()
      .describe('The photos chosen; without: every photo of the event the key sees'),
    email: z
      .string({ error: 'email_invalid' })
      .trim()
      .max(254, 'email_invalid')
      .refine((value) => value === '' || isValidEmail(value), 'email_invalid')
      .optional()
      .describe('Where the receipt and the personal album link go (optional)'),
    buyer_album_uid: z
      .string({ error: 'invalid_attendee_id' })
      .trim()
      .max(100, 'invalid_attendee_id')
      .optional()
      .describe(
        'The personal album of an earlier purchase on this device (its attendee id): bought photos join it',
      ),
    client_request_id: clientRequestIdField,
  }),
  result: qrCheckoutResult,
  errors: [
    'invalid_key',
    'unauthorized_user',
    'invalid_value',
    'not_found',
    'photos_required',
    'email_invalid',
    ...PAYMENT_START_ERRORS,
  ],
});

export const albumPurchaseStatus = defineEndpoint({
  path: '/payment/album-purchase/status',
  auth: 'key',
  tag: 'payments',
  summary:
    'Where a purchase from the album stands; once paid and handed over, the buyer’s personal album (its attendee id and link)',
  body: purchasePaymentBody,
  result: paymentChargeResult.extend({
    album_uid: z
      .string()
      .nullable()
      .describe('The personal album’s attendee id: only once paid and its photos are in it'),
    album_url: z.string().nullable(),
  }),
  errors: ['invalid_key', 'unauthorized_user', 'not_found'],
});

export const albumPurchaseCancel = defineEndpoint({
  path: '/payment/album-purchase/cancel',
  auth: 'key',
  tag: 'payments',
  summary:
    'The guest left the checkout: the pending payment is cancelled and its link stops working; a payment already paid stays paid',
  body: purchasePaymentBody,
  result: paymentStatusResult,
  errors: PAYMENT_CANCEL_ERRORS,
});

/** The start of a purchase's card payment answers PayPal's order id for its card form. */
export const albumPurchasePayPalOrder = defineEndpoint({
  path: '/payment/album-purchase/paypal/create-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'Starts a purchase from a public or private album paid in PayPal’s card form: the same photos, buyer’s album and checks as album-purchase/create, answered with the Orders v2 order id the form approves. Idempotent by client_request_id',
  body: albumPurchaseCreate.body,
  result: paypalOrderResult,
  errors: albumPurchaseCreate.errors,
});

export const albumPurchasePayPalCapture = defineEndpoint({
  path: '/payment/album-purchase/paypal/capture-order',
  auth: 'key',
  tag: 'payments',
  summary:
    'Captures the approved PayPal order of an album purchase on the server (the page’s word is never taken): paid hands the photos to the buyer’s album; a declined card fails the payment',
  body: purchasePaymentBody,
  result: paymentStatusResult,
  errors: PROVIDER_PAYMENT_ERRORS,
});
