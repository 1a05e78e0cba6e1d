import { describe, expect, it } from 'vitest';
import {
  buttonPriceCents,
  eventButtonPriceCents,
  defaultEventSettings,
  eventRuleIssues,
  parsePriceFormula,
  priceFormulaCents,
  pricingButtonSchema,
  userTypeOf,
  type EventSettings,
  type PricingButton,
} from '../src/index.ts';

const regular = (Final_Amount: number) => ({ Final_Amount, USER_TYPE: 1 as const });

describe('price formula: values in cents', () => {
  it.each([
    // precedence and associativity
    ['2 + 3 * 4', 0, 1400],
    ['(2 + 3) * 4', 0, 2000],
    ['10 - 4 - 3', 0, 300],
    ['100 / 10 / 2', 0, 500],
    ['2 * 3 + 4 * 5', 0, 2600],
    ['20 - 2 * 3', 0, 1400],
    // unary minus binds tighter than * and /
    ['-2 * -3', 0, 600],
    ['10 + -2', 0, 800],
    ['--5', 0, 500],
    ['-(2 - 7)', 0, 500],
    ['+4', 0, 400],
    // decimals, exact (no binary float drift)
    ['0.1 + 0.2', 0, 30],
    ['.5 + 1.', 0, 150],
    ['19.99', 0, 1999],
    ['1.005', 0, 101], // half a cent rounds away from zero; a float would give 100
    ['1.004999', 0, 100],
    ['2.675', 0, 268],
    ['10 / 3', 0, 333],
    ['20 / 3', 0, 667],
    ['0.001', 0, 0],
    ['0.005', 0, 1],
    // variables
    ['{Final_Amount}', 15.5, 1550],
    ['{Final_Amount} * 0.9', 15.5, 1395],
    ['{Final_Amount} + {USER_TYPE}', 1, 200],
    ['{Final_Amount} * 1.0825', 9.99, 1081], // 10.814175
    // functions
    ['min(5, 3, 4)', 0, 300],
    ['max(5, 3, 4)', 0, 500],
    ['MAX(1)', 0, 100],
    ['min({Final_Amount}, 25)', 40, 2500],
    ['max({Final_Amount} - 5, 0)', 3, 0],
    ['min(max(1, 2) * 3, 10 / 2)', 0, 500],
    // white space anywhere between tokens
    ['  ( 1 +2 )*  3 ', 0, 900],
  ])('%s with Final_Amount %d → %d cents', (formula, amount, cents) => {
    expect(priceFormulaCents(formula, regular(amount))).toEqual({ ok: true, cents });
  });
});

describe('price formula: refusals', () => {
  it.each([
    '',
    '   ',
    '2 +',
    '* 2',
    '(2 + 3',
    '2 + 3)',
    '2 3',
    '1.2.3',
    '2(3)',
    '{Final_amount}',
    '{Unit_Price}',
    '{Final_Amount',
    'Final_Amount',
    'abs(2)',
    'min()',
    'min(1,)',
    'max 1, 2',
    '2 ^ 3',
    '2 % 3',
    '1e3',
    'constructor',
    'alert(1)',
    '1234567890123456', // 16 digits in one literal
    `${'('.repeat(60)}1${')'.repeat(60)}`,
    '1+'.repeat(300) + '1', // longer than 500 characters
  ])('%j does not parse', (formula) => {
    const result = priceFormulaCents(formula, regular(10));
    expect(result).toMatchObject({ ok: false, key: 'price_formula_invalid' });
  });

  it('says where a formula stops parsing', () => {
    expect(parsePriceFormula('1 + + * 2')).toEqual({
      ok: false,
      key: 'price_formula_invalid',
      position: 6,
    });
    expect(parsePriceFormula('2 + {Foo}')).toMatchObject({ position: 4 });
  });

  it.each([
    ['1 / 0', 10],
    ['{Final_Amount} / ({USER_TYPE} - 1)', 10],
    ['5 / {Final_Amount}', 0],
    ['max(1, 2 / (3 - 3))', 0],
  ])('%s divides by zero', (formula, amount) => {
    expect(priceFormulaCents(formula, regular(amount))).toEqual({
      ok: false,
      key: 'price_formula_division_by_zero',
    });
  });

  it.each(['-1', '{Final_Amount} - 20', 'min(-0.01, 5)', '0 - 0.005'])(
    '%s comes out negative',
    (formula) => {
      expect(priceFormulaCents(formula, regular(10))).toEqual({
        ok: false,
        key: 'price_formula_negative',
      });
    },
  );

  it('a negative intermediate that ends positive is fine; -0.004 rounds to zero cents', () => {
    expect(priceFormulaCents('-5 + 10', regular(0))).toEqual({ ok: true, cents: 500 });
    expect(priceFormulaCents('0 - 0.004', regular(0))).toEqual({ ok: true, cents: 0 });
  });

  it('refuses a price over $1,000,000', () => {
    expect(priceFormulaCents('1000000.01', regular(0))).toMatchObject({
      key: 'price_formula_too_large',
    });
    expect(priceFormulaCents('1000000', regular(0))).toEqual({ ok: true, cents: 100_000_000 });
  });
});

