import {
  attachPhotosByKey,
  attachPhotosByQrScan,
  retrieveAttendee,
  updateAttendeeByKiosk,
} from '@flashbulb/shared/api/attendees';
import {
  createAlbumDownload,
  generateShareLink,
  retrieveMiniAlbum,
  sendMiniAlbumLink,
  trackShare,
} from '@flashbulb/shared/api/albums';
import {
  paypalCaptureOrder,
  paypalCreateOrder,
  paypalSettings,
  squareCancelCheckout,
  squareCheckoutStatus,
  squareInitiatePayment,
} from '@flashbulb/shared/api/card-payments';
import { publicEventFullData } from '@flashbulb/shared/api/events';
import { keySearchByFace, selfieUploadAccess } from '@flashbulb/shared/api/faces';
import {
  attendeeUnlock,
  attendeeUnlockAndPrint,
  checkQrStatus,
  createQrPayment,
  pricingButtonList,
} from '@flashbulb/shared/api/payments';
import {
  curationUpdate,
  publicPhotoList,
  publicUpdatePhotoList,
} from '@flashbulb/shared/api/photos';
import { webappEvent, webappRegister } from '@flashbulb/shared/api/webapp';

/**
 * The endpoints guest pages call, imported one by one from their contract modules. The shared
 * `endpoints` map names every endpoint of the API, so importing it would put the whole contract
 * (every request and reply schema) into the album's first load (issue 17: under 150 KB).
 */
export const guestEndpoints = {
  publicEventFullData,
  publicPhotoList,
  publicUpdatePhotoList,
  curationUpdate,
  generateShareLink,
  trackShare,
  createAlbumDownload,
  sendMiniAlbumLink,
  retrieveMiniAlbum,
  retrieveAttendee,
  attachPhotosByKey,
  attachPhotosByQrScan,
  updateAttendeeByKiosk,
  selfieUploadAccess,
  keySearchByFace,
  pricingButtonList,
  createQrPayment,
  checkQrStatus,
  paypalSettings,
  paypalCreateOrder,
  paypalCaptureOrder,
  squareInitiatePayment,
  squareCheckoutStatus,
  squareCancelCheckout,
  attendeeUnlock,
  attendeeUnlockAndPrint,
  webappEvent,
  webappRegister,
} as const;
