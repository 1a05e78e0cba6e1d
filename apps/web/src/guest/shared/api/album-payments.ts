import * as endpoints from '../../../lib/guest-endpoints.ts';
import { useQuery } from '@tanstack/react-query';
import { type ResultOf } from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';
import { kioskKeyFields } from './kiosk-key.ts';

export type QrPayment = ResultOf<typeof endpoints.createQrPayment>;

const attendeeKey = (attendeeUid: string) => ({
  key_type: 'attendee' as const,
  key_value: attendeeUid,
});

/**
 * The paid event's buttons priced for this attendee's album, or for `photoCount` chosen photos
 * (amounts null when prices are hidden). The server prices them; the page never computes money.
 */
export const usePricingButtons = (
  attendeeUid: string,
  enabled: boolean,
  photoCount: number | null = null,
  /**
   * The kiosk's private key (sent with its link's display token): asked with it, `methods` are the
   * kiosk's ways to pay (the reader, the terminal) rather than the attendee album page's.
   */
  kioskKey: string | null = null,
) =>
  useQuery({
    enabled,
    queryKey: ['albums', 'attendee', attendeeUid, 'pricing-buttons', photoCount, kioskKey !== null],
    queryFn: ({ signal }) =>
      callApi(
        endpoints.pricingButtonList,
        {
          ...(kioskKey ? kioskKeyFields(kioskKey) : attendeeKey(attendeeUid)),
          attendee_uid: attendeeUid,
          ...(photoCount !== null ? { photo_count: photoCount } : {}),
        },
        { signal },
      ),
    staleTime: 60_000,
    placeholderData: (previous) => previous,
    retry: false,
  });

/**
 * Starts a payment for the whole album, or for the chosen `photoUids`; `requestId` makes a retried
 * click answer the same payment.
 */
export const startQrPayment = (
  attendeeUid: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[] | null = null,
) =>
  callApi(endpoints.createQrPayment, {
    ...attendeeKey(attendeeUid),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    ...(photoUids ? { photo_uids: [...photoUids] } : {}),
  });

/**
 * Prints bought at the kiosk's print step (the kiosk's key with its display token): they wait for
 * the guest's "Print" there instead of printing when paid.
 */
export const startKioskPrintsPayment = (
  kioskKey: string,
  attendeeUid: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[],
) =>
  callApi(endpoints.createQrPayment, {
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    photo_uids: [...photoUids],
  });

/** The kiosk's poll of a payment it started (its key with its display token). */
export const checkKioskPayment = (kioskKey: string, paymentId: string) =>
  callApi(endpoints.checkQrStatus, { ...kioskKeyFields(kioskKey), payment_id: paymentId });

export const checkQrPayment = (attendeeUid: string, paymentId: string) =>
  callApi(endpoints.checkQrStatus, { ...attendeeKey(attendeeUid), payment_id: paymentId });

/** The guest left the checkout: the payment is cancelled and its link closed (paid stays paid). */
export const cancelQrPayment = (attendeeUid: string, paymentId: string) =>
  callApi(endpoints.disableQrLink, { ...attendeeKey(attendeeUid), payment_id: paymentId });

/** A public or private album's key (the album purchase calls). */
export interface AlbumSaleKey {
  keyType: 'public' | 'private';
  keyValue: string;
}
const saleKeyFields = (key: AlbumSaleKey) => ({ key_type: key.keyType, key_value: key.keyValue });

/** A public or private album's buttons priced for every photo it shows, or for `photoCount` chosen. */
export const useAlbumPurchasePricing = (
  key: AlbumSaleKey,
  enabled: boolean,
  photoCount: number | null = null,
) =>
  useQuery({
    enabled,
    queryKey: ['albums', key.keyType, key.keyValue, 'purchase-pricing', photoCount],
    queryFn: ({ signal }) =>
      callApi(
        endpoints.albumPurchasePricing,
        { ...saleKeyFields(key), ...(photoCount !== null ? { photo_count: photoCount } : {}) },
        { signal },
      ),
    staleTime: 60_000,
    placeholderData: (previous) => previous,
    retry: false,
  });

