import type { CSSProperties } from 'react';
import { readableAccent } from '@flashbulb/shared/rules/accent';

export { contrast, readableAccent } from '@flashbulb/shared/rules/accent';

/**
 * The event's brand colour (`opts.guestAccentColor`, `#rrggbb`) made readable, as the CSS
 * variables of the element it is set on: `--fb-accent` for what is inside, `--fb-event-accent`
 * for the dark screens inside it (viewer, slide show), which take the brand colour over their own
 * accent (design/tokens.css). Nothing (the tokens' primary) when unset or not a colour.
 */
export const accentStyle = (color: string): CSSProperties | undefined => {
  if (!/^#[0-9a-fA-F]{6}$/.test(color)) return undefined;
  const { accent, onAccent } = readableAccent(color.toLowerCase());
  return {
    '--fb-accent': accent,
    '--fb-on-accent': onAccent,
    '--fb-event-accent': accent,
    '--fb-event-on-accent': onAccent,
  } as CSSProperties;
};
