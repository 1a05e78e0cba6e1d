import { describe, expect, it } from 'vitest';
import { attendeeCookie, cookieDomainFor } from './attendee-cookie.ts';

describe('attendee cookie', () => {
  it('is shared across subdomains of the registrable domain', () => {
    expect(cookieDomainFor('album.events.example.com')).toBe('example.com');
    expect(cookieDomainFor('events.example.co.uk')).toBe('example.co.uk');
  });
  it('has no domain attribute on localhost or an IP address', () => {
    expect(cookieDomainFor('localhost')).toBeNull();
    expect(cookieDomainFor('127.0.0.1')).toBeNull();
  });
  it('lives 10 days, Lax', () => {
    const now = new Date('2026-11-21T10:00:00Z');
    expect(attendeeCookie('att 1', 'www.example.com', now)).toBe(
      'flashbulb_attendee=att%201; expires=Tue, 01 Dec 2026 10:00:00 GMT; path=/; domain=example.com; SameSite=Lax',
    );
  });
});
