import { describe, expect, it } from 'vitest';
import {
  PRICE_PREVIEW_PHOTO_COUNTS,
  PRICING_BUTTONS_MAX,
  priceFormulaIssue,
  pricingButtonIssues,
  pricingButtonSchema,
  pricingButtonsSchema,
} from '../src/index.ts';

/**
 * The pricing-button rules the editor and the server share (albums spec §3): a formula is checked
 * at every previewed photo count and for both user types, with the event's unit price and
 * multiplier. price-formula.test.ts covers the formula language itself.
 */

const at = (unitPrice: number | null, multiplier = 1) => ({ unitPrice, multiplier });

describe('a formula checked as the editor previews it', () => {
  it('previews 1, 5 and 20 photos', () => {
    expect([...PRICE_PREVIEW_PHOTO_COUNTS]).toEqual([1, 5, 20]);
  });

  it('is refused when any previewed count fails, not only the first', () => {
    // $2 a photo: $60,000 for one, $1,200,000 for twenty (over the $1,000,000 ceiling).
    expect(priceFormulaIssue('{Final_Amount} * 30000', at(2))).toBe('price_formula_too_large');
    // Negative only for twenty photos ($40).
    expect(priceFormulaIssue('39 - {Final_Amount}', at(2))).toBe('price_formula_negative');
    // Fine at every count.
    expect(priceFormulaIssue('{Final_Amount} * 20000', at(2))).toBeNull();
  });

  it('is refused when it fails for VIPs only', () => {
    expect(priceFormulaIssue('10 / (2 - {USER_TYPE})', at(2))).toBe(
      'price_formula_division_by_zero',
    );
    expect(priceFormulaIssue('10 / (1.5 - {USER_TYPE})', at(2))).toBe('price_formula_negative');
    expect(priceFormulaIssue('10 * {USER_TYPE}', at(2))).toBeNull();
  });

  it('uses the event multiplier and the unit price (none counts as zero)', () => {
    // One photo at $2: {Final_Amount} - 2 is zero without a multiplier, 1 with 1.5.
    expect(priceFormulaIssue('100 / ({Final_Amount} - 2)', at(2))).toBe(
      'price_formula_division_by_zero',
    );
    expect(priceFormulaIssue('100 / ({Final_Amount} - 2)', at(2, 1.5))).toBeNull();
    expect(priceFormulaIssue('100 / {Final_Amount}', at(null))).toBe(
      'price_formula_division_by_zero',
    );
  });

  it('an unparsable formula is invalid whatever the prices', () => {
    expect(priceFormulaIssue('', at(2))).toBe('price_formula_invalid');
    expect(priceFormulaIssue('{Final_Amount} +', at(2))).toBe('price_formula_invalid');
  });
});

describe('the buttons', () => {
  const button = (over: Record<string, unknown> = {}) =>
    pricingButtonSchema.parse({
      buttonText: 'All photos',
      priceFormula: '{Final_Amount}',
      ...over,
    });

  it('at most 20 of them', () => {
    const many = (n: number) => Array.from({ length: n }, () => ({}));
    expect(PRICING_BUTTONS_MAX).toBe(20);
    expect(pricingButtonsSchema.safeParse(many(20)).success).toBe(true);
    const over = pricingButtonsSchema.safeParse(many(21));
    expect(over.success).toBe(false);
    expect(over.error?.issues[0]?.message).toBe('pricing_buttons_too_many');
  });

  it('a printer pool name is checked trimmed; an empty one means the default pool', () => {
    expect(pricingButtonIssues([button({ printsPool: '  Lobby  ' })], at(2))).toEqual([]);
    expect(pricingButtonIssues([button({ printsPool: '   ' })], at(2))).toEqual([]);
    expect(pricingButtonIssues([button({ printsPool: 'two words' })], at(2))).toEqual([
      { field: 'opts.pricingButtons.0.printsPool', key: 'printer_pool_name_invalid' },
    ]);
  });

  it('a button sells digitals, prints or both; every refusal of a button is reported', () => {
    expect(pricingButtonIssues([button({ digitals: false, prints: true })], at(2))).toEqual([]);
    expect(
      pricingButtonIssues(
        [button(), button({ buttonText: '', priceFormula: '1 +', digitals: 0, prints: 0 })],
        at(2),
      ),
    ).toEqual([
      { field: 'opts.pricingButtons.1.buttonText', key: 'pricing_button_text_required' },
      { field: 'opts.pricingButtons.1.priceFormula', key: 'price_formula_invalid' },
      { field: 'opts.pricingButtons.1.digitals', key: 'pricing_button_product_required' },
    ]);
  });

  it('a button selling prints is checked with the print multiplier, one selling digitals without', () => {
    // $2 a photo × 20 photos × 20000 = $800,000; × a print multiplier of 2 = $1,600,000 (too much).
    const context = { unitPrice: 2, multiplier: 1, printMultiplier: 2 };
    const formula = { priceFormula: '{Final_Amount} * 20000' };
    expect(pricingButtonIssues([button(formula)], context)).toEqual([]);
    expect(pricingButtonIssues([button({ ...formula, prints: true })], context)).toEqual([
      { field: 'opts.pricingButtons.0.priceFormula', key: 'price_formula_too_large' },
    ]);
  });
});
