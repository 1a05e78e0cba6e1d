import type { Photo } from '@flashbulb/shared';
import { asFlag } from '../../lib/flag.ts';
import type { AttendeeRecord } from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRow } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { isPaidEvent, type PhotoUrls } from './photo-urls.ts';

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

export interface PresentOptions {
  /** The caller may download the original (attendee keys: prepaid, unlocked, free event). */
  original?: boolean;
  /** The photo's event: a guest of a paid one gets the watermarked preview (ADR 0006). */
  event?: Pick<EventRow, 'is_free' | 'unlocked'> | null | undefined;
}

/** A photo row as the API answers it to an audience; `urls` decides the URL values (ADR 0006). */
export const presentPhoto = (
  row: PhotoRow,
  audience: Audience,
  urls: Pick<PhotoUrls, 'urls'>,
  options: PresentOptions = {},
): Photo => {
  // The private key is a guest's link: it opens originals of free or unlocked events only (a paid
  // event's originals open per attendee, after payment).
  const mayDownloadOriginal =
    audience === 'owner' ||
    (audience === 'private' && !!options.event && !isPaidEvent(options.event)) ||
    options.original === true;
  return {
    id: row.id,
    uid: row.uid,
    event_id: row.eventId,
    full_path: row.storageKey,
    file_name: row.fileName,
    content_type: row.contentType,
    media_type: row.mediaType === 'video' ? 'video' : 'image',
    width: row.width,
    height: row.height,
    size_bytes: row.sizeBytes,
    robot_id: row.robotId,
    attendee_uid: row.attendeeUid,
    category: row.category,
    is_visible: asFlag(row.isVisible),
    is_original: asFlag(row.isOriginal),
    is_curatable: asFlag(row.isCuratable),
    is_curated: asFlag(row.isCurated),
    printable: asFlag(row.printable),
    printed: asFlag(row.printed),
    image_process_id: row.imageProcessId,
    original_photo_id: row.originalPhotoId,
    status: row.status === 'ready' ? 'ready' : row.status === 'failed' ? 'failed' : 'processing',
    duration_ms: row.durationMs,
    is_360: asFlag(row.is360),
    created_date: row.createdAt.toISOString(),
    available_date: row.availableAt.toISOString(),
    urls: urls.urls(row, { audience, event: options.event, original: mayDownloadOriginal }),
  };
};
