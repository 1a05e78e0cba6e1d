import { describe, expect, it } from 'vitest';
import { accentStyle, contrast, readableAccent } from './accent.ts';

describe('event accent colour', () => {
  it('keeps a dark accent with white text and a light one with dark text', () => {
    expect(readableAccent('#1c3d8f')).toEqual({ accent: '#1c3d8f', onAccent: '#ffffff' });
    expect(readableAccent('#ffd43b')).toEqual({ accent: '#ffd43b', onAccent: '#0b1020' });
  });
  it('darkens a mid-tone neither text colour can read on until white text reaches 4.5:1', () => {
    const { accent, onAccent } = readableAccent('#d9480f');
    expect(accent).not.toBe('#d9480f');
    expect(onAccent).toBe('#ffffff');
    expect(contrast(accent, onAccent)).toBeGreaterThanOrEqual(4.5);
  });
  it('gives every brand colour a text colour readable on it (AA), the 216 web colours through', () => {
    const steps = ['00', '33', '66', '99', 'cc', 'ff'];
    for (const r of steps)
      for (const g of steps)
        for (const b of steps) {
          const { accent, onAccent } = readableAccent(`#${r}${g}${b}`);
          expect(contrast(accent, onAccent), `#${r}${g}${b}`).toBeGreaterThanOrEqual(4.5);
        }
  });
  it('sets the colour for the element and for the dark screens inside it', () => {
    expect(accentStyle('#D9480F')).toEqual({
      '--fb-accent': readableAccent('#d9480f').accent,
      '--fb-on-accent': '#ffffff',
      '--fb-event-accent': readableAccent('#d9480f').accent,
      '--fb-event-on-accent': '#ffffff',
    });
  });
  it('sets nothing for an empty or malformed value', () => {
    expect(accentStyle('')).toBeUndefined();
    expect(accentStyle('red')).toBeUndefined();
    expect(accentStyle('#12345')).toBeUndefined();
  });
});
