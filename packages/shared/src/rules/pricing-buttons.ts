import { z } from 'zod';
import { buttonPriceCents, PRICE_FORMULA_MAX_LENGTH, type PriceResult } from './price-formula.ts';
import { isValidPrinterPoolName } from './text-rules.ts';

/**
 * Pricing buttons (albums spec §3): what a paid event sells at the kiosk and in the
 * album, stored in `opts.pricingButtons`. Validated by the event rules on the server and in the
 * editor alike (`pricingButtonIssues`).
 */

/** The editor previews a button's price for these photo counts; the rules check the same ones. */
export const PRICE_PREVIEW_PHOTO_COUNTS = [1, 5, 20] as const;
export const PRICING_BUTTONS_MAX = 20;

/** Booleans; the legacy editor sends 0/1. */
const bool = z
  .union([z.boolean(), z.literal(0), z.literal(1)], { error: 'invalid_value' })
  .transform((v) => v === true || v === 1);

export const pricingButtonSchema = z.object({
  buttonText: z.string({ error: 'invalid_value' }).max(100, 'invalid_value').default(''),
  priceFormula: z
    .string({ error: 'invalid_value' })
    .max(PRICE_FORMULA_MAX_LENGTH, 'price_formula_invalid')
    .default(''),
  /** Sells the digital originals (the album, or its tagged part). */
  digitals: bool.default(true),
  /** Sells prints of the chosen photos. */
  prints: bool.default(false),
  /** Unlocks only the photos tagged with the attendee's partial-unlock tag. */
  partialUnlockTags: bool.default(false),
  /** The printer pool its prints go to; empty: the event's default pool. */
  printsPool: z.string({ error: 'invalid_value' }).max(80, 'invalid_value').default(''),
});
export type PricingButton = z.output<typeof pricingButtonSchema>;

export const pricingButtonsSchema = z
  .array(pricingButtonSchema, { error: 'invalid_value' })
  .max(PRICING_BUTTONS_MAX, 'pricing_buttons_too_many');

export interface PricingContext {
  unitPrice: number | null;
  /** opts.eventMultiplier */
  multiplier: number;
  /** opts.printMultiplier: multiplies the price of a button that sells prints (default 1). */
  printMultiplier?: number;
}

/** The event's pricing settings a button's price reads (its `opts`). */
export interface EventPricing {
  unitPrice: number | null;
  eventMultiplier: number;
  /** Absent on events stored before it existed: 1. */
  printMultiplier?: number;
}

/**
 * The price in cents of an event's pricing button for `photoCount` photos: `{Final_Amount}` is
 * unit price × photos × event multiplier, and × print multiplier when the button sells prints
 * (a combo of digitals and prints too: its prints make it a print sale).
 */
export const eventButtonPriceCents = (
  button: Pick<PricingButton, 'priceFormula' | 'prints'>,
  opts: EventPricing,
  photoCount: number,
  userType: 1 | 2,
): PriceResult =>
  buttonPriceCents({
    priceFormula: button.priceFormula,
    unitPrice: opts.unitPrice,
    multiplier: opts.eventMultiplier,
    printMultiplier: button.prints ? (opts.printMultiplier ?? 1) : 1,
    photoCount,
    userType,
  });

export interface PricingIssue {
  /** Dotted path under the event, e.g. `opts.pricingButtons.0.priceFormula`. */
  field: string;
  key: string;
}

/**
 * A formula's first refusal over every photo count of the preview and both user types, or null.
 * What the editor previews is what the server accepts.
 */
export const priceFormulaIssue = (
  formula: string,
  context: PricingContext,
  prints = false,
): string | null => {
  for (const photoCount of PRICE_PREVIEW_PHOTO_COUNTS) {
    for (const userType of [1, 2] as const) {
      const result = buttonPriceCents({
        priceFormula: formula,
        unitPrice: context.unitPrice,
        multiplier: context.multiplier,
        printMultiplier: prints ? (context.printMultiplier ?? 1) : 1,
        photoCount,
        userType,
      });
      if (!result.ok) return result.key;
    }
  }
  return null;
};

export const pricingButtonIssues = (
  buttons: readonly PricingButton[],
  context: PricingContext,
): PricingIssue[] => {
  const issues: PricingIssue[] = [];
  buttons.forEach((button, i) => {
    const at = (name: string) => `opts.pricingButtons.${i}.${name}`;
    if (!button.buttonText.trim())
      issues.push({ field: at('buttonText'), key: 'pricing_button_text_required' });
    const formulaKey = priceFormulaIssue(button.priceFormula, context, button.prints);
    if (formulaKey) issues.push({ field: at('priceFormula'), key: formulaKey });
    if (!button.digitals && !button.prints)
      issues.push({ field: at('digitals'), key: 'pricing_button_product_required' });
    if (button.printsPool.trim() && !isValidPrinterPoolName(button.printsPool.trim()))
      issues.push({ field: at('printsPool'), key: 'printer_pool_name_invalid' });
  });
  return issues;
};

/**
 * `{USER_TYPE}`: 2 (VIP) when the attendee id matches the event's VIP pattern, else 1. The
 * pattern is an operator's: `matches` runs it on a linear-time engine (the server's RE2), never
 * JavaScript's backtracking one; one it cannot run matches nothing.
 */
export const userTypeOf = (
  attendeeUid: string | null,
  vipPattern: string,
  matches: (pattern: string, value: string) => boolean,
): 1 | 2 => {
  if (!attendeeUid || !vipPattern) return 1;
  return matches(vipPattern, attendeeUid) ? 2 : 1;
};
