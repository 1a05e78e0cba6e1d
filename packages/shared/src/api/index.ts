import * as auth from './identity/auth.ts';
import * as users from './identity/users.ts';
import * as events from './events/events.ts';
import * as robots from './events/robots.ts';
import * as stockImages from './events/stock-images.ts';
import * as shareBucket from './events/share-bucket.ts';
import * as photos from './photos/photos.ts';
import * as moderation from './photos/moderation.ts';
import * as albums from './albums/albums.ts';
import * as webapp from './albums/webapp.ts';
import * as attendees from './attendees/attendees.ts';
import * as kiosk from './attendees/kiosk.ts';
import * as leads from './attendees/leads.ts';
import * as favourites from './attendees/favourites.ts';
import * as privacy from './attendees/privacy.ts';
import * as payments from './payments/payments.ts';
import * as albumPurchase from './payments/album-purchase.ts';
import * as providers from './payments/providers.ts';
import * as cardPayments from './payments/card-payments.ts';
import * as passCodes from './payments/pass-codes.ts';
import * as printing from './printing/printing.ts';
import * as printTemplates from './printing/print-templates.ts';
import * as imageProcesses from './printing/image-processes.ts';
import * as faces from './faces/faces.ts';
import * as ignoredFaces from './faces/ignored-faces.ts';
import * as messages from './messaging/messages.ts';
import * as maintenance from './operations/maintenance.ts';
import * as webhooks from './operations/webhooks.ts';
import * as insight from './operations/insight.ts';
import type { Endpoint } from './endpoint.ts';

/**
 * Every endpoint of the API by name, grouped by domain (docs/ARCHITECTURE.md "Domains"). The
 * server registers routes from this; the client calls through it.
 */
