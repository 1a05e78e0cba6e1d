/**
 * The design tokens of every page — console, guest album, viewer, checkout, kiosk: one font, one
 * type scale, one set of colours, spacing, radii, shadows and touch sizes. The console's Mantine
 * theme is built from these values (app/theme.ts); the guest and kiosk pages read them as CSS
 * variables from tokens.css, which tokens.test.ts keeps equal to `tokensCss()` below
 * (`npx vitest run --project web apps/web/src/design -u` rewrites it after a change here).
 * docs/design-system.md says how to use them.
 */

/** Inter is shipped with the app (@fontsource, no font CDN); the rest is the fallback. */
export const fontFamily =
  "'Inter', ui-sans-serif, system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', sans-serif";

export const fontWeight = { regular: 400, semibold: 600, bold: 700 } as const;

export const lineHeight = { body: 1.5, heading: 1.25 } as const;

/** Steps above `md` grow by one ratio (a major third); `xs` and `sm` are the readable floor. */
export const TYPE_RATIO = 1.25;

const step = (n: number) => Number((TYPE_RATIO ** n).toFixed(3));

/** Font sizes as multiples of the base size: 1rem on phones and the console, larger on a kiosk. */
export const typeScale = {
  xs: 0.75,
  sm: 0.875,
  md: 1,
  lg: step(1),
  xl: step(2),
  '2xl': step(3),
  '3xl': step(4),
  '4xl': step(5),
  '5xl': step(6),
} as const;

export type TypeStep = keyof typeof typeScale;

/** The base size: a kiosk is read from a step away, so the same scale starts higher there. */
export const baseSize = { page: 1, kiosk: 1.25 } as const;

/** Spacing on a 4 px grid, in px. */
export const space = { 1: 4, 2: 8, 3: 12, 4: 16, 5: 24, 6: 32, 7: 48, 8: 64 } as const;

/** Corner radii, in px. */
export const radius = { xs: 2, sm: 6, md: 12, lg: 16, xl: 24, pill: 999 } as const;

export const shadow = {
  sm: '0 1px 3px rgba(0, 0, 0, 0.12)',
  md: '0 8px 24px rgba(0, 0, 0, 0.18)',
  lg: '0 24px 64px rgba(0, 0, 0, 0.45)',
} as const;

/** Smallest touch targets, in px: a phone's finger, a kiosk's hand at arm's length. */
export const touch = { page: 44, kiosk: 64 } as const;

/** Icons (design/icons.tsx): one 24-unit grid and stroke; drawn at these sizes, in px. */
export const icon = { stroke: 1.8, console: 18, page: 22, kiosk: 30 } as const;

/**
 * The primary colour's shades (light → dark); `primaryShade` is the one buttons use, chosen so
 * white text on it reaches WCAG AA (4.5:1). The event's brand colour replaces it on guest pages.
 */
export const primaryShades = [
  '#edf2ff',
  '#dbe4ff',
  '#bac8ff',
  '#91a7ff',
  '#748ffc',
  '#5c7cfa',
  '#4c6ef5',
  '#3b5bdb',
  '#364fc7',
  '#2f44ad',
] as const;
export const primaryShade = 7;

/** Semantic shades in the same ten steps, each readable with white text at `primaryShade`. */
export const semanticShades = {
  success: [
    '#f0fdf4',
    '#dcfce7',
    '#bbf7d0',
    '#86efac',
    '#4ade80',
    '#22c55e',
    '#16a34a',
    '#15803d',
    '#166534',
    '#14532d',
  ],
  warning: [
    '#fffbeb',
    '#fef3c7',
    '#fde68a',
    '#fcd34d',
    '#fbbf24',
    '#f59e0b',
    '#d97706',
    '#b45309',
    '#92400e',
    '#78350f',
  ],
  danger: [
    '#fef2f2',
    '#fee2e2',
    '#fecaca',
    '#fca5a5',
    '#f87171',
    '#ef4444',
    '#dc2626',
    '#b91c1c',
    '#991b1b',
    '#7f1d1d',
  ],
} as const;

/** One scheme's colours; every text colour reaches AA on `bg` and `surface` (tokens.test.ts). */
export interface SchemeColours {
  readonly accent: string;
  readonly onAccent: string;
  readonly bg: string;
  readonly surface: string;
  readonly surface2: string;
  readonly text: string;
  readonly textMuted: string;
  readonly border: string;
  readonly tile: string;
  readonly success: string;
  /** Text on a `success` fill. */
  readonly onSuccess: string;
  readonly warning: string;
  readonly danger: string;
  readonly focus: string;
  readonly overlay: string;
}

export const light: SchemeColours = {
  accent: primaryShades[primaryShade],
  onAccent: '#ffffff',
  bg: '#ffffff',
  surface: '#f3f4f6',
  surface2: '#e5e7eb',
  text: '#111827',
  textMuted: '#4b5563',
  border: '#d1d5db',
  tile: '#e5e7eb',
  success: semanticShades.success[7],
  onSuccess: '#ffffff',
  warning: semanticShades.warning[7],
  danger: semanticShades.danger[7],
  focus: '#1d4ed8',
  overlay: 'rgba(17, 24, 39, 0.72)',
};

