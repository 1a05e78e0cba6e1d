import type { GuestErrorTexts } from '@flashbulb/shared/i18n/guest-errors';

/** Texts as translation files hold them: strings, nested. */
export interface GuestTexts {
  readonly [key: string]: string | GuestTexts;
}

/**
 * A language's guest texts (namespace `translation`: app, common, albums, webapp) and the texts of
 * the errors a guest can meet (namespace `errors`; the console's own errors stay English).
 */
export interface GuestBundle {
  translation: GuestTexts;
  errors: GuestErrorTexts;
}
