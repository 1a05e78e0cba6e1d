import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';

/** What uploads naming attendees need of the attendees domain. */
export interface AttendeeUploads {
  /** Creates or links the attendee an uploaded id names, where the event's rules allow. */
  claimUploadedId(event: EventRecord, uid: string): Promise<void>;
  /**
   * Adds the photo to the albums of these attendees (ids the photo is not uploaded with); answers
   * how many had not had it.
   */
  attachUploaded(
    event: EventRecord,
    photo: Pick<PhotoRow, 'id' | 'uid' | 'eventId'>,
    uids: readonly string[],
  ): Promise<number>;
}

/**
 * The upload's attendees other than the photo's own: the photo joins their albums (the same
 * bytes sent for another attendee land on the photo that already exists). Answers how many
 * albums had not had it.
 */
export const attachOthers = async (
  attendeeUploads: AttendeeUploads | undefined,
  event: EventRecord,
  photo: PhotoRow,
  attendeeUids: readonly string[],
): Promise<number> => {
  const others = attendeeUids.filter((uid) => uid !== photo.attendeeUid);
  if (others.length === 0 || !attendeeUploads) return 0;
  return attendeeUploads.attachUploaded(event, photo, others);
};
