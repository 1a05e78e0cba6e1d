// Fields every way of paying shares: the QR checkout of the attendee's album, the kiosk and a
// purchase from a public or private album, and the card providers (PayPal's card form, terminals,
// Square, Shopify).
import { z } from 'zod';
import { PAYMENT_STATUSES } from '../../rules/payment-state.ts';
import { kioskKeyBody } from '../events/events.ts';

export const paymentStatusField = z.enum(PAYMENT_STATUSES);

export const clientRequestIdField = z
  .string({ error: 'invalid_value' })
  .trim()
  .min(1, 'invalid_value')
  .max(100, 'invalid_value')
  .optional()
  .describe('The same id again answers the same payment (a retried request never pays twice)');

/** The currency of a payment's amounts. */
export const currencyField = z
  .string()
  .describe('ISO 4217: the organisation’s currency; amounts in its minor unit');

/** Which of the event's pricing buttons is bought. */
export const pricingButtonIndexField = z
  .number({ error: 'invalid_value' })
  .int('invalid_value')
  .min(0, 'invalid_value')
  .max(100, 'invalid_value');

/** The photos a guest chose to buy (the call says what buying without them means). */
export const chosenPhotoUidsField = z
  .array(z.string().trim().min(1, 'not_found').max(100, 'not_found'), {
    error: 'photos_required',
  })
  .min(1, 'photos_required')
  .max(500, 'invalid_value');

/** How many photos a price is asked for (the call says what asking without it means). */
export const photoCountField = z
  .number({ error: 'invalid_value' })
  .int('invalid_value')
  .min(1, 'invalid_value')
  .max(10_000, 'invalid_value')
  .optional();

/** What starting a payment may answer once the caller is let in: the price, the provider. */
export const PAYMENT_START_ERRORS = [
  'payment_provider_unavailable',
  'price_formula_invalid',
  'price_formula_division_by_zero',
  'price_formula_negative',
  'price_formula_too_large',
  'payment_amount_below_minimum',
  'payment_method_not_offered',
  'payment_provider_error',
  'payment_provider_refused',
  'printing_not_active',
  'combo_digital_required',
  'per_request_count_error',
] as const;

/** What a call that asks the provider about a started payment (capture, complete) may answer. */
export const PROVIDER_PAYMENT_ERRORS = [
  'invalid_key',
  'unauthorized_user',
  'not_found',
  'payment_provider_unavailable',
  'payment_provider_error',
  'payment_provider_refused',
] as const;

/** A started QR checkout: the payment, the page that pays it, what it costs and where it stands. */
export const qrCheckoutResult = z.object({
  payment_id: z.string(),
  checkout_url: z.string(),
  amount: z.number().int().describe('Integer cents: 1550 is $15.50'),
  currency: currencyField,
  status: paymentStatusField,
});

/**
 * A sale started at a provider (PayPal's card form, a terminal, Square, Shopify): the payment,
 * the provider's names for it (the call says which), what it charges and where it stands.
 */
export const saleStartedResult = <R extends Record<string, z.ZodString>>(providerIds: R) =>
  z.object({
    payment_id: z.string(),
    ...providerIds,
    amount: z.number().int(),
    currency: currencyField,
    status: paymentStatusField,
  });

/** A card payment started at PayPal: the Orders v2 order its card form approves. */
export const paypalOrderResult = saleStartedResult({ order_id: z.string() });

/** A payment's public id (`pay_…`); the caller says which call answered it. */
export const paymentIdField = (answeredBy: string) =>
  z
    .string({ error: 'not_found' })
    .trim()
    .min(1, 'not_found')
    .max(100, 'not_found')
    .describe(`The payment id answered ${answeredBy} (\`pay_…\`)`);

/** A call about a payment of the key's event (its status, its cancel, a provider's next step). */
export const paymentOfKeyBody = (paymentId: ReturnType<typeof paymentIdField>) =>
  z.object({ ...kioskKeyBody, payment_id: paymentId });

/** Where a payment stands. */
export const paymentStatusResult = z.object({ payment_id: z.string(), status: paymentStatusField });

/** Where a payment stands and what it charges (the checkout's polls). */
export const paymentChargeResult = paymentStatusResult.extend({
  amount: z.number().int(),
  currency: currencyField,
});

/**
 * What cancelling a pending payment through a key may answer (a real provider's checkout is
 * closed there first).
 */
export const PAYMENT_CANCEL_ERRORS = [
  'invalid_key',
  'unauthorized_user',
  'not_found',
  'payment_provider_error',
  'payment_provider_refused',
] as const;

/** The event's message shown with the digital product (`opts.digitalProductMessage`). */
export const digitalMessageField = z
  .string()
  .default('')
  .describe('The event’s text shown with the buttons that sell digital photos; empty: none');

/** A pricing button as a guest sees it, priced for the photos in question. */
export const pricedButtonSchema = z.object({
  index: z.number().int(),
  button_text: z.string(),
  digitals: z.boolean(),
  prints: z.boolean(),
  amount: z
    .number()
    .int()
    .nullable()
    .describe('Integer cents; null when the event hides prices or the formula is refused'),
  requires_digital: z
    .boolean()
    .default(false)
    .describe(
      'True when the event sells prints only with the digital photos (combo required) and this button sells prints alone before the buyer bought digitals: a start is refused (`combo_digital_required`)',
    ),
});

/**
 * The event's pricing buttons priced for a guest (the album page's and the kiosk's): whether the
 * event is free, the currency, how many photos were priced, the ways to pay and the buttons.
 */
export const pricedButtonsResult = z.object({
  is_free: z.union([z.literal(0), z.literal(1)]),
  currency: currencyField,
  photo_count: z.number().int(),
  methods: z.array(z.string()),
  digital_message: digitalMessageField,
  buttons: z.array(pricedButtonSchema),
});
