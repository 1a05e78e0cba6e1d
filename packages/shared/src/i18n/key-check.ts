/**
 * What a translation lacks or gets wrong against its English source, key by key — the check the
 * web's and the server's text files are held to (a key added in English fails until every
 * language has it). Pure: no i18next, no files.
 */

export interface TextTreeLike {
  readonly [key: string]: unknown;
}

const PLURAL_SUFFIX = /^(.*)_(zero|one|two|few|many|other)$/;
/** `{{name}}` (i18next) and `{name}` (the operators' mail placeholders) alike. */
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}|\{(\w+)\}/g;

/** Every string of a tree by its dotted key. */
export const flattenTexts = (tree: TextTreeLike, prefix = ''): Map<string, string> => {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'string') out.set(path, value);
    else if (value && typeof value === 'object')
      for (const [k, v] of flattenTexts(value as TextTreeLike, path)) out.set(k, v);
  }
  return out;
};

export const placeholdersOf = (text: string): Set<string> =>
  new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1] ?? m[2] ?? ''));

/** The plural categories a language uses for whole counts a guest meets (0 to 1000). */
export const pluralCategoriesFor = (language: string): Set<string> => {
  const rules = new Intl.PluralRules(language);
  const used = new Set<string>();
  for (let n = 0; n <= 1000; n += 1) used.add(rules.select(n));
  return used;
};

const sameSet = (a: Set<string>, b: Set<string>) =>
  a.size === b.size && [...a].every((x) => b.has(x));
const list = (s: Set<string>) => [...s].sort().join(', ') || 'none';

/**
 * The problems of `translated` against `english` in `language`: a missing key, a key English does
 * not have, different placeholders, a plural form the language needs missing (or one it never
 * uses). Plural keys (`x_one`, `x_other` …) are checked as one text per language's categories;
 * a plural form may leave `{{count}}` out (Arabic writes "صورتان", two photos, without a number).
 */
export const translationIssues = (
  english: TextTreeLike,
  translated: TextTreeLike,
  language: string,
): string[] => {
  const source = flattenTexts(english);
  const target = flattenTexts(translated);
  const issues: string[] = [];
  const pluralBases = new Set<string>();
  for (const key of source.keys()) {
    const match = PLURAL_SUFFIX.exec(key);
    if (match?.[1] && source.has(`${match[1]}_other`)) pluralBases.add(match[1]);
  }
  const needed = pluralCategoriesFor(language);
  const known = new Set<string>(new Intl.PluralRules(language).resolvedOptions().pluralCategories);

  for (const [key, text] of source) {
    const match = PLURAL_SUFFIX.exec(key);
    if (match?.[1] && pluralBases.has(match[1])) continue;
    const given = target.get(key);
    if (given === undefined) {
      issues.push(`${language}: missing ${key}`);
      continue;
    }
    const want = placeholdersOf(text);
    const got = placeholdersOf(given);
    if (!sameSet(want, got))
      issues.push(`${language}: ${key} has placeholders ${list(got)}, English ${list(want)}`);
  }
  for (const base of pluralBases) {
    const englishForms = [...source].filter(([k]) => PLURAL_SUFFIX.exec(k)?.[1] === base);
    const allowed = new Set(englishForms.flatMap(([, t]) => [...placeholdersOf(t)]));
    for (const category of needed)
      if (!target.has(`${base}_${category}`))
        issues.push(`${language}: missing ${base}_${category}`);
    for (const category of known) {
      const form = target.get(`${base}_${category}`);
      if (form === undefined) continue;
      const got = placeholdersOf(form);
      const unknown = [...got].filter((p) => !allowed.has(p));
      if (unknown.length > 0)
        issues.push(
          `${language}: ${base}_${category} has unknown placeholders ${unknown.join(', ')}`,
        );
      const missing = [...allowed].filter((p) => p !== 'count' && !got.has(p));
      if (missing.length > 0)
        issues.push(`${language}: ${base}_${category} lacks placeholders ${missing.join(', ')}`);
    }
  }
  for (const key of target.keys()) {
    const match = PLURAL_SUFFIX.exec(key);
    if (match?.[1] && pluralBases.has(match[1])) {
      if (!known.has(match[2] ?? ''))
        issues.push(`${language}: ${key} is no plural form of ${language}`);
      continue;
    }
    if (!source.has(key)) issues.push(`${language}: ${key} is not an English key`);
  }
  return issues;
};
