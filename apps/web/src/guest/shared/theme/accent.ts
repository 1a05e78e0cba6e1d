import type { CSSProperties } from 'react';
import { readableAccent } from '@flashbulb/shared/rules/accent';

export { contrast, readableAccent } from '@flashbulb/shared/rules/accent';

/**
 * The event's accent colour (`opts.guestAccentColor`, `#rrggbb`) as the theme's CSS variables;
 * nothing (the theme's blue) when unset or not a colour.
 */
export const accentStyle = (color: string): CSSProperties | undefined => {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return undefined;
  const { accent, onAccent } = readableAccent(color.toLowerCase());
  return { '--fb-accent': accent, '--fb-on-accent': onAccent } as CSSProperties;
};
