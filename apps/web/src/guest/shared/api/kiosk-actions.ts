import type { ProfilePhoto } from '@flashbulb/shared';
import { checkAndGroupAttendees } from '@flashbulb/shared/api/attendees/attendees';
import {
  completeCustomPhoto,
  createAttendeeCustomPhoto,
  createProfilePhoto,
  deleteProfilePhoto,
  kioskDeletePhoto,
  listProfilePhotos,
  profilePhotoUploadAccess,
} from '@flashbulb/shared/api/attendees/kiosk';
import { publicPhotoList } from '@flashbulb/shared/api/photos/photos';
import { publicPrintStory, publicPrintWithQueue } from '@flashbulb/shared/api/printing/printing';

// The kiosk's endpoints one by one (the shared `endpoints` map holds the whole contract).
const endpoints = {
  checkAndGroupAttendees,
  completeCustomPhoto,
  createAttendeeCustomPhoto,
  createProfilePhoto,
  deleteProfilePhoto,
  kioskDeletePhoto,
  listProfilePhotos,
  profilePhotoUploadAccess,
  publicPhotoList,
  publicPrintStory,
  publicPrintWithQueue,
};
import { checkKioskStaffPin } from '../../../lib/guest-endpoints.ts';
import { ApiError, callApi } from '../../../lib/api-client.ts';
import { postFileToStorage } from '../../../lib/uploads/post-file-to-storage.ts';
import { leadGateFields, type AlbumKey } from './guest-album-photos.ts';
import { kioskKeyFields } from './kiosk-key.ts';

/**
 * The kiosk screen's own calls (albums §2.4, §4, §7.1, §7.2), each made with the kiosk's
 * private key from its link. The kiosk runs them through its outbox (utils/kiosk-outbox.ts), so
 * each is written to be tried again after a lost network: printing carries a request id, camera
 * uploads resume at the step that failed.
 */

const kioskKeyBody = (kioskKey: string) => kioskKeyFields(kioskKey);

/** §4, §6: the guest deletes a photo of their album (the server asks the event's own flag). */
export const deleteAtKiosk = async (
  kioskKey: string,
  attendeeUid: string,
  photoUid: string,
  retried: () => boolean,
): Promise<void> => {
  try {
    await callApi(endpoints.kioskDeletePhoto, {
      ...kioskKeyBody(kioskKey),
      attendee_uid: attendeeUid,
      photo_uid: photoUid,
    });
  } catch (error) {
    // Tried again after a lost answer: the first try may have deleted it already.
    if (retried() && error instanceof ApiError && error.messageKey === 'not_found') return;
    throw error;
  }
};

/** The body both print calls take: the print list, on the chosen pool, once per request id. */
const printListBody = (
  kioskKey: string,
  attendeeUid: string,
  photoUids: readonly string[],
  pool: string | null,
  requestId: string,
) => ({
  ...kioskKeyBody(kioskKey),
  printable_photo_uid_array: [...photoUids],
  printing_count: 1,
  ...(pool ? { printer_pool_name: pool } : {}),
  attUid: attendeeUid,
  client_request_id: requestId,
});

/** The stories print pool's prints: the photos of the print list, once per request id. */
export const printAtKiosk = (...args: Parameters<typeof printListBody>) =>
  callApi(endpoints.publicPrintWithQueue, printListBody(...args));

/**
 * A story (docs/adr/0009-story-sheets.md): the print list as ONE sheet on the event's story
 * template, on the kiosk's stories pool (else the event's), once per request id.
 */
export const printStoryAtKiosk = (...args: Parameters<typeof printListBody>) =>
  callApi(endpoints.publicPrintStory, printListBody(...args));

/**
 * The staff PIN typed on the kiosk: the server checks it against the event's (the kiosk's key
 * with its display token); a wrong one answers `invalid_staff_pin`, too many `too_many_attempts`.
 */
export const checkStaffPin = async (kioskKey: string, pin: string): Promise<void> => {
  await callApi(checkKioskStaffPin, { ...kioskKeyBody(kioskKey), pin });
};

/**
 * Whether a VIP token opens the album's waiting photos: one photo asked with it. A wrong token
 * answers `vip_token_invalid`.
 */
