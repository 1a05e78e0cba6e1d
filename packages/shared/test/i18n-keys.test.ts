import { describe, expect, it } from 'vitest';
import { translationIssues } from '../src/i18n/key-check.ts';
import { GUEST_LANGUAGES } from '../src/i18n/languages.ts';
import { englishSharedTexts, SHARED_TEXTS, sharedTexts } from '../src/i18n/shared-texts.ts';

describe('the server’s texts in every guest language', () => {
  it.each(GUEST_LANGUAGES.filter((l) => l !== 'en'))(
    '%s has every English key, its placeholders and its plural forms',
    (language) => {
      expect(translationIssues(englishSharedTexts, SHARED_TEXTS[language], language)).toEqual([]);
    },
  );

  it('finds a missing key, a changed placeholder, a missing plural form and a stray key', () => {
    const english = {
      a: 'Hi {{name}}',
      b: { c: 'Mail {user_name}' },
      n_one: '1',
      n_other: '{{count}} x',
    };
    expect(
      translationIssues(english, { a: 'Hola {{nombre}}', b: {}, n_one: '1', extra: 'x' }, 'es'),
    ).toEqual([
      'es: a has placeholders nombre, English name',
      'es: missing b.c',
      'es: missing n_other',
      'es: extra is not an English key',
    ]);
    // Arabic needs six forms; a form may leave the count out, never add a placeholder.
    expect(
      translationIssues(
        english,
        { a: '{{name}}', b: { c: '{user_name}' }, n_one: 'واحد', n_other: '{{x}}' },
        'ar',
      ),
    ).toEqual([
      'ar: missing n_zero',
      'ar: missing n_two',
      'ar: missing n_few',
      'ar: missing n_many',
      'ar: n_other has unknown placeholders x',
    ]);
  });

  it('falls back to English for a key a language does not have yet', () => {
    expect(sharedTexts('de').pages.kioskEntry.back).toBe('Zurück');
    expect(sharedTexts('en').mail.frame.unsubscribe).toBe('Unsubscribe');
  });
});
