import { describe, expect, it } from 'vitest';
import { fillText, pluralText } from '../src/i18n/format.ts';

describe('shared text format', () => {
  it('fills placeholders, leaves unknown ones, never reads `$` patterns', () => {
    expect(fillText('{{title}} logo', { title: 'Gala $& $1' })).toBe('Gala $& $1 logo');
    expect(fillText('{{ a }} and {{b}}', { a: 1 })).toBe('1 and {{b}}');
    expect(fillText('{{toString}}', {})).toBe('{{toString}}');
  });

  it('picks the English plural form as i18next does (one for 1, other otherwise)', () => {
    const forms = { one: '{{count}} photo', other: '{{count}} photos' };
    expect(pluralText(forms, 1)).toBe('1 photo');
    expect(pluralText(forms, 0)).toBe('0 photos');
    expect(pluralText(forms, 2)).toBe('2 photos');
    expect(pluralText(forms, 1234)).toBe('1234 photos');
  });
});
