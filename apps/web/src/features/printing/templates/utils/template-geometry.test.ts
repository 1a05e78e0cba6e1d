import { describe, expect, it } from 'vitest';
import {
  isTemplateImageName,
  MIN_SIZE,
  movePlaceholder,
  newPlaceholder,
  resizePlaceholder,
  watermarkPath,
} from './template-geometry.ts';

const box = { x: 0.1, y: 0.2, width: 0.4, height: 0.5, rotation: 0 };

describe('template geometry', () => {
  it('moves a placeholder and keeps it on the sheet', () => {
    expect(movePlaceholder(box, 0.1, -0.1)).toMatchObject({ x: 0.2, y: 0.1 });
    expect(movePlaceholder(box, 0.9, 0.9)).toMatchObject({ x: 0.6, y: 0.5 });
    expect(movePlaceholder(box, -1, -1)).toMatchObject({ x: 0, y: 0 });
  });

  it('resizes from the corner, never below the minimum nor past the sheet edge', () => {
    expect(resizePlaceholder(box, 0.1, 0.1)).toMatchObject({ width: 0.5, height: 0.6 });
    expect(resizePlaceholder(box, -1, -1)).toMatchObject({ width: MIN_SIZE, height: MIN_SIZE });
    expect(resizePlaceholder(box, 1, 1)).toMatchObject({ width: 0.9, height: 0.8 });
  });

  it('places new placeholders inside the sheet', () => {
    for (let i = 0; i < 8; i++) {
      const p = newPlaceholder(i);
      expect(p.x + p.width).toBeLessThanOrEqual(1);
      expect(p.y + p.height).toBeLessThanOrEqual(1);
    }
  });

  it('names uploads inside watermarks/ with safe characters', () => {
    expect(watermarkPath('My Logo (1).PNG', 5)).toBe('watermarks/5-My-Logo-1.png');
    expect(watermarkPath('../../x.jpg', 5)).toBe('watermarks/5-x.jpg');
    expect(isTemplateImageName('a.JPEG')).toBe(true);
    expect(isTemplateImageName('a.gif')).toBe(false);
  });
});
