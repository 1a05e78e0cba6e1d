import { describe, expect, it } from 'vitest';
import { translationIssues } from '@flashbulb/shared/i18n/key-check';
import { GUEST_LANGUAGES } from '@flashbulb/shared/i18n/languages';
import { englishGuestErrors } from '@flashbulb/shared/i18n/guest-errors';
import { enAlbums } from './en-albums.ts';
import { enApp, enCommon } from './en-common.ts';
import { enWebapp } from './en-webapp.ts';
import type { GuestBundle } from './guest-bundle.ts';

/** The guest build's English texts (guest-i18n.ts): the source every language is held to. */
const english = { app: enApp, common: enCommon, albums: enAlbums, webapp: enWebapp };

const bundles = import.meta.glob<{ default: GuestBundle }>('./locales/*.ts', { eager: true });

describe('the guest pages’ texts in every language', () => {
  it('has a translation file for every guest language but English', () => {
    expect(Object.keys(bundles).sort()).toEqual(
      GUEST_LANGUAGES.filter((l) => l !== 'en')
        .map((l) => `./locales/${l}.ts`)
        .sort(),
    );
  });

  it.each(GUEST_LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every English key, its placeholders and the plural forms the language needs',
    (language) => {
      const bundle = bundles[`./locales/${language}.ts`]?.default;
      expect(bundle).toBeDefined();
      expect(translationIssues(english, bundle!.translation, language)).toEqual([]);
      // The errors a guest can meet are in the language too, not English.
      expect(translationIssues(englishGuestErrors, bundle!.errors, language)).toEqual([]);
    },
  );
});
