import { describe, expect, it } from 'vitest';
import { contentTypeOf, fitWithin, prepareUpload } from './prepare-upload.ts';
import { parseS3Error } from './post-to-storage.ts';

describe('console upload helpers (albums spec §7.1, §9)', () => {
  it('fits into 2000×2000 keeping the ratio, and never enlarges', () => {
    expect(fitWithin(4000, 3000)).toEqual({ width: 2000, height: 1500 });
    expect(fitWithin(3000, 4000)).toEqual({ width: 1500, height: 2000 });
    expect(fitWithin(2001, 10)).toEqual({ width: 2000, height: 10 });
    expect(fitWithin(2000, 2000)).toEqual({ width: 2000, height: 2000 });
    expect(fitWithin(800, 600)).toEqual({ width: 800, height: 600 });
    expect(fitWithin(100_000, 1)).toEqual({ width: 2000, height: 1 });
  });

  it('knows the content type of every accepted extension, in any case', () => {
    expect(['a.JPG', 'b.jpeg', 'c.Png', 'd.gif', 'e.MP4'].map(contentTypeOf)).toEqual([
      'image/jpeg',
      'image/jpeg',
      'image/png',
      'image/gif',
      'video/mp4',
    ]);
  });

  it('uploads GIF and MP4 as they are, and the original when the browser cannot decode', async () => {
    const gif = new File(['GIF89a'], 'a.gif', { type: 'image/gif' });
    const mp4 = new File(['....ftyp'], 'b.mp4', { type: 'video/mp4' });
    expect(await prepareUpload(gif)).toBe(gif);
    expect(await prepareUpload(mp4)).toBe(mp4);
    // jsdom has no createImageBitmap: the JPEG goes up untouched rather than not at all.
    const jpg = new File(['\xff\xd8'], 'c.jpg', { type: 'image/jpeg' });
    expect(await prepareUpload(jpg)).toBe(jpg);
  });

  it('reads the S3 error Code and Message, or nothing', () => {
    expect(
      parseS3Error(
        '<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>EntityTooLarge</Code><Message>Your proposed upload exceeds the maximum allowed size</Message></Error>',
      ),
    ).toEqual({
      code: 'EntityTooLarge',
      message: 'Your proposed upload exceeds the maximum allowed size',
    });
    expect(parseS3Error('Bad Gateway')).toEqual({ code: '', message: '' });
  });
});