describe('button price', () => {
  it('Final_Amount is unit price × photos × event multiplier, exact', () => {
    const price = (photoCount: number, userType: 1 | 2 = 1) =>
      buttonPriceCents({
        priceFormula: '{Final_Amount} / {USER_TYPE}',
        unitPrice: 19.99,
        multiplier: 1.1,
        photoCount,
        userType,
      });
    expect(price(3)).toEqual({ ok: true, cents: 6597 }); // 65.967
    expect(price(1)).toEqual({ ok: true, cents: 2199 }); // 21.989
    expect(price(20, 2)).toEqual({ ok: true, cents: 21989 }); // 439.78 / 2
  });

  it('a button selling prints multiplies Final_Amount by the print multiplier too, exact', () => {
    const input = {
      priceFormula: '{Final_Amount}',
      unitPrice: 2,
      multiplier: 1.5,
      photoCount: 3,
      userType: 1 as const,
    };
    // 2 × 3 × 1.5 = 9.00; the print multiplier 1.1 makes it 9.90 (not 9.900000000000002).
    expect(buttonPriceCents(input)).toEqual({ ok: true, cents: 900 });
    expect(buttonPriceCents({ ...input, printMultiplier: 1.1 })).toEqual({ ok: true, cents: 990 });
    const opts = { unitPrice: 2, eventMultiplier: 1.5, printMultiplier: 1.1 };
    const button = { priceFormula: '{Final_Amount}' };
    expect(eventButtonPriceCents({ ...button, prints: true }, opts, 3, 1)).toEqual({
      ok: true,
      cents: 990,
    });
    // Digitals only: the print multiplier does not apply.
    expect(eventButtonPriceCents({ ...button, prints: false }, opts, 3, 1)).toEqual({
      ok: true,
      cents: 900,
    });
  });

  it('no unit price counts as zero', () => {
    expect(
      buttonPriceCents({
        priceFormula: '{Final_Amount} + 5',
        unitPrice: null,
        multiplier: 1,
        photoCount: 5,
        userType: 1,
      }),
    ).toEqual({ ok: true, cents: 500 });
  });

  it('USER_TYPE is 2 when the attendee id matches the VIP pattern', () => {
    // The server passes its RE2 matcher; these stand-ins are trusted test patterns.
    const jsMatch = (pattern: string, value: string) => new RegExp(pattern).test(value);
    const noMatch = () => false;
    expect(userTypeOf('VIP0042', '^VIP', jsMatch)).toBe(2);
    expect(userTypeOf('GUEST42', '^VIP', jsMatch)).toBe(1);
    expect(userTypeOf('VIP0042', '', jsMatch)).toBe(1);
    expect(userTypeOf(null, '^VIP', jsMatch)).toBe(1);
    expect(userTypeOf('VIP0042', '(', noMatch)).toBe(1);
  });
});

describe('pricing buttons in the event rules', () => {
  const event = (
    buttons: Partial<PricingButton>[],
    unitPrice: number | null = 2,
  ): EventSettings => {
    const d = defaultEventSettings();
    return {
      ...d,
      full_name: 'Gala',
      email_from_address: 'photos@gala.example',
      opts: {
        ...d.opts,
        description: 'Gala',
        unitPrice,
        pricingButtons: buttons.map((b) => pricingButtonSchema.parse(b)),
      },
    };
  };
  const issues = (buttons: Partial<PricingButton>[], unitPrice?: number | null) =>
    eventRuleIssues(event(buttons, unitPrice)).map((i) => `${i.field}:${i.key}`);

  it('accepts good buttons and defaults a button to digitals', () => {
    expect(issues([{ buttonText: 'All photos', priceFormula: '{Final_Amount}' }])).toEqual([]);
    expect(pricingButtonSchema.parse({})).toEqual({
      buttonText: '',
      priceFormula: '',
      digitals: true,
      prints: false,
      partialUnlockTags: false,
      printsPool: '',
    });
    expect(pricingButtonSchema.parse({ digitals: 0, prints: 1 })).toMatchObject({
      digitals: false,
      prints: true,
    });
  });

  it('marks the field of each refusal', () => {
    expect(
      issues([
        { buttonText: ' ', priceFormula: '10' },
        { buttonText: 'B', priceFormula: '10 +' },
        { buttonText: 'C', priceFormula: '-10 / ({USER_TYPE} - 2)' }, // $10 regular, zero for VIPs
        { buttonText: 'D', priceFormula: '30 - {Final_Amount}' }, // 20 photos × $2 = 40
        { buttonText: 'E', priceFormula: '1', digitals: false, prints: false },
        { buttonText: 'F', priceFormula: '1', printsPool: 'no spaces' },
      ]),
    ).toEqual([
      'opts.pricingButtons.0.buttonText:pricing_button_text_required',
      'opts.pricingButtons.1.priceFormula:price_formula_invalid',
      'opts.pricingButtons.2.priceFormula:price_formula_division_by_zero',
      'opts.pricingButtons.3.priceFormula:price_formula_negative',
      'opts.pricingButtons.4.digitals:pricing_button_product_required',
      'opts.pricingButtons.5.printsPool:printer_pool_name_invalid',
    ]);
  });

  it('checks a formula against the unit price it will be sold at', () => {
    const divides = [{ buttonText: 'A', priceFormula: '100 / {Final_Amount}' }];
    expect(issues(divides, 2)).toEqual([]);
    expect(issues(divides, null)).toEqual([
      'opts.pricingButtons.0.priceFormula:price_formula_division_by_zero',
    ]);
  });
});
