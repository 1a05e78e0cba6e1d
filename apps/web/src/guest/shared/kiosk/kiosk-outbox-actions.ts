import { sendAlbumLinkByEmail } from '../api/attendee-album.ts';
import { unlockAndPrintAtDesk, unlockAtDesk } from '../api/album-payments.ts';
import {
  customPhotoUpload,
  deleteAtKiosk,
  printAtKiosk,
  printStoryAtKiosk,
  profilePhotoUpload,
} from '../api/kiosk-actions.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { isTransientFailure, type ActionRunner } from './kiosk-outbox.ts';
import { dropPicture, keptPicture } from './kiosk-pictures.ts';

/**
 * What each stored kiosk action carries (JSON, kept in local storage until it has run).
 * `attendeeId` is the attendee's uid; the stored name stays, so actions queued before an update
 * still run after it.
 */
export interface KioskActions {
  delete: { kioskKey: string; attendeeId: string; photoUid: string };
  print: { kioskKey: string; attendeeId: string; photoUids: string[]; pool: string | null };
  /** The print list as one story sheet (ADR 0009). */
  'print-story': {
    kioskKey: string;
    attendeeId: string;
    photoUids: string[];
    pool: string | null;
  };
  'send-link': { kioskKey: string; attendeeId: string; email: string };
  unlock: { kioskKey: string; attendeeId: string; code: string };
  'unlock-print': { kioskKey: string; attendeeId: string; code: string; photoUids: string[] };
  /** A camera picture, kept in IndexedDB under `picture` (kiosk-pictures.ts) until it has gone. */
  'camera-photo': { kioskKey: string; attendeeId: string; picture: string };
  'profile-photo': { kioskKey: string; attendeeId: string; picture: string };
}

const runner =
  <K extends keyof KioskActions>(
    run: (payload: KioskActions[K], context: { id: string; retried: boolean }) => Promise<unknown>,
  ): ActionRunner =>
  (payload: never, context) =>
    run(payload, context);

/** A picture's upload in progress, per action: a retry goes on where the last try stopped. */
const uploads = new Map<string, () => Promise<unknown>>();

/**
 * A kept camera picture's upload: read from IndexedDB (a picture that is gone cannot be sent: a
 * final refusal), sent, then forgotten — also when the server refused it for good.
 */
const pictureRunner = (
  make: (
    kioskKey: string,
    attendeeUid: string,
    picture: Blob,
    requestId: string,
  ) => () => Promise<unknown>,
) =>
  runner<'camera-photo'>(async (p, { id }) => {
    let upload = uploads.get(id);
    if (!upload) {
      const picture = await keptPicture(p.picture);
      if (!picture) throw new ApiError('not_found');
      upload = make(p.kioskKey, p.attendeeId, picture, id);
      uploads.set(id, upload);
    }
    try {
      const result = await upload();
      uploads.delete(id);
      await dropPicture(p.picture);
      return result;
    } catch (error) {
      if (!isTransientFailure(error)) {
        uploads.delete(id);
        await dropPicture(p.picture);
      }
      throw error;
    }
  });

/**
 * How the kiosk's stored actions run. The action's id is the client request id where
 * the server dedupes by one (prints, desk unlock with prints); a delete tried again takes "not
 * found" as done; an unlock stands once whatever the repeats; the album link is mailed once per id
 * (the server dedupes `update-by-kiosk` by it); a camera photo's grant carries it, so the server
 * answers a reloaded kiosk with the same upload key and one photo.
 */
export const KIOSK_ACTION_RUNNERS: Readonly<Record<keyof KioskActions, ActionRunner>> = {
  delete: runner<'delete'>((p, { retried }) =>
    deleteAtKiosk(p.kioskKey, p.attendeeId, p.photoUid, () => retried),
  ),
  print: runner<'print'>((p, { id }) =>
    printAtKiosk(p.kioskKey, p.attendeeId, p.photoUids, p.pool, id),
  ),
  'print-story': runner<'print-story'>((p, { id }) =>
    printStoryAtKiosk(p.kioskKey, p.attendeeId, p.photoUids, p.pool, id),
  ),
  'send-link': runner<'send-link'>((p, { id }) =>
    sendAlbumLinkByEmail(p.kioskKey, p.attendeeId, p.email, id),
  ),
  unlock: runner<'unlock'>((p) => unlockAtDesk(p.kioskKey, p.attendeeId, p.code)),
  'unlock-print': runner<'unlock-print'>((p, { id }) =>
    unlockAndPrintAtDesk(p.kioskKey, p.attendeeId, p.code, p.photoUids, id),
  ),
  'camera-photo': pictureRunner(customPhotoUpload),
  'profile-photo': pictureRunner(profilePhotoUpload),
};

/** Queue a stored kiosk action with its payload's type checked. */
export const enqueueKioskAction = <K extends keyof KioskActions, T = unknown>(
  outbox: { enqueueStored: <R>(kind: string, payload: unknown) => Promise<R> },
  kind: K,
  payload: KioskActions[K],
): Promise<T> => outbox.enqueueStored<T>(kind, payload);
