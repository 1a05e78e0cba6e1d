/**
 * The endpoints guest pages call, imported one by one from their contract modules. The shared
 * `endpoints` map names every endpoint of the API, so importing it would put the whole contract
 * (every request and reply schema) into the album's first load (under 150 KB). Callers
 * import this module as a namespace (`import * as endpoints`): an object literal holding them all
 * would keep every one in the first load, a namespace lets the build drop those a chunk never reads.
 */
export {
  attachPhotosByKey,
  attachPhotosByQrScan,
  checkKioskStaffPin,
  retrieveAttendee,
  updateAttendeeByKiosk,
} from '@flashbulb/shared/api/attendees/attendees';
export {
  attendeeFavourites,
  setAttendeeFavourite,
} from '@flashbulb/shared/api/attendees/favourites';
export {
  albumDownloadStatus,
  createAlbumDownload,
  generateShareLink,
  retrieveMiniAlbum,
  sendMiniAlbumLink,
  trackShare,
} from '@flashbulb/shared/api/albums/albums';
export {
  paypalCaptureOrder,
  paypalCreateOrder,
  paypalSettings,
  shopifyBuyFromKiosk,
  shopifyBuyFromKioskSelfCheckout,
  shopifyCompleteDraftOrder,
  shopifyCompleteDraftOrderSelfCheckout,
  shopifyCreateDraftOrder,
  shopifySendReceipt,
  squareCancelCheckout,
  squareCheckoutStatus,
  squareInitiatePayment,
  terminalCancel,
  terminalCheckStatus,
  terminalPay,
} from '@flashbulb/shared/api/payments/card-payments';
export { publicEventFullData } from '@flashbulb/shared/api/events/events';
export { insightTrack } from '@flashbulb/shared/api/operations/insight';
export {
  attachFoundPhotos,
  keySearchByFace,
  selfieUploadAccess,
} from '@flashbulb/shared/api/faces/faces';
export {
  attendeeUnlock,
  attendeeUnlockAndPrint,
  checkQrStatus,
  createQrPayment,
  disableQrLink,
  pricingButtonList,
} from '@flashbulb/shared/api/payments/payments';
export {
  albumPurchaseCancel,
  albumPurchaseCreate,
  albumPurchasePayPalCapture,
  albumPurchasePayPalOrder,
  albumPurchasePricing,
  albumPurchaseStatus,
} from '@flashbulb/shared/api/payments/album-purchase';
export {
  curationUpdate,
  publicPhotoList,
  publicUpdatePhotoList,
  retrieveInstantPhoto,
} from '@flashbulb/shared/api/photos/photos';
export { webappEvent, webappRegister } from '@flashbulb/shared/api/albums/webapp';
