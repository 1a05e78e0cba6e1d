import type { EventRow } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import type { Audience } from '../photos/photo-downloads.ts';

/** Whether an album may show a photo now, later (`due`), or not at all. */
export type AlbumDecision = { show: true } | { show: false; due: Date | null };

/**
 * The public photo list's rule for one photo (PhotoListingService.list): owners see every ready photo;
 * other keys only those shown to guests (visible, not held by moderation: photo-visibility.ts) past
 * the photo delay; the public key only within the event's
 * stream window (`photo_stream_available_minutes`). Live streams and mini-albums apply it per photo.
 */
export const albumDecision = (
  photo: Pick<PhotoRow, 'status' | 'isVisible' | 'moderation' | 'availableAt' | 'createdAt'>,
  event: Pick<EventRow, 'photo_stream_available_minutes'>,
  audience: Audience,
  now: Date,
  options: { streamWindow: boolean } = { streamWindow: true },
): AlbumDecision => {
  if (photo.status !== 'ready') return { show: false, due: null };
  if (audience === 'owner') return { show: true };
  if (!shownToGuests(photo)) return { show: false, due: null };
  const minutes = event.photo_stream_available_minutes;
  if (
    options.streamWindow &&
    audience === 'public' &&
    minutes !== null &&
    photo.createdAt.getTime() < now.getTime() - minutes * 60_000
  ) {
    return { show: false, due: null };
  }
  if (photo.availableAt.getTime() > now.getTime()) return { show: false, due: photo.availableAt };
  return { show: true };
};
