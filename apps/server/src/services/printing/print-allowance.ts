/**
 * What a guest's screen may print at a paid event (albums spec §3 pricing button `prints`): prints
 * are sold like digitals. A free event prints freely, and so does a paid event whose owner marks
 * prints free (`opts.printsFree`, the Printing tab); otherwise a print from a guest's screen
 * (kiosk, private album) spends prints a paid order of that attendee bought — one per photo
 * printed once — and nothing else prints. The operator's own prints and the desk's unlock-and-print
 * (an employee's code: a cash sale) are not guests' prints and are not limited here.
 *
 * Rules only (plain values); the spending itself is one conditional update in
 * PrintJobRepository.insertSheets, so racing kiosks never print more than was bought.
 */

export interface PrintPricing {
  is_free: number;
  opts: { printsFree: number };
}

/** A guest's order as far as prints go. */
export interface PrintPurchase {
  id: number;
  status: 'open' | 'paid' | 'refunded';
  /** The photos bought as prints (one print each). */
  prints: readonly string[];
  /** Prints of it already printed at a kiosk. */
  printsUsed: number;
  /**
   * False for a purchase made at a kiosk: its prints wait for the guest's "Print" there. True (or
   * absent, orders stored before kiosks spent prints): printed at once when paid, nothing to spend.
   */
  printOnPayment?: boolean;
}

/** An order row as a purchase of prints. */
export const printPurchaseOf = (order: {
  id: number;
  status: PrintPurchase['status'];
  items: { prints: string[]; printOnPayment?: boolean };
  printsUsed: number;
}): PrintPurchase => ({
  id: order.id,
  status: order.status,
  prints: order.items.prints,
  printsUsed: order.printsUsed,
  ...(order.items.printOnPayment === undefined
    ? {}
    : { printOnPayment: order.items.printOnPayment }),
});

/** `free`: print without buying; `bought`: only what a paid order bought. */
export const printPolicy = (event: PrintPricing): 'free' | 'bought' =>
  event.is_free === 1 || event.opts.printsFree === 1 ? 'free' : 'bought';

/** Prints of one purchase the guest may still print at a kiosk. */
export const printsLeft = (order: PrintPurchase): number =>
  order.status === 'paid' && order.printOnPayment === false
    ? Math.max(0, order.prints.length - order.printsUsed)
    : 0;

/** Prints the guest may still print, over all their purchases at the event. */
export const printsRemaining = (orders: readonly PrintPurchase[]): number =>
  orders.reduce((sum, order) => sum + printsLeft(order), 0);

/** How many prints a request spends: each photo once per copy. */
export const printsNeeded = (photoUids: readonly string[], copies: number): number =>
  new Set(photoUids).size * copies;

/**
 * The purchases that could pay for printing these photos (every photo bought in it, enough prints
 * left), oldest first. Empty: the print is refused (`prints_not_paid`).
 */
export const coveringPurchases = (
  orders: readonly PrintPurchase[],
  photoUids: readonly string[],
  copies: number,
): number[] => {
  const needed = printsNeeded(photoUids, copies);
  return [...orders]
    .filter(
      (order) =>
        printsLeft(order) >= needed && photoUids.every((uid) => order.prints.includes(uid)),
    )
    .sort((a, b) => a.id - b.id)
    .map((order) => order.id);
};
