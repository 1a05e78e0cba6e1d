import i18next from 'i18next';
import {
  isGuestLanguage,
  LANGUAGE_COOKIE,
  languageFromCookie,
  languageOfTag,
  pickGuestLanguage,
  textDirection,
  type EventLanguageSettings,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import type { GuestBundle } from './guest-bundle.ts';

/**
 * Each language's texts load when a guest needs them, one chunk per language: English is in the
 * first load, the others never are (the album's first-load budget).
 */
const LOADERS: Record<Exclude<GuestLanguage, 'en'>, () => Promise<{ default: GuestBundle }>> = {
  es: () => import('./locales/es.ts'),
  fr: () => import('./locales/fr.ts'),
  de: () => import('./locales/de.ts'),
  pt: () => import('./locales/pt.ts'),
  it: () => import('./locales/it.ts'),
  ar: () => import('./locales/ar.ts'),
};

/** The page's `lang` and `dir` (right to left for Arabic) for `language`. */
const markDocument = (language: GuestLanguage) => {
  document.documentElement.lang = language;
  document.documentElement.dir = textDirection(language);
};

/** Loads `language`'s texts (once) and switches the page to it. */
export const switchGuestLanguage = async (language: GuestLanguage): Promise<void> => {
  if (language !== 'en' && !i18next.hasResourceBundle(language, 'translation')) {
    const { default: bundle } = await LOADERS[language]();
    i18next.addResourceBundle(language, 'translation', bundle.translation, true, true);
    // A key not in the guest list (a console-only error) falls back to English.
    i18next.addResourceBundle(language, 'errors', bundle.errors, true, true);
  }
  markDocument(language);
  if (i18next.language !== language) await i18next.changeLanguage(language);
};

/** The link's `lang` (a kiosk entry screen's switcher passes it on), or null. */
const linkLanguage = (): GuestLanguage | null =>
  languageOfTag(new URLSearchParams(window.location.search).get('lang'));

/**
 * The language the guest chose: the link's, else (not on a shared kiosk screen) the one this
 * device remembers from the switcher.
 */
export const chosenLanguage = (kiosk: boolean): GuestLanguage | null =>
  linkLanguage() ?? (kiosk ? null : languageFromCookie(document.cookie));

/** The guest's language for an event (null: not known yet), as the server picks it. */
export const guestLanguageFor = (
  event: EventLanguageSettings | null,
  kiosk: boolean,
): GuestLanguage =>
  pickGuestLanguage({
    chosen: chosenLanguage(kiosk),
    browser: navigator.languages?.length ? navigator.languages : [navigator.language],
    event,
    kiosk,
  });

/**
 * The language the page starts in: the one the server wrote the page in (`data-fb-lang`, it knew
 * the event), else the guest's choice or browser's.
 */
export const initialGuestLanguage = (): GuestLanguage => {
  const written = document.documentElement.dataset.fbLang;
  return isGuestLanguage(written) ? written : guestLanguageFor(null, false);
};

/** Remembers a guest's choice on this device (a cookie: the server's pages read it too). */
export const rememberLanguage = (language: GuestLanguage): void => {
  document.cookie = `${LANGUAGE_COOKIE}=${language}; path=/; max-age=31536000; samesite=lax`;
};
