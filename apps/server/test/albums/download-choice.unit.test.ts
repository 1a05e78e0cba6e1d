import { describe, expect, it } from 'vitest';
import { pickEntry, type EntryRules } from '../../src/services/albums/download-choice.ts';

const photo = {
  storageKey: 'events/1/p/original.jpg',
  mediaType: 'image',
  derivatives: { preview: 'events/1/p/preview.jpg', thumbnail: 'events/1/p/thumbnail.jpg' },
};
const watermarked = {
  ...photo,
  derivatives: { ...photo.derivatives, photo_watermark: 'events/1/p/photo-watermark.jpg' },
};
const clip = { ...photo, storageKey: 'events/1/c/original.mp4', mediaType: 'video' };
const guest: EntryRules = {
  keyOriginal: false,
  paid: false,
  guestDownloads: true,
  guestWebOnly: false,
};

describe('which file of a photo an album zip takes', () => {
  it('gives a free event’s guests the original of a photo without watermark, or the web size asked for', () => {
    expect(pickEntry(guest, photo, undefined)).toEqual({
      storageKey: photo.storageKey,
      variant: 'original',
    });
    expect(pickEntry(guest, photo, 'original')?.variant).toBe('original');
    expect(pickEntry(guest, photo, 'web')).toEqual({
      storageKey: photo.derivatives.preview,
      variant: 'web',
    });
  });

  it('limits guests to the web size when the operator says so, or when the photo is watermarked', () => {
    const webOnly = { ...guest, guestWebOnly: true };
    expect(pickEntry(webOnly, photo, 'original')).toEqual({
      storageKey: photo.derivatives.preview,
      variant: 'web',
    });
    // The watermarked picture is what the album shows: never the bare original or preview.
    expect(pickEntry(guest, watermarked, 'original')).toEqual({
      storageKey: watermarked.derivatives.photo_watermark,
      variant: 'web',
    });
  });

  it('gives guests nothing of a paid event or with guest downloads off', () => {
    expect(pickEntry({ ...guest, paid: true }, photo, 'web')).toBeNull();
    expect(pickEntry({ ...guest, guestDownloads: false }, photo, undefined)).toBeNull();
    expect(pickEntry({ ...guest, guestWebOnly: true }, clip, undefined)).toBeNull();
  });

  it('gives keys with the right to originals the original, or the preview in web size', () => {
    const owner = { ...guest, keyOriginal: true, paid: true, guestDownloads: false };
    expect(pickEntry(owner, watermarked, undefined)?.storageKey).toBe(photo.storageKey);
    expect(pickEntry(owner, watermarked, 'web')?.storageKey).toBe(photo.derivatives.preview);
    // A clip has no web size: its original.
    expect(pickEntry(owner, clip, 'web')?.storageKey).toBe(clip.storageKey);
  });
});
