import '@fontsource/inter/400.css';
import '@fontsource/inter/600.css';
import '@fontsource/inter/700.css';
import { createTheme, type MantineColorsTuple } from '@mantine/core';
import {
  fontFamily,
  fontWeight,
  lineHeight,
  primaryShade,
  primaryShades,
  radius,
  semanticShades,
  shadow,
  space,
  typeScale,
  type TypeStep,
} from '../design/tokens.ts';

const rem = (step: TypeStep) => `${typeScale[step]}rem`;
const px = (value: number) => `${value}px`;
const tuple = (shades: readonly string[]) => shades as unknown as MantineColorsTuple;

/**
 * The console's Mantine theme, built from the one set of design tokens the guest and kiosk pages
 * read as CSS variables (src/design/tokens.ts): the same font, type scale, spacing, radii and
 * colours. Mantine's red, green, yellow and orange are the tokens' danger, success and warning
 * shades, and every filled colour uses the shade white text reads on (AA).
 */
export const theme = createTheme({
  fontFamily,
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
  primaryColor: 'brand',
  primaryShade: { light: primaryShade, dark: primaryShade },
  colors: {
    brand: tuple(primaryShades),
    red: tuple(semanticShades.danger),
    green: tuple(semanticShades.success),
    yellow: tuple(semanticShades.warning),
    orange: tuple(semanticShades.warning),
  },
  fontSizes: { xs: rem('xs'), sm: rem('sm'), md: rem('md'), lg: rem('lg'), xl: rem('xl') },
  lineHeights: { md: String(lineHeight.body) },
  // Headings one step below the guest pages' display sizes: the console is read up close.
  headings: {
    fontFamily,
    fontWeight: String(fontWeight.bold),
    sizes: {
      h1: { fontSize: rem('2xl'), lineHeight: String(lineHeight.heading) },
      h2: { fontSize: rem('xl'), lineHeight: String(lineHeight.heading) },
      h3: { fontSize: rem('lg'), lineHeight: String(lineHeight.heading) },
      h4: { fontSize: rem('md'), lineHeight: String(lineHeight.heading) },
      h5: { fontSize: rem('sm'), lineHeight: String(lineHeight.heading) },
      h6: { fontSize: rem('xs'), lineHeight: String(lineHeight.heading) },
    },
  },
  spacing: {
    xs: px(space[2]),
    sm: px(space[3]),
    md: px(space[4]),
    lg: px(space[5]),
    xl: px(space[6]),
  },
  radius: {
    xs: px(radius.xs),
    sm: px(radius.sm),
    md: px(radius.md),
    lg: px(radius.lg),
    xl: px(radius.xl),
  },
  defaultRadius: 'sm',
  shadows: { xs: shadow.sm, sm: shadow.sm, md: shadow.md, lg: shadow.md, xl: shadow.lg },
});
