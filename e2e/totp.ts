import { createHmac } from 'node:crypto';

/** RFC 4648 base32 (the alphabet authenticator apps use), padding and spaces ignored. */
export const base32Decode = (input: string): Buffer => {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const clean = input.toUpperCase().replace(/[\s=]/g, '');
  let bits = 0;
  let value = 0;
  const bytes: number[] = [];
  for (const char of clean) {
    const index = alphabet.indexOf(char);
    if (index < 0) throw new Error(`not base32: ${char}`);
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
};

export const TOTP_STEP_SECONDS = 30;

/** The RFC 6238 time step for a moment (Unix ms). */
export const totpStep = (timeMs: number = Date.now()): number =>
  Math.floor(timeMs / 1000 / TOTP_STEP_SECONDS);

/** RFC 4226 HOTP with HMAC-SHA1 and 6 digits, for counter `step` (RFC 6238: step = time / 30 s). */
export const totpForStep = (secretBase32: string, step: number): string => {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const digest = createHmac('sha1', base32Decode(secretBase32)).update(counter).digest();
  const offset = digest[digest.length - 1]! & 0x0f;
  const binary = digest.readUInt32BE(offset) & 0x7fffffff;
  return String(binary % 1_000_000).padStart(6, '0');
};

export const totp = (secretBase32: string, timeMs: number = Date.now()): string =>
  totpForStep(secretBase32, totpStep(timeMs));
