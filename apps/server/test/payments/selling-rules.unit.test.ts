/**
 * The selling settings' rules on plain values (no app, no database): what a guest has bought at an
 * event, when "combo required" refuses a print sale, when the upsell is offered and with which
 * message. The wiring (the pricing-button list, the refusals of a checkout) is in checkout.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  comboBlocks,
  purchaseHistory,
  sellsDigitals,
  upsellOffer,
} from '../../src/services/payments/selling-rules.ts';

const order = (digitals: string[] | 'all', partialUnlockTag: string | null = null) => ({
  items: { digitals, prints: digitals === 'all' ? [] : [...digitals] },
  partialUnlockTag,
});
const printsOnly = { digitals: false, prints: true };
const combo = { digitals: true, prints: true };
const digitalsOnly = { digitals: true, prints: false };

describe('what a guest bought', () => {
  it('an order sells digitals when it opens the album, its tagged part or listed photos', () => {
    expect(sellsDigitals(order('all'))).toBe(true);
    expect(sellsDigitals(order(['p1']))).toBe(true);
    expect(sellsDigitals(order([], 'vip'))).toBe(true);
    expect(sellsDigitals(order([]))).toBe(false);
  });

  it('a desk unlock (cash sale) is a purchase of the digitals; a prints-only order is not', () => {
    expect(purchaseHistory([], false)).toEqual({ purchased: false, digitalBought: false });
    expect(purchaseHistory([], true)).toEqual({ purchased: true, digitalBought: true });
    expect(purchaseHistory([order([])], false)).toEqual({ purchased: true, digitalBought: false });
    expect(purchaseHistory([order([]), order(['p1'])], false)).toEqual({
      purchased: true,
      digitalBought: true,
    });
  });
});

describe('combo required', () => {
  const none = purchaseHistory([], false);
  const bought = purchaseHistory([order('all')], false);

  it('blocks a prints-only button until the guest bought the digitals', () => {
    expect(comboBlocks({ comboRequired: 1 }, printsOnly, none)).toBe(true);
    expect(comboBlocks({ comboRequired: 1 }, printsOnly, bought)).toBe(false);
  });

  it('never blocks a button that sells the digitals with the prints, or digitals alone', () => {
    expect(comboBlocks({ comboRequired: 1 }, combo, none)).toBe(false);
    expect(comboBlocks({ comboRequired: 1 }, digitalsOnly, none)).toBe(false);
  });

  it('off (the default, or an event stored before it existed): prints sell alone', () => {
    expect(comboBlocks({ comboRequired: 0 }, printsOnly, none)).toBe(false);
    expect(comboBlocks({}, printsOnly, none)).toBe(false);
  });
});

describe('the upsell', () => {
  const on = { upsellEnabled: 1 as const, upsellMessage: '  Add prints for $5!  ' };

  it('is offered with the operator’s message once the guest made a first purchase', () => {
    expect(upsellOffer(on, purchaseHistory([], false))).toBeNull();
    expect(upsellOffer(on, purchaseHistory([order(['p1'])], false))).toBe('Add prints for $5!');
    expect(upsellOffer(on, purchaseHistory([], true))).toBe('Add prints for $5!');
  });

  it('on without a message: offered with an empty message (the page says it in its own words)', () => {
    expect(upsellOffer({ upsellEnabled: 1, upsellMessage: ' ' }, purchaseHistory([], true))).toBe(
      '',
    );
  });

  it('off: never offered, whatever the message', () => {
    expect(upsellOffer({ ...on, upsellEnabled: 0 }, purchaseHistory([], true))).toBeNull();
    expect(upsellOffer({}, purchaseHistory([], true))).toBeNull();
  });
});
