import { describe, expect, it } from 'vitest';
import { albumPhoto } from '../../../test/render-albums.tsx';
import {
  needsWatermarkOverlay,
  screenPhotoMapper,
  tileSrcSet,
  screenPictures,
  viewerSource,
  withScreenPicture,
} from './photo-image.ts';

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

describe('which watermarked picture a screen shows', () => {
  const marked = (live: string | null, photoMark: string | null) => {
    const photo = albumPhoto(1);
    return {
      ...photo,
      urls: { ...photo.urls, live_view_watermark: live, photo_watermark: photoMark },
    };
  };

  it('live views show the live-view watermark, a kiosk with kioskWatermarkEnable the photo one', () => {
    expect(screenPictures({ mode: 'grid', kiosk: false, kioskWatermark: true })).toEqual([]);
    expect(screenPictures({ mode: 'grid', kiosk: true, kioskWatermark: false })).toEqual([]);
    expect(screenPictures({ mode: 'stream', kiosk: false, kioskWatermark: false })).toEqual([
      'live_view_watermark',
    ]);
    expect(screenPictures({ mode: 'slideshow', kiosk: false, kioskWatermark: false })).toEqual([
      'live_view_watermark',
    ]);
    expect(screenPictures({ mode: 'grid', kiosk: true, kioskWatermark: true })).toEqual([
      'photo_watermark',
      'live_view_watermark',
    ]);
  });

  it('takes the first variant the photo has for every picture of it; none: the photo as it is', () => {
    const shown = withScreenPicture(marked('/live.jpg', '/mark.jpg'), ['live_view_watermark']);
    expect(shown.urls).toMatchObject({
      thumbnail: '/live.jpg',
      preview: '/live.jpg',
      photo_watermark: '/live.jpg',
    });
    expect(
      withScreenPicture(marked(null, '/mark.jpg'), ['live_view_watermark', 'photo_watermark']).urls
        .thumbnail,
    ).toBe('/mark.jpg');
    const plain = marked(null, null);
    expect(withScreenPicture(plain, ['live_view_watermark'])).toBe(plain);
    const clip = { ...marked('/live.jpg', null), media_type: 'video' as const };
    expect(withScreenPicture(clip, ['live_view_watermark'])).toBe(clip);
  });

  it('maps each photo once, so the same photo stays the same object', () => {
    const map = screenPhotoMapper(['live_view_watermark']);
    const photo = marked('/live.jpg', null);
    expect(map(photo)).toBe(map(photo));
    expect(map(undefined)).toBeUndefined();
    const none = screenPhotoMapper([]);
    expect(none(photo)).toBe(photo);
  });
});
