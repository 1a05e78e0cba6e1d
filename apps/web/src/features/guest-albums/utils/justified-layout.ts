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
