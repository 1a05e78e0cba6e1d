import {
  attendeeKeyOf,
  formatAttendeeId,
  type Attendee,
  type AttendeeAlbum,
  type Lead,
  type ProfilePhoto,
  type UnlockCodeEntry,
} from '@flashbulb/shared';
import { asFlag } from '../lib/flag.ts';
import type { AttendeeRecord, AttendeeRow } from '../repositories/attendees/attendee.repository.ts';
import type { ProfilePhotoRow } from '../repositories/attendees/kiosk-media.repository.ts';
import type { LeadRow } from '../repositories/attendees/lead.repository.ts';
import type { EventRow } from '../repositories/events/event.repository.ts';

const trimSlash = (url: string): string => url.replace(/\/+$/, '');

/** The attendee's album link: the card's URL prefix (else ours) with the album's key. */
export const attendeeAlbumUrl = (
  row: Pick<AttendeeRow, 'uid' | 'urlPrefix' | 'privateId' | 'customUid'>,
  publicUrl: string,
): string => {
  const base = trimSlash(row.urlPrefix ?? publicUrl);
  return `${base}/?attId=${encodeURIComponent(attendeeKeyOf(row))}`;
};

/** An attendee as the owner's console lists it (ids, flags, photo count, album link). */
export const attendeeForOwner = (
  record: AttendeeRecord,
  photoCount: number,
  publicUrl: string,
): Attendee => {
  const row = record.row;
  return {
    id: row.id,
    uid: row.uid,
    display_uid: formatAttendeeId(row.uid),
    private_id: row.privateId,
    organisation_id: row.organisationId,
    event_ids: record.eventIds,
    email: row.email,
    is_prepaid: asFlag(row.isPrepaid),
    unlocked: asFlag(row.unlocked),
    partial_unlock_tag: row.partialUnlockTag,
    is_locked: row.lockedAt ? 1 : 0,
    expires_date: row.expiresAt?.toISOString() ?? null,
    created_date: row.createdAt.toISOString(),
    photo_count: photoCount,
    album_url: attendeeAlbumUrl(row, publicUrl),
  };
};

/** The attendee's own album as their key opens it: no private id, no other attendee's data. */
export const attendeeAlbumForGuest = (
  record: AttendeeRecord,
  events: Pick<
    EventRow,
    | 'name'
    | 'full_name'
    | 'empty_album_text'
    | 'logo_full_path'
    | 'opts'
    | 'time_zone'
    | 'date_utc_diff_hours'
  >[],
  photoCount: number,
  mayDownload: boolean,
): AttendeeAlbum => {
  const row = record.row;
  return {
    uid: row.uid,
    display_uid: formatAttendeeId(row.uid),
    organisation_id: row.organisationId,
    email: row.email,
    is_prepaid: asFlag(row.isPrepaid),
    unlocked: mayDownload ? 1 : 0,
    expires_date: row.expiresAt?.toISOString() ?? null,
    events: events.map((e) => ({
      name: e.name,
      full_name: e.full_name,
      empty_album_text: e.empty_album_text,
      logo_full_path: e.logo_full_path,
      accent_color: e.opts.guestAccentColor ?? '',
      // Photo times on the album page are shown in the event's local time.
      time_zone: e.time_zone ?? '',
      date_utc_diff_hours: e.date_utc_diff_hours,
    })),
    photo_count: photoCount,
  };
};

/** A lead as those who manage the event list it. */
export const leadForOwner = (row: LeadRow): Lead => ({
  id: row.id,
  full_name: row.fullName,
  email: row.email,
  company_name: row.companyName,
  phone: row.phone,
  source: row.source,
  consent_version: row.consentVersion,
  consent_text: row.consentText,
  consented_date: row.consentedAt?.toISOString() ?? null,
  created_date: row.createdAt.toISOString(),
  updated_date: row.updatedAt.toISOString(),
});

/** A profile photo at the kiosk: its signed URL is made by the caller (protected key space). */
export const profilePhotoForKiosk = (row: ProfilePhotoRow, url: string): ProfilePhoto => ({
  id: row.id,
  file_name: row.fileName,
  width: row.width,
  height: row.height,
  url,
  created_date: row.createdAt.toISOString(),
});

/** The event's pass codes as the owner edits them. */
export const passCodesForOwner = (entries: UnlockCodeEntry[]) =>
  entries.map((e) => ({ first_name: e.firstName, last_name: e.lastName, code: e.code }));
