import { enAlbumCover } from './en-album-cover.ts';
import { enMail } from './en-mail.ts';
import { enPages } from './en-pages.ts';
import type { GuestLanguage } from './languages.ts';
import { arShared } from './locales/ar.ts';
import { deShared } from './locales/de.ts';
import { esShared } from './locales/es.ts';
import { frShared } from './locales/fr.ts';
import { itShared } from './locales/it.ts';
import { ptShared } from './locales/pt.ts';

/** A text tree as translations hold it: strings, nested. */
export interface TextTree {
  readonly [key: string]: string | TextTree;
}

/**
 * The texts the server writes itself (the album's first paint, the server's pages, mails and
 * text messages), in every guest language. English is the source; a translation has the same keys
 * (plural keys with the forms its language needs), checked by `test/i18n-keys.test.ts`. Server
 * only: the guest app loads a language's album texts alone, lazily.
 */
export const englishSharedTexts = { albumCover: enAlbumCover, pages: enPages, mail: enMail };
export type SharedTexts = typeof englishSharedTexts;

export const SHARED_TEXTS: Readonly<Record<GuestLanguage, TextTree>> = {
  en: englishSharedTexts,
  es: esShared,
  fr: frShared,
  de: deShared,
  pt: ptShared,
  it: itShared,
  ar: arShared,
};

/**
 * The shared texts of `language`: each key in that language, English where a translation lacks
 * it (a key added in English before its translations are written).
 */
export const sharedTexts = (language: GuestLanguage): SharedTexts =>
  mergeOver(englishSharedTexts, SHARED_TEXTS[language]) as SharedTexts;

const mergeOver = (base: TextTree, over: TextTree | undefined): TextTree => {
  if (!over || base === over) return base;
  const out: Record<string, string | TextTree> = { ...over };
  for (const [key, value] of Object.entries(base)) {
    const given = over[key];
    if (typeof value === 'string') {
      if (typeof given !== 'string') out[key] = value;
    } else out[key] = mergeOver(value, typeof given === 'object' ? given : undefined);
  }
  return out;
};
