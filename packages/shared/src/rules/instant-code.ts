/**
 * Instant links: a photo's permanent guest page, given out with the upload grant before any byte
 * is sent, so a booth can show its QR code at once. The short code is read off a screen or a
 * print and typed by people: no 0/O, 1/I/L or U/V look-alikes, upper case only.
 */
export const INSTANT_CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTWXYZ';
export const INSTANT_CODE_LENGTH = 6;
/** Fresh codes tried before a grant gives up (each a random draw; a clash is a one-in-millions). */
export const INSTANT_CODE_ATTEMPTS = 5;

/** A code from random bytes (one byte per character, rejection-sampled: no character favoured). */
export const instantCodeFrom = (nextByte: () => number): string => {
  const n = INSTANT_CODE_ALPHABET.length;
  // The largest multiple of the alphabet's size below 256: bytes above it are drawn again.
  const limit = 256 - (256 % n);
  let code = '';
  while (code.length < INSTANT_CODE_LENGTH) {
    const byte = nextByte();
    if (byte < limit) code += INSTANT_CODE_ALPHABET[byte % n];
  }
  return code;
};

/** What a guest typed, as stored: upper case, spaces and dashes dropped; null when it is no code. */
export const normaliseInstantCode = (typed: string): string | null => {
  const code = typed.replace(/[\s-]/g, '').toUpperCase();
  if (code.length !== INSTANT_CODE_LENGTH) return null;
  for (const ch of code) if (!INSTANT_CODE_ALPHABET.includes(ch)) return null;
  return code;
};

/**
 * The `instant` parameter of a guest link: `<event name>-<code>`. Null when it is not one (the
 * page then says the photo is not found).
 */
export const parseInstantParam = (value: string): { eventName: string; code: string } | null => {
  const match = /^([A-Za-z0-9]{1,20})-([A-Za-z0-9]{1,12})$/.exec(value.trim());
  if (!match) return null;
  const code = normaliseInstantCode(match[2]!);
  return code ? { eventName: match[1]!.toUpperCase(), code } : null;
};

/** The guest link of an instant code. */
export const instantLinkUrl = (publicUrl: string, eventName: string, code: string): string =>
  `${publicUrl.replace(/\/+$/, '')}/?instant=${encodeURIComponent(`${eventName}-${code}`)}`;
