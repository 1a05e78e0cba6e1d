/**
 * The justified album grid (albums spec §9: gallery rows about 180 px high) as pure functions:
 * photos keep their own aspect ratio, each full row is scaled to fill the width exactly, and the
 * last row of the album keeps the target height (left aligned) instead of blowing up.
 */

/** One laid-out row: the photos `start … start+widths.length-1` (album indexes). */
export interface JustifiedRow {
  readonly start: number;
  readonly height: number;
  readonly widths: readonly number[];
}

/** Photos with no size yet (still processing) are laid out as 3:2, a camera's usual frame. */
export const DEFAULT_ASPECT = 1.5;
/** Very wide panoramas are cropped rather than shown as a thin strip. */
const MIN_HEIGHT_SHARE = 0.6;
/** A shorter last row is stretched only if it already fills this share of the width. */
const STRETCH_LAST_ROW_FROM = 0.75;

export const aspectOf = (width: number | null | undefined, height: number | null | undefined) =>
  width && height && width > 0 && height > 0
    ? Math.min(4, Math.max(0.25, width / height))
    : DEFAULT_ASPECT;

/** Integer widths proportional to `aspects` that, with the gaps, add up to `width` exactly. */
const fill = (aspects: readonly number[], width: number, gap: number): number[] => {
  const room = width - gap * (aspects.length - 1);
  const sum = aspects.reduce((a, b) => a + b, 0);
  const widths = aspects.map((a) => Math.max(1, Math.floor((room * a) / sum)));
  const used = widths.reduce((a, b) => a + b, 0);
  widths[widths.length - 1] = (widths[widths.length - 1] ?? 0) + (room - used);
  return widths;
};

/**
 * Rows for one run of photos (`aspects[i]` is the photo at `offset + i`). `lastRowOpen`: more
 * photos follow this run (a later page): its last row is justified when nearly full, else kept at
 * the target height.
 */
export const justifyRows = (
  aspects: readonly number[],
  width: number,
  targetHeight: number,
  gap: number,
  offset = 0,
): JustifiedRow[] => {
  const rows: JustifiedRow[] = [];
  if (width <= 0) return rows;
  let start = 0;
  while (start < aspects.length) {
    let sum = 0;
    let end = start;
    // Take photos until the row at the target height is at least as wide as the page.
    while (end < aspects.length) {
      sum += aspects[end] ?? DEFAULT_ASPECT;
      end += 1;
      if (sum * targetHeight + gap * (end - start - 1) >= width) break;
    }
    const run = aspects.slice(start, end);
    const natural = sum * targetHeight + gap * (run.length - 1);
    if (natural >= width || natural >= width * STRETCH_LAST_ROW_FROM) {
      const room = width - gap * (run.length - 1);
      const height = Math.max(targetHeight * MIN_HEIGHT_SHARE, room / sum);
      rows.push({
        start: offset + start,
        height: Math.round(height),
        widths: fill(run, width, gap),
      });
    } else {
      rows.push({
        start: offset + start,
        height: targetHeight,
        widths: run.map((a) => Math.max(1, Math.round(a * targetHeight))),
      });
    }
    start = end;
  }
  return rows;
};

/** The row holding album index `index` (rows sorted by start), by binary search. */
export const rowOf = (rows: readonly JustifiedRow[], index: number): number => {
  let low = 0;
  let high = rows.length - 1;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if ((rows[mid]?.start ?? 0) <= index) low = mid;
    else high = mid - 1;
  }
  return low;
};

/** Albums spec §9: gallery rows about 180 px high, 4 px apart (the album grid's and the server's). */
export const GALLERY_ROW_HEIGHT = 180;
export const GALLERY_GAP = 4;

/**
 * The first row `justifyRows` makes, for every container width at once: each entry holds for the
 * widths in (`minWidth`, `maxWidth`] and names how many photos the row takes and whether it is
 * justified (widths shares of the width less the gaps, height `max(0.6 × target, room / sum)`) or
 * the album's only, short row (each photo `aspect × target` wide). The server's first paint of an
 * album link turns these into media queries, since it does not know the screen's width.
 * Widths above `upTo` are not listed (the last entry then reaches to Infinity).
 */
export interface FirstRowLayout {
  readonly minWidth: number;
  readonly maxWidth: number;
  readonly count: number;
  readonly justified: boolean;
}

export const firstRowLayouts = (
  aspects: readonly number[],
  targetHeight: number,
  gap: number,
  upTo: number,
): FirstRowLayout[] => {
  const layouts: FirstRowLayout[] = [];
  let low = 0;
  let sum = 0;
  for (let count = 1; count <= aspects.length; count += 1) {
    sum += aspects[count - 1] ?? DEFAULT_ASPECT;
    // justifyRows takes photos until the row at the target height is as wide as the page.
    const natural = sum * targetHeight + gap * (count - 1);
    const last = natural >= upTo;
    layouts.push({ minWidth: low, maxWidth: last ? Infinity : natural, count, justified: true });
    if (last) return layouts;
    low = natural;
  }
  if (aspects.length === 0) return layouts;
  // Every photo fits on one row: stretched while it fills most of the width, else left as it is.
  const stretchUpTo = low / STRETCH_LAST_ROW_FROM;
  const count = aspects.length;
  if (stretchUpTo >= upTo)
    layouts.push({ minWidth: low, maxWidth: Infinity, count, justified: true });
  else
    layouts.push(
      { minWidth: low, maxWidth: stretchUpTo, count, justified: true },
      { minWidth: stretchUpTo, maxWidth: Infinity, count, justified: false },
    );
  return layouts;
};

/** A justified row is never lower than this share of the target height (wide panoramas crop). */
export const minRowHeight = (targetHeight: number): number => targetHeight * MIN_HEIGHT_SHARE;
