import { guestUploadError } from '@flashbulb/shared';
import { guestUploadAccess, guestUploadComplete } from '@flashbulb/shared/api/photos/photos';
import { ApiError, callApi } from '../api-client.ts';
import { prepareUpload } from './prepare-upload.ts';
import type { UploadStep } from './upload-queue.ts';
import { uploadThroughGrant } from './upload-through-grant.ts';

/** A guest's key: the public album's link or the attendee's own album. */
export interface GuestUploadKey {
  readonly key_type: 'public' | 'attendee';
  readonly key_value: string;
}

/** What became of a guest's photo: waiting for the organiser's review, or in the album. */
export interface GuestUploadOutcome {
  readonly heldForReview: boolean;
  readonly inEventAlbum: boolean;
}

/**
 * A guest's own photo into the event (docs/domains/photos.md, "Guests' own photos"): resized on
 * the phone as any upload (fit 2000×2000), checked against the guests' rule (a picture of at most
 * 25 MB) before anything is sent, then the guest grant, the direct POST with progress and the
 * completion (`uploadThroughGrant`). The server fits it to the event's box and tags it.
 */
export const uploadGuestPhoto = async (
  file: File,
  step: UploadStep,
  eventName: string,
  key: GuestUploadKey,
): Promise<GuestUploadOutcome> => {
  const early = guestUploadError(file.name, null);
  if (early) throw new ApiError(early);
  const body = await prepareUpload(file);
  const tooLarge = guestUploadError(file.name, body.size);
  if (tooLarge) throw new ApiError(tooLarge);
  const done = await uploadThroughGrant(
    file,
    body,
    step,
    (request) =>
      callApi(guestUploadAccess, {
        ...key,
        event_name: eventName,
        ...request,
        size_bytes: body.size,
      }),
    (grantKey) => callApi(guestUploadComplete, { ...key, key: grantKey }),
  );
  return { heldForReview: done.held_for_review, inEventAlbum: done.in_event_album };
};
