/** Texts as translation files hold them: strings, nested. */
export interface GuestTexts {
  readonly [key: string]: string | GuestTexts;
}

/** A language's guest texts (namespace `translation`: app, common, albums, webapp). */
export interface GuestBundle {
  translation: GuestTexts;
}
