import { guestUploadError, GUEST_UPLOAD_MAX_BYTES } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import {
  guestUploadFit,
  guestUploadKey,
  guestUploadShape,
  parseGuestUploadKey,
} from '../../src/services/photos/guest-upload-rules.ts';

/** The rules of guests' own photos on plain values; the calls: ingest.test.ts "guests' own photos". */
describe('guest uploads: the fit to the event’s box', () => {
  it('shrinks to fit both sides, keeping the aspect ratio', () => {
    expect(
      guestUploadFit({ width: 4000, height: 3000 }, { maxWidth: 1200, maxHeight: 900 }),
    ).toEqual({ width: 1200, height: 900 });
    // The height decides for a portrait picture.
    expect(
      guestUploadFit({ width: 3000, height: 4000 }, { maxWidth: 1200, maxHeight: 900 }),
    ).toEqual({ width: 675, height: 900 });
  });

  it('fits one side when only one is set', () => {
    expect(
      guestUploadFit({ width: 4000, height: 3000 }, { maxWidth: 1000, maxHeight: null }),
    ).toEqual({ width: 1000, height: 750 });
    expect(
      guestUploadFit({ width: 4000, height: 3000 }, { maxWidth: null, maxHeight: 600 }),
    ).toEqual({ width: 800, height: 600 });
  });

  it('never enlarges, and leaves a picture that fits (or an event without a box) alone', () => {
    expect(
      guestUploadFit({ width: 800, height: 600 }, { maxWidth: 1200, maxHeight: 900 }),
    ).toBeNull();
    expect(
      guestUploadFit({ width: 1200, height: 900 }, { maxWidth: 1200, maxHeight: 900 }),
    ).toBeNull();
    expect(
      guestUploadFit({ width: 8000, height: 6000 }, { maxWidth: null, maxHeight: null }),
    ).toBeNull();
  });

  it('never rounds past the box or to nothing', () => {
    const fit = guestUploadFit({ width: 3001, height: 2000 }, { maxWidth: 1000, maxHeight: 1000 })!;
    expect(fit.width).toBeLessThanOrEqual(1000);
    expect(fit.height).toBeLessThanOrEqual(1000);
    expect(
      guestUploadFit({ width: 10000, height: 10 }, { maxWidth: 100, maxHeight: null }),
    ).toEqual({
      width: 100,
      height: 1,
    });
  });
});

describe('guest uploads: the tag and the box from the settings', () => {
  it('gives the tag without its #, and none when the setting is empty or not a tag', () => {
    const box = {
      attPhotoImgMaxWidth: 1200,
      attPhotoImgMaxHeight: null,
      guestUploadsPublic: 1 as const,
    };
    expect(guestUploadShape({ ...box, attPhotoImgPrTag: ' #guest ' })).toEqual({
      tags: ['guest'],
      maxWidth: 1200,
      maxHeight: null,
      albumOnly: false,
    });
    // Private: kept to the uploader's own album.
    expect(
      guestUploadShape({ ...box, attPhotoImgPrTag: '', guestUploadsPublic: 0 }).albumOnly,
    ).toBe(true);
    expect(guestUploadShape({ ...box, attPhotoImgPrTag: '' }).tags).toEqual([]);
    expect(guestUploadShape({ ...box, attPhotoImgPrTag: 'two words' }).tags).toEqual([]);
  });
});

describe('guest uploads: type, size and key', () => {
  it('takes pictures of at most 25 MB, any case, and says which rule a file breaks', () => {
    expect(guestUploadError('IMG_0001.JPG', 3_000_000)).toBeNull();
    expect(guestUploadError('a.jpeg', null)).toBeNull();
    expect(guestUploadError('a.png', GUEST_UPLOAD_MAX_BYTES)).toBeNull();
    expect(guestUploadError('a.jpg', GUEST_UPLOAD_MAX_BYTES + 1)).toBe('guest_upload_too_large');
    expect(guestUploadError('clip.mp4', 1000)).toBe('unsupported_picture_format');
    expect(guestUploadError('notes.pdf', 1000)).toBe('unsupported_picture_format');
  });

  it('keeps the album in the key, and reads only guests’ keys back', () => {
    const uuid = '0b8f7c7e-6c1e-4c5b-9a8e-3f2d1c0b9a87';
    const mine = guestUploadKey('ABCD', uuid, 'X7K2M9', 'me.jpg');
    expect(mine).toBe(`tmp/ABCD/${uuid}/guest/att_X7K2M9/me.jpg`);
    expect(parseGuestUploadKey(mine)).toEqual({ eventName: 'ABCD', attendeeUid: 'X7K2M9' });
    expect(parseGuestUploadKey(guestUploadKey('ABCD', uuid, null, 'a.jpg'))).toEqual({
      eventName: 'ABCD',
      attendeeUid: null,
    });
    // A robot's or operator's upload is not a guest's to complete.
    expect(parseGuestUploadKey(`tmp/ABCD/${uuid}/a.jpg`)).toBeNull();
    expect(parseGuestUploadKey(`tmp/ABCD/${uuid}/att_X7K2M9/a.jpg`)).toBeNull();
  });
});
