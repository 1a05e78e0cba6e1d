import { describe, expect, it } from 'vitest';
import { base32Decode, totp, totpForStep } from './totp.ts';

// RFC 6238 appendix B (SHA-1 seed "12345678901234567890"), last 6 of the 8 published digits.
const rfcSecret = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

describe('TOTP helper used by the journeys', () => {
  it('decodes base32', () => {
    expect(base32Decode(rfcSecret).toString()).toBe('12345678901234567890');
    expect(base32Decode('mzxw6 ytb oi======').toString()).toBe('foobar');
  });

  it.each([
    [59, '287082'],
    [1_111_111_109, '081804'],
    [1_234_567_890, '005924'],
    [20_000_000_000, '353130'],
  ])('matches the RFC 6238 vector at T=%i', (seconds, code) => {
    expect(totp(rfcSecret, seconds * 1000)).toBe(code);
    expect(totpForStep(rfcSecret, Math.floor(seconds / 30))).toBe(code);
  });
});
