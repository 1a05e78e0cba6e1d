// Who may download a photo's original (rules the presenters and the album download ask), and
// what a key opens.
import type { AttendeeRecord } from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRow } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';

import type { Audience } from '../../access/access-control.ts';

/** How much of the event a caller may see (decided by the access layer). */
export type { Audience };

/** What a key opens: its event, how much of it, and for an attendee key whose album. */
export interface KeyAccess {
  event: EventRecord;
  audience: Audience;
  attendee: AttendeeRecord | null;
}

/**
 * Attendee originals: prepaid or unlocked attendees, attendees whose album was unlocked for this
 * event (desk sale or confirmed payment), or a free or unlocked event.
 */
export const attendeeMayDownload = (
  attendee: AttendeeRecord,
  event: Pick<EventRow, 'id' | 'is_free' | 'unlocked'> | undefined,
): boolean =>
  attendee.row.isPrepaid === 1 ||
  attendee.row.unlocked === 1 ||
  (event !== undefined && (attendee.unlockedEventIds ?? []).includes(event.id)) ||
  event?.is_free === 1 ||
  event?.unlocked === 1;

/**
 * One photo's original for an attendee: as `attendeeMayDownload`, or that photo was bought, or a
 * tag it carries was bought for its event (`partialUnlockTags`).
 */
export const attendeeMayDownloadPhoto = (
  attendee: AttendeeRecord,
  event: Pick<EventRow, 'id' | 'is_free' | 'unlocked'> | undefined,
  photo: Pick<PhotoRow, 'uid' | 'eventId'> & { tags?: string[] | null },
): boolean =>
  attendeeMayDownload(attendee, event) ||
  (attendee.unlockedPhotoUids ?? []).includes(photo.uid) ||
  (attendee.unlockedTags ?? []).some(
    (bought) => bought.eventId === photo.eventId && (photo.tags ?? []).includes(bought.tag),
  );
