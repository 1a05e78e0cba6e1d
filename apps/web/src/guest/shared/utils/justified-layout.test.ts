import { describe, expect, it } from 'vitest';
import {
  aspectOf,
  DEFAULT_ASPECT,
  firstRowLayouts,
  justifyRows,
  rowOf,
} from './justified-layout.ts';

const GAP = 4;
const rowWidth = (widths: readonly number[]) =>
  widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

describe('justified grid layout (rows about 180 px, photos in their own aspect ratio)', () => {
  it('fills every full row to the exact width, no taller than the target', () => {
    const aspects = [1.5, 0.667, 1, 1.778, 1.5, 0.667, 2.2, 1.5, 1.5, 1, 0.75];
    const rows = justifyRows(aspects, 1000, 180, GAP);
    for (const row of rows.slice(0, -1)) {
      expect(rowWidth(row.widths)).toBe(1000);
      expect(row.height).toBeLessThanOrEqual(180);
      expect(row.height).toBeGreaterThan(100);
    }
    expect(rows.flatMap((r) => r.widths)).toHaveLength(aspects.length);
  });
  it('keeps each photo’s shape: widths follow the aspect ratios within a row', () => {
    const [row] = justifyRows([2, 1, 1], 800, 200, 0);
    expect(row?.widths).toEqual([400, 200, 200]);
    expect(row?.height).toBe(200);
  });
  it('leaves a short last row at the target height instead of blowing it up', () => {
    const rows = justifyRows([1.5, 1.5, 1.5, 1.5, 1], 1000, 180, GAP);
    const last = rows.at(-1);
    expect(last?.height).toBe(180);
    expect(last?.widths).toEqual([180]);
  });
  it('numbers rows by album index from the given offset, and finds the row of an index', () => {
    const rows = justifyRows(Array<number>(30).fill(1.5), 390, 180, GAP, 100);
    expect(rows[0]?.start).toBe(100);
    const row = rows[rowOf(rows, 117)];
    expect(row!.start).toBeLessThanOrEqual(117);
    expect(row!.start + row!.widths.length).toBeGreaterThan(117);
  });
  it('lays out photos without a size as 3:2 and clamps extreme panoramas', () => {
    expect(aspectOf(null, null)).toBe(DEFAULT_ASPECT);
    expect(aspectOf(8000, 500)).toBe(4);
    expect(aspectOf(1000, 1500)).toBeCloseTo(0.667, 2);
  });
  it('lists the first row for every width as justifyRows lays it out (the server’s first paint)', () => {
    const albums = [
      [1.5, 0.667, 1, 1.778, 1.5, 0.667, 2.2, 1.5, 1.5, 1, 0.75, 4, 0.25],
      [4, 1.5, 1.5],
      [0.667, 1.5],
      [1.5],
    ];
    for (const aspects of albums) {
      const layouts = firstRowLayouts(aspects, 180, GAP, 1576);
      for (let width = 40; width <= 1576; width += 7) {
        const layout = layouts.find((l) => width > l.minWidth && width <= l.maxWidth);
        const [row] = justifyRows(aspects, width, 180, GAP);
        expect(layout?.count, `width ${width} of ${aspects.join()}`).toBe(row?.widths.length);
        // Justified rows fill the width exactly; the album's only, short row keeps its widths.
        expect(layout?.justified).toBe(rowWidth(row?.widths ?? []) === width);
      }
    }
  });
});
