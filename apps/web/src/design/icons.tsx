import { icon } from './tokens.ts';

/**
 * The one icon set of every page (console, guest album, viewer, kiosk): stroke paths on a 24-unit
 * grid, drawn inline as SVG (no icon font, no package, no requests) with one stroke width, always
 * decorative — the button around an icon carries the name (IconButton on guest pages,
 * `aria-label` on the console's ActionIcon). Guest pages size icons by CSS (`.fb-icon`, larger on
 * a kiosk); the console passes `size`.
 */
const PATHS = {
  close: 'M6 6l12 12M18 6L6 18',
  previous: 'M15 5l-7 7 7 7',
  next: 'M9 5l7 7-7 7',
  download: 'M12 4v11m0 0l-4.5-4.5M12 15l4.5-4.5M5 19h14',
  share: 'M12 3v12M12 3L7.5 7.5M12 3l4.5 4.5M6 11H5v9h14v-9h-1',
  send: 'M21 3L10 14M21 3l-7 18-4-7-7-4 18-7z',
  info: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 11v5M12 7.5v.5',
  link: 'M10 14a4 4 0 005.66 0l3-3a4 4 0 00-5.66-5.66l-1 1M14 10a4 4 0 00-5.66 0l-3 3a4 4 0 005.66 5.66l1-1',
  check: 'M5 12.5l4.5 4.5L19 7.5',
  select: 'M4 5h16v14H4zM8.5 12l2.5 2.5 4.5-5',
  fullscreen: 'M4 9V4h5M20 9V4h-5M4 15v5h5M20 15v5h-5',
  play: 'M7 4.5v15l12-7.5-12-7.5z',
  image: 'M4 5h16v14H4zM4 16l5-5 4 4 3-3 4 4M15.5 9a.5.5 0 100-1 .5.5 0 000 1z',
  arrowUp: 'M12 19V5m0 0l-6 6m6-6l6 6',
  facebook: 'M14 8h3V4h-3a4 4 0 00-4 4v2H7v4h3v7h4v-7h3l1-4h-4V8z',
  alert: 'M12 3l10 18H2L12 3zM12 10v5M12 18v.5',
  clock: 'M12 21a9 9 0 100-18 9 9 0 000 18zM12 7v5l3 3',
  heart: 'M12 20s-7.5-4.6-7.5-10.2A4.2 4.2 0 0112 7.2a4.2 4.2 0 017.5 2.6C19.5 15.4 12 20 12 20z',
  more: 'M5 12h.01M12 12h.01M19 12h.01',
  eye: 'M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12zM12 15a3 3 0 100-6 3 3 0 000 6z',
  eyeOff:
    'M2 12s3.6-6.5 10-6.5S22 12 22 12s-3.6 6.5-10 6.5S2 12 2 12zM12 15a3 3 0 100-6 3 3 0 000 6zM4 4l16 16',
  chat: 'M4 5h16v10H9l-5 4V5z',
} as const;

export type IconName = keyof typeof PATHS;

/** Icons that point along the reading direction: mirrored on a right-to-left page (theme CSS). */
const DIRECTIONAL: ReadonlySet<IconName> = new Set(['previous', 'next', 'send']);

/** Round caps make the dots of `more` visible: their paths are zero-length strokes. */
const DOTS: ReadonlySet<IconName> = new Set(['more']);

export function Icon({
  name,
  className,
  size,
}: {
  name: IconName;
  className?: string;
  /** In px; without it the page's CSS sizes the icon (`.fb-icon`). */
  size?: number;
}) {
  const classes = ['fb-icon', DIRECTIONAL.has(name) ? 'fb-icon--directional' : '', className ?? '']
    .filter(Boolean)
    .join(' ');
  return (
    <svg
      className={classes}
      data-icon={name}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={DOTS.has(name) ? icon.stroke * 1.6 : icon.stroke}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      <path d={PATHS[name]} />
    </svg>
  );
}