export const checkVipToken = async (key: AlbumKey, token: string): Promise<void> => {
  await callApi(endpoints.publicPhotoList, {
    key_type: key.keyType,
    key_value: key.keyValue,
    max_size: 1,
    vip_token: token,
    // Asked at a kiosk: the organiser's screen (its display token, else a lead given here).
    ...leadGateFields(key),
  });
};

type Grant = { url: string; fields: Record<string, string>; key: string; max_bytes: number };

/**
 * A picture from the kiosk camera into the guest's album (§7.1 custom photo under `/kioskMedia`,
 * §7.2 `/event/create-attendee-custom-photo`): grant, storage POST, completion. Calling the
 * returned function again after a failure resumes at the step that failed, so a retry never
 * uploads the picture twice. `requestId` (the kept outbox action's id, the same after a reload)
 * is the grant's client request id: the server answers it with the same key, so a kiosk reloaded
 * mid-upload completes the one photo instead of adding a second.
 */
export const customPhotoUpload = (
  kioskKey: string,
  attendeeUid: string,
  picture: Blob,
  requestId?: string,
) => {
  let grant: Grant | null = null;
  let stored = false;
  const fileName = `kiosk-${Date.now().toString(36)}.jpg`;
  return async (): Promise<{ photo_uid: string }> => {
    grant ??= await callApi(endpoints.createAttendeeCustomPhoto, {
      ...kioskKeyBody(kioskKey),
      attendee_uid: attendeeUid,
      file_name: fileName,
      ...(requestId ? { client_request_id: requestId } : {}),
    });
    if (picture.size > grant.max_bytes) throw new ApiError('unsupported_media_size');
    if (!stored) {
      await postFileToStorage(grant, picture, fileName);
      stored = true;
    }
    return callApi(endpoints.completeCustomPhoto, { ...kioskKeyBody(kioskKey), key: grant.key });
  };
};

/** The camera picture as the guest's profile photo (§7.2 `/attendee/profile-photo/*`), resumable. */
export const profilePhotoUpload = (kioskKey: string, attendeeUid: string, picture: Blob) => {
  let grant: Grant | null = null;
  let stored = false;
  const fileName = `profile-${Date.now().toString(36)}.jpg`;
  return async (): Promise<ProfilePhoto> => {
    grant ??= await callApi(endpoints.profilePhotoUploadAccess, {
      ...kioskKeyBody(kioskKey),
      attendee_uid: attendeeUid,
      file_name: fileName,
    });
    if (!stored) {
      await postFileToStorage(grant, picture, fileName);
      stored = true;
    }
    return callApi(endpoints.createProfilePhoto, {
      ...kioskKeyBody(kioskKey),
      attendee_uid: attendeeUid,
      key: grant.key,
    });
  };
};

/** The guest's profile photos, newest first (§7.2 `/attendee/profile-photo/list/retrieve`). */
export const profilePhotosAtKiosk = async (
  kioskKey: string,
  attendeeUid: string,
  signal?: AbortSignal,
): Promise<ProfilePhoto[]> =>
  (
    await callApi(
      endpoints.listProfilePhotos,
      { ...kioskKeyBody(kioskKey), attendee_uid: attendeeUid },
      signal ? { signal } : {},
    )
  ).profile_photos;

/** Deletes one of the guest's profile photos (its row and its file). */
export const deleteProfilePhotoAtKiosk = async (
  kioskKey: string,
  attendeeUid: string,
  id: number,
): Promise<void> => {
  await callApi(endpoints.deleteProfilePhoto, {
    ...kioskKeyBody(kioskKey),
    attendee_uid: attendeeUid,
    id,
  });
};

/**
 * Several cards into one album (§7.2 `/attendee/check-and-group-uid-list`): the first card keeps
 * the album and gains the photos of the others; the server checks every card.
 */
export const groupCardsAtKiosk = (kioskKey: string, attendeeUids: string[]) =>
  callApi(endpoints.checkAndGroupAttendees, {
    ...kioskKeyBody(kioskKey),
    attendee_uid_list: attendeeUids,
  });
