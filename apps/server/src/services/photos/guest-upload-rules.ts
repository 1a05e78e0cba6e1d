import type { EventOpts } from '@flashbulb/shared';

/**
 * The rules of guests' own photos (docs/domains/photos.md, "Guests' own photos"), on plain values.
 */

/**
 * A guest's upload key: `tmp/<event code>/<uuid>/guest/[att_<attendee id>/]<file name>`. The
 * `guest/` folder keeps guests' uploads apart from robots' and operators' (neither completion
 * takes the other's), and the attendee id travels in the key the signed POST fixes.
 */
const GUEST_TMP_KEY =
  /^tmp\/([A-Z0-9]{4})\/[0-9a-f-]{36}\/guest\/(?:att_([A-Z0-9_.]{1,100})\/)?[^/]+$/;

export const guestUploadKey = (
  eventName: string,
  uuid: string,
  attendeeUid: string | null,
  fileName: string,
): string =>
  `tmp/${eventName}/${uuid}/guest/${attendeeUid ? `att_${attendeeUid}/` : ''}${fileName}`;

/** The event code and attendee id a guest's upload key carries, or null when it is not one. */
export const parseGuestUploadKey = (
  key: string,
): { eventName: string; attendeeUid: string | null } | null => {
  const match = GUEST_TMP_KEY.exec(key);
  return match ? { eventName: match[1]!, attendeeUid: match[2] ?? null } : null;
};

/** How a guest's picture is shaped and kept: its tag, the box it must fit, where it shows. */
export interface GuestUploadShape {
  tags: string[];
  maxWidth: number | null;
  maxHeight: number | null;
  /** Kept to the uploader's own album (`guestUploadsPublic` off), not the event's album. */
  albumOnly: boolean;
}

/**
 * The event's shaping of guests' photos: `attPhotoImgPrTag` is the tag every guest photo gets
 * (as a robot's sent tag: without `#`, letters, digits, `-` and `_`; anything else gives none),
 * `attPhotoImgMaxWidth` / `attPhotoImgMaxHeight` the box it is fitted into (either may be unset),
 * and `guestUploadsPublic` whether it joins the event's album or stays in the uploader's own.
 */
export const guestUploadShape = (
  opts: Pick<
    EventOpts,
    'attPhotoImgPrTag' | 'attPhotoImgMaxWidth' | 'attPhotoImgMaxHeight' | 'guestUploadsPublic'
  >,
): GuestUploadShape => {
  const tag = opts.attPhotoImgPrTag.trim().replace(/^#+/, '');
  return {
    tags: /^[A-Za-z0-9_-]{1,64}$/.test(tag) ? [tag] : [],
    maxWidth: opts.attPhotoImgMaxWidth,
    maxHeight: opts.attPhotoImgMaxHeight,
    albumOnly: opts.guestUploadsPublic === 0,
  };
};

/**
 * The size a `width`×`height` picture is resized to so it fits the box, keeping its aspect ratio;
 * null when it fits already (never enlarged) or the box has no side set.
 */
export const guestUploadFit = (
  size: { width: number; height: number },
  box: { maxWidth: number | null; maxHeight: number | null },
): { width: number; height: number } | null => {
  const scale = Math.min(
    1,
    box.maxWidth ? box.maxWidth / size.width : 1,
    box.maxHeight ? box.maxHeight / size.height : 1,
  );
  if (scale >= 1) return null;
  return {
    width: Math.max(1, Math.min(box.maxWidth ?? Infinity, Math.round(size.width * scale))),
    height: Math.max(1, Math.min(box.maxHeight ?? Infinity, Math.round(size.height * scale))),
  };
};