/** Dark: the device asks for it, or the page is a screen (kiosk, viewer, slide show). */
export const dark: SchemeColours = {
  accent: '#8da2fb',
  onAccent: '#0b1020',
  bg: '#0e0f12',
  surface: '#1a1c21',
  surface2: '#262932',
  text: '#f3f4f6',
  textMuted: '#b4b8c2',
  border: '#3a3e48',
  tile: '#1f2228',
  success: semanticShades.success[4],
  onSuccess: '#0b1020',
  warning: semanticShades.warning[4],
  danger: semanticShades.danger[4],
  focus: '#fcd34d',
  overlay: 'rgba(0, 0, 0, 0.7)',
};

/** Colours that do not change with the scheme: what sits on a photo, alerts, the heart. */
export const fixedColours = {
  /** Text and icons over a photo or a scrim. */
  onPhoto: '#ffffff',
  /** Behind a photo that has not loaded or does not fill its frame. */
  photoBg: '#000000',
  scrim: 'rgba(0, 0, 0, 0.45)',
  scrimStrong: 'rgba(0, 0, 0, 0.75)',
  /** A light chip over a photo or a dark screen (with `onChip`). */
  chip: 'rgba(255, 255, 255, 0.92)',
  onChip: '#111827',
  /** A filled alert (offline, declined) with white text. */
  dangerStrong: '#b3261e',
  onDangerStrong: '#ffffff',
  /** The favourite heart: a colour of its own, shown beside its outline, never alone. */
  heart: '#ff4d6d',
  textShadow: '0 1px 2px rgba(0, 0, 0, 0.6)',
  /** Big digits over a camera picture. */
  textShadowLg: '0 4px 24px rgba(0, 0, 0, 0.6)',
  /** A focus ring on a dark page that is not in the dark scheme (web-app page). */
  focusOnDark: dark.focus,
  /** QR codes and prints keep a white ground in every scheme. */
  paper: '#ffffff',
  /** A placeholder print or cover before its photo exists. */
  placeholder: 'linear-gradient(160deg, #2b2f3a, #4a4060 45%, #8a6f5a 100%)',
  /** The night sky behind the web-app page when the event sets no background. */
  night: 'linear-gradient(160deg, #1d2b4a, #0e1322)',
} as const;

const kebab = (name: string) => name.replace(/[A-Z0-9]+/g, (m) => `-${m.toLowerCase()}`);

const block = (selector: string, lines: readonly string[]) =>
  `${selector} {\n${lines.map((line) => `  ${line}`).join('\n')}\n}\n`;

const schemeLines = (colours: SchemeColours, scheme: 'light' | 'dark') => [
  ...Object.entries(colours).map(([name, value]) =>
    // The event's brand colour, where a page sets one, wins in every scheme (accent.ts).
    name === 'accent'
      ? `--fb-accent: var(--fb-event-accent, ${value});`
      : name === 'onAccent'
        ? `--fb-on-accent: var(--fb-event-on-accent, ${value});`
        : `--fb-${kebab(name)}: ${value};`,
  ),
  `color-scheme: ${scheme};`,
];

/** tokens.css: the tokens above as CSS variables (a kiosk root raises the base size). */
export const tokensCss = (): string =>
  [
    '/* Generated from tokens.ts by tokensCss() (tokens.test.ts); edit tokens.ts, not this file. */\n',
    "@import '@fontsource/inter/400.css';\n@import '@fontsource/inter/600.css';\n@import '@fontsource/inter/700.css';\n",
    block(':root', [
      `--fb-font: ${fontFamily};`,
      ...Object.entries(fontWeight).map(([name, value]) => `--fb-weight-${name}: ${value};`),
      `--fb-leading: ${lineHeight.body};`,
      `--fb-leading-heading: ${lineHeight.heading};`,
      `--fb-base: ${baseSize.page}rem;`,
      ...Object.entries(space).map(([name, value]) => `--fb-space-${name}: ${value}px;`),
      ...Object.entries(radius).map(([name, value]) => `--fb-radius-${name}: ${value}px;`),
      ...Object.entries(shadow).map(([name, value]) => `--fb-shadow-${name}: ${value};`),
      `--fb-touch: ${touch.page}px;`,
      `--fb-icon-size: ${icon.page}px;`,
      `--fb-gap: ${space[1]}px;`,
      ...Object.entries(fixedColours).map(([name, value]) => `--fb-${kebab(name)}: ${value};`),
      ...schemeLines(light, 'light'),
    ]),
    '/* The type scale, recomputed wherever the base size changes. */\n',
    block(
      ':root,\n.albums-root--kiosk',
      Object.entries(typeScale).map(
        ([name, value]) =>
          `--fb-text-${name}: ${value === 1 ? 'var(--fb-base)' : `calc(var(--fb-base) * ${value})`};`,
      ),
    ),
    block('.albums-root--kiosk', [
      `--fb-base: ${baseSize.kiosk}rem;`,
      `--fb-touch: ${touch.kiosk}px;`,
      `--fb-icon-size: ${icon.kiosk}px;`,
    ]),
    `@media (prefers-color-scheme: dark) {\n${block('.albums-root', schemeLines(dark, 'dark'))
      .split('\n')
      .map((line) => (line ? `  ${line}` : line))
      .join('\n')}}\n`,
    block(
      ".albums-root--kiosk,\n.albums-root[data-scheme='dark'],\n.fb-dark",
      schemeLines(dark, 'dark'),
    ),
  ].join('\n');
