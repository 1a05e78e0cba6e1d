/** Where a guest pays: on this device (the provider's page or card form), or by QR with a phone. */
export type CheckoutPlace = 'here' | 'qr';

/** Below this width a screen is a phone's (or a small tablet's): it pays itself. */
export const PHONE_MAX_WIDTH = 900;

/**
 * A kiosk shows the QR code (the guest pays with their own phone); a phone — a narrow screen or a
 * touch screen that is not a kiosk — pays on itself; a large screen without touch (a laptop, a
 * desktop) shows the QR code and offers to pay on the device too.
 */
export const checkoutPlace = (device: {
  kiosk: boolean;
  width: number;
  coarsePointer: boolean;
}): CheckoutPlace =>
  device.kiosk ? 'qr' : device.width < PHONE_MAX_WIDTH || device.coarsePointer ? 'here' : 'qr';

/** This browser's place (read when the guest starts paying). */
export const currentCheckoutPlace = (kiosk: boolean): CheckoutPlace =>
  checkoutPlace({
    kiosk,
    width: window.innerWidth,
    coarsePointer: window.matchMedia?.('(pointer: coarse)').matches ?? false,
  });

/**
 * The provider's checkout page, with the way back to this album when the page is our own (the
 * built-in test provider's: it shows "Back to the album" once the payment ended). Other providers'
 * pages are left as they are.
 */
export const checkoutUrlWithReturn = (checkoutUrl: string, location: Location): string => {
  let url: URL;
  try {
    url = new URL(checkoutUrl, location.href);
  } catch {
    return checkoutUrl;
  }
  if (url.origin !== location.origin) return checkoutUrl;
  url.searchParams.set('return', `${location.pathname}${location.search}`);
  return url.toString();
};

/** Leaves for the provider's page (a module function, so tests can replace it). */
export const openCheckoutPage = (url: string): void => window.location.assign(url);

/** A started payment the page remembers across the trip to the provider's page and back. */
export interface StartedPayment {
  payment_id: string;
  checkout_url: string;
  amount: number;
  /** ISO 4217 (the organisation's); USD when a remembered payment names none. */
  currency?: string;
}

const storageKeyOf = (key: string) => `fb-checkout:${key}`;

export const rememberPayment = (key: string, payment: StartedPayment): void => {
  try {
    sessionStorage.setItem(storageKeyOf(key), JSON.stringify(payment));
  } catch {
    // Private mode without storage: the guest comes back to the choice instead.
  }
};

export const recallPayment = (key: string): StartedPayment | null => {
  try {
    const raw = sessionStorage.getItem(storageKeyOf(key));
    if (!raw) return null;
    const value = JSON.parse(raw) as Partial<StartedPayment>;
    return typeof value.payment_id === 'string' &&
      typeof value.checkout_url === 'string' &&
      typeof value.amount === 'number'
      ? { payment_id: value.payment_id, checkout_url: value.checkout_url, amount: value.amount }
      : null;
  } catch {
    return null;
  }
};

export const forgetPayment = (key: string): void => {
  try {
    sessionStorage.removeItem(storageKeyOf(key));
  } catch {
    // Nothing kept.
  }
};
