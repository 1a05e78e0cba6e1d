import * as auth from './auth.ts';
import * as users from './users.ts';
import * as events from './events.ts';
import * as photos from './photos.ts';
import * as albums from './albums.ts';
import * as attendees from './attendees.ts';
import * as faces from './faces.ts';
import * as payments from './payments.ts';
import * as providers from './providers.ts';
import * as cardPayments from './card-payments.ts';
import * as messages from './messages.ts';
import * as printing from './printing.ts';
import * as kiosk from './kiosk.ts';
import * as printTemplates from './print-templates.ts';
import * as webapp from './webapp.ts';
import * as leads from './leads.ts';
import type { Endpoint } from './endpoint.ts';

/** Every endpoint of the API by name. The server registers routes from this; the client calls through it. */
export const endpoints = {
  signIn: auth.signIn,
  respondToChallenge: auth.respondToChallenge,
  associateSoftwareToken: auth.associateSoftwareToken,
  verifySoftwareToken: auth.verifySoftwareToken,
  setMfaPreference: auth.setMfaPreference,
  forgotPassword: auth.forgotPassword,
  confirmForgotPassword: auth.confirmForgotPassword,
  refresh: auth.refresh,
  signOut: auth.signOut,
  setupStatus: auth.setupStatus,
  createFirstAdmin: auth.createFirstAdmin,
  myInfo: users.myInfo,
  createUser: users.createUser,
  createApiKey: users.createApiKey,
  listApiKeys: users.listApiKeys,
  deleteApiKey: users.deleteApiKey,
  listOrganisations: users.listOrganisations,
  createOrganisation: users.createOrganisation,
  renameOrganisation: users.renameOrganisation,
  listUsers: users.listUsers,
  updateUser: users.updateUser,
  resetUserMfa: users.resetUserMfa,
  // events (issue 3)
  createEvent: events.createEvent,
  updateEvent: events.updateEvent,
  deleteEvent: events.deleteEvent,
  eventBasicList: events.eventBasicList,
  eventFullData: events.eventFullData,
  publicEventFullData: events.publicEventFullData,
  secureProps: events.secureProps,
  verifyFromAddress: events.verifyFromAddress,
  robotList: events.robotList,
  createRobot: events.createRobot,
  regenerateRobotKey: events.regenerateRobotKey,
  imageProcessList: events.imageProcessList,
  autoPrintProcesses: events.autoPrintProcesses,
  pptList: events.pptList,
  deletePpt: events.deletePpt,
  stockImageList: events.stockImageList,
  createIgnoredFace: events.createIgnoredFace,
  listIgnoredFaces: events.listIgnoredFaces,
  deleteIgnoredFaces: events.deleteIgnoredFaces,
  shareBucketUploadAccess: events.shareBucketUploadAccess,
  shareBucketInvalidateCache: events.shareBucketInvalidateCache,
  stockImageUploadAccess: events.stockImageUploadAccess,
  thumbnailForStockImage: events.thumbnailForStockImage,
  ignoredFaceUploadAccess: events.ignoredFaceUploadAccess,
  // photos (issue 4)
  photoUploadAccess: photos.photoUploadAccess,
  photoUploadComplete: photos.photoUploadComplete,
  ownerPhotoList: photos.ownerPhotoList,
  publicPhotoList: photos.publicPhotoList,
  photoCountInfo: photos.photoCountInfo,
  deletePhoto: photos.deletePhoto,
  deletePhotoList: photos.deletePhotoList,
  updatePhoto: photos.updatePhoto,
  updatePhotoList: photos.updatePhotoList,
  publicUpdatePhotoList: photos.publicUpdatePhotoList,
  curationUpdate: photos.curationUpdate,
  curationReprocess: photos.curationReprocess,
  createActivity: photos.createActivity,
  bulkCreateActivity: photos.bulkCreateActivity,
  // albums (issue 5)
  generateShareLink: albums.generateShareLink,
  trackShare: albums.trackShare,
  sendMiniAlbumLink: albums.sendMiniAlbumLink,
  retrieveMiniAlbum: albums.retrieveMiniAlbum,
  createAlbumDownload: albums.createAlbumDownload,
  // attendees (issue 5: attendee albums and kiosk pages)
  generateAttendeeList: attendees.generateAttendeeList,
  attendeeList: attendees.attendeeList,
  attendeesByPhotos: attendees.attendeesByPhotos,
  ownerAttachPhotos: attendees.ownerAttachPhotos,
  unlinkPhotos: attendees.unlinkPhotos,
  lockAttendee: attendees.lockAttendee,
  retrieveAttendee: attendees.retrieveAttendee,
  checkAttendeeUid: attendees.checkAttendeeUid,
  attachPhotosByKey: attendees.attachPhotosByKey,
  attachPhotosByQrScan: attendees.attachPhotosByQrScan,
  updateAttendeeByKiosk: attendees.updateAttendeeByKiosk,
  checkAndGroupAttendees: attendees.checkAndGroupAttendees,
  checkKioskCard: attendees.checkKioskCard,
  // faces (issue 13)
  searchByFace: faces.searchByFace,
  faceDataInfo: faces.faceDataInfo,
  deleteFaceData: faces.deleteFaceData,
  keySearchByFace: faces.keySearchByFace,
  selfieUploadAccess: faces.selfieUploadAccess,
  // paid albums (issue 10)
  attendeeUnlock: payments.attendeeUnlock,
  createQrPayment: payments.createQrPayment,
  checkQrStatus: payments.checkQrStatus,
  disableQrLink: payments.disableQrLink,
  testProviderPay: payments.testProviderPay,
  testProviderCheckout: payments.testProviderCheckout,
  pricingButtonList: payments.pricingButtonList,
  attendeeUnlockAndPrint: payments.attendeeUnlockAndPrint,
  ownerUnlockAndPrint: payments.ownerUnlockAndPrint,
  orderList: payments.orderList,
  refundPayment: payments.refundPayment,
  // payment providers (issue 11)
  squareLocations: providers.squareLocations,
  squareCreateDeviceCode: providers.squareCreateDeviceCode,
  squareGetDeviceCode: providers.squareGetDeviceCode,
  paypalSettings: cardPayments.paypalSettings,
  paypalCreateOrder: cardPayments.paypalCreateOrder,
  paypalCaptureOrder: cardPayments.paypalCaptureOrder,
  terminalPay: cardPayments.terminalPay,
  terminalCheckStatus: cardPayments.terminalCheckStatus,
  terminalCancel: cardPayments.terminalCancel,
  squareInitiatePayment: cardPayments.squareInitiatePayment,
  squareCheckoutStatus: cardPayments.squareCheckoutStatus,
  squareCancelCheckout: cardPayments.squareCancelCheckout,
  shopifyCreateDraftOrder: cardPayments.shopifyCreateDraftOrder,
  shopifyCompleteDraftOrder: cardPayments.shopifyCompleteDraftOrder,
  shopifyCompleteDraftOrderSelfCheckout: cardPayments.shopifyCompleteDraftOrderSelfCheckout,
  shopifyBuyFromKiosk: cardPayments.shopifyBuyFromKiosk,
  shopifyBuyFromKioskSelfCheckout: cardPayments.shopifyBuyFromKioskSelfCheckout,
  shopifySendReceipt: cardPayments.shopifySendReceipt,
  // messages (issue 15)
  outboxList: messages.outboxList,
  outboxResend: messages.outboxResend,
  // printing (issue 12)
  printWithQueue: printing.printWithQueue,
  publicPrintWithQueue: printing.publicPrintWithQueue,
  printStory: printing.printStory,
  publicPrintStory: printing.publicPrintStory,
  printJobList: printing.printJobList,
  printStationCreate: printing.printStationCreate,
  printStationList: printing.printStationList,
  printStationRevoke: printing.printStationRevoke,
  printAgentLease: printing.printAgentLease,
  printAgentReport: printing.printAgentReport,
  // kiosk media and pass codes (issue 14)
  profilePhotoUploadAccess: kiosk.profilePhotoUploadAccess,
  createProfilePhoto: kiosk.createProfilePhoto,
  listProfilePhotos: kiosk.listProfilePhotos,
  deleteProfilePhoto: kiosk.deleteProfilePhoto,
  createCustomPhoto: kiosk.createCustomPhoto,
  createAttendeeCustomPhoto: kiosk.createAttendeeCustomPhoto,
  completeCustomPhoto: kiosk.completeCustomPhoto,
  kioskDeletePhoto: kiosk.kioskDeletePhoto,
  retrievePassCodeList: kiosk.retrievePassCodeList,
  updatePassCode: kiosk.updatePassCode,
  deletePassCode: kiosk.deletePassCode,
  printJobCancel: printing.printJobCancel,
  printJobReprint: printing.printJobReprint,
  printPoolPause: printing.printPoolPause,
  // print templates (issue 12)
  pptCreate: printTemplates.pptCreate,
  pptUpdate: printTemplates.pptUpdate,
  pptRetrieve: printTemplates.pptRetrieve,
  // web-app page (issue 15)
  webappEvent: webapp.webappEvent,
  webappRegister: webapp.webappRegister,
  // leads (issue 15)
  leadSubmit: leads.leadSubmit,
  leadList: leads.leadList,
  leadExport: leads.leadExport,
  leadDelete: leads.leadDelete,
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
