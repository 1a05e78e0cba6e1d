import { DEFAULT_PRINTER_POOL } from './text-rules.ts';

/** Business constants of owner-console §9 and albums spec §9. */
export const EVENT_LIMITS = {
  printCountMax: 20,
  printCountMin: 1,
  defaultPrintCount: 5,
  defaultCopiesCount: 1,
  autoDeleteDaysMin: 30,
  autoDeleteDaysMax: 3000,
  streamMinutesMin: 1,
  streamMinutesMax: 1_000_000,
  defaultPictureSize: 250,
  defaultMultiplier: 1,
  eventListPageSize: 5000,
  pageActiveTimeoutMs: 20_000,
  defaultFaceConfidence: 95,
  photoDelayMaxMinutes: 120,
  attendeeGenerationMax: 1_000_000,
  timezoneMinHours: -12,
  timezoneMaxHours: 13,
  unlockCodeLength: 4,
  employeeQrSize: 500,
  eventQrSize: 1000,
  defaultPrinterPool: DEFAULT_PRINTER_POOL,
  channelIdLength: 10,
  /**
   * The longest slide show interval, in seconds (an hour). A browser timer holds at most
   * 2^31 - 1 ms (24.8 days); a longer one fires at once, and the show would race.
   */
  slideshowIntervalMaxSeconds: 3600,
  /** The slide show's default intervals: 3 s while new photos wait, 8 s otherwise. */
  defaultSlideshowMinSeconds: 3,
  defaultSlideshowMaxSeconds: 8,
} as const;

/** Event short codes: four characters a person can read aloud and type without confusing 0/O, 1/I/L. */
export const EVENT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const EVENT_CODE_LENGTH = 4;
export const isEventCode = (value: string): boolean =>
  new RegExp(`^[${EVENT_CODE_ALPHABET}]{${EVENT_CODE_LENGTH}}$`).test(value.toUpperCase());

/** The event code in a page hash: four characters after `ename=` (owner-console §2). */
export const eventCodeFromHash = (hash: string): string | null => {
  const match = /ename=([A-Za-z0-9]{4})/.exec(hash);
  return match ? match[1]!.toUpperCase() : null;
};

/**
 * Unlock codes: four random upper-case letters and digits, entries stored as first_last_code. New
 * codes leave out look-alikes (0/O, 1/I/L) so a code read off a badge is typed right; codes typed
 * by hand may use any letter or digit.
 */
export const UNLOCK_CODE_ALPHABET = EVENT_CODE_ALPHABET;
export const isUnlockCode = (value: string): boolean => /^[A-Z0-9]{4}$/.test(value);

export interface UnlockCodeEntry {
  firstName: string;
  lastName: string;
  code: string;
}

/** Parses `first_last_code,first_last_code`; rows missing a part are not counted (albums spec §5). */
export const parseUnlockCodes = (list: string | null | undefined): UnlockCodeEntry[] =>
  (list ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const parts = entry.split('_');
      const code = parts.pop() ?? '';
      const lastName = parts.pop() ?? '';
      const firstName = parts.join('_');
      return { firstName, lastName, code };
    })
    .filter((e) => e.firstName && e.lastName && e.code);

export const formatUnlockCodes = (entries: UnlockCodeEntry[]): string =>
  entries
    .filter((e) => e.firstName.trim() && e.lastName.trim() && e.code.trim())
    .map((e) => `${e.firstName.trim()}_${e.lastName.trim()}_${e.code.trim()}`)
    .join(',');

/** Channel ids: ten random characters from 0-9a-z (albums spec §3). */
export const CHANNEL_ID_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Topic keys: typed or pasted spaces become underscores. */
export const normaliseTopicKey = (value: string): string => value.replace(/\s/g, '_');

/**
 * The topic keys the product publishes to. A topic with one of these keys and an
 * e-mail or SMS channel is delivered when the fact happens, at most once per recipient and fact:
 * - `photo_ready`: a photo in an attendee's album is ready (once per attendee and photo);
 * - `album_unlocked`: an attendee's album at the event was unlocked (payment, code, owner);
 * - `print_ready`: a print is done at the pickup location (`pickupLocationNotificationTopic`
 *   may name another topic to use instead);
 * - `payment_receipt`: a provider confirmed an attendee's payment (transactional: sent even to
 *   an unsubscribed recipient);
 * - `attendee_reminder`: the attendee's album expires within a day (`enableAttendeeReminder`).
 */
export const NOTIFICATION_TOPIC_KEYS = [
  'photo_ready',
  'album_unlocked',
  'print_ready',
  'payment_receipt',
  'attendee_reminder',
] as const;
export type NotificationTopicKey = (typeof NOTIFICATION_TOPIC_KEYS)[number];
/** Topics that are part of a purchase, not marketing: an unsubscribe does not stop them. */
export const TRANSACTIONAL_TOPIC_KEYS: readonly string[] = ['payment_receipt'];
