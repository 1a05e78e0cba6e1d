/**
 * Small text rules shared by the editor and the server (owner-console §5, albums spec §5).
 */

/** Strips HTML tags, as the empty-album text check does before testing for emptiness. */
export const stripTags = (value: string): string =>
  value.replace(/<[^>]*>/g, '').replace(/&nbsp;/gi, ' ');

/** Characters a file name may not contain (owner-console §5, albums spec §9). */
export const FORBIDDEN_FILE_NAME_CHARS = [
  '~',
  '"',
  '$',
  ',',
  '#',
  '%',
  '&',
  '*',
  ':',
  '<',
  '>',
  '?',
  '{',
  '|',
  '}',
];
export const isValidFileName = (value: string): boolean =>
  value.trim().length > 0 &&
  value.length <= 255 &&
  !FORBIDDEN_FILE_NAME_CHARS.some((c) => value.includes(c)) &&
  !/[\\/\0]/.test(value);

/** Printer queue (pool) names: case-sensitive, up to 80 letters, digits, hyphens and underscores. */
export const PRINTER_POOL_NAME_MAX = 80;
export const DEFAULT_PRINTER_POOL = 'Default';
export const isValidPrinterPoolName = (value: string): boolean =>
  /^[A-Za-z0-9_-]+$/.test(value) && value.length <= PRINTER_POOL_NAME_MAX;

/** Tag lists allow only letters, digits, hyphen and underscore per tag. */
export const TAG_PATTERN = /^[A-Za-z0-9_-]+$/;
export const isValidTag = (value: string): boolean => TAG_PATTERN.test(value);

/** Splits a comma-separated list, trimming and dropping empties. */
export const splitList = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Names of people (unlock-code rows): letters, spaces, apostrophes and hyphens; no digits or other signs. */
export const isValidPersonName = (value: string): boolean =>
  /^[\p{L}][\p{L}' -]*$/u.test(value.trim());

// ---- URLs ------------------------------------------------------------------------------------

/** Adds `http://` when a URL has no scheme (albums spec §5). */
export const withScheme = (value: string): string =>
  /^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim()) ? value.trim() : `http://${value.trim()}`;

const ipv4Private = (host: string): boolean => {
  const parts = host.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255))
    return false;
  const [a, b] = parts as [number, number, number, number];
  return (
    a === 10 ||
    a === 127 ||
    a === 0 ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 100 && b >= 64 && b <= 127)
  );
};

const ipv6Private = (host: string): boolean => {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (!h.includes(':')) return false;
  return (
    h === '::1' ||
    h === '::' ||
    h.startsWith('fc') ||
    h.startsWith('fd') ||
    h.startsWith('fe80') ||
    h.startsWith('::ffff:')
  );
};

/**
 * A link shown to the public: http, https or ftp (scheme optional), a real host name, never a
 * private or loopback address (albums spec §5).
 */
export const isValidPublicUrl = (value: string): boolean => {
  const trimmed = value.trim();
  if (!trimmed || /\s/.test(trimmed) || trimmed.length > 2048) return false;
  let url: URL;
  try {
    url = new URL(withScheme(trimmed));
  } catch {
    return false;
  }
  if (!['http:', 'https:', 'ftp:'].includes(url.protocol)) return false;
  const host = url.hostname.toLowerCase();
  if (!host || host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.local'))
    return false;
  if (ipv4Private(host) || ipv6Private(host)) return false;
  // A bare word ("intranet") is not a public host; an IPv4 or IPv6 literal is fine if public.
  return host.includes('.') || host.includes(':');
};

// ---- templates -------------------------------------------------------------------------------

export const PLACEHOLDERS = {
  userName: '{user_name}',
  imageUrl: '{image_url}',
  senderNameOrEmail: '{sender_name_or_email}',
  url: '{url}',
  webAppUserName: '{userName}',
} as const;

export const hasPlaceholder = (template: string, placeholder: string): boolean =>
  template.includes(placeholder);

// ---- contact data ----------------------------------------------------------------------------

/** US phone: optional +, optional 1 or 3-digit prefix, area code (parentheses optional), 3 + 4 digits. */
export const US_PHONE_PATTERN = /^\+?(?:1|\d{3})?[\s-]?(?:\(\d{3}\)|\d{3})[\s-]?\d{3}[\s-]?\d{4}$/;
export const isValidUsPhone = (value: string): boolean => US_PHONE_PATTERN.test(value.trim());
export const normalisePhone = (value: string): string => value.replace(/\D/g, '');
