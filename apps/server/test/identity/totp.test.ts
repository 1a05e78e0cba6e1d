import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  generateTotpSecret,
  hotp,
  matchTotp,
  otpauthUri,
  totpAt,
} from '../../src/lib/totp.ts';

// RFC 6238 Appendix B test vectors (SHA-1, secret "12345678901234567890"), last six digits.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890', 'ascii'));
const VECTORS: [number, string][] = [
  [59, '287082'],
  [1111111109, '081804'],
  [1111111111, '050471'],
  [1234567890, '005924'],
  [2000000000, '279037'],
  [20000000000, '353130'],
];

describe('TOTP (RFC 6238)', () => {
  it.each(VECTORS)('at %i s gives %s', (seconds, code) => {
    expect(totpAt(RFC_SECRET, seconds * 1000)).toBe(code);
  });

  it('matches HOTP (RFC 4226) values', () => {
    expect([0, 1, 2].map((c) => hotp(RFC_SECRET, c))).toEqual(['755224', '287082', '359152']);
  });

  it('accepts one step either side and names the step', () => {
    const now = 1_800_000_000_000;
    const step = Math.floor(now / 30_000);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now), now)).toBe(step);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now - 30_000), now)).toBe(step - 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now + 30_000), now)).toBe(step + 1);
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now + 60_000), now)).toBeNull();
    expect(matchTotp(RFC_SECRET, totpAt(RFC_SECRET, now - 60_000), now)).toBeNull();
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode('JBSWY3DPEHPK3PXP'))).toBe('JBSWY3DPEHPK3PXP');
  });

  it('builds an otpauth URI an authenticator app reads', () => {
    const uri = new URL(otpauthUri('JBSWY3DPEHPK3PXP', 'ann+events@example.com', 'Flashbulb'));
    expect(uri.protocol).toBe('otpauth:');
    expect(decodeURIComponent(uri.pathname)).toBe('/Flashbulb:ann+events@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({
      secret: 'JBSWY3DPEHPK3PXP',
      issuer: 'Flashbulb',
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});
