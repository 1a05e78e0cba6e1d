import type { WebhookOutService } from '../services/operations/webhook-out.service.ts';
import type { InsightService } from '../services/operations/insight.service.ts';
import type { BackupService } from '../services/operations/backup.service.ts';
import type { IntegrityService } from '../services/operations/integrity.service.ts';
import type { AlbumDownloadService } from '../services/albums/album-download.service.ts';
import type { AlbumZipMailService } from '../services/albums/album-zip-mail.service.ts';
import { isLocalRequest } from '../http/local-request.ts';
import type { WebappService } from '../services/albums/webapp.service.ts';
import type { LeadService } from '../services/attendees/lead.service.ts';
import type { AttendeePrivacyService } from '../services/attendees/attendee-privacy.service.ts';
import type { AuthenticationResult, SignInResult } from '@flashbulb/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Handlers } from '../http/register-endpoints.ts';
import { operatorPhotos } from '../presenters/photo.presenter.ts';
import type { PhotoChangesService } from '../services/photos/photo-changes.service.ts';
import type { PreviewProtectionService } from '../services/photos/preview-protection.service.ts';
import type { PhotoModerationService } from '../services/photos/photo-moderation.service.ts';
import type { PhotoListingService } from '../services/photos/photo-listing.service.ts';
import type { PhotoUploadGrantService } from '../services/photos/photo-upload-grant.service.ts';
import type { PhotoUploadService } from '../services/photos/photo-upload.service.ts';
import type { GuestUploadService } from '../services/photos/guest-upload.service.ts';
import type { StockUploadService } from '../services/events/stock-upload.service.ts';
import type { MiniAlbumService } from '../services/albums/mini-album.service.ts';
import type { InstantPageService } from '../services/albums/instant-page.service.ts';
import type { ShareService } from '../services/albums/share.service.ts';
import {
  REFRESH_TOKEN_DAYS,
  type AuthService,
  type IssuedTokens,
} from '../services/identity/auth.service.ts';
import type { FirstAdminService } from '../services/identity/first-admin.service.ts';
import type { OrganisationService } from '../services/identity/organisation.service.ts';
import type { PasswordResetService } from '../services/identity/password-reset.service.ts';
import type { TwoFactorService } from '../services/identity/two-factor.service.ts';
import type { UserService } from '../services/identity/user.service.ts';
import type { EventFromAddressService } from '../services/messaging/event-from-address.service.ts';
import type { EventService } from '../services/events/event.service.ts';
import type { IgnoredFaceService } from '../services/faces/ignored-face.service.ts';
import type { FaceAttachService } from '../services/faces/face-attach.service.ts';
import type { FaceConsentService } from '../services/faces/face-consent.service.ts';
import type { FaceSearchService } from '../services/faces/face-search.service.ts';
import type { FaceDataService } from '../services/faces/face-data.service.ts';
import type { ImageProcessService } from '../services/printing/image-process.service.ts';
import type { RobotService } from '../services/events/robot.service.ts';
import type { ShareBucketService } from '../services/events/share-bucket.service.ts';
import type { PrintTemplateService } from '../services/printing/print-template.service.ts';
import type { KioskMediaService } from '../services/attendees/kiosk-media.service.ts';
import type { AttendeeCardService } from '../services/attendees/attendee-card.service.ts';
import type { AttendeeFavouritesService } from '../services/attendees/attendee-favourites.service.ts';
import type { KioskDeskService } from '../services/attendees/kiosk-desk.service.ts';
import type { PassCodeService } from '../services/attendees/pass-code.service.ts';
import type { AttendeeService } from '../services/attendees/attendee.service.ts';
import type { UnlockService } from '../services/payments/unlock.service.ts';
import type { CardCheckoutService } from '../services/payments/card-checkout.service.ts';
import type { ReaderCheckoutService } from '../services/payments/reader-checkout.service.ts';
import type { CheckoutService } from '../services/payments/checkout.service.ts';
import type { AlbumPurchaseService } from '../services/payments/album-purchase.service.ts';
import type { OrderAdminService } from '../services/payments/order-admin.service.ts';
import type { SquarePairingService } from '../services/payments/square-pairing.service.ts';
import type { PaymentConnectionService } from '../services/payments/payment-connection.service.ts';
import type { ShopifyService } from '../services/payments/shopify.service.ts';
import type { OutboxAdminService } from '../services/messaging/outbox-admin.service.ts';
import type { PrintService } from '../services/printing/print.service.ts';
import type { PrintDeskService } from '../services/printing/print-desk.service.ts';
import type { PrintStationService } from '../services/printing/print-station.service.ts';

