import { describe, expect, it } from 'vitest';
import { albumPhoto } from '../../../test/render-albums.tsx';
import { needsWatermarkOverlay, tileSrcSet, viewerSource } from './photo-image.ts';

const locked = (id: number) => {
  const photo = albumPhoto(id);
  const guarded = `/files/events/e/protector-watermark-${id}.jpg`;
  return {
    ...photo,
    urls: {
      ...photo.urls,
      preview: guarded,
      protector_watermark: guarded,
      photo_watermark: null,
      original: null,
    },
  };
};

describe('a locked guest’s picture', () => {
  it('the viewer shows the protected preview, not the thumbnail', () => {
    expect(viewerSource(locked(3))).toBe('/files/events/e/protector-watermark-3.jpg');
  });

  it('gets no second watermark laid over it (it carries the mark)', () => {
    expect(needsWatermarkOverlay(locked(3), '/wm.png')).toBe(false);
    expect(needsWatermarkOverlay(albumPhoto(3), '/wm.png')).toBe(true);
    expect(needsWatermarkOverlay(albumPhoto(3), null)).toBe(false);
  });

  it('is never offered to a grid tile: tiles name the thumbnail alone, the preview is the viewer’s', () => {
    for (const photo of [locked(3), albumPhoto(3), { ...albumPhoto(5), width: 800, height: 600 }]) {
      const srcset = tileSrcSet(photo) ?? '';
      expect(srcset).toBe(`/files/thumb-${photo.id}.jpg 400w`);
      expect(srcset).not.toContain('preview');
      expect(srcset).not.toContain('protector');
    }
  });
});
