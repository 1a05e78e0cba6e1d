import { SHORT_CLIP_MS, THUMBNAIL_SIZE, type GuestPhoto as Photo } from '@flashbulb/shared';
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

/**
 * A grid tile's srcset: the thumbnail alone (about 400 px), never the preview. A tile is shown at
 * about 180 px high; offered the 2000 px preview beside it, a phone at device pixel ratio 2 picked
 * the preview for every tile (a first row of 300–500 KB on a slow network instead of 60 KB). The
 * preview is the viewer's.
 */
export const tileSrcSet = (photo: Photo): string | undefined =>
  photo.urls.thumbnail ? `${photo.urls.thumbnail} ${THUMBNAIL_SIZE}w` : undefined;

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

/** A watermarked variant a screen may show instead of the clean picture. */
export type ScreenPicture = 'live_view_watermark' | 'photo_watermark';

/**
 * Which watermarked pictures a screen shows, best first (empty: the clean ones):
 * - the live views — the stream (`mode=stream`, also on a kiosk) and the slide show or live
 *   wall — show the event's live-view watermark (`live_view_watermark`) where a photo has it;
 * - a kiosk whose event turns on `kioskWatermarkEnable` shows watermarked pictures everywhere,
 *   tiles included: the photo watermark, else the live-view one.
 */
export const screenPictures = (screen: {
  mode: 'grid' | 'stream' | 'slideshow';
  kiosk: boolean;
  kioskWatermark: boolean;
}): readonly ScreenPicture[] => {
  const live = screen.mode !== 'grid';
  const kiosk = screen.kiosk && screen.kioskWatermark;
  if (live && kiosk) return ['live_view_watermark', 'photo_watermark'];
  if (live) return ['live_view_watermark'];
  if (kiosk) return ['photo_watermark', 'live_view_watermark'];
  return [];
};

/**
 * The photo as a screen shows it: its first watermarked variant of `pictures` stands for the
 * thumbnail, the preview and the viewer's picture. A clip, or a photo without any of them (the
 * event has no such watermark, or this guest may not have it), is shown as it is.
 */
export const withScreenPicture = (photo: Photo, pictures: readonly ScreenPicture[]): Photo => {
  if (photo.media_type !== 'image') return photo;
  for (const variant of pictures) {
    const url = photo.urls[variant];
    if (url)
      return {
        ...photo,
        urls: { ...photo.urls, thumbnail: url, preview: url, photo_watermark: url },
      };
  }
  return photo;
};

/**
 * `withScreenPicture` for a whole screen: each photo mapped once (the same photo gives the same
 * object, so memoised tiles stay as they are); no pictures: the photos as they are.
 */
export const screenPhotoMapper = (
  pictures: readonly ScreenPicture[],
): ((photo: Photo | undefined) => Photo | undefined) => {
  if (pictures.length === 0) return (photo) => photo;
  const cache = new WeakMap<Photo, Photo>();
  return (photo) => {
    if (!photo) return photo;
    let shown = cache.get(photo);
    if (!shown) {
      shown = withScreenPicture(photo, pictures);
      cache.set(photo, shown);
    }
    return shown;
  };
};
