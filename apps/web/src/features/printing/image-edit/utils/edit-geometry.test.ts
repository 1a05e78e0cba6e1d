import { describe, expect, it } from 'vitest';
import {
  aspectRatioOf,
  clampRect,
  cssFilter,
  nextRotation,
  outputSize,
  presetCrop,
  rectFromDrag,
  rotateRectClockwise,
  rotatedSize,
  rotationTransform,
} from './edit-geometry.ts';

const PICTURE = { width: 2000, height: 1500 };

describe('edit geometry', () => {
  it('turns in quarter steps and swaps the sides on odd quarters', () => {
    expect([0, 90, 180, 270].map((r) => nextRotation(r as 0))).toEqual([90, 180, 270, 0]);
    expect(rotatedSize(PICTURE, 90)).toEqual({ width: 1500, height: 2000 });
    expect(rotatedSize(PICTURE, 180)).toEqual(PICTURE);
  });

  it('turns a crop with the picture so the same part stays selected', () => {
    // Top-left corner block of a 2000×1500 picture ends up at the top-right after a clockwise turn.
    const crop = { x: 0, y: 0, width: 400, height: 300 };
    expect(rotateRectClockwise(crop, PICTURE)).toEqual({ x: 1200, y: 0, width: 300, height: 400 });
    // Four turns are the identity.
    let rect = { x: 100, y: 200, width: 300, height: 400 };
    let bounds = PICTURE;
    for (let i = 0; i < 4; i += 1) {
      rect = rotateRectClockwise(rect, bounds);
      bounds = rotatedSize(bounds, 90);
    }
    expect(rect).toEqual({ x: 100, y: 200, width: 300, height: 400 });
  });

  it('keeps crops inside the picture', () => {
    expect(clampRect({ x: -50, y: 1400, width: 300, height: 300 }, PICTURE)).toEqual({
      x: 0,
      y: 1200,
      width: 300,
      height: 300,
    });
    expect(clampRect({ x: 10, y: 10, width: 5000, height: 0 }, PICTURE)).toEqual({
      x: 0,
      y: 10,
      width: 2000,
      height: 1,
    });
  });

  it('gives presets the largest centred crop of their ratio', () => {
    expect(aspectRatioOf('free')).toBeNull();
    expect(aspectRatioOf('3:2')).toBe(1.5);
    expect(presetCrop('free', PICTURE)).toEqual({ x: 0, y: 0, width: 2000, height: 1500 });
    expect(presetCrop('1:1', PICTURE)).toEqual({ x: 250, y: 0, width: 1500, height: 1500 });
    expect(presetCrop('4:3', PICTURE)).toEqual({ x: 0, y: 0, width: 2000, height: 1500 });
    expect(presetCrop('2:3', PICTURE)).toEqual({ x: 500, y: 0, width: 1000, height: 1500 });
  });

  it('makes a crop from a drag in any direction, kept to the ratio and the picture', () => {
    expect(rectFromDrag({ x: 500, y: 400 }, { x: 100, y: 100 }, null, PICTURE)).toEqual({
      x: 100,
      y: 100,
      width: 400,
      height: 300,
    });
    expect(rectFromDrag({ x: 100, y: 100 }, { x: 500, y: 200 }, 1, PICTURE)).toEqual({
      x: 100,
      y: 100,
      width: 400,
      height: 400,
    });
    // Dragging past the edge stops at it, still square.
    expect(rectFromDrag({ x: 1800, y: 1000 }, { x: 2500, y: 1900 }, 1, PICTURE)).toEqual({
      x: 1800,
      y: 1000,
      width: 200,
      height: 200,
    });
  });

  it('sizes the output from the crop and draws turned pictures from the origin', () => {
    expect(outputSize({ x: 0, y: 0, width: 999.6, height: 0.2 })).toEqual({
      width: 1000,
      height: 1,
    });
    expect(rotationTransform(PICTURE, 90)).toEqual({ dx: 1500, dy: 0, radians: Math.PI / 2 });
    expect(rotationTransform(PICTURE, 270)).toMatchObject({ dx: 0, dy: 2000 });
    expect(cssFilter(0, 0)).toBe('brightness(1) contrast(1)');
    expect(cssFilter(20, -50)).toBe('brightness(1.2) contrast(0.5)');
  });
});
