import type { AuthenticationResult, SignInResult } from '@flashbulb/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Handlers } from '../http/register-endpoints.ts';
import type { PhotoChangesService } from '../services/photos/photo-changes.service.ts';
import type { PhotoListingService } from '../services/photos/photo-listing.service.ts';
import type { PhotoUploadService } from '../services/photos/photo-upload.service.ts';
import type { StockUploadService } from '../services/stock-upload.service.ts';
import type { MiniAlbumService } from '../services/mini-album.service.ts';
import type { ShareService } from '../services/share.service.ts';
import {
  REFRESH_TOKEN_DAYS,
  type AuthService,
  type IssuedTokens,
} from '../services/auth.service.ts';
import type { OrganisationService } from '../services/organisation.service.ts';
import type { UserService } from '../services/user.service.ts';
import type { EventFromAddressService } from '../services/event-from-address.service.ts';
import type { EventService } from '../services/event.service.ts';
import type { IgnoredFaceService } from '../services/ignored-face.service.ts';
import type { ImageProcessService } from '../services/image-process.service.ts';
import type { RobotService } from '../services/robot.service.ts';
import type { ShareBucketService } from '../services/share-bucket.service.ts';
import type { TemplateService } from '../services/template.service.ts';
import type { AttendeeService } from '../services/attendee.service.ts';

export const REFRESH_COOKIE = 'flashbulb_refresh';
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
};