export const REFRESH_COOKIE = 'flashbulb_refresh';
/**
 * Not a secret: says a refresh cookie was set (same lifetime), so the web app asks for a refresh
 * on load only when there is a session to restore — a signed-out cold load sends no refresh and
 * Chromium logs no 401.
 */
export const SESSION_HINT_COOKIE = 'flashbulb_session';
const COOKIE_PATH = '/api/v1/auth';

const isIssued = (value: IssuedTokens | SignInResult): value is IssuedTokens =>
  'refreshToken' in value;

/** The web app keeps its refresh token in an httpOnly cookie that scripts cannot read. */
const setRefreshCookie = (request: FastifyRequest, reply: FastifyReply, token: string): void => {
  void reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: COOKIE_PATH,
    maxAge: REFRESH_TOKEN_DAYS * 86_400,
  });
  void reply.setCookie(SESSION_HINT_COOKIE, '1', {
    httpOnly: false,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: REFRESH_TOKEN_DAYS * 86_400,
  });
};

const clearRefreshCookie = (reply: FastifyReply): void => {
  void reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
  void reply.clearCookie(SESSION_HINT_COOKIE, { path: '/' });
};

const present = (
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: IssuedTokens | SignInResult,
): SignInResult => {
  if (!isIssued(outcome)) return outcome;
  setRefreshCookie(request, reply, outcome.refreshToken);
  return { authentication_result: outcome.result };
};

