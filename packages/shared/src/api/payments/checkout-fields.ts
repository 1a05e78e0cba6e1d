// Fields every way of starting a QR checkout shares: the attendee's album, the kiosk, and a
// purchase from a public or private album.
import { z } from 'zod';
import { PAYMENT_STATUSES } from '../../rules/payment-state.ts';

export const paymentStatusField = z.enum(PAYMENT_STATUSES);

export const clientRequestIdField = z
  .string({ error: 'invalid_value' })
  .trim()
  .min(1, 'invalid_value')
  .max(100, 'invalid_value')
  .optional()
  .describe('The same id again answers the same payment (a retried request never pays twice)');

/** A started QR checkout: the payment, the page that pays it, what it costs and where it stands. */
export const qrCheckoutResult = z.object({
  payment_id: z.string(),
  checkout_url: z.string(),
  amount: z.number().int().describe('Integer cents: 1550 is $15.50'),
  currency: z.literal('USD'),
  status: paymentStatusField,
});

/** A payment's public id (`pay_…`); the caller says which call answered it. */
export const paymentIdField = (answeredBy: string) =>
  z
    .string({ error: 'not_found' })
    .trim()
    .min(1, 'not_found')
    .max(100, 'not_found')
    .describe(`The payment id answered ${answeredBy} (\`pay_…\`)`);

/** Where a payment stands. */
export const paymentStatusResult = z.object({ payment_id: z.string(), status: paymentStatusField });

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
