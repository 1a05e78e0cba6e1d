import type { PricingButton } from '@flashbulb/shared';
import type { OrderRow } from '../../repositories/payments/payment.repository.ts';

/**
 * The selling settings of an event (opts: `comboRequired`, `upsellEnabled`, `upsellMessage`) as
 * rules on what a guest already bought there. Pure: the services read the orders and the unlocks,
 * these decide.
 */

/** What a guest bought at an event so far. */
export interface PurchaseHistory {
  /** A paid order, or the album unlocked at the desk (a cash sale). */
  purchased: boolean;
  /** Something of the digitals: the album, its tagged part or single photos (or the desk unlock). */
  digitalBought: boolean;
}

/** Whether an order opens originals (the whole album, a tagged part or listed photos). */
export const sellsDigitals = (order: Pick<OrderRow, 'items' | 'partialUnlockTag'>): boolean =>
  order.partialUnlockTag !== null ||
  order.items.digitals === 'all' ||
  order.items.digitals.length > 0;

/** `paidOrders`: the guest's paid orders at the event; `unlocked`: the album unlocked there. */
export const purchaseHistory = (
  paidOrders: readonly Pick<OrderRow, 'items' | 'partialUnlockTag'>[],
  unlocked: boolean,
): PurchaseHistory => ({
  purchased: unlocked || paidOrders.length > 0,
  digitalBought: unlocked || paidOrders.some(sellsDigitals),
});

/**
 * "Combo required": a print purchase requires a digital one. A button selling prints without the
 * digitals is refused until the guest bought digitals; a button selling both is the combo itself.
 */
export const comboBlocks = (
  opts: { comboRequired?: 0 | 1 },
  button: Pick<PricingButton, 'digitals' | 'prints'>,
  history: PurchaseHistory,
): boolean =>
  opts.comboRequired === 1 && button.prints && !button.digitals && !history.digitalBought;

/**
 * The upsell offered after a first purchase: the operator's message (trimmed; empty when they
 * wrote none), or null when the event offers no upsell or the guest bought nothing yet.
 */
export const upsellOffer = (
  opts: { upsellEnabled?: 0 | 1; upsellMessage?: string },
  history: PurchaseHistory,
): string | null =>
  opts.upsellEnabled === 1 && history.purchased ? (opts.upsellMessage ?? '').trim() : null;
