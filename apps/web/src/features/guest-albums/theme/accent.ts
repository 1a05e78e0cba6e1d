import type { CSSProperties } from 'react';

/** `#rrggbb` → relative luminance (WCAG 2.x). */
const luminance = (hex: string): number => {
  const channel = (i: number) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
};

/** White or near-black text on the accent, whichever contrasts more (WCAG ratio). */
export const onAccent = (hex: string): string => {
  const l = luminance(hex);
  return 1.05 / (l + 0.05) >= (l + 0.05) / 0.05 ? '#ffffff' : '#0b1020';
};

/**
 * The event's accent colour (`opts.guestAccentColor`, `#rrggbb`) as the theme's CSS variables;
 * nothing (the theme's blue) when unset or not a colour.
 */
export const accentStyle = (color: string): CSSProperties | undefined => {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return undefined;
  return { '--fb-accent': color, '--fb-on-accent': onAccent(color) } as CSSProperties;
};