/** What a purchase from the album names: the button, the photos, the buyer's e-mail and album. */
export type AlbumPurchaseInput = {
  buttonIndex: number;
  requestId: string;
  photoUids: readonly string[] | null;
  email: string;
  buyerAlbumUid: string | null;
};

const purchaseFields = (key: AlbumSaleKey, input: AlbumPurchaseInput) => ({
  ...saleKeyFields(key),
  pricing_button_index: input.buttonIndex,
  client_request_id: input.requestId,
  ...(input.photoUids ? { photo_uids: [...input.photoUids] } : {}),
  ...(input.email.trim() ? { email: input.email.trim() } : {}),
  ...(input.buyerAlbumUid ? { buyer_album_uid: input.buyerAlbumUid } : {}),
});

/**
 * Starts a purchase from the album: the chosen photos (or all of them); the buyer's album of an
 * earlier purchase on this device receives them too.
 */
export const startAlbumPurchase = (key: AlbumSaleKey, input: AlbumPurchaseInput) =>
  callApi(endpoints.albumPurchaseCreate, purchaseFields(key, input));

export const checkAlbumPurchase = (key: AlbumSaleKey, paymentId: string) =>
  callApi(endpoints.albumPurchaseStatus, { ...saleKeyFields(key), payment_id: paymentId });

export const cancelAlbumPurchase = (key: AlbumSaleKey, paymentId: string) =>
  callApi(endpoints.albumPurchaseCancel, { ...saleKeyFields(key), payment_id: paymentId });

/** Starts a purchase paid in PayPal's card form: the server makes the order the form approves. */
export const createAlbumPurchasePayPalOrder = (key: AlbumSaleKey, input: AlbumPurchaseInput) =>
  callApi(endpoints.albumPurchasePayPalOrder, purchaseFields(key, input));

/** The server captures the purchase's approved PayPal order; only its answer says paid. */
export const captureAlbumPurchasePayPalOrder = (key: AlbumSaleKey, paymentId: string) =>
  callApi(endpoints.albumPurchasePayPalCapture, { ...saleKeyFields(key), payment_id: paymentId });

/**
 * The desk: an employee's unlock code unlocks the album (a cash sale), with the kiosk's key and
 * the display token of its link (the server refuses a private key alone).
 */
export const unlockAtDesk = (kioskKey: string, attendeeUid: string, code: string) =>
  callApi(endpoints.attendeeUnlock, {
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    unlock_code: code,
  });

/** The desk unlock plus a print request; `requestId` makes a retried click print once. */
export const unlockAndPrintAtDesk = (
  kioskKey: string,
  attendeeUid: string,
  code: string,
  photoUids: string[],
  requestId: string,
) =>
  callApi(endpoints.attendeeUnlockAndPrint, {
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    unlock_code: code,
    photo_uid_array: photoUids,
    client_request_id: requestId,
  });

export type PayPalSettings = ResultOf<typeof endpoints.paypalSettings>;

/** Whether this album offers PayPal's card checkout, and the script it loads (server settings). */
export const usePayPalSettings = (attendeeUid: string, enabled: boolean) =>
  useQuery({
    enabled,
    queryKey: ['albums', 'attendee', attendeeUid, 'paypal-settings'],
    queryFn: ({ signal }) =>
      callApi(endpoints.paypalSettings, attendeeKey(attendeeUid), { signal }),
    staleTime: 5 * 60_000,
    retry: false,
  });

/** Starts a PayPal card payment: the server makes the Orders v2 order PayPal's form approves. */
export const createPayPalOrder = (
  attendeeUid: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[] | null = null,
) =>
  callApi(endpoints.paypalCreateOrder, {
    ...attendeeKey(attendeeUid),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    ...(photoUids ? { photo_uids: [...photoUids] } : {}),
  });

/** The server captures the approved order at PayPal; only its answer says paid. */
export const capturePayPalOrder = (attendeeUid: string, paymentId: string) =>
  callApi(endpoints.paypalCaptureOrder, { ...attendeeKey(attendeeUid), payment_id: paymentId });

