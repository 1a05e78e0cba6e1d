import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { ATTENDEE_ID_ALPHABET } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttachSource,
  AttendeeRecord,
  AttendeeRepository,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';

/** What the attendee services share: codes, the open attendee an id names, attaching photos. */

export const randomCode = (length: number): string => {
  let code = '';
  for (let i = 0; i < length; i += 1)
    code += ATTENDEE_ID_ALPHABET[randomInt(ATTENDEE_ID_ALPHABET.length)];
  return code;
};

/** Equal-time comparison of two codes of any length (hashed first, so lengths leak nothing). */
export const sameCode = (a: string, b: string): boolean =>
  timingSafeEqual(createHash('sha256').update(a).digest(), createHash('sha256').update(b).digest());

/** The attendee an id names, open now; else the clear reason (the attendee calls name it). */
export const openAttendee = async (
  access: Pick<AccessControl, 'attendeeById'>,
  rawId: string,
  field = 'attendee_uid',
): Promise<AttendeeRecord> => {
  const { record, refusal } = await access.attendeeById(rawId);
  if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', field);
  return record;
};

/** Photos of one event by uid, all of them or `not_found`. */
export const eventPhotos = async (
  albums: Pick<AlbumRepository, 'photosByUids'>,
  eventId: number,
  uids: string[],
): Promise<PhotoRow[]> => {
  const unique = [...new Set(uids)];
  const rows = await albums.photosByUids(eventId, unique);
  if (rows.length !== unique.length) throw new AppError('not_found', 'photo_uid_array');
  return rows;
};

/** Links the attendee to the event and attaches the photos; the live stream hears of them. */
export const attachPhotos = async (
  deps: {
    attendees: Pick<AttendeeRepository, 'linkEvent' | 'attach'>;
    bus?: SignalEmitter | undefined;
  },
  record: AttendeeRecord,
  event: EventRecord,
  rows: PhotoRow[],
  source: AttachSource,
): Promise<number> => {
  await deps.attendees.linkEvent(record.row.id, event.row.id);
  await deps.attendees.attach(
    record.row.id,
    rows.map((r) => r.id),
    source,
  );
  // Listeners never fail the call: the album list shows the photos either way.
  await deps.bus?.emit('attendee.photos_attached', {
    attendeeId: record.row.id,
    photos: rows.map((r) => ({ photoId: r.id, eventId: r.eventId })),
  });
  return rows.length;
};