export const endpoints = {
  // identity: sign-in, two-factor, users, organisations, API keys
  signIn: auth.signIn,
  respondToChallenge: auth.respondToChallenge,
  associateSoftwareToken: auth.associateSoftwareToken,
  verifySoftwareToken: auth.verifySoftwareToken,
  setMfaPreference: auth.setMfaPreference,
  regenerateRecoveryCodes: auth.regenerateRecoveryCodes,
  recoveryCodesStatus: auth.recoveryCodesStatus,
  forgotPassword: auth.forgotPassword,
  confirmForgotPassword: auth.confirmForgotPassword,
  changePassword: auth.changePassword,
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
  // events: event settings and rules, robots, stock images, the share bucket
  createEvent: events.createEvent,
  updateEvent: events.updateEvent,
  deleteEvent: events.deleteEvent,
  eventBasicList: events.eventBasicList,
  eventFullData: events.eventFullData,
  publicEventFullData: events.publicEventFullData,
  secureProps: events.secureProps,
  robotList: robots.robotList,
  createRobot: robots.createRobot,
  regenerateRobotKey: robots.regenerateRobotKey,
  robotWhoami: robots.robotWhoami,
  robotActivityList: robots.robotActivityList,
  stockImageList: stockImages.stockImageList,
  stockImageUploadAccess: stockImages.stockImageUploadAccess,
  thumbnailForStockImage: stockImages.thumbnailForStockImage,
  shareBucketUploadAccess: shareBucket.shareBucketUploadAccess,
  shareBucketInvalidateCache: shareBucket.shareBucketInvalidateCache,
  // photos: upload, lists, changes, curation, robot activity
  photoUploadAccess: photos.photoUploadAccess,
  retrieveInstantPhoto: photos.retrieveInstantPhoto,
  photoUploadComplete: photos.photoUploadComplete,
  guestUploadAccess: photos.guestUploadAccess,
  guestUploadComplete: photos.guestUploadComplete,
  ownerPhotoList: photos.ownerPhotoList,
  keyPhotoCountInfo: photos.keyPhotoCountInfo,
  publicPhotoList: photos.publicPhotoList,
  photoCountInfo: photos.photoCountInfo,
  previewProtectionStatus: photos.previewProtectionStatus,
  previewProtectionRestart: photos.previewProtectionRestart,
  deletePhoto: photos.deletePhoto,
  deletePhotoList: photos.deletePhotoList,
  updatePhoto: photos.updatePhoto,
  updatePhotoList: photos.updatePhotoList,
  publicUpdatePhotoList: photos.publicUpdatePhotoList,
  curationUpdate: photos.curationUpdate,
  curationReprocess: photos.curationReprocess,
  createActivity: photos.createActivity,
  bulkCreateActivity: photos.bulkCreateActivity,
  moderationQueue: moderation.moderationQueue,
  moderationDecide: moderation.moderationDecide,
  moderationLog: moderation.moderationLog,
  // albums: shares, mini-albums, downloads, the web-app page
  generateShareLink: albums.generateShareLink,
  trackShare: albums.trackShare,
  sendMiniAlbumLink: albums.sendMiniAlbumLink,
  retrieveMiniAlbum: albums.retrieveMiniAlbum,
  createAlbumDownload: albums.createAlbumDownload,
  albumDownloadStatus: albums.albumDownloadStatus,
  ownerAlbumDownload: albums.ownerAlbumDownload,
  webappEvent: webapp.webappEvent,
  webappRegister: webapp.webappRegister,
  // attendees: attendee albums, cards, kiosk media, leads
  generateAttendeeList: attendees.generateAttendeeList,
  attendeeList: attendees.attendeeList,
  attendeesByPhotos: attendees.attendeesByPhotos,
  ownerAttachPhotos: attendees.ownerAttachPhotos,
  unlinkPhotos: attendees.unlinkPhotos,
  lockAttendee: attendees.lockAttendee,
  exportAttendee: privacy.exportAttendee,
  eraseAttendee: privacy.eraseAttendee,
  privacyRequestList: privacy.privacyRequestList,
  retrieveAttendee: attendees.retrieveAttendee,
  attendeeFavourites: favourites.attendeeFavourites,
  setAttendeeFavourite: favourites.setAttendeeFavourite,
  checkAttendeeUid: attendees.checkAttendeeUid,
  attachPhotosByKey: attendees.attachPhotosByKey,
  attachPhotosByQrScan: attendees.attachPhotosByQrScan,
  updateAttendeeByKiosk: attendees.updateAttendeeByKiosk,
  checkAndGroupAttendees: attendees.checkAndGroupAttendees,
  checkKioskCard: attendees.checkKioskCard,
  checkKioskStaffPin: attendees.checkKioskStaffPin,
  profilePhotoUploadAccess: kiosk.profilePhotoUploadAccess,
  createProfilePhoto: kiosk.createProfilePhoto,
  listProfilePhotos: kiosk.listProfilePhotos,
  deleteProfilePhoto: kiosk.deleteProfilePhoto,
  createCustomPhoto: kiosk.createCustomPhoto,
  createAttendeeCustomPhoto: kiosk.createAttendeeCustomPhoto,
  completeCustomPhoto: kiosk.completeCustomPhoto,
  kioskDeletePhoto: kiosk.kioskDeletePhoto,
  leadSubmit: leads.leadSubmit,
  leadList: leads.leadList,
  leadExport: leads.leadExport,
  leadDelete: leads.leadDelete,
  // payments: unlocks, orders, providers, card payments, Shopify, pass codes
  attendeeUnlock: payments.attendeeUnlock,
  createQrPayment: payments.createQrPayment,
  checkQrStatus: payments.checkQrStatus,
  disableQrLink: payments.disableQrLink,
  testProviderPay: payments.testProviderPay,
  testProviderCheckout: payments.testProviderCheckout,
  pricingButtonList: payments.pricingButtonList,
  albumPurchasePricing: albumPurchase.albumPurchasePricing,
  albumPurchaseCreate: albumPurchase.albumPurchaseCreate,
  albumPurchaseStatus: albumPurchase.albumPurchaseStatus,
  albumPurchaseCancel: albumPurchase.albumPurchaseCancel,
  albumPurchasePayPalOrder: albumPurchase.albumPurchasePayPalOrder,
  albumPurchasePayPalCapture: albumPurchase.albumPurchasePayPalCapture,
  attendeeUnlockAndPrint: payments.attendeeUnlockAndPrint,
  ownerUnlockAndPrint: payments.ownerUnlockAndPrint,
  orderList: payments.orderList,
  refundPayment: payments.refundPayment,
  squareLocations: providers.squareLocations,
  squareCreateDeviceCode: providers.squareCreateDeviceCode,
  squareGetDeviceCode: providers.squareGetDeviceCode,
  paymentConnectionList: providers.paymentConnectionList,
  paymentConnectionSave: providers.paymentConnectionSave,
  paymentConnectionTest: providers.paymentConnectionTest,
  paymentConnectionDelete: providers.paymentConnectionDelete,
  cardReaderList: providers.cardReaderList,
  cardReaderSave: providers.cardReaderSave,
  cardReaderCheck: providers.cardReaderCheck,
  cardReaderDelete: providers.cardReaderDelete,
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
  retrievePassCodeList: passCodes.retrievePassCodeList,
  updatePassCode: passCodes.updatePassCode,
  deletePassCode: passCodes.deletePassCode,
  // printing: print calls, queue, stations, print templates, image processes
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
  printJobCancel: printing.printJobCancel,
  printJobReprint: printing.printJobReprint,
  printPoolPause: printing.printPoolPause,
  pptList: printTemplates.pptList,
  deletePpt: printTemplates.deletePpt,
  pptCreate: printTemplates.pptCreate,
  pptUpdate: printTemplates.pptUpdate,
  pptRetrieve: printTemplates.pptRetrieve,
  imageProcessList: imageProcesses.imageProcessList,
  autoPrintProcesses: imageProcesses.autoPrintProcesses,
  // faces: search, face data, selfies, ignored faces
  searchByFace: faces.searchByFace,
  faceDataInfo: faces.faceDataInfo,
  deleteFaceData: faces.deleteFaceData,
  keySearchByFace: faces.keySearchByFace,
  attachFoundPhotos: faces.attachFoundPhotos,
  selfieUploadAccess: faces.selfieUploadAccess,
  faceConsent: faces.faceConsent,
  createIgnoredFace: ignoredFaces.createIgnoredFace,
  listIgnoredFaces: ignoredFaces.listIgnoredFaces,
  deleteIgnoredFaces: ignoredFaces.deleteIgnoredFaces,
  ignoredFaceUploadAccess: ignoredFaces.ignoredFaceUploadAccess,
  // messaging: the outbox, sender verification
  verifyFromAddress: messages.verifyFromAddress,
  outboxList: messages.outboxList,
  outboxResend: messages.outboxResend,
  // operations: outgoing webhooks
  webhookList: webhooks.webhookList,
  webhookCreate: webhooks.webhookCreate,
  webhookSetEnabled: webhooks.webhookSetEnabled,
  webhookDelete: webhooks.webhookDelete,
  webhookDeliveries: webhooks.webhookDeliveries,
  webhookReplay: webhooks.webhookReplay,
  // operations: backups and the storage integrity check
  backupCreate: maintenance.backupCreate,
  backupList: maintenance.backupList,
  integrityCheck: maintenance.integrityCheck,
  integrityRepair: maintenance.integrityRepair,
  backupRestore: maintenance.backupRestore,
  backupScheduleGet: maintenance.backupScheduleGet,
  backupScheduleSet: maintenance.backupScheduleSet,
  integrityReports: maintenance.integrityReports,
  // operations: insight (how an event and an organisation are doing)
  eventInsight: insight.eventInsight,
  organisationInsight: insight.organisationInsight,
  insightTrack: insight.insightTrack,
} as const satisfies Record<string, Endpoint>;

export type Endpoints = typeof endpoints;
export type EndpointName = keyof Endpoints;
