/**
 * Which objects are public and which are protected (ADR 0006). One pure rule on the key, obeyed by
 * both backends: the local `GET /storage/<key>` refuses a protected key without a valid signature,
 * and the S3 backend never gives a protected key the public-read ACL.
 *
 * Public (cacheable, no signature): the key spaces listed in PUBLIC_ROOTS, except the unwatermarked
 * files a photo folder held before protected storage existed. Everything else is protected:
 * `protected/…` (originals and unwatermarked previews), `archive/…`, `tmp/…` (uploads in flight),
 * `selfies/…`, `faces/…`, and any key space nobody listed (a new area is private until someone
 * decides otherwise).
 */

/** Where originals and unwatermarked previews of photos live. */
export const PROTECTED_ROOT = 'protected';

/** Key spaces whose objects anyone may GET at their public URL. */
const PUBLIC_ROOTS = new Set([
  // thumbnails and watermarked variants of photos
  'events',
  // the event settings file the album pages read (`data/<code>.json`)
  'data',
  // organisation share area and event stock images (logos, frames, watermark images)
  'share',
  'stock-images',
]);

/**
 * Files of a photo folder that are protected wherever they are: the original and the unwatermarked
 * preview. Before ADR 0006 they lay under `events/…` next to the public files; until the storage
 * migration has moved them this keeps them out of reach.
 */
const PHOTO_FILE = /^events\/[^/]+\/photos\/[^/]+\/(?:original\.[^/]+|preview\.[^/]+)$/;

export const isProtectedKey = (key: string): boolean => {
  const slash = key.indexOf('/');
  const root = slash === -1 ? key : key.slice(0, slash);
  if (!PUBLIC_ROOTS.has(root)) return true;
  return PHOTO_FILE.test(key);
};

/** `events/<code>/photos/uid_<uid>_uid/`: a photo's public files (thumbnail, watermarked). */
export const photoFolder = (eventCode: string, uid: string): string =>
  `events/${eventCode}/photos/uid_${uid}_uid/`;

/** `protected/events/<code>/photos/uid_<uid>_uid/`: its original and unwatermarked preview. */
export const protectedPhotoFolder = (eventCode: string, uid: string): string =>
  `${PROTECTED_ROOT}/${photoFolder(eventCode, uid)}`;

/**
 * The protected twin of a key written before ADR 0006 (`events/…` → `protected/events/…`,
 * `archive/events/…` → `archive/protected/events/…`), or null when the key needs no move.
 */
export const protectedTwin = (key: string): string | null => {
  if (PHOTO_FILE.test(key)) return `${PROTECTED_ROOT}/${key}`;
  const archived = /^archive\/(events\/.+)$/.exec(key);
  if (archived) return `archive/${PROTECTED_ROOT}/${archived[1]}`;
  return null;
};

/** The key a protected key had before ADR 0006 (inverse of protectedTwin), or null. */
export const legacyTwin = (key: string): string | null => {
  if (key.startsWith(`${PROTECTED_ROOT}/events/`)) return key.slice(PROTECTED_ROOT.length + 1);
  if (key.startsWith(`archive/${PROTECTED_ROOT}/events/`)) {
    return `archive/${key.slice(`archive/${PROTECTED_ROOT}/`.length)}`;
  }
  return null;
};
