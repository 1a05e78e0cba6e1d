/**
 * Media rules (albums spec §5, §9; owner-console §5, §9).
 */

/** General photo upload: case-insensitive extensions (mov from cameras, webm from browsers). */
export const PHOTO_EXTENSIONS = ['gif', 'jpg', 'jpeg', 'mov', 'mp4', 'png', 'webm'] as const;
/** Kiosk media: jpg, jpeg, mp4 only. */
export const KIOSK_MEDIA_EXTENSIONS = ['jpg', 'jpeg', 'mp4'] as const;
/** Profile and watermark image fields. */
export const IMAGE_FIELD_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;

export const KIOSK_JPEG_MAX_BYTES = 1.5 * 1024 * 1024;
export const KIOSK_MP4_MAX_BYTES = 4 * 1024 * 1024;
/** Upload ceiling for one photo or video from a robot or camera. */
export const PHOTO_MAX_BYTES = 200 * 1024 * 1024;
/** Decoding more pixels than this is refused (pixel-flood protection). */
export const MAX_PIXELS = 100_000_000;

export const PREVIEW_MAX_SIZE = 2000;
export const PREVIEW_QUALITY = 90;
export const THUMBNAIL_SIZE = 400;
/**
 * A locked guest's preview of a paid event: at most this long side, the protector mark tiled
 * over all of it (docs/domains/photos.md, "Protected previews").
 */
export const PROTECTED_PREVIEW_MAX_SIZE = 1200;

export const extensionOf = (fileName: string): string => {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? '' : fileName.slice(dot + 1).toLowerCase();
};

export const MEDIA_CONTENT_TYPES: Record<string, string> = {
  gif: 'image/gif',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  mp4: 'video/mp4',
  mov: 'video/quicktime',
  webm: 'video/webm',
};

/** Clips shorter than this play muted, on their own and looping in the guest viewer. */
export const SHORT_CLIP_MS = 10_000;

export const isPhotoFileName = (fileName: string): boolean =>
  (PHOTO_EXTENSIONS as readonly string[]).includes(extensionOf(fileName));

/**
 * Kiosk media check: extension and size. Unlike the legacy client, `.jpeg` and upper-case names
 * are size-checked too. Answers the message key or null.
 */
export const kioskMediaError = (
  fileName: string,
  sizeBytes: number,
): 'unsupported_picture_format' | 'unsupported_media_size' | null => {
  const ext = extensionOf(fileName);
  if (!(KIOSK_MEDIA_EXTENSIONS as readonly string[]).includes(ext))
    return 'unsupported_picture_format';
  const limit = ext === 'mp4' ? KIOSK_MP4_MAX_BYTES : KIOSK_JPEG_MAX_BYTES;
  return sizeBytes > limit ? 'unsupported_media_size' : null;
};

/** Guests' own photos (albums and attendee albums): pictures only, as a phone takes them. */
export const GUEST_UPLOAD_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif'] as const;
/** A guest's photo at most this large (a phone's full-size JPEG is 3–12 MB). */
export const GUEST_UPLOAD_MAX_BYTES = 25 * 1024 * 1024;

/**
 * A guest's file: a picture (jpg, jpeg, png, gif, any case) of at most 25 MB. Answers the message
 * key or null; the page checks before sending, the server again on the grant and the stored bytes.
 */
export const guestUploadError = (
  fileName: string,
  sizeBytes: number | null,
): 'unsupported_picture_format' | 'guest_upload_too_large' | null => {
  if (!(GUEST_UPLOAD_EXTENSIONS as readonly string[]).includes(extensionOf(fileName)))
    return 'unsupported_picture_format';
  return sizeBytes !== null && sizeBytes > GUEST_UPLOAD_MAX_BYTES ? 'guest_upload_too_large' : null;
};

/** `Not Allowed {ext} files. Only jpg, jpeg, png files are allowed.` or null. */
export const imageFieldError = (fileName: string): string | null => {
  const ext = extensionOf(fileName);
  return (IMAGE_FIELD_EXTENSIONS as readonly string[]).includes(ext)
    ? null
    : `Not Allowed ${ext} files. Only jpg, jpeg, png files are allowed.`;
};

/** Random upload file name: a random base-36 string plus the original extension. */
export const randomFileName = (original: string, random: () => number = Math.random): string => {
  const ext = extensionOf(original);
  const stem = Array.from({ length: 3 }, () =>
    Math.floor(random() * 36 ** 8)
      .toString(36)
      .padStart(8, '0'),
  ).join('');
  return ext ? `${stem}.${ext}` : stem;
};

/** The photo uid sits in its storage path between `uid_` and `_uid` (albums spec §3). */
export const photoUidFromPath = (path: string): string | null => {
  const match = /uid_([A-Za-z0-9-]+)_uid/.exec(path);
  return match ? match[1]! : null;
};