/** Thin handlers: read the body, call one service method, present the result. */
export const createHandlers = (services: {
  auth: AuthService;
  twoFactor: TwoFactorService;
  passwordReset: PasswordResetService;
  firstAdmin: FirstAdminService;
  users: UserService;
  organisations: OrganisationService;
  events: EventService;
  eventFromAddress: EventFromAddressService;
  robots: RobotService;
  imageProcesses: ImageProcessService;
  printTemplates: PrintTemplateService;
  ignoredFaces: IgnoredFaceService;
  faceSearch: FaceSearchService;
  faceConsent: FaceConsentService;
  faceAttach: FaceAttachService;
  faceData: FaceDataService;
  shareBucket: ShareBucketService;
  photoUploads: PhotoUploadService;
  photoUploadGrants: PhotoUploadGrantService;
  guestUploads: GuestUploadService;
  photoListing: PhotoListingService;
  photoChanges: PhotoChangesService;
  previewProtection: PreviewProtectionService;
  photoModeration: PhotoModerationService;
  stockUploads: StockUploadService;
  shares: ShareService;
  miniAlbums: MiniAlbumService;
  instantPages: InstantPageService;
  albumDownloads: AlbumDownloadService;
  albumZipMail: AlbumZipMailService;
  attendees: AttendeeService;
  kioskMedia: KioskMediaService;
  attendeeCards: AttendeeCardService;
  attendeeFavourites: AttendeeFavouritesService;
  kioskDesk: KioskDeskService;
  passCodes: PassCodeService;
  unlocks: UnlockService;
  checkout: CheckoutService;
  albumPurchases: AlbumPurchaseService;
  orderAdmin: OrderAdminService;
  squarePairing: SquarePairingService;
  paymentConnections: PaymentConnectionService;
  webhookOut: WebhookOutService;
  insight: InsightService;
  backups: BackupService;
  integrity: IntegrityService;
  shopify: ShopifyService;
  cardCheckout: CardCheckoutService;
  readerCheckout: ReaderCheckoutService;
  outboxAdmin: OutboxAdminService;
  printing: PrintService;
  printDesk: PrintDeskService;
  printStationsAdmin: PrintStationService;
  webapp: WebappService;
  leads: LeadService;
  attendeePrivacy: AttendeePrivacyService;
}): Handlers => ({
  signIn: async ({ body, request, reply }) =>
    present(request, reply, await services.auth.signIn(body)),
  respondToChallenge: async ({ body, request, reply }) =>
    present(request, reply, await services.auth.respondToChallenge(body)),
  associateSoftwareToken: async ({ actor, body }) =>
    services.twoFactor.associateSoftwareToken(actor, body),
  verifySoftwareToken: async ({ actor, body }) =>
    services.twoFactor.verifySoftwareToken(actor, body),
  changePassword: async ({ actor, body }) => {
    await services.passwordReset.changePassword(actor, body);
    return {};
  },
  regenerateRecoveryCodes: async ({ actor, body }) =>
    services.twoFactor.regenerateRecoveryCodes(actor, body),
  recoveryCodesStatus: async ({ actor }) => services.twoFactor.recoveryCodesStatus(actor),
  setMfaPreference: async ({ actor, body }) => {
    await services.twoFactor.setMfaPreference(actor, body.software_token_mfa_settings);
    return {};
  },
  forgotPassword: async ({ body }) => {
    await services.passwordReset.forgotPassword(body);
    return { code_delivery_details: { delivery_medium: 'EMAIL' } };
  },
  confirmForgotPassword: async ({ body }) => {
    await services.passwordReset.confirmForgotPassword(body);
    return {};
  },
  refresh: async ({ body, request, reply }) => {
    try {
      const issued = await services.auth.refresh(
        body.refresh_token ?? request.cookies[REFRESH_COOKIE],
      );
      setRefreshCookie(request, reply, issued.refreshToken);
      return { authentication_result: issued.result satisfies AuthenticationResult };
    } catch (error) {
      clearRefreshCookie(reply);
      throw error;
    }
  },
  signOut: async ({ actor, body, request, reply }) => {
    await services.auth.signOut(actor, body.refresh_token ?? request.cookies[REFRESH_COOKIE]);
    clearRefreshCookie(reply);
    return {};
  },
  setupStatus: async ({ request }) => ({
    needs_first_admin: await services.firstAdmin.needsFirstAdmin(),
    needs_setup_token: !isLocalRequest(request),
  }),
  createFirstAdmin: async ({ body, request }) =>
    services.firstAdmin.createFirstAdmin(body, { local: isLocalRequest(request) }),
  myInfo: async ({ actor }) => services.users.myInfo(actor),
  createUser: async ({ actor, body }) => services.users.create(actor, body),
  listUsers: async ({ actor, body }) => services.users.list(actor, body.organisation_id),
  updateUser: async ({ actor, body }) => services.users.update(actor, body),
  resetUserMfa: async ({ actor, body }) => services.users.resetMfa(actor, body.id),
  createApiKey: async ({ actor, body }) => services.users.createApiKey(actor, body.name),
  listApiKeys: async ({ actor }) => services.users.listApiKeys(actor),
  deleteApiKey: async ({ actor, body }) => {
    await services.users.deleteApiKey(actor, body.id);
    return {};
  },
  listOrganisations: async ({ actor }) => services.organisations.list(actor),
  createOrganisation: async ({ actor, body }) => services.organisations.create(actor, body.name),
  renameOrganisation: async ({ actor, body }) =>
    services.organisations.rename(actor, body.id, body.name, body.currency),
  // events
  createEvent: async ({ actor, body }) => services.events.create(actor, body),
  updateEvent: async ({ principal, body }) => services.events.update(principal, body),
  deleteEvent: async ({ principal, body }) => {
    await services.events.delete(principal, body.event_id);
    return {};
  },
  eventBasicList: async ({ actor, body }) => services.events.basicList(actor, body),
  eventFullData: async ({ principal, body }) =>
    services.events.fullData(principal, body.event_name),
  publicEventFullData: async ({ principal, body }) =>
    services.events.fullDataByKey(principal, body),
  secureProps: async ({ principal, body }) =>
    services.events.secureProps(principal, body.event_name),
  verifyFromAddress: async ({ body }) => services.eventFromAddress.verify(body.token),
  robotList: async ({ actor, body }) => services.robots.list(actor, body.organisation_id),
  createRobot: async ({ actor, body }) => services.robots.create(actor, body),
  regenerateRobotKey: async ({ actor, body }) => services.robots.regenerateKey(actor, body.id),
  robotWhoami: async ({ principal }) => services.robots.whoami(principal),
  robotActivityList: async ({ actor, body }) => services.robots.activity(actor, body),
  imageProcessList: async ({ actor, body }) =>
    services.imageProcesses.list(actor, body.organisation_id),
  autoPrintProcesses: async ({ principal, body }) =>
    services.imageProcesses.autoPrint(principal, body.event_id),
  pptList: async ({ actor, body }) => services.printTemplates.list(actor, body),
  pptCreate: async ({ actor, body }) => services.printTemplates.create(actor, body),
  pptUpdate: async ({ actor, body }) => services.printTemplates.update(actor, body),
  pptRetrieve: async ({ actor, body }) => services.printTemplates.retrieve(actor, body.id),
  deletePpt: async ({ actor, body }) => {
    await services.printTemplates.delete(actor, body.id);
    return {};
  },
  stockImageList: async ({ principal, body }) =>
    services.events.stockImages(principal, body.event_id),
  createIgnoredFace: async ({ principal, body }) => services.ignoredFaces.create(principal, body),
  listIgnoredFaces: async ({ principal, body }) =>
    services.ignoredFaces.list(principal, body.event_id),
  deleteIgnoredFaces: async ({ principal, body }) => services.ignoredFaces.delete(principal, body),
  shareBucketUploadAccess: async ({ actor, body }) =>
    services.shareBucket.createUploadAccess(actor, body),
  shareBucketInvalidateCache: async ({ body }) => services.shareBucket.invalidateCache(body.paths),
  stockImageUploadAccess: async ({ principal, body }) =>
    services.shareBucket.stockImageUploadAccess(principal, body),
  thumbnailForStockImage: async ({ principal, body }) =>
    services.stockUploads.thumbnailForStockImage(principal, body),
  ignoredFaceUploadAccess: async ({ principal, body }) =>
    services.stockUploads.ignoredFaceUploadAccess(principal, body),
  photoUploadAccess: async ({ principal, body }) =>
    services.photoUploadGrants.createUploadGrant(principal, body),
  photoUploadComplete: async ({ principal, body }) =>
    services.photoUploads.completeUpload(principal, body),
  guestUploadAccess: async ({ principal, body, request }) =>
    services.guestUploads.createGrant(principal, body, { address: request.ip }),
  guestUploadComplete: async ({ principal, body }) =>
    services.guestUploads.complete(principal, body),
  ownerPhotoList: async ({ principal, body }) => {
    // Stock images are for guests' lists only.
    const { stock_images: _stock, ...page } = await services.photoListing.list(principal, body);
    return operatorPhotos(page);
  },
  publicPhotoList: async ({ principal, body, request }) =>
    services.photoListing.listForGuest(principal, body, { address: request.ip }),
  photoCountInfo: async ({ principal, body }) => services.photoListing.countInfo(principal, body),
  previewProtectionStatus: async ({ principal, body }) =>
    services.previewProtection.status(principal, body),
  previewProtectionRestart: async ({ principal, body }) =>
    services.previewProtection.restart(principal, body),
  keyPhotoCountInfo: async ({ principal, body }) =>
    services.photoListing.keyCountInfo(principal, body),
  deletePhoto: async ({ principal, body }) => ({
    deleted: await services.photoChanges.deleteOne(principal, body),
  }),
  deletePhotoList: async ({ principal, body }) => ({
    deleted: await services.photoChanges.deleteMany(principal, body),
  }),
  updatePhoto: async ({ principal, body }) => services.photoChanges.update(principal, body),
  updatePhotoList: async ({ principal, body }) => ({
    updated: await services.photoChanges.updateMany(principal, body),
  }),
  publicUpdatePhotoList: async ({ principal, body }) =>
    services.photoChanges.updateManyByKey(principal, body),
  curationUpdate: async ({ principal, body }) =>
    services.photoChanges.curationUpdate(principal, body),
  curationReprocess: async ({ principal, body }) =>
    services.photoChanges.reprocess(principal, body),
  createActivity: async ({ principal, body }) =>
    services.photoChanges.createActivity(principal, body),
  bulkCreateActivity: async ({ principal, body }) =>
    services.photoChanges.bulkCreateActivity(principal, body),
  moderationQueue: async ({ principal, body }) => services.photoModeration.queue(principal, body),
  moderationDecide: async ({ principal, body }) => services.photoModeration.decide(principal, body),
  moderationLog: async ({ principal, body }) => services.photoModeration.log(principal, body),
  // albums
  generateShareLink: async ({ principal, body }) => services.shares.generateLink(principal, body),
  trackShare: async ({ principal, body }) => services.shares.track(principal, body),
  sendMiniAlbumLink: async ({ principal, body, request }) =>
    services.miniAlbums.sendLink(principal, body, { address: request.ip }),
  retrieveMiniAlbum: async ({ body }) => services.miniAlbums.retrieve(body.token),
  retrieveInstantPhoto: async ({ body }) => services.instantPages.retrieve(body.instant),
  createAlbumDownload: async ({ principal, body }) =>
    services.albumDownloads.create(principal, body),
  albumDownloadStatus: async ({ principal, body }) => services.albumZipMail.status(principal, body),
  ownerAlbumDownload: async ({ principal, body }) =>
    services.albumDownloads.createForOwner(principal, body),
  // attendee albums
  generateAttendeeList: async ({ principal, body }) => services.attendees.generate(principal, body),
  attendeeList: async ({ principal, body }) => services.attendees.list(principal, body),
  attendeesByPhotos: async ({ principal, body }) => services.attendees.byPhotos(principal, body),
  ownerAttachPhotos: async ({ principal, body }) => services.attendees.ownerAttach(principal, body),
  unlinkPhotos: async ({ principal, body }) => services.attendees.unlink(principal, body),
  lockAttendee: async ({ principal, body }) => services.attendees.lock(principal, body),
  exportAttendee: async ({ principal, body }) => services.attendeePrivacy.export(principal, body),
  eraseAttendee: async ({ principal, body }) => services.attendeePrivacy.erase(principal, body),
  privacyRequestList: async ({ principal, body }) => services.attendeePrivacy.log(principal, body),
  retrieveAttendee: async ({ principal, body }) => services.attendeeCards.retrieve(principal, body),
  attendeeFavourites: async ({ principal }) => services.attendeeFavourites.list(principal),
  setAttendeeFavourite: async ({ principal, body }) =>
    services.attendeeFavourites.update(principal, body),
  checkAttendeeUid: async ({ body }) => services.attendeeCards.checkUid(body),
  attachPhotosByKey: async ({ principal, body }) => services.kioskDesk.attachByKey(principal, body),
  attachPhotosByQrScan: async ({ principal, body }) =>
    services.kioskDesk.attachByQrScan(principal, body),
  updateAttendeeByKiosk: async ({ principal, body }) =>
    services.kioskDesk.updateByKiosk(principal, body),
  checkAndGroupAttendees: async ({ principal, body }) =>
    services.kioskDesk.checkAndGroup(principal, body),
  checkKioskCard: async ({ principal, body }) => services.attendeeCards.checkCard(principal, body),
  checkKioskStaffPin: async ({ principal, body, request }) =>
    services.kioskDesk.checkStaffPin(principal, body, { address: request.ip }),
  profilePhotoUploadAccess: async ({ principal, body }) =>
    services.kioskMedia.profilePhotoUploadAccess(principal, body),
  createProfilePhoto: async ({ principal, body }) =>
    services.kioskMedia.createProfilePhoto(principal, body),
  listProfilePhotos: async ({ principal, body }) =>
    services.kioskMedia.listProfilePhotos(principal, body),
  deleteProfilePhoto: async ({ principal, body }) =>
    services.kioskMedia.deleteProfilePhoto(principal, body),
  createCustomPhoto: async ({ principal, body }) =>
    services.kioskMedia.createCustomPhoto(principal, body),
  createAttendeeCustomPhoto: async ({ principal, body }) =>
    services.kioskMedia.createAttendeeCustomPhoto(principal, body),
  completeCustomPhoto: async ({ principal, body }) =>
    services.kioskMedia.completeCustomPhoto(principal, body),
  kioskDeletePhoto: async ({ principal, body }) =>
    services.kioskMedia.kioskDeletePhoto(principal, body),
  retrievePassCodeList: async ({ principal, body }) =>
    services.passCodes.retrievePassCodes(principal, body),
  updatePassCode: async ({ principal, body }) => services.passCodes.updatePassCode(principal, body),
  deletePassCode: async ({ principal, body }) => services.passCodes.deletePassCode(principal, body),
  searchByFace: async ({ principal, body }) => services.faceSearch.searchByOwner(principal, body),
  keySearchByFace: async ({ principal, body }) => services.faceSearch.searchByKey(principal, body),
  attachFoundPhotos: async ({ principal, body }) =>
    services.faceAttach.attachFound(principal, body),
  faceConsent: async ({ principal }) => services.faceConsent.faceConsent(principal),
  selfieUploadAccess: async ({ principal, body }) =>
    services.faceConsent.selfieUploadAccess(principal, body),
  faceDataInfo: async ({ principal, body }) => services.faceData.info(principal, body.event_id),
  deleteFaceData: async ({ principal, body }) =>
    services.faceData.deleteAll(principal, body.event_id),
  // paid albums
  attendeeUnlock: async ({ principal, body, request }) =>
    services.unlocks.unlockByCode(principal, body, { address: request.ip }),
  createQrPayment: async ({ principal, body }) =>
    services.checkout.createQrPayment(principal, body),
  checkQrStatus: async ({ principal, body }) => services.checkout.checkQrStatus(principal, body),
  disableQrLink: async ({ principal, body }) => services.checkout.disableQrLink(principal, body),
  albumPurchasePricing: async ({ principal, body }) =>
    services.albumPurchases.pricing(principal, body),
  albumPurchaseCreate: async ({ principal, body }) =>
    services.albumPurchases.create(principal, body),
  albumPurchaseStatus: async ({ principal, body }) =>
    services.albumPurchases.status(principal, body),
  albumPurchaseCancel: async ({ principal, body }) =>
    services.albumPurchases.cancel(principal, body),
  albumPurchasePayPalOrder: async ({ principal, body }) =>
    services.cardCheckout.albumPurchasePayPalOrder(principal, body),
  albumPurchasePayPalCapture: async ({ principal, body }) =>
    services.cardCheckout.albumPurchasePayPalCapture(principal, body),
  testProviderPay: async ({ body }) => services.checkout.testProviderPay(body),
  testProviderCheckout: async ({ body }) => services.checkout.testProviderCheckout(body),
  attendeeUnlockAndPrint: async ({ principal, body, request }) =>
    services.unlocks.unlockAndPrintByCode(principal, body, { address: request.ip }),
  ownerUnlockAndPrint: async ({ principal, body }) =>
    services.unlocks.ownerUnlockAndPrint(principal, body),
  orderList: async ({ principal, body }) => services.orderAdmin.list(principal, body),
  refundPayment: async ({ principal, body }) => services.orderAdmin.refund(principal, body),
  outboxList: async ({ principal, body }) => services.outboxAdmin.list(principal, body),
  outboxResend: async ({ principal, body }) => services.outboxAdmin.resend(principal, body),
  webappEvent: async ({ body }) => services.webapp.page(body.event_name),
  webappRegister: async ({ body, request }) =>
    services.webapp.register(body, { address: request.ip }),
  leadSubmit: async ({ principal, body }) => services.leads.submit(principal, body),
  leadList: async ({ principal, body }) => services.leads.list(principal, body),
  leadExport: async ({ principal, body }) => services.leads.export(principal, body),
  leadDelete: async ({ principal, body }) => services.leads.delete(principal, body),
  pricingButtonList: async ({ principal, body }) =>
    services.checkout.pricingButtons(principal, body),
  // payment providers
  squareLocations: async ({ actor, body }) => services.squarePairing.locations(actor, body),
  squareCreateDeviceCode: async ({ actor, body }) =>
    services.squarePairing.createDeviceCode(actor, body),
  squareGetDeviceCode: async ({ actor, body }) => services.squarePairing.getDeviceCode(actor, body),
  paymentConnectionList: async ({ actor, body }) => services.paymentConnections.list(actor, body),
  eventInsight: async ({ principal, body }) => services.insight.forEvent(principal, body),
  organisationInsight: async ({ actor, body }) => services.insight.forOrganisation(actor, body),
  insightTrack: async ({ principal, body, request }) =>
    services.insight.track(principal, body, {
      ip: request.ip,
      userAgent: request.headers['user-agent'] ?? '',
    }),
  webhookList: async ({ actor, body }) => services.webhookOut.list(actor, body),
  webhookCreate: async ({ actor, body }) => services.webhookOut.create(actor, body),
  webhookSetEnabled: async ({ actor, body }) => services.webhookOut.setEnabled(actor, body),
  webhookDelete: async ({ actor, body }) => services.webhookOut.remove(actor, body),
  webhookDeliveries: async ({ actor, body }) => services.webhookOut.deliveries(actor, body),
  webhookReplay: async ({ actor, body }) => services.webhookOut.replay(actor, body),
  backupCreate: async ({ actor, body }) => services.backups.createFor(actor, body),
  backupList: async ({ actor }) => services.backups.listFor(actor),
  backupRestore: async ({ actor, body }) => services.backups.restoreFor(actor, body),
  backupScheduleGet: async ({ actor }) => services.backups.scheduleFor(actor),
  backupScheduleSet: async ({ actor, body }) => services.backups.setScheduleFor(actor, body),
  integrityCheck: async ({ actor }) => services.integrity.checkFor(actor),
  integrityRepair: async ({ actor, body }) => services.integrity.repair(actor, body),
  integrityReports: async ({ actor }) => services.integrity.reportsFor(actor),
  paymentConnectionSave: async ({ actor, body }) => services.paymentConnections.save(actor, body),
  paymentConnectionTest: async ({ actor, body }) => services.paymentConnections.test(actor, body),
  paymentConnectionDelete: async ({ actor, body }) =>
    services.paymentConnections.remove(actor, body),
  cardReaderList: async ({ actor, body }) => services.paymentConnections.readers(actor, body),
  cardReaderSave: async ({ actor, body }) => services.paymentConnections.saveReader(actor, body),
  cardReaderCheck: async ({ actor, body }) => services.paymentConnections.checkReader(actor, body),
  cardReaderDelete: async ({ actor, body }) =>
    services.paymentConnections.removeReader(actor, body),
  paypalSettings: async ({ principal }) => services.cardCheckout.paypalSettings(principal),
  paypalCreateOrder: async ({ principal, body }) =>
    services.cardCheckout.paypalCreateOrder(principal, body),
  paypalCaptureOrder: async ({ principal, body }) =>
    services.cardCheckout.paypalCaptureOrder(principal, body),
  terminalPay: async ({ principal, body }) => services.readerCheckout.terminalPay(principal, body),
  terminalCheckStatus: async ({ principal, body }) =>
    services.readerCheckout.terminalCheckStatus(principal, body),
  terminalCancel: async ({ principal, body }) =>
    services.readerCheckout.terminalCancel(principal, body),
  squareInitiatePayment: async ({ principal, body }) =>
    services.readerCheckout.squareInitiate(principal, body),
  squareCheckoutStatus: async ({ principal, body }) =>
    services.readerCheckout.squareCheckStatus(principal, body),
  squareCancelCheckout: async ({ principal, body }) =>
    services.readerCheckout.squareCancel(principal, body),
  shopifyCreateDraftOrder: async ({ principal, body }) =>
    services.shopify.createDraftOrder(principal, body),
  shopifyCompleteDraftOrder: async ({ principal, body }) =>
    services.shopify.completeDraftOrder(principal, body, false),
  shopifyCompleteDraftOrderSelfCheckout: async ({ principal, body }) =>
    services.shopify.completeDraftOrder(principal, body, true),
  shopifyBuyFromKiosk: async ({ principal, body }) =>
    services.shopify.buyFromKiosk(principal, body, false),
  shopifyBuyFromKioskSelfCheckout: async ({ principal, body }) =>
    services.shopify.buyFromKiosk(principal, body, true),
  shopifySendReceipt: async ({ principal, body }) => services.shopify.sendReceipt(principal, body),
  // printing
  printWithQueue: async ({ principal, body }) => services.printing.ownerPrint(principal, body),
  publicPrintWithQueue: async ({ principal, body }) => services.printing.keyPrint(principal, body),
  printStory: async ({ principal, body }) => services.printing.ownerStory(principal, body),
  publicPrintStory: async ({ principal, body }) => services.printing.keyStory(principal, body),
  printJobList: async ({ principal, body }) => services.printDesk.list(principal, body),
  printJobCancel: async ({ principal, body }) => services.printDesk.cancel(principal, body),
  printJobReprint: async ({ principal, body }) => services.printDesk.reprint(principal, body),
  printPoolPause: async ({ principal, body }) => services.printDesk.pause(principal, body),
  printStationCreate: async ({ principal, body }) =>
    services.printStationsAdmin.create(principal, body),
  printStationList: async ({ principal, body }) =>
    services.printStationsAdmin.list(principal, body),
  printStationRevoke: async ({ principal, body }) =>
    services.printStationsAdmin.revoke(principal, body),
  printAgentLease: async ({ body }) => services.printStationsAdmin.lease(body),
  printAgentReport: async ({ body }) => services.printStationsAdmin.report(body),
});
