// The event's accent colour made readable: shared by the album page (CSS variables) and
// the server's first paint of an album link (apps/server/src/pages/album-first-paint.ts).

/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;
const DARK_TEXT = '#0b1020';

/** `#rrggbb` → relative luminance (WCAG 2.x). */
const luminance = (hex: string): number => {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};

export const contrast = (a: string, b: string): number => {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
};

const darken = (hex: string, factor: number): string =>
  `#${[1, 3, 5]
    .map((i) =>
      Math.round(parseInt(hex.slice(i, i + 2), 16) * factor)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;

/**
 * The event's colour as a button background with its text colour, readable (AA, 4.5:1): white or
 * near-black text, whichever contrasts more; a mid-tone that neither reaches is darkened until
 * white text does.
 */
export const readableAccent = (hex: string): { accent: string; onAccent: string } => {
  const white = contrast(hex, '#ffffff');
  const dark = contrast(hex, DARK_TEXT);
  if (Math.max(white, dark) >= MIN_CONTRAST)
    return { accent: hex, onAccent: white >= dark ? '#ffffff' : DARK_TEXT };
  let accent = hex;
  for (let i = 0; i < 20 && contrast(accent, '#ffffff') < MIN_CONTRAST; i += 1)
    accent = darken(accent, 0.92);
  return { accent, onAccent: '#ffffff' };
};
