/**
 * Attendee ids (albums spec §2.3, §3). Generated ids are 16 characters from an alphabet without
 * look-alikes, shown in groups of four joined by dashes; ids from wristbands or badges (an event's
 * `attendeeIdRegex`) are kept as printed. Dashes, spaces and case never matter when an id is read.
 */

/** No 0/O, 1/I/L: a card read aloud or typed from print is never ambiguous. */
export const ATTENDEE_ID_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
export const ATTENDEE_ID_LENGTH = 16;
export const ATTENDEE_PRIVATE_ID_LENGTH = 8;
/** Generated lists: 1 to 1,000,000 attendees per call (owner-console §5). */
export const ATTENDEE_GENERATE_MAX = 1_000_000;
/** The generate call answers at most this many attendees inline; the rest are read page by page. */
export const ATTENDEE_GENERATE_INLINE = 1000;
export const ATTENDEE_ID_MAX_LENGTH = 100;

/** The stored form: upper case, dashes and white space removed. */
export const normaliseAttendeeId = (raw: string): string =>
  raw.replace(/[\s-]+/g, '').toUpperCase();

/** The printed form of a generated id: `ABCD-EFGH-JKMN-PQRS`; other ids unchanged. */
export const formatAttendeeId = (id: string): string =>
  id.length === ATTENDEE_ID_LENGTH && [...id].every((c) => ATTENDEE_ID_ALPHABET.includes(c))
    ? (id.match(/.{4}/g) ?? [id]).join('-')
    : id;

/** A normalised id the server will look up: 1–100 letters, digits, `_` or `.`. */
export const isAttendeeIdShape = (id: string): boolean =>
  id.length > 0 && id.length <= ATTENDEE_ID_MAX_LENGTH && /^[A-Z0-9_.]+$/.test(id);

/** At most so many attendees one upload may name (a group photo for each of their albums). */
export const MAX_UPLOAD_ATTENDEES = 20;
/**
 * Between the ids of an upload's attendee list in its storage key (`att_<id>-<id>/`): normalised
 * ids never hold a dash, so the list reads back unambiguously.
 */
export const UPLOAD_ATTENDEE_SEPARATOR = '-';
/** The ids together stay short enough for a storage key (S3 allows 1,024 bytes in all). */
const UPLOAD_ATTENDEE_KEY_MAX = 600;

/**
 * The attendees an upload names (`attendee_uid`: one id, or a list): normalised, in order, each
 * once. A single empty string names nobody (as before lists); in a list every entry must be an id.
 * The error key when an entry is not an id, or when there are too many to carry.
 */
export const uploadAttendeeIds = (
  raw: string | readonly string[] | undefined,
): string[] | 'invalid_attendee_id' | 'too_many_attendees' => {
  if (raw === undefined) return [];
  if (typeof raw === 'string') {
    const id = normaliseAttendeeId(raw);
    if (!id) return [];
    return isAttendeeIdShape(id) ? [id] : 'invalid_attendee_id';
  }
  const ids: string[] = [];
  for (const entry of raw) {
    const id = normaliseAttendeeId(entry);
    if (!isAttendeeIdShape(id)) return 'invalid_attendee_id';
    if (!ids.includes(id)) ids.push(id);
  }
  if (
    ids.length > MAX_UPLOAD_ATTENDEES ||
    ids.join(UPLOAD_ATTENDEE_SEPARATOR).length > UPLOAD_ATTENDEE_KEY_MAX
  )
    return 'too_many_attendees';
  return ids;
};

/**
 * What a kiosk card scan yields (albums §2.3): the text after the equals sign of an `attId` link,
 * with dashes removed; a bare code is taken as it is. `null` when nothing usable was scanned.
 */
export const cardCodeFromScan = (scan: string): string | null => {
  const text = scan.trim();
  if (!text) return null;
  const equals = text.lastIndexOf('=');
  const raw = equals >= 0 ? text.slice(equals + 1) : text;
  let decoded = raw;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    // keep the raw text: a scanner may send a stray percent sign
  }
  const code = normaliseAttendeeId(decoded.split(/[&#]/)[0] ?? '');
  return isAttendeeIdShape(code) ? code : null;
};

/** Photos one attach call may add or remove. */
export const MAX_ATTACH_PHOTOS = 500;

/**
 * An attendee key: the attendee id, and for an id a booth chose (a wristband number, guessable)
 * its private id after a `~` (`1234~K7QX2MPA`); the private id is what opens such an album.
 */
export const ATTENDEE_KEY_SEPARATOR = '~';

/** The key of an attendee's album links: the printed id, with the private id for a booth-chosen one. */
export const attendeeKeyOf = (row: {
  uid: string;
  privateId: string | null;
  customUid: number;
}): string =>
  row.customUid === 1 && row.privateId
    ? `${formatAttendeeId(row.uid)}${ATTENDEE_KEY_SEPARATOR}${row.privateId}`
    : formatAttendeeId(row.uid);

/** The id and, after the last `~`, the private id of an attendee key (null without one). */
export const splitAttendeeKey = (raw: string): { id: string; privateId: string | null } => {
  const at = raw.lastIndexOf(ATTENDEE_KEY_SEPARATOR);
  return at < 0
    ? { id: raw, privateId: null }
    : { id: raw.slice(0, at), privateId: raw.slice(at + 1) };
};