/**
 * The kiosk's key (with its link's display token: a private key alone sells nothing) when its
 * link carries one, else the attendee's (both reach the event).
 */
const saleKey = (kioskKey: string | null, attendeeUid: string) =>
  kioskKey ? kioskKeyFields(kioskKey) : attendeeKey(attendeeUid);

/** A sale on the kiosk's paired Square reader (`sqDeviceId` of the kiosk link). */
export const startSquareSale = (
  kioskKey: string | null,
  attendeeUid: string,
  deviceId: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[] | null = null,
) =>
  callApi(endpoints.squareInitiatePayment, {
    ...saleKey(kioskKey, attendeeUid),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    device_id: deviceId,
    ...(photoUids ? { photo_uids: [...photoUids] } : {}),
  });

export const checkSquareSale = (kioskKey: string | null, attendeeUid: string, paymentId: string) =>
  callApi(endpoints.squareCheckoutStatus, {
    ...saleKey(kioskKey, attendeeUid),
    payment_id: paymentId,
  });

export const cancelSquareSale = (kioskKey: string | null, attendeeUid: string, paymentId: string) =>
  callApi(endpoints.squareCancelCheckout, {
    ...saleKey(kioskKey, attendeeUid),
    payment_id: paymentId,
  });

/**
 * A sale on the venue's payment terminal (the kiosk's own key: the terminal is the kiosk's).
 * The server talks to the terminal; the kiosk asks it about the sale until it ends.
 */
export const startTerminalSale = (
  kioskKey: string,
  attendeeUid: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[] | null = null,
) =>
  callApi(endpoints.terminalPay, {
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    ...(photoUids ? { photo_uids: [...photoUids] } : {}),
  });

export const checkTerminalSale = (kioskKey: string, paymentId: string) =>
  callApi(endpoints.terminalCheckStatus, { ...kioskKeyFields(kioskKey), payment_id: paymentId });

export const cancelTerminalSale = (kioskKey: string, paymentId: string) =>
  callApi(endpoints.terminalCancel, { ...kioskKeyFields(kioskKey), payment_id: paymentId });

/**
 * A sale at the event's Shopify shop from the kiosk (its key with the display token). `mode`:
 * `self` a draft order the guest pays on Shopify's checkout (its invoice as a QR code), `counter`
 * paid at the counter in one step, `draft` a draft order the staff completes afterwards.
 */
export const startShopifySale = (
  mode: 'self' | 'counter' | 'draft',
  kioskKey: string,
  attendeeUid: string,
  buttonIndex: number,
  requestId: string,
  photoUids: readonly string[] | null,
  email: string | null,
) => {
  const body = {
    ...kioskKeyFields(kioskKey),
    attendee_uid: attendeeUid,
    pricing_button_index: buttonIndex,
    client_request_id: requestId,
    ...(photoUids ? { photo_uids: [...photoUids] } : {}),
    ...(email ? { email } : {}),
  };
  return mode === 'self'
    ? callApi(endpoints.shopifyBuyFromKioskSelfCheckout, body)
    : mode === 'counter'
      ? callApi(endpoints.shopifyBuyFromKiosk, body)
      : callApi(endpoints.shopifyCreateDraftOrder, body);
};

/** The staff completes a draft order: paid at the counter, or left for the guest to pay on Shopify. */
export const completeShopifyDraft = (kioskKey: string, paymentId: string, paidAtCounter: boolean) =>
  callApi(
    paidAtCounter
      ? endpoints.shopifyCompleteDraftOrder
      : endpoints.shopifyCompleteDraftOrderSelfCheckout,
    { ...kioskKeyFields(kioskKey), payment_id: paymentId },
  );

/** Shopify e-mails the sale's receipt (its order invoice) to the buyer. */
export const sendShopifyReceipt = (kioskKey: string, paymentId: string, email: string) =>
  callApi(endpoints.shopifySendReceipt, {
    ...kioskKeyFields(kioskKey),
    payment_id: paymentId,
    email,
  });
