import { describe, expect, it } from 'vitest';
import { albumPhoto } from '../../../test/render-albums.tsx';
import {
  needsWatermarkOverlay,
  photoSrcSet,
  screenPhotoMapper,
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