const clearRefreshCookie = (reply: FastifyReply): void => {
  void reply.clearCookie(REFRESH_COOKIE, { path: COOKIE_PATH });
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
  users: UserService;
  organisations: OrganisationService;
  events: EventService;
  eventFromAddress: EventFromAddressService;
  robots: RobotService;
  imageProcesses: ImageProcessService;
  templates: TemplateService;
  ignoredFaces: IgnoredFaceService;
  shareBucket: ShareBucketService;
  photoUploads: PhotoUploadService;
  photoListing: PhotoListingService;
  photoChanges: PhotoChangesService;
  stockUploads: StockUploadService;
  shares: ShareService;
  miniAlbums: MiniAlbumService;
  attendees: AttendeeService;
}): Handlers => ({
  signIn: async ({ body, request, reply }) =>
    present(request, reply, await services.auth.signIn(body)),
  respondToChallenge: async ({ body, request, reply }) =>
    present(request, reply, await services.auth.respondToChallenge(body)),
  associateSoftwareToken: async ({ actor, body }) =>
    services.auth.associateSoftwareToken(actor, body),
  verifySoftwareToken: async ({ actor, body }) => services.auth.verifySoftwareToken(actor, body),
  setMfaPreference: async ({ actor, body }) => {
    await services.auth.setMfaPreference(actor, body.software_token_mfa_settings);
    return {};
  },
  forgotPassword: async ({ body }) => {
    await services.auth.forgotPassword(body);
    return { code_delivery_details: { delivery_medium: 'EMAIL' } };
  },
  confirmForgotPassword: async ({ body }) => {
    await services.auth.confirmForgotPassword(body);
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
  setupStatus: async () => ({ needs_first_admin: await services.auth.needsFirstAdmin() }),
  createFirstAdmin: async ({ body }) => services.auth.createFirstAdmin(body),
  myInfo: async ({ actor }) => services.users.myInfo(actor),
  createUser: async ({ actor, body }) => services.users.create(actor, body),
  createApiKey: async ({ actor, body }) => services.users.createApiKey(actor, body.name),
  listApiKeys: async ({ actor }) => services.users.listApiKeys(actor),
  deleteApiKey: async ({ actor, body }) => {
    await services.users.deleteApiKey(actor, body.id);
    return {};
  },
  listOrganisations: async ({ actor }) => services.organisations.list(actor),
  createOrganisation: async ({ actor, body }) => services.organisations.create(actor, body.name),
  // events (issue 3)
  createEvent: async ({ actor, body }) => services.events.create(actor, body),
  updateEvent: async ({ actor, body }) => services.events.update(actor, body),
  deleteEvent: async ({ actor, body }) => {
    await services.events.delete(actor, body.event_id);
    return {};
  },
  eventBasicList: async ({ actor, body }) => services.events.basicList(actor, body),
  eventFullData: async ({ actor, body }) => services.events.fullData(actor, body.event_name),
  publicEventFullData: async ({ body }) => services.events.fullDataByKey(body),
  secureProps: async ({ actor, body }) => services.events.secureProps(actor, body.event_name),
  verifyFromAddress: async ({ body }) => services.eventFromAddress.verify(body.token),
  robotList: async ({ actor, body }) => services.robots.list(actor, body.organisation_id),
  createRobot: async ({ actor, body }) => services.robots.create(actor, body),
  imageProcessList: async ({ actor, body }) =>
    services.imageProcesses.list(actor, body.organisation_id),
  autoPrintProcesses: async ({ actor, body }) =>
    services.imageProcesses.autoPrint(actor, body.event_id),
  pptList: async ({ actor, body }) => services.templates.list(actor, body),
  deletePpt: async ({ actor, body }) => {
    await services.templates.delete(actor, body.id);
    return {};
  },
  stockImageList: async ({ actor, body }) => services.events.stockImages(actor, body.event_id),
  createIgnoredFace: async ({ actor, body }) => services.ignoredFaces.create(actor, body),
  listIgnoredFaces: async ({ actor, body }) => services.ignoredFaces.list(actor, body.event_id),
  deleteIgnoredFaces: async ({ actor, body }) => services.ignoredFaces.delete(actor, body),
  shareBucketUploadAccess: async ({ actor, body }) =>
    services.shareBucket.createUploadAccess(actor, body),
  shareBucketInvalidateCache: async ({ body }) => services.shareBucket.invalidateCache(body.paths),
  stockImageUploadAccess: async ({ body }) => services.shareBucket.stockImageUploadAccess(body),
  thumbnailForStockImage: async ({ body }) => services.stockUploads.thumbnailForStockImage(body),
  ignoredFaceUploadAccess: async ({ body }) => services.stockUploads.ignoredFaceUploadAccess(body),
  photoUploadAccess: async ({ actor, body }) =>
    services.photoUploads.createUploadGrant(actor, body),
  photoUploadComplete: async ({ actor, body }) => services.photoUploads.completeUpload(actor, body),
  ownerPhotoList: async ({ actor, body }) => services.photoListing.list(actor, body),
  publicPhotoList: async ({ body }) => services.photoListing.list(null, body),
  photoCountInfo: async ({ actor, body }) => services.photoListing.countInfo(actor, body),
  deletePhoto: async ({ actor, body }) => ({
    deleted: await services.photoChanges.deleteOne(actor, body),
  }),
  deletePhotoList: async ({ actor, body }) => ({
    deleted: await services.photoChanges.deleteMany(actor, body),
  }),
  updatePhoto: async ({ actor, body }) => services.photoChanges.update(actor, body),
  updatePhotoList: async ({ actor, body }) => ({
    updated: await services.photoChanges.updateMany(actor, body),
  }),
  publicUpdatePhotoList: async ({ body }) => services.photoChanges.updateManyByKey(body),
  curationUpdate: async ({ actor, body }) => services.photoChanges.curationUpdate(actor, body),
  curationReprocess: async ({ actor, body }) => services.photoChanges.reprocess(actor, body),
  createActivity: async ({ body }) => services.photoChanges.createActivity(body),
  bulkCreateActivity: async ({ body }) => services.photoChanges.bulkCreateActivity(body),
  // albums (issue 5)
  generateShareLink: async ({ actor, body }) => services.shares.generateLink(actor, body),
  trackShare: async ({ body }) => services.shares.track(body),
  sendMiniAlbumLink: async ({ actor, body }) => services.miniAlbums.sendLink(actor, body),
  retrieveMiniAlbum: async ({ body }) => services.miniAlbums.retrieve(body.token),
  // attendee albums (issue 5)
  generateAttendeeList: async ({ actor, body }) => services.attendees.generate(actor, body),
  attendeeList: async ({ actor, body }) => services.attendees.list(actor, body),
  attendeesByPhotos: async ({ actor, body }) => services.attendees.byPhotos(actor, body),
  ownerAttachPhotos: async ({ actor, body }) => services.attendees.ownerAttach(actor, body),
  unlinkPhotos: async ({ actor, body }) => services.attendees.unlink(actor, body),
  lockAttendee: async ({ actor, body }) => services.attendees.lock(actor, body),
  retrieveAttendee: async ({ body }) => services.attendees.retrieve(body),
  checkAttendeeUid: async ({ body }) => services.attendees.checkUid(body),
  attachPhotosByKey: async ({ body }) => services.attendees.attachByKey(body),
  attachPhotosByQrScan: async ({ body }) => services.attendees.attachByQrScan(body),
  updateAttendeeByKiosk: async ({ body }) => services.attendees.updateByKiosk(body),
});
