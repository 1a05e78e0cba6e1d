import type { FastifyRequest } from 'fastify';
import {
  languageFromCookie,
  languageOfTag,
  parseAcceptLanguage,
  pickGuestLanguage,
  type EventLanguageSettings,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';

/**
 * The language of a page the server writes for a guest (`pickGuestLanguage`): the link's `lang`,
 * else the guest's remembered choice (the `fb_lang` cookie of the switcher), else their browser's
 * `Accept-Language` when the event lets it decide, else the event's language. A kiosk screen is
 * shared: only its link's `lang` (the entry screen's switcher) and the event count there.
 */
export const requestLanguage = (
  request: Pick<FastifyRequest, 'headers' | 'url'>,
  event: EventLanguageSettings | null = null,
  options: { kiosk?: boolean } = {},
): GuestLanguage => {
  const search = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
  const fromLink = languageOfTag(new URLSearchParams(search).get('lang'));
  const cookie = options.kiosk ? null : languageFromCookie(request.headers.cookie);
  return pickGuestLanguage({
    chosen: fromLink ?? cookie,
    browser: parseAcceptLanguage(request.headers['accept-language']),
    event,
    kiosk: options.kiosk,
  });
};

/** Pages worded by `requestLanguage` differ by these headers (shared caches keep one per value). */
export const LANGUAGE_VARY = 'accept-language, cookie';
