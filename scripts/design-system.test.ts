// One design system (docs/design-system.md): the web app's stylesheets take fonts, font sizes and
// colours from the tokens (apps/web/src/design/tokens.css, generated from tokens.ts), never as
// literals — a literal is a second typography or palette in the making.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webSrc = path.join(repoRoot, 'apps/web/src');
const TOKENS = 'design/tokens.css';

/** What must stay a literal, and why: `file` below apps/web/src, `selector`, `property`. */
const ALLOWED: readonly {
  file: string;
  selector: string;
  property: string;
  reason: string;
}[] = [
  {
    file: 'guest/shared/theme/albums.css',
    selector: 'html:has(.albums-root--kiosk)',
    property: 'font-size',
    reason:
      'a large kiosk screen (1080×1920) scales every rem by a quarter — the type scale with it, and the spacing and targets sized in rem',
  },
];

export interface Declaration {
  readonly selector: string;
  readonly property: string;
  readonly value: string;
  readonly line: number;
}

/** The declarations of a stylesheet with the selector of the rule they are in (comments dropped). */
export const declarations = (css: string): Declaration[] => {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (comment) => comment.replace(/[^\n]/g, ' '));
  const found: Declaration[] = [];
  const stack: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char === '{') {
      stack.push(text.slice(start, i).trim());
      start = i + 1;
    } else if (char === ';' || char === '}') {
      const chunk = text.slice(start, i);
      const colon = chunk.indexOf(':');
      const property = chunk.slice(0, colon).trim();
      if (colon > 0 && /^-{0,2}[a-z][a-z0-9-]*$/i.test(property) && !chunk.trim().startsWith('@'))
        found.push({
          selector: stack.at(-1) ?? '',
          property: property.toLowerCase(),
          value: chunk.slice(colon + 1).trim(),
          line: text.slice(0, start + chunk.search(/\S/)).split('\n').length,
        });
      if (char === '}') stack.pop();
      start = i + 1;
    }
  }
  return found;
};

const COLOUR =
  /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|\b(?:white|black|red|green|blue|yellow|orange|purple|pink|gray|grey|silver|navy|teal)\b/i;

/** Outside var(…): a size in absolute or relative units (vw, vh, vmin and plain numbers scale). */
const LITERAL_SIZE = /\d(?:\.\d+)?(?:px|rem|em|pt|%|ex|ch)\b/;

/** The value without its `var(--name)` references; a fallback in one stays, to be checked. */
const withoutVars = (value: string) => value.replace(/var\(--[\w-]+\)/g, 'V');

/** Why a declaration breaks the one system, or null. */
export const problem = ({ property, value }: Declaration): string | null => {
  if (property === 'font-family' && value !== 'var(--fb-font)' && value !== 'inherit')
    return 'a font of its own: use var(--fb-font)';
  if (property === 'font' && value !== 'inherit') return 'the font shorthand: set font-size etc.';
  if (property === 'font-size') {
    if (!/var\(--(?:fb-text-|mantine-font-size-)/.test(value) && value !== 'inherit')
      return 'a font size off the scale: use var(--fb-text-…)';
    if (LITERAL_SIZE.test(withoutVars(value)))
      return 'a literal size beside the scale: use var(--fb-text-…) (or calc on one)';
  }
  if (COLOUR.test(withoutVars(value))) return 'a literal colour: use a colour token';
  return null;
};

const stylesheets = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return stylesheets(full);
    return entry.name.endsWith('.css') ? [full] : [];
  });

describe('one design system', () => {
  it('finds declarations with their selectors and lines', () => {
    const css =
      '/* a; b */\n.a,\n.b {\n  color: #fff;\n}\n@media (x) {\n  .c { font-size: 2rem }\n}';
    expect(declarations(css)).toEqual([
      { selector: '.a,\n.b', property: 'color', value: '#fff', line: 4 },
      { selector: '.c', property: 'font-size', value: '2rem', line: 7 },
    ]);
  });

  it.each([
    ['font-family', 'system-ui, sans-serif'],
    ['font', '600 1rem/1.5 Inter'],
    ['font-size', '1.3rem'],
    ['font-size', '125%'],
    ['font-size', 'clamp(2rem, 5vmin, var(--fb-text-4xl))'],
    ['color', '#fff'],
    ['background', 'rgba(0, 0, 0, 0.5)'],
    ['border', '1px solid white'],
    ['box-shadow', '0 1px 2px rgb(0 0 0 / 60%)'],
    ['--fb-new', '#123456'],
    ['color', 'var(--fb-danger, #b42318)'],
  ])('refuses %s: %s', (property, value) => {
    expect(problem({ selector: '.x', property, value, line: 1 })).not.toBeNull();
  });

  it.each([
    ['font-family', 'var(--fb-font)'],
    ['font-size', 'var(--fb-text-sm)'],
    ['font-size', 'clamp(var(--fb-text-xl), 5vmin, var(--fb-text-4xl))'],
    ['font-size', 'calc(var(--fb-text-5xl) * 2)'],
    ['font-size', 'var(--mantine-font-size-xs)'],
    ['color', 'var(--fb-on-photo)'],
    ['background', 'var(--fb-photo-bg) center / cover no-repeat'],
    ['border', '3px solid var(--fb-accent)'],
    ['background', 'linear-gradient(var(--fb-scrim), transparent)'],
    ['font-weight', 'var(--fb-weight-bold)'],
  ])('lets %s: %s be', (property, value) => {
    expect(problem({ selector: '.x', property, value, line: 1 })).toBeNull();
  });

  it('every stylesheet of the web app takes fonts, sizes and colours from the tokens', () => {
    const files = stylesheets(webSrc);
    expect(files.map((f) => path.relative(webSrc, f))).toContain(TOKENS);
    const found = files
      .map((file) => path.relative(webSrc, file).split(path.sep).join('/'))
      .filter((file) => file !== TOKENS)
      .flatMap((file) =>
        declarations(readFileSync(path.join(webSrc, file), 'utf8')).flatMap((d) => {
          const why = problem(d);
          const allowed = ALLOWED.some(
            (a) => a.file === file && a.selector === d.selector && a.property === d.property,
          );
          return why && !allowed ? [`${file}:${d.line} ${d.property}: ${d.value} — ${why}`] : [];
        }),
      );
    expect(found).toEqual([]);
  });

  it('keeps its allow-list to declarations that exist', () => {
    for (const entry of ALLOWED) {
      const css = readFileSync(path.join(webSrc, entry.file), 'utf8');
      expect(
        declarations(css).some(
          (d) => d.selector === entry.selector && d.property === entry.property,
        ),
        `${entry.file} ${entry.selector} ${entry.property}`,
      ).toBe(true);
    }
  });
});
