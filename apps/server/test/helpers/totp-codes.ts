import { totpAt } from '../../src/lib/totp.ts';

/** A 6-digit code that matches none of the steps the server accepts around `nowMs`. */
export const wrongCode = (secret: string, nowMs: number): string => {
  const valid = new Set([-30_000, 0, 30_000].map((d) => totpAt(secret, nowMs + d)));
  for (let n = 0; ; n += 1) {
    const candidate = String((123_457 + n * 7919) % 1_000_000).padStart(6, '0');
    if (!valid.has(candidate)) return candidate;
  }
};
