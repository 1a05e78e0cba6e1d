import type { TemplatePlaceholder } from '@flashbulb/shared';

/** The smallest placeholder the editor makes: 5 % of the sheet on a side. */
export const MIN_SIZE = 0.05;

const clamp = (value: number, min: number, max: number) => Math.min(max, Math.max(min, value));
/** Four decimals are finer than a pixel at 1200 dpi on a 6-inch sheet (7200 px). */
const round = (value: number) => Math.round(value * 10_000) / 10_000;

/** A placeholder dragged by (dx, dy) fractions of the sheet, kept inside it. */
export const movePlaceholder = (
  p: TemplatePlaceholder,
  dx: number,
  dy: number,
): TemplatePlaceholder => ({
  ...p,
  x: round(clamp(p.x + dx, 0, 1 - p.width)),
  y: round(clamp(p.y + dy, 0, 1 - p.height)),
});

/** A placeholder resized from its bottom-right corner by (dx, dy), at least MIN_SIZE, inside the sheet. */
export const resizePlaceholder = (
  p: TemplatePlaceholder,
  dx: number,
  dy: number,
): TemplatePlaceholder => ({
  ...p,
  width: round(clamp(p.width + dx, MIN_SIZE, 1 - p.x)),
  height: round(clamp(p.height + dy, MIN_SIZE, 1 - p.y)),
});

/** A new placeholder: a third of the sheet, in the middle, moved a little per existing one. */
export const newPlaceholder = (existing: number): TemplatePlaceholder => {
  const offset = (existing % 5) * 0.04;
  return { x: round(0.3 + offset), y: round(0.3 + offset), width: 0.33, height: 0.33, rotation: 0 };
};

/** Common print sizes (width × height in inches, landscape first as booth printers feed them). */
export const SHEET_PRESETS = [
  { label: '6×4', width: 6, height: 4 },
  { label: '4×6', width: 4, height: 6 },
  { label: '2×6 strip', width: 2, height: 6 },
  { label: '7×5', width: 7, height: 5 },
  { label: '5×7', width: 5, height: 7 },
  { label: '8×6', width: 8, height: 6 },
  { label: '6×8', width: 6, height: 8 },
] as const;

/** Width over height of the sheet (the editor's canvas keeps it). */
/** `watermarks/<time>-<clean name>` inside the organisation's share area. */
export const watermarkPath = (fileName: string, now: number): string => {
  const dot = fileName.lastIndexOf('.');
  const extension = dot >= 0 ? fileName.slice(dot + 1).toLowerCase() : '';
  const base = (dot >= 0 ? fileName.slice(0, dot) : fileName)
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `watermarks/${now}-${base || 'image'}.${extension}`;
};

/** jpg, jpeg and png only (albums spec §5: 'Not Allowed {ext} files…'). */
export const isTemplateImageName = (fileName: string): boolean => /\.(jpe?g|png)$/i.test(fileName);
