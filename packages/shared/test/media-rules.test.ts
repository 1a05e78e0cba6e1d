import { describe, expect, it } from 'vitest';
import {
  extensionOf,
  imageFieldError,
  isPhotoFileName,
  KIOSK_JPEG_MAX_BYTES,
  KIOSK_MP4_MAX_BYTES,
  kioskMediaError,
  photoUidFromPath,
  randomFileName,
} from '../src/index.ts';

describe('media rules (albums spec §5)', () => {
  it('accepts gif, jpg, jpeg, mp4 and png photo uploads, case-insensitively', () => {
    for (const name of ['a.gif', 'a.JPG', 'a.jpeg', 'A.MP4', 'x.y.png'])
      expect(isPhotoFileName(name), name).toBe(true);
    for (const name of ['a.bmp', 'a.tiff', 'a', 'a.jpg.exe', 'jpg'])
      expect(isPhotoFileName(name), name).toBe(false);
  });

  it('limits kiosk media to jpg/jpeg (1.5 MB) and mp4 (4 MB) — .jpeg and upper case included', () => {
    expect(kioskMediaError('a.png', 10)).toBe('unsupported_picture_format');
    expect(kioskMediaError('a.jpg', KIOSK_JPEG_MAX_BYTES)).toBeNull();
    expect(kioskMediaError('a.jpg', KIOSK_JPEG_MAX_BYTES + 1)).toBe('unsupported_media_size');
    // The legacy client forgot these two; we do not.
    expect(kioskMediaError('a.jpeg', KIOSK_JPEG_MAX_BYTES + 1)).toBe('unsupported_media_size');
    expect(kioskMediaError('A.JPG', KIOSK_JPEG_MAX_BYTES + 1)).toBe('unsupported_media_size');
    expect(kioskMediaError('a.mp4', KIOSK_MP4_MAX_BYTES)).toBeNull();
    expect(kioskMediaError('a.MP4', KIOSK_MP4_MAX_BYTES + 1)).toBe('unsupported_media_size');
  });

  it('words the image-field refusal as the spec does', () => {
    expect(imageFieldError('logo.png')).toBeNull();
    expect(imageFieldError('logo.gif')).toBe(
      'Not Allowed gif files. Only jpg, jpeg, png files are allowed.',
    );
  });

  it('makes random base-36 names that keep the extension', () => {
    const name = randomFileName('Holiday Photo.JPG');
    expect(name).toMatch(/^[0-9a-z]{24}\.jpg$/);
    expect(randomFileName('a.png')).not.toBe(randomFileName('a.png'));
    expect(extensionOf(randomFileName('noext'))).toBe('');
  });

  it('finds the photo uid between uid_ and _uid', () => {
    expect(photoUidFromPath('events/ABCD/photos/uid_3f9a0c_uid/preview.jpg')).toBe('3f9a0c');
    expect(photoUidFromPath('events/ABCD/photos/preview.jpg')).toBeNull();
  });
});
