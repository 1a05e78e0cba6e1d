/**
 * What the server needs of i18next to write a shared text, and the locale formats every guest
 * surface uses: placeholders (`{{name}}`) filled in, the plural form the language asks for (as
 * `Intl.PluralRules` decides, which is what i18next uses: `_one`, `_few`, `_other` …), and dates,
 * numbers and prices written the way the guest's language writes them (`Intl`).
 */

/** The text with each `{{name}}` replaced by its value; unknown placeholders are left as they are. */
export const fillText = (template: string, values: Readonly<Record<string, string | number>>) =>
  template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    Object.hasOwn(values, name) ? String(values[name]) : whole,
  );

const pluralRules = new Map<string, Intl.PluralRules>();
const rulesOf = (locale: string): Intl.PluralRules => {
  let rules = pluralRules.get(locale);
  if (!rules) {
    rules = new Intl.PluralRules(locale);
    pluralRules.set(locale, rules);
  }
  return rules;
};

/** Plural forms by CLDR category; `other` is always there, the rest as the language has them. */
export type PluralForms = { other: string } & Partial<
  Record<'zero' | 'one' | 'two' | 'few' | 'many', string>
>;

/**
 * The plural form of `count` filled in (`{{count}}` and any other values), in `locale`'s rules
 * (English when not given); a category the forms lack falls back to `other`. The count is written
 * as i18next writes it (plain digits), so a server-written text matches the page's.
 */
export const pluralText = (
  forms: PluralForms,
  count: number,
  values: Readonly<Record<string, string | number>> = {},
  locale = 'en',
): string => {
  const category = rulesOf(locale).select(count);
  return fillText(forms[category] ?? forms.other, { ...values, count });
};

/** The plural forms of `base` in an i18next resource (`count_one`, `count_other` …). */
export const pluralForms = (
  texts: Readonly<Record<string, unknown>>,
  base: string,
): PluralForms => {
  const forms: Record<string, string> = {};
  for (const category of ['zero', 'one', 'two', 'few', 'many', 'other']) {
    const text = texts[`${base}_${category}`];
    if (typeof text === 'string') forms[category] = text;
  }
  return { other: forms.other ?? base, ...forms };
};

/**
 * A day the locale's way (`November 21, 2026` · `21 de noviembre de 2026` · `21. November 2026`),
 * of a moment already shifted to the event's wall clock (read as UTC).
 */
export const formatDay = (wallClock: Date, locale = 'en'): string =>
  new Intl.DateTimeFormat(locale, {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(wallClock);
