import { describe, expect, it } from 'vitest';
import { AppError } from '../../src/lib/app-error.ts';
import { SecretBox } from '../../src/lib/secret-box.ts';
import { sealTicket, unsealTicket } from '../../src/lib/sealed-ticket.ts';

const secrets = new SecretBox('a-test-secret-of-enough-length-0123456789');
const at = (iso: string) => ({ now: () => new Date(iso) });

const notFound = (read: () => unknown) => {
  try {
    read();
  } catch (error) {
    return error instanceof AppError && error.key === 'not_found';
  }
  return false;
};

describe('sealed tickets (download and export links)', () => {
  it('reads back what was sealed until it expires, then not_found', () => {
    const sealed = sealTicket(secrets, at('2026-01-01T00:00:00Z'), { a: 7, u: 'ABC' }, 300);
    expect(sealed).not.toContain('ABC');
    const read = unsealTicket<{ a: number; u: string }>(
      secrets,
      at('2026-01-01T00:04:59Z'),
      sealed,
    );
    expect(read).toMatchObject({ a: 7, u: 'ABC' });
    expect(notFound(() => unsealTicket(secrets, at('2026-01-01T00:05:00Z'), sealed))).toBe(true);
  });

  it('a ticket altered, sealed by another secret or not a ticket at all is not_found', () => {
    const clock = at('2026-01-01T00:00:00Z');
    const sealed = sealTicket(secrets, clock, { a: 1 }, 60);
    const other = new SecretBox('another-secret-of-enough-length-9876543210');
    expect(notFound(() => unsealTicket(other, clock, sealed))).toBe(true);
    expect(notFound(() => unsealTicket(secrets, clock, `${sealed.slice(0, -2)}xx`))).toBe(true);
    expect(notFound(() => unsealTicket(secrets, clock, 'not-a-ticket'))).toBe(true);
  });
});
