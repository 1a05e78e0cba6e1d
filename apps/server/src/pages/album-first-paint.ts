import { THUMBNAIL_SIZE, type GuestBoot } from '@flashbulb/shared';
import { readableAccent } from '@flashbulb/shared/rules/accent';
import {
  aspectOf,
  firstRowLayouts,
  GALLERY_GAP,
  GALLERY_ROW_HEIGHT,
  minRowHeight,
} from '@flashbulb/shared/rules/justified-layout';
import { pageTypeFromQuery } from '@flashbulb/shared/rules/page-type';
import { eventWallClock, type EventClock } from '@flashbulb/shared/rules/event-time';
import { fillText, formatDay, pluralForms, pluralText } from '@flashbulb/shared/i18n/format';
import {
  DEFAULT_GUEST_LANGUAGE,
  GUEST_LANGUAGES,
  LANGUAGE_NAMES,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';
import { sharedTexts } from '@flashbulb/shared/i18n/shared-texts';
import { safeHtml, type Html, joinHtml, safeLink } from './page.ts';

/**
 * An album link's first paint (LCP on a slow phone): the cover and the first row of the
 * grid written into `guest.html`'s root as the album page renders them, so the browser paints the
 * branded cover and the first photos (preloaded with the page) while the scripts still load and
 * run. The page's React root replaces this markup on its first render; the same classes, texts
 * (`@flashbulb/shared/i18n/en-album-cover`, the React page's own) and layout rule (`firstRowLayouts`, the grid's own `justifyRows` for every width, as media
 * queries: the server does not know the screen) put every box where React puts it.
 *
 * Only the plain album grid (public or private link, no kiosk, slide show or stream) gets one;
 * the markup is `inert` (nothing to press or read before the page works) and written with `safeHtml`
 * (page.ts), which escapes every value.
 */

/** albums.css `.albums-main`: at most 1600 px wide, 12 px (`--fb-space-3`) padding each side. */
const MAIN_MAX_WIDTH = 1600;
const MAIN_PADDING = 12;
/** The album page's own texts in the page's language: one source for React and this page. */
const textsOf = (language: GuestLanguage) => {
  const cover = sharedTexts(language).albumCover;
  return {
    count: (n: number) => pluralText(pluralForms(cover, 'count'), n, {}, language),
    countAtLeast: (n: number) => fillText(cover.countAtLeast, { number: n }),
    logoAlt: (title: string) => fillText(cover.logoAlt, { title }),
    support: cover.support,
    share: cover.shareAlbum,
    downloadAll: cover.downloadAll,
    send: cover.sendPhotos,
    defaultTitle: cover.defaultTitle,
    live: cover.live,
    language: cover.language,
  };
};

/** language-switcher.tsx's markup: every language by its own name, the page's selected. */
const languageSwitcher = (label: string, language: GuestLanguage): Html =>
  joinHtml([
    safeHtml`<label class="fb-language"><span class="fb-visually-hidden">${label}</span><select>`,
    GUEST_LANGUAGES.map(
      (code) =>
        safeHtml`<option value="${code}" lang="${code}"${code === language ? safeHtml` selected=""` : ''}>${LANGUAGE_NAMES[code]}</option>`,
    ),
    safeHtml`</select></label>`,
  ]);
/** icons.tsx's paths for the cover's buttons. */
const ICON_PATHS = {
  share: 'M12 3v12M12 3L7.5 7.5M12 3l4.5 4.5M6 11H5v9h14v-9h-1',
  download: 'M12 4v11m0 0l-4.5-4.5M12 15l4.5-4.5M5 19h14',
};

type Photo = GuestBoot['first_page']['photos'][number];

/** album-cover.tsx's date: `November 21, 2026` on the event's local day, in the page's language. */
const coverDate = (
  iso: string,
  utcDiffHours: number | EventClock,
  language: GuestLanguage,
): string => {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  // The event's zone (daylight saving included) when it has one, else its fixed hours.
  const wall =
    typeof utcDiffHours === 'number'
      ? new Date(time + utcDiffHours * 3_600_000)
      : eventWallClock(utcDiffHours, new Date(time));
  return formatDay(wall, language);
};

const iconButton = (icon: keyof typeof ICON_PATHS, label: string): Html =>
  joinHtml([
    safeHtml`<button type="button" class="fb-icon-button fb-icon-button--labelled fb-icon-button--surface" title="${label}">`,
    safeHtml`<svg class="fb-icon" viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">`,
    safeHtml`<path d="${ICON_PATHS[icon]}"></path></svg><span>${label}</span></button>`,
  ]);

/** The tile's srcset and sizes exactly as the page's preload links give them (one download). */
export const tileImage = (photo: Photo): { src: string; srcset: string; sizes: string } | null => {
  const src = photo.urls.thumbnail ?? photo.urls.preview;
  if (!src) return null;
  // The thumbnail alone (as the grid's tiles): never the preview, which a phone at device pixel
  // ratio 2 would pick for a 180 px tile (the viewer's picture, five times the bytes).
  const srcset = photo.urls.thumbnail ? `${photo.urls.thumbnail} ${THUMBNAIL_SIZE}w` : src;
  const sizes = `${Math.round(GALLERY_ROW_HEIGHT * aspectOf(photo.width, photo.height))}px`;
  return { src, srcset, sizes };
};

/** `(width > 378px) and (width <= 816px)`: the grid's widths a layout holds for. */
const containerQuery = (minWidth: number, maxWidth: number): string => {
  const low = `(width > ${minWidth.toFixed(4)}px)`;
  return Number.isFinite(maxWidth) ? `${low} and (width <= ${maxWidth.toFixed(4)}px)` : low;
};

/** A length in whole pixels (`round()`), after a plain `calc()` for browsers without it. */
const whole = (property: string, expression: string, mode: 'down' | 'nearest'): string =>
  `${property}:calc(${expression});${property}:round(${mode},${expression},1px)`;

/**
 * The first row's cells and the container queries that show and size them for each grid width
 * (the grid is an inline-size container): justified widths are floored and the last cell takes
 * the rest, the row's height rounded, as `justifyRows` does.
 */
const firstRow = (photos: readonly Photo[], preloaded: number): { cells: Html[]; css: string } => {
  const aspects = photos.map((p) => aspectOf(p.width, p.height));
  const layouts = firstRowLayouts(
    aspects,
    GALLERY_ROW_HEIGHT,
    GALLERY_GAP,
    MAIN_MAX_WIDTH - 2 * MAIN_PADDING,
  );
  const shown = Math.max(0, ...layouts.map((l) => l.count));
  const cells = photos.slice(0, shown).map((photo, i) => {
    const image = tileImage(photo);
    const img = image
      ? joinHtml([
          safeHtml`<img src="${image.src}" srcset="${image.srcset}" sizes="${image.sizes}" alt=""`,
          i < preloaded ? safeHtml` fetchpriority="high"` : '',
          safeHtml` decoding="async" draggable="false">`,
        ])
      : '';
    return safeHtml`<div class="albums-cell"><div class="albums-tile"><div class="albums-tile-open">${img}</div></div></div>`;
  });
  const css = layouts
    .map((layout) => {
      const sum = aspects.slice(0, layout.count).reduce((a, b) => a + b, 0);
      const room = `(100cqw - ${GALLERY_GAP * (layout.count - 1)}px)`;
      const low = `${minRowHeight(GALLERY_ROW_HEIGHT)}px`;
      const share = `${room} / ${sum.toFixed(10)}`;
      const height = layout.justified
        ? `height:max(${low},calc(${share}));height:max(${low},round(nearest,${share},1px))`
        : `height:${GALLERY_ROW_HEIGHT}px`;
      const rules = aspects
        .slice(0, layout.count)
        .map((aspect, i) => {
          const width = !layout.justified
            ? `width:${Math.max(1, Math.round(aspect * GALLERY_ROW_HEIGHT))}px`
            : i === layout.count - 1
              ? 'flex:1 1 0'
              : whole('width', `${room} * ${(aspect / sum).toFixed(10)}`, 'down');
          return `.fb-first-row>:nth-child(${i + 1}){display:block;${width}}`;
        })
        .join('');
      return `@container ${containerQuery(layout.minWidth, layout.maxWidth)}{.fb-first-row>*{${height}}${rules}}`;
    })
    .join('\n');
  return {
    cells,
    css:
      `.fb-first-paint-grid{container-type:inline-size}` +
      `.fb-first-row{display:flex;gap:${GALLERY_GAP}px}.fb-first-row>.albums-cell{display:none}\n${css}`,
  };
};

/**
 * The first paint's markup for `#root` and its style sheet, or null when the link is not a plain
 * album grid or the album is empty (the page then paints on its own).
 */
export const guestFirstPaint = (
  boot: GuestBoot,
  search: string,
  preloaded: number,
  language: GuestLanguage = DEFAULT_GUEST_LANGUAGE,
): { markup: Html; css: string } | null => {
  const TEXT = textsOf(language);
  const { page } = pageTypeFromQuery(search);
  const gridPage =
    (page.kind === 'public-album' && page.mode === 'grid') || page.kind === 'private-album';
  const photos = boot.first_page.photos;
  if (!gridPage || !boot.event || photos.length === 0) return null;
  const event = boot.event as Partial<Record<string, unknown>> & {
    opts?: Partial<Record<string, unknown>>;
  };
  const text = (value: unknown): string => (typeof value === 'string' ? value : '');
  const title = text(event.full_name) || TEXT.defaultTitle;
  const count = boot.first_page.total_count ?? photos.length;

  const accentColor = text(event.opts?.guestAccentColor);
  const accent = /^#[0-9a-fA-F]{6}$/.test(accentColor)
    ? readableAccent(accentColor.toLowerCase())
    : null;
  const mainStyle = accent
    ? safeHtml` style="--fb-accent: ${accent.accent}; --fb-on-accent: ${accent.onAccent};"`
    : '';

  const logoSrc = text(event.logo_full_path);
  const logoHref = safeLink(text(event.logo_link));
  const logo = logoSrc
    ? safeHtml`<img class="albums-cover-logo" src="${logoSrc}" alt="${TEXT.logoAlt(title)}">`
    : '';
  const logoPart =
    logo && logoHref
      ? safeHtml`<a class="albums-cover-logo-link" href="${logoHref}" target="_blank" rel="noopener">${logo}</a>`
      : logo;
  const date = photos[0]?.created_date
    ? coverDate(
        photos[0].created_date,
        {
          time_zone: typeof event.time_zone === 'string' ? event.time_zone : '',
          date_utc_diff_hours:
            typeof event.date_utc_diff_hours === 'number' ? event.date_utc_diff_hours : 0,
        },
        language,
      )
    : '';
  const tag = text(event.hash_tag).trim().replace(/^#+/, '');
  const meta = [
    date ? safeHtml`<span>${date}</span>` : '',
    safeHtml`<span class="albums-count">${boot.first_page.total_count_capped === 1 ? TEXT.countAtLeast(count) : TEXT.count(count)}</span>`,
    tag ? safeHtml`<span class="albums-cover-tag">#${tag}</span>` : '',
    // album-cover.tsx keeps the room of "Live" until the page's stream opens.
    safeHtml`<span class="albums-live-slot" aria-hidden="true"><span class="albums-live-dot"></span>${TEXT.live}</span>`,
  ];
  const support = safeLink(text(event.opts?.supportLink));
  // album-view.tsx's actions: share on public links; the zip where the key may download (private
  // keys, or a free or unlocked event's public album unless the operator turned it off); send.
  const zipAllowed =
    boot.key_type === 'private' ||
    ((event.is_free === 1 || event.unlocked === 1) && event.opts?.guestDownloadEnabled !== 0);
  const actions = [
    boot.key_type === 'public' ? iconButton('share', TEXT.share) : '',
    zipAllowed ? iconButton('download', TEXT.downloadAll) : '',
    safeHtml`<button type="button" class="albums-send-toggle fb-button--primary" aria-pressed="false">${TEXT.send}</button>`,
    languageSwitcher(TEXT.language, language),
  ];

  const row = firstRow(photos, preloaded);
  const supportLink = support
    ? safeHtml`<a class="albums-cover-support" href="${support}" target="_blank" rel="noopener">${TEXT.support}</a>`
    : '';
  const markup = joinHtml([
    safeHtml`<div class="albums-root" data-page-kind="${page.kind}" data-first-paint="" inert>`,
    safeHtml`<main class="albums-main"${mainStyle}><header class="albums-cover">${logoPart}`,
    safeHtml`<div class="albums-cover-text"><h1 class="albums-cover-title">${title}</h1>`,
    safeHtml`<p class="albums-cover-meta">${meta}</p>`,
    supportLink,
    safeHtml`</div><div class="albums-cover-actions">${actions}</div></header>`,
    safeHtml`<div class="albums-grid fb-first-paint-grid"><div class="fb-first-row">${row.cells}</div></div></main></div>`,
  ]);
  return { markup, css: row.css };
};
