import type { GuestPhoto, KeyPhoto, Photo } from '@flashbulb/shared';
import type { Audience } from '../access/access-control.ts';
import { asFlag } from '../lib/flag.ts';
import type { EventRow } from '../repositories/events/event.repository.ts';
import type { PhotoRow } from '../repositories/photos/photo.repository.ts';
import { isPaidEvent, type PhotoUrls } from '../services/photos/photo-urls.ts';

// One call per audience: `presentOperatorPhoto` (operators, the event-owner key),
// `presentKeyPhoto` (whatever a key may see), `presentGuestPhoto` (guests only: mini-albums,
// mails), `presentRobotUpload` (a robot hearing its upload's state).

/** The URL signer a presenter needs (ADR 0006: the URL values are the signer's business). */
export type PhotoUrlSigner = Pick<PhotoUrls, 'urls'>;

/**
 * The photo as an audience may see it: operators (and the event-owner key) the whole photo; guests
 * (public, private and attendee keys, mini-album links) an explicit allow-list (`guestPhotoSchema`
 * in the contract); a robot the guest fields of its own uploads with only the public URLs (no
 * original, no unwatermarked preview). The URL values are the photo presenter's business.
 */
export const photoForAudience = (photo: Photo, audience: Audience): KeyPhoto =>
  audience === 'owner' ? photo : audience === 'robot' ? robotPhoto(photo) : guestPhoto(photo);

/** What a robot sees of its upload: the guest fields, the original and preview URLs left out. */
export const robotPhoto = (photo: Photo): GuestPhoto => {
  const seen = guestPhoto(photo);
  return { ...seen, urls: { ...seen.urls, original: null, preview: null } };
};

export const guestPhoto = (photo: Photo): GuestPhoto => ({
  id: photo.id,
  uid: photo.uid,
  event_id: photo.event_id,
  file_name: photo.file_name,
  content_type: photo.content_type,
  media_type: photo.media_type,
  width: photo.width,
  height: photo.height,
  size_bytes: photo.size_bytes,
  category: photo.category,
  is_visible: photo.is_visible,
  is_original: photo.is_original,
  is_curatable: photo.is_curatable,
  is_curated: photo.is_curated,
  printable: photo.printable,
  printed: photo.printed,
  status: photo.status,
  duration_ms: photo.duration_ms,
  is_360: photo.is_360,
  created_date: photo.created_date,
  available_date: photo.available_date,
  urls: photo.urls,
});

/** The operator list answers whole photos (an operator's audience is always `owner`). */
export const operatorPhotos = <P extends { photos: KeyPhoto[] }>(
  page: P,
): Omit<P, 'photos'> & { photos: Photo[] } => ({
  ...page,
  photos: page.photos.filter((photo): photo is Photo => 'full_path' in photo),
});

export interface PresentOptions {
  /** The caller may download the original (attendee keys: prepaid, unlocked, free event). */
  original?: boolean;
  /** The photo's event: a guest of a paid one gets the watermarked preview (ADR 0006). */
  event?: Pick<EventRow, 'is_free' | 'unlocked'> | null | undefined;
}

/** A photo row with every field, its URLs signed for `audience` (ADR 0006). */
const presentPhoto = (
  row: PhotoRow,
  audience: Audience,
  urls: PhotoUrlSigner,
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

/** A photo as operators see it: every field. */
export const presentOperatorPhoto = (row: PhotoRow, urls: PhotoUrlSigner): Photo =>
  presentPhoto(row, 'owner', urls);

/** A photo as a key of `audience` sees it: the whole photo, the guest fields or a robot's. */
export const presentKeyPhoto = (
  row: PhotoRow,
  audience: Audience,
  urls: PhotoUrlSigner,
  options: PresentOptions = {},
): KeyPhoto => photoForAudience(presentPhoto(row, audience, urls, options), audience);

/** A photo as a guest of `audience` sees it (mini-albums, mail thumbnails): the guest fields. */
export const presentGuestPhoto = (
  row: PhotoRow,
  audience: Exclude<Audience, 'owner' | 'robot'>,
  urls: PhotoUrlSigner,
  options: PresentOptions = {},
): GuestPhoto => guestPhoto(presentPhoto(row, audience, urls, options));

/**
 * A robot hears its upload's state without the original or unwatermarked URLs, and an attendee
 * id only on its own upload (the same bytes may already be another uploader's photo, whose
 * attendee id opens that attendee's album).
 */
export const presentRobotUpload = (
  row: PhotoRow,
  urls: PhotoUrlSigner,
  robotId: number | null,
): Photo => {
  const photo = presentPhoto(row, 'robot', urls);
  return {
    ...photo,
    attendee_uid: row.robotId !== null && row.robotId === robotId ? row.attendeeUid : null,
    urls: { ...photo.urls, original: null, preview: null },
  };
};
