import { ATTENDEE_COOKIE, ATTENDEE_COOKIE_DAYS } from '@flashbulb/shared/rules/page-type';

/**
 * The registrable domain to share a cookie across subdomains (`a.events.example.com` →
 * `example.com`); null on localhost and IP addresses, where a domain attribute would be refused.
 * Two-level public suffixes (`co.uk`) are kept with one more label.
 */
export const cookieDomainFor = (hostname: string): string | null => {
  if (hostname === 'localhost' || /^[\d.]+$/.test(hostname) || hostname.includes(':')) return null;
  const labels = hostname.split('.').filter(Boolean);
  if (labels.length < 2) return null;
  const secondLevel = labels[labels.length - 2] ?? '';
  const take =
    labels.length > 2 &&
    secondLevel.length <= 3 &&
    /^(co|com|org|net|ac|gov|edu)$/.test(secondLevel)
      ? 3
      : 2;
  return labels.slice(-take).join('.');
};

/** The `flashbulb_attendee` cookie (albums spec §2.1, §9: 10 days, shared across subdomains). */
export const attendeeCookie = (attendeeUid: string, hostname: string, now = new Date()): string => {
  const expires = new Date(now.getTime() + ATTENDEE_COOKIE_DAYS * 24 * 60 * 60 * 1000);
  const domain = cookieDomainFor(hostname);
  return [
    `${ATTENDEE_COOKIE}=${encodeURIComponent(attendeeUid)}`,
    `expires=${expires.toUTCString()}`,
    'path=/',
    ...(domain ? [`domain=${domain}`] : []),
    'SameSite=Lax',
  ].join('; ');
};
