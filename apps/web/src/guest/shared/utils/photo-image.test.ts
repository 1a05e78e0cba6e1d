import { describe, expect, it } from 'vitest';
import { albumPhoto } from '../../../test/render-albums.tsx';
import { needsWatermarkOverlay, photoSrcSet, viewerSource } from './photo-image.ts';

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

  it('is offered to the browser at its real width (1200 px long side), the clean preview at 2000', () => {
    // albumPhoto is 4000 × 3000.
    expect(photoSrcSet(locked(3))).toBe(
      '/files/thumb-3.jpg 400w, /files/events/e/protector-watermark-3.jpg 1200w',
    );
    expect(photoSrcSet(albumPhoto(3))).toBe('/files/thumb-3.jpg 400w, /files/preview-3.jpg 2000w');
    const upright = { ...locked(4), width: 3000, height: 4000 };
    expect(photoSrcSet(upright)).toContain('protector-watermark-4.jpg 900w');
    const small = { ...albumPhoto(5), width: 800, height: 600 };
    expect(photoSrcSet(small)).toContain('/files/preview-5.jpg 800w');
  });
});
