/**
 * Pure geometry of the image editor: rotation in 90° steps, crop rectangles in the coordinates of
 * the rotated picture (what the user sees), aspect presets, and the size of the saved image.
 */

export type Rotation = 0 | 90 | 180 | 270;

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface Rect {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Point {
  readonly x: number;
  readonly y: number;
}

export const ASPECT_PRESETS = ['free', '1:1', '4:3', '3:2', '2:3'] as const;
export type AspectPreset = (typeof ASPECT_PRESETS)[number];

/** Width ÷ height of a preset; `null` for a free crop. */
export const aspectRatioOf = (preset: AspectPreset): number | null => {
  if (preset === 'free') return null;
  const [w, h] = preset.split(':').map(Number);
  return w && h ? w / h : null;
};

/** The next quarter turn clockwise. */
export const nextRotation = (rotation: Rotation): Rotation => ((rotation + 90) % 360) as Rotation;

/** The picture's size once turned by `rotation`. */
export const rotatedSize = (size: Size, rotation: Rotation): Size =>
  rotation === 90 || rotation === 270 ? { width: size.height, height: size.width } : size;

/** The whole picture as a crop. */
export const fullRect = (bounds: Size): Rect => ({
  x: 0,
  y: 0,
  width: bounds.width,
  height: bounds.height,
});

/**
 * A crop drawn on a picture of size `bounds`, after the picture turns a quarter clockwise: the
 * rectangle turns with it, so the same part of the photo stays selected.
 */
export const rotateRectClockwise = (rect: Rect, bounds: Size): Rect => ({
  x: bounds.height - (rect.y + rect.height),
  y: rect.x,
  width: rect.height,
  height: rect.width,
});

const MIN_SIDE = 1;

/** The crop kept inside the picture, at least 1 px each way. */
export const clampRect = (rect: Rect, bounds: Size): Rect => {
  const width = Math.min(Math.max(rect.width, MIN_SIDE), bounds.width);
  const height = Math.min(Math.max(rect.height, MIN_SIDE), bounds.height);
  const x = Math.min(Math.max(rect.x, 0), bounds.width - width);
  const y = Math.min(Math.max(rect.y, 0), bounds.height - height);
  return { x, y, width, height };
};

/** The largest rectangle of `ratio` inside `rect`, centred on it. */
const fitRatioInside = (rect: Rect, ratio: number): Rect => {
  const width = Math.min(rect.width, rect.height * ratio);
  const height = width / ratio;
  return {
    x: rect.x + (rect.width - width) / 2,
    y: rect.y + (rect.height - height) / 2,
    width,
    height,
  };
};

/** The crop a preset gives: free is the whole picture; a ratio is the largest centred crop. */
export const presetCrop = (preset: AspectPreset, bounds: Size): Rect => {
  const ratio = aspectRatioOf(preset);
  const whole = fullRect(bounds);
  return ratio === null ? whole : clampRect(fitRatioInside(whole, ratio), bounds);
};

/**
 * The crop dragged from `start` to `end` (picture coordinates), kept to `ratio` when one is set
 * (the width leads, the height follows in the drag's direction) and inside the picture.
 */
export const rectFromDrag = (
  start: Point,
  end: Point,
  ratio: number | null,
  bounds: Size,
): Rect => {
  const sx = Math.min(Math.max(start.x, 0), bounds.width);
  const sy = Math.min(Math.max(start.y, 0), bounds.height);
  const ex = Math.min(Math.max(end.x, 0), bounds.width);
  const ey = Math.min(Math.max(end.y, 0), bounds.height);
  let width = Math.abs(ex - sx);
  let height = Math.abs(ey - sy);
  if (ratio !== null) {
    // Keep within the room left in the drag's direction.
    const roomX = ex >= sx ? bounds.width - sx : sx;
    const roomY = ey >= sy ? bounds.height - sy : sy;
    width = Math.min(Math.max(width, height * ratio), roomX, roomY * ratio);
    height = width / ratio;
  }
  const x = ex >= sx ? sx : sx - width;
  const y = ey >= sy ? sy : sy - height;
  return clampRect({ x, y, width, height }, bounds);
};

/** The saved image's size: the crop in whole pixels (the crop is in full-resolution units). */
export const outputSize = (crop: Rect): Size => ({
  width: Math.max(1, Math.round(crop.width)),
  height: Math.max(1, Math.round(crop.height)),
});

/**
 * How to draw the unturned picture (`size`) so it appears turned by `rotation` with its top-left
 * corner at the origin: translate by (dx, dy), then rotate by `radians`.
 */
export const rotationTransform = (
  size: Size,
  rotation: Rotation,
): { dx: number; dy: number; radians: number } => {
  const radians = (rotation * Math.PI) / 180;
  switch (rotation) {
    case 90:
      return { dx: size.height, dy: 0, radians };
    case 180:
      return { dx: size.width, dy: size.height, radians };
    case 270:
      return { dx: 0, dy: size.width, radians };
    case 0:
      return { dx: 0, dy: 0, radians: 0 };
  }
};

/** The canvas filter for brightness and contrast, each −100…100 (0 leaves the picture as it is). */
export const cssFilter = (brightness: number, contrast: number): string =>
  `brightness(${(100 + brightness) / 100}) contrast(${(100 + contrast) / 100})`;
