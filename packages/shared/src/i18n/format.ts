/**
 * The two things the server needs of i18next to write a shared English text: placeholders
 * (`{{name}}`) filled in, and the English plural form (`_one` for 1, `_other` otherwise, as
 * `Intl.PluralRules('en')` decides, which is what i18next uses).
 */

/** The text with each `{{name}}` replaced by its value; unknown placeholders are left as they are. */
export const fillText = (template: string, values: Readonly<Record<string, string | number>>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );

const englishPlural = new Intl.PluralRules('en');

/** The plural form of `count` filled in (`{{count}}` and any other values). */
export const pluralText = (
  forms: { one: string; other: string },
  count: number,
  values: Readonly<Record<string, string | number>> = {},
): string =>
  fillText(englishPlural.select(count) === 'one' ? forms.one : forms.other, { ...values, count });
