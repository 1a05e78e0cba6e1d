import { CHANNEL_ID_ALPHABET, EVENT_LIMITS, UNLOCK_CODE_ALPHABET } from '@flashbulb/shared';

/** Uniformly random characters from `alphabet`, from the browser's cryptographic generator. */
export const randomString = (alphabet: string, length: number): string => {
  const out: string[] = [];
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % alphabet.length);
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && out.length < length) out.push(alphabet[byte % alphabet.length]!);
    }
  }
  return out.join('');
};

/** Albums spec §3: employee unlock codes are 4 random upper-case letters and digits. */
export const newUnlockCode = (): string =>
  randomString(UNLOCK_CODE_ALPHABET, EVENT_LIMITS.unlockCodeLength);

/** Albums spec §3: channel ids are 10 random characters from 0-9a-z. */
export const newChannelId = (): string =>
  randomString(CHANNEL_ID_ALPHABET, EVENT_LIMITS.channelIdLength);

/** A fresh API token for the token-reset helper (albums spec §4). */
export const newApiToken = (): string =>
  randomString('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 40);
