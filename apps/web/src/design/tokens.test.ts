import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { contrast } from '@flashbulb/shared/rules/accent';
import {
  dark,
  fixedColours,
  light,
  primaryShade,
  primaryShades,
  semanticShades,
  tokensCss,
  touch,
  typeScale,
  TYPE_RATIO,
  type SchemeColours,
} from './tokens.ts';

const AA = 4.5;

describe('design tokens', () => {
  it('tokens.css is what tokens.ts generates (run with -u after changing tokens.ts)', async () => {
    const file = path.join(import.meta.dirname, 'tokens.css');
    const css = await format(tokensCss(), { ...(await resolveConfig(file)), filepath: file });
    await expect(css).toMatchFileSnapshot('./tokens.css');
  });

  it('lets the event’s brand colour win in the dark screens too (viewer, slide show, kiosk)', () => {
    const css = tokensCss();
    const darkBlock = css.slice(css.indexOf(".albums-root[data-scheme='dark']"));
    expect(darkBlock).toContain(`--fb-accent: var(--fb-event-accent, ${dark.accent});`);
    expect(darkBlock).toContain(`--fb-on-accent: var(--fb-event-on-accent, ${dark.onAccent});`);
  });

  it('grows every step above md by one ratio', () => {
    const steps = [typeScale.md, typeScale.lg, typeScale.xl, typeScale['2xl'], typeScale['3xl']];
    steps.slice(1).forEach((size, i) => {
      expect(size / steps[i]!).toBeCloseTo(TYPE_RATIO, 2);
    });
    expect(typeScale.sm).toBeLessThan(typeScale.md);
    expect(typeScale.xs).toBeLessThan(typeScale.sm);
  });

  it('gives a kiosk touch targets of at least 64 px', () => {
    expect(touch.kiosk).toBeGreaterThanOrEqual(64);
    expect(touch.page).toBeGreaterThanOrEqual(44);
  });

  it.each([
    ['light', light],
    ['dark', dark],
  ] as [string, SchemeColours][])(
    'reads every text colour of the %s scheme at AA on its background and surface',
    (_, colours) => {
      for (const text of [
        colours.text,
        colours.textMuted,
        colours.success,
        colours.warning,
        colours.danger,
      ]) {
        expect(contrast(text, colours.bg), text).toBeGreaterThanOrEqual(AA);
        expect(contrast(text, colours.surface), text).toBeGreaterThanOrEqual(AA);
      }
      expect(contrast(colours.accent, colours.onAccent)).toBeGreaterThanOrEqual(AA);
      expect(contrast(colours.success, colours.onSuccess)).toBeGreaterThanOrEqual(AA);
    },
  );

  it('fills buttons with shades white text reads on (AA)', () => {
    for (const shades of [primaryShades, ...Object.values(semanticShades)])
      expect(
        contrast(shades[primaryShade], '#ffffff'),
        shades[primaryShade],
      ).toBeGreaterThanOrEqual(AA);
    expect(contrast(fixedColours.dangerStrong, fixedColours.onDangerStrong)).toBeGreaterThanOrEqual(
      AA,
    );
    expect(contrast(fixedColours.onChip, '#ffffff')).toBeGreaterThanOrEqual(AA);
  });
});
