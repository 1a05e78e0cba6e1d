import {
  PREVIEW_MAX_SIZE,
  PROTECTED_PREVIEW_MAX_SIZE,
  SHORT_CLIP_MS,
  type GuestPhoto as Photo,
} from '@flashbulb/shared';
import {
  eventWallClock,
  formatEventTime,
  type EventClock,
} from '@flashbulb/shared/rules/event-time';

/**
 * The server gave this guest the protected preview (a paid event's photo not bought yet): at most
 * 1200 px, the event's mark already over all of it.
 */
export const isProtectedPreview = (photo: Photo): boolean =>
  photo.urls.preview !== null && photo.urls.preview === photo.urls.protector_watermark;

/** The preview's pixel width: the photo fitted in 2000 px, or 1200 px for a protected preview. */
const previewWidth = (photo: Photo): number => {
  const longSide = isProtectedPreview(photo) ? PROTECTED_PREVIEW_MAX_SIZE : PREVIEW_MAX_SIZE;
  const w = photo.width ?? 0;
  const h = photo.height ?? 0;
  if (w <= 0 || h <= 0) return longSide;
  return Math.max(1, Math.round(w * Math.min(1, longSide / Math.max(w, h))));
};

/** The thumbnail (about 400 px) and the preview at its real width as a srcset; the browser picks by `sizes`. */
export const photoSrcSet = (photo: Photo): string | undefined => {
  const parts: string[] = [];
  if (photo.urls.thumbnail) parts.push(`${photo.urls.thumbnail} 400w`);
  if (photo.urls.preview) parts.push(`${photo.urls.preview} ${previewWidth(photo)}w`);
  return parts.length > 0 ? parts.join(', ') : undefined;
};

/** Intrinsic size for the width/height attributes, so the layout never waits for the file. */
export const photoBox = (photo: Photo, longSide = 400): { width: number; height: number } => {
  const w = photo.width ?? 0;
  const h = photo.height ?? 0;
  if (w <= 0 || h <= 0) return { width: longSide, height: longSide };
  return w >= h
    ? { width: longSide, height: Math.max(1, Math.round((longSide * h) / w)) }
    : { width: Math.max(1, Math.round((longSide * w) / h)), height: longSide };
};

/**
 * What the viewer shows: the photo watermark derivative when the event has one, else the preview —
 * for a locked guest the protected preview (the server gives no other full-size picture), never
 * the thumbnail blown up while a preview exists.
 */
export const viewerSource = (photo: Photo): string | null =>
  photo.urls.photo_watermark ?? photo.urls.preview ?? photo.urls.thumbnail;

/**
 * Whether the viewer lays the event's watermark image over the picture: not over a derivative that
 * has it already, nor over the protected preview (it carries the protector mark).
 */
export const needsWatermarkOverlay = (photo: Photo, overlay: string | null | undefined): boolean =>
  !!overlay && !photo.urls.photo_watermark && !isProtectedPreview(photo);

/** The playable rendition of a clip or animated GIF for this caller, or null for a still photo. */
export const videoSource = (photo: Photo): string | null => photo.urls.video ?? null;

/** Clips shorter than SHORT_CLIP_MS (and animated GIFs) play on their own, muted and looping. */
export const playsOnItsOwn = (photo: Photo): boolean =>
  photo.media_type === 'image' || (photo.duration_ms ?? 0) < SHORT_CLIP_MS;

/** `0:08`, `12:04`: a clip's length on its tile. */
export const clipDuration = (ms: number): string => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/**
 * `2026-11-21 14:05` from an ISO date (album spec §9 display format): the event's local time
 * (its IANA zone, daylight saving included, else its fixed offset); UTC only where no event is
 * known.
 */
export const displayDate = (iso: string, clock: EventClock | null = null): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const wall = clock ? eventWallClock(clock, date) : date;
  return wall.toISOString().slice(0, 16).replace('T', ' ');
};

/** The same with the zone's name (or offset) after it, for the viewer's info panel. */
export const displayDateWithZone = (iso: string, clock: EventClock | null): string => {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return clock ? formatEventTime(clock, date) : `${displayDate(iso)} UTC`;
};
