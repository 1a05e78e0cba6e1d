import {
  ALBUM_PAYMENT_METHODS,
  KIOSK_PAYMENT_METHODS,
  type PaymentMethod,
} from '@flashbulb/shared';
import { paysOnAlbumPage } from '../../access/payments-rules.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';

/**
 * Which ways to pay an event offers to a caller: an attendee's key is the album
 * page (`albumPaymentMethods`), every other key a kiosk (`kioskPaymentMethods`). The operator
 * chooses them per event; a start through another method is refused before anything is stored
 * or any provider is asked.
 */
export const offeredMethods = (principal: Principal, event: EventRecord): PaymentMethod[] => {
  const opts = event.row.opts;
  return paysOnAlbumPage(principal)
    ? [...(opts.albumPaymentMethods ?? ALBUM_PAYMENT_METHODS)]
    : [...(opts.kioskPaymentMethods ?? KIOSK_PAYMENT_METHODS)];
};

export const requireOffered = (
  principal: Principal,
  event: EventRecord,
  method: PaymentMethod,
): void => {
  if (!offeredMethods(principal, event).includes(method))
    throw new AppError('payment_method_not_offered');
};

/** The method a provider adapter sells through (the QR checkout's providers are `qr`). */
export const methodOfProvider = (provider: string): PaymentMethod =>
  provider === 'paypal' ||
  provider === 'square' ||
  provider === 'terminal' ||
  provider === 'shopify'
    ? provider
    : 'qr';

/**
 * PayPal's checkout script with its documented query: the client id, the organisation's
 * currency, capture; only the buttons component (its card form is one of them).
 */
export const paypalScriptUrl = (sdkUrl: string, clientId: string, currency: string): string => {
  const script = new URL(sdkUrl);
  script.searchParams.set('client-id', clientId);
  script.searchParams.set('currency', currency);
  script.searchParams.set('intent', 'capture');
  script.searchParams.set('components', 'buttons');
  return script.toString();
};
