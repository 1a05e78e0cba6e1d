import {
  checkoutUrlWithReturn,
  openCheckoutPage,
  recallPayment,
  rememberPayment,
  type CheckoutPlace,
  type StartedPayment,
} from './checkout-place.ts';

/** A checkout's step: the guest chooses, or a payment started goes on. */
export type OpeningCheckout =
  | { kind: 'choose'; errorKey: string | null }
  | { kind: 'paying'; payment: StartedPayment; place: CheckoutPlace };

/**
 * A checkout's first step: back from the provider's page, the payment this page started goes on;
 * else the choice. A kiosk's screen takes up none (the next guest is not the payer).
 */
export const openingCheckout = (storageKey: string, kiosk: boolean): OpeningCheckout => {
  const resumed = kiosk ? null : recallPayment(storageKey);
  return resumed
    ? { kind: 'paying', payment: resumed, place: 'here' }
    : { kind: 'choose', errorKey: null };
};

/**
 * A payment just started: a phone pays on the provider's page and comes back to this album (the
 * payment remembered under `storageKey` for `openingCheckout`); a QR place stays on the page.
 */
export const goToCheckout = (
  storageKey: string,
  payment: StartedPayment,
  place: CheckoutPlace,
): void => {
  if (place !== 'here') return;
  rememberPayment(storageKey, payment);
  openCheckoutPage(checkoutUrlWithReturn(payment.checkout_url, window.location));
};
