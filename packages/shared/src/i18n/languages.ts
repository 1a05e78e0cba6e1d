/**
 * The languages guest pages, kiosks, mails and texts come in, and how one is chosen for a guest.
 * Pure rules, shared by the server (pages, mails) and the guest app (no I/O here).
 */

/** Every language a guest can get; English is the source every other is translated from. */
export const GUEST_LANGUAGES = ['en', 'es', 'fr', 'de', 'pt', 'it', 'ar'] as const;
export type GuestLanguage = (typeof GUEST_LANGUAGES)[number];
export const DEFAULT_GUEST_LANGUAGE: GuestLanguage = 'en';

/** Each language's name in itself, as the switcher lists it. */
export const LANGUAGE_NAMES: Readonly<Record<GuestLanguage, string>> = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  pt: 'Português',
  it: 'Italiano',
  ar: 'العربية',
};

/** Languages written right to left: their pages get `dir="rtl"`. */
const RTL_LANGUAGES: ReadonlySet<GuestLanguage> = new Set(['ar']);

export const isGuestLanguage = (value: unknown): value is GuestLanguage =>
  typeof value === 'string' && (GUEST_LANGUAGES as readonly string[]).includes(value);

export const textDirection = (language: GuestLanguage): 'ltr' | 'rtl' =>
  RTL_LANGUAGES.has(language) ? 'rtl' : 'ltr';

/** The guest language a BCP 47 tag asks for (`es-MX` → `es`, `pt_BR` → `pt`), or null. */
export const languageOfTag = (tag: string | null | undefined): GuestLanguage | null => {
  const primary = (tag ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
  return isGuestLanguage(primary) ? primary : null;
};

/**
 * An `Accept-Language` header's tags, most wanted first (`q` weights; `q=0` and `*` dropped; equal
 * weights keep their order). At most 20 entries are read: the header is the client's text.
 */
export const parseAcceptLanguage = (header: string | null | undefined): string[] =>
  (header ?? '')
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q\s*=\s*([0-9.]+)\s*$/i.exec(p)?.[1]).find(Boolean);
      const weight = q === undefined ? 1 : Number(q);
      return { tag: tag.trim(), weight: Number.isFinite(weight) ? weight : 0, index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
    .map((entry) => entry.tag);

/** The event's language settings as guests read them (`opts.guestLanguage`, `opts.guestLanguageAuto`). */
export interface EventLanguageSettings {
  guestLanguage?: unknown;
  guestLanguageAuto?: unknown;
}

/**
 * The language a guest gets: the one they chose on this device (the switcher, or a link's
 * `lang`), else — when the event lets the browser decide — the first of the browser's languages we
 * have, else the event's default language, else English. A kiosk is a shared screen: its browser
 * says nothing about the guest in front of it (`kiosk`), so only a choice and the event count.
 */
export const pickGuestLanguage = (input: {
  chosen?: string | null;
  browser?: readonly string[];
  event?: EventLanguageSettings | null;
  kiosk?: boolean;
}): GuestLanguage => {
  const chosen = languageOfTag(input.chosen);
  if (chosen) return chosen;
  const allowBrowser = input.event?.guestLanguageAuto !== 0 && !input.kiosk;
  if (allowBrowser)
    for (const tag of input.browser ?? []) {
      const language = languageOfTag(tag);
      if (language) return language;
    }
  return isGuestLanguage(input.event?.guestLanguage)
    ? input.event.guestLanguage
    : DEFAULT_GUEST_LANGUAGE;
};

/** The cookie a guest's choice is remembered in (read by the server's pages and the guest app). */
export const LANGUAGE_COOKIE = 'fb_lang';

/** The value of the language cookie in a `Cookie` header (or `document.cookie`), or null. */
export const languageFromCookie = (cookie: string | null | undefined): GuestLanguage | null => {
  for (const part of (cookie ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LANGUAGE_COOKIE) return languageOfTag(value);
  }
  return null;
};

/**
 * Operator texts per language (`opts.textTranslations`): `{ <setting>: { <language>: text } }`
 * beside the setting's own text, which stays the text for every language not given.
 */
export type TextTranslations = Partial<Record<string, Partial<Record<string, string>>>>;

/** The setting's text in `language` when the operator gave one, else its own text. */
export const translatedText = (
  own: string,
  translations: TextTranslations | null | undefined,
  setting: string,
  language: GuestLanguage,
): string => {
  const given = translations?.[setting]?.[language];
  return typeof given === 'string' && given.trim() !== '' ? given : own;
};

/** The settings an operator may give per language. */
export const TRANSLATABLE_SETTINGS = [
  'email_subject',
  'email_body_template',
  'email_body_template_share',
  'sms_body_template',
  'faqText',
  'agreementText',
  'faceRecognitionText',
] as const;
export type TranslatableSetting = (typeof TRANSLATABLE_SETTINGS)[number];
