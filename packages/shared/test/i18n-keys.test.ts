import { describe, expect, it } from 'vitest';
import { translationIssues } from '../src/i18n/key-check.ts';
import { GUEST_LANGUAGES } from '../src/i18n/languages.ts';
import { englishSharedTexts, SHARED_TEXTS, sharedTexts } from '../src/i18n/shared-texts.ts';
import { endpoints } from '../src/api/index.ts';
import type { Endpoint } from '../src/api/endpoint.ts';
import { errorCatalogue } from '../src/errors.ts';
import {
  englishGuestErrors,
  GUEST_ERROR_KEYS,
  type GuestErrorTexts,
} from '../src/i18n/guest-errors.ts';
import { arErrors } from '../src/i18n/errors/ar.ts';
import { deErrors } from '../src/i18n/errors/de.ts';
import { esErrors } from '../src/i18n/errors/es.ts';
import { frErrors } from '../src/i18n/errors/fr.ts';
import { itErrors } from '../src/i18n/errors/it.ts';
import { ptErrors } from '../src/i18n/errors/pt.ts';

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

/** Tags of the calls made without a key that only operators, robots or print agents make. */
const NOT_GUEST_TAGS = new Set(['auth', 'printing', 'events']);

/** Whether a guest's page may make the call: with an event's key, or without one on a guest page. */
const guestCall = (endpoint: Endpoint): boolean => {
  if (endpoint.auth === 'key') return true;
  if (endpoint.auth === 'owner_optional') {
    const shape = (endpoint.body as { shape?: Record<string, unknown> }).shape ?? {};
    return 'key_type' in shape;
  }
  return endpoint.auth === 'none' && !NOT_GUEST_TAGS.has(endpoint.tag);
};

const GUEST_ERRORS: Record<string, GuestErrorTexts> = {
  es: esErrors,
  fr: frErrors,
  de: deErrors,
  pt: ptErrors,
  it: itErrors,
  ar: arErrors,
};

describe('the errors a guest meets, in every guest language', () => {
  it('lists every error key a guest’s call may answer', () => {
    const listed = new Set<string>(GUEST_ERROR_KEYS);
    const missing = new Set<string>();
    for (const endpoint of Object.values(endpoints) as Endpoint[])
      if (guestCall(endpoint))
        for (const key of endpoint.errors) if (!listed.has(key)) missing.add(key);
    expect([...missing].sort()).toEqual([]);
    for (const key of GUEST_ERROR_KEYS) expect(errorCatalogue[key]).toBeDefined();
  });

  it.each(GUEST_LANGUAGES.filter((l) => l !== 'en'))(
    '%s has a text for every guest error key, with its placeholders',
    (language) => {
      const texts = GUEST_ERRORS[language];
      expect(texts).toBeDefined();
      expect(translationIssues(englishGuestErrors, texts!, language)).toEqual([]);
      // Translated, not copied: at most a few texts may read the same as English (names, numbers).
      const same = GUEST_ERROR_KEYS.filter((key) => texts![key] === englishGuestErrors[key]);
      expect(same).toEqual([]);
    },
  );
});
