import { AppError } from '../lib/app-error.ts';
import type { EventGrant } from './access-control.ts';

/** Where a guest's upload goes: the event's album, or also an attendee's own album. */
export interface GuestUploader {
  /** The attendee whose album the photo joins (an attendee key), else null (the public album). */
  attendeeUid: string | null;
}

/**
 * Whether the guest behind a `photo.guest_upload` grant may add photos to the event now: the
 * public album's key while `enablePhotoUpl` is on, an attendee's key (into their own album) while
 * `enableAttendeePhotoUpl` is on. Refused with the key of the setting that is off.
 */
export const requireGuestUploader = (grant: EventGrant): GuestUploader => {
  const opts = grant.event.row.opts;
  if (grant.keyType === 'attendee' && grant.attendee) {
    if (opts.enableAttendeePhotoUpl !== 1)
      throw new AppError('attendee_photo_upload_disabled', 'key_type');
    return { attendeeUid: grant.attendee.row.uid };
  }
  if (grant.keyType === 'public') {
    if (opts.enablePhotoUpl !== 1) throw new AppError('photo_upload_disabled', 'key_type');
    return { attendeeUid: null };
  }
  throw new AppError('invalid_key', 'key_type');
};
