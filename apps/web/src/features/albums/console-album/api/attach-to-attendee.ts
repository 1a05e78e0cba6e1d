import { MAX_ATTACH_PHOTOS, ownerAttachPhotos, unlinkPhotos } from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';

/**
 * Adds photos to an attendee's album (albums spec §7.2 owner attach). One call takes at most
 * MAX_ATTACH_PHOTOS, so a larger selection goes in consecutive calls; answers the photos added.
 */
export const attachPhotosToAttendee = async (
  eventId: number,
  attendeeUid: string,
  photoUids: readonly string[],
): Promise<number> => {
  let attached = 0;
  for (let start = 0; start < photoUids.length; start += MAX_ATTACH_PHOTOS) {
    const result = await callApi(ownerAttachPhotos, {
      event_id: eventId,
      attendee_uid: attendeeUid,
      photo_uid_array: photoUids.slice(start, start + MAX_ATTACH_PHOTOS),
    });
    attached += result.attached_count;
  }
  return attached;
};

/**
 * Removes photos from an attendee's album; the photos stay in the event. Owner-console §5 allows
 * one event per unlink, which the console album always is. Answers the photos removed.
 */
export const unlinkPhotosFromAttendee = async (
  eventId: number,
  attendeeUid: string,
  photoUids: readonly string[],
): Promise<number> => {
  let unlinked = 0;
  for (let start = 0; start < photoUids.length; start += MAX_ATTACH_PHOTOS) {
    const result = await callApi(unlinkPhotos, {
      event_id_array: [eventId],
      attendee_uid: attendeeUid,
      photo_uid_array: photoUids.slice(start, start + MAX_ATTACH_PHOTOS),
    });
    unlinked += result.unlinked_count;
  }
  return unlinked;
};
