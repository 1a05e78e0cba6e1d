import type { GuestPhoto, KeyPhoto, Photo } from '@flashbulb/shared';
import type { Audience } from '../access/access-control.ts';

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
