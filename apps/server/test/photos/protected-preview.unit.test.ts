import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  isLockedGuest,
  previewChoice,
  videoChoice,
  type PreviewCaller,
} from '../../src/access/preview-rules.ts';
import { ImageEngine } from '../../src/repositories/photos/image-engine.ts';
import { PhotoUrls } from '../../src/services/photos/photo-urls.ts';
import { protectorVersion } from '../../src/services/photos/protector-mark.ts';
import type { PhotoRow } from '../../src/repositories/photos/photo.repository.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';
import { cellDifferences } from '../helpers/image-diff.ts';

const paid = { is_free: 0, unlocked: 0 } as const;
const free = { is_free: 1, unlocked: 0 } as const;
const unlocked = { is_free: 0, unlocked: 1 } as const;
const caller = (over: Partial<PreviewCaller>): PreviewCaller => ({
  audience: 'public',
  event: paid,
  original: false,
  ...over,
});

describe('which preview a caller gets', () => {
  it('locks every guest audience of a paid event that may not download the original', () => {
    for (const audience of ['private', 'public', 'attendee', 'robot'] as const) {
      expect(isLockedGuest(caller({ audience })), audience).toBe(true);
      expect(previewChoice(caller({ audience }))).toEqual({
        preview: 'protector_watermark',
        fullSizeWatermarks: false,
      });
    }
    // An unknown event counts as paid (the safe side).
    expect(isLockedGuest(caller({ event: null }))).toBe(true);
  });

  it('gives the clean preview to operators, buyers, and guests of free or unlocked events', () => {
    for (const open of [
      caller({ audience: 'owner' }),
      caller({ audience: 'attendee', original: true }),
      caller({ event: free }),
      caller({ audience: 'private', event: unlocked }),
    ]) {
      expect(isLockedGuest(open)).toBe(false);
      expect(previewChoice(open)).toEqual({ preview: 'preview', fullSizeWatermarks: true });
    }
  });

  it('plays the protected clip to a locked guest and the watermarked one to other guests', () => {
    expect(videoChoice(caller({}), true)).toBe('video_protected');
    expect(videoChoice(caller({ audience: 'owner' }), true)).toBe('video');
    expect(videoChoice(caller({ event: free }), true)).toBe('video_watermark');
    expect(videoChoice(caller({ event: free }), false)).toBe('video');
  });
});

describe('the URLs of a locked guest', () => {
  const storage = {
    publicUrl: (key: string) => `http://files.test/storage/${key}`,
  } as unknown as StorageRepository;
  const urls = new PhotoUrls({
    storage,
    clock: { now: () => new Date('2026-11-27T12:00:00Z') },
    publicUrl: 'http://app.test',
    appSecret: 'secret',
  });
  const folder = 'events/gala/photos/uid_abc_uid/';
  const row = {
    id: 7,
    storageKey: `protected/${folder}original.jpg`,
    derivatives: {
      preview: `protected/${folder}preview.jpg`,
      thumbnail: `${folder}thumbnail.jpg`,
      photo_watermark: `${folder}photo-watermark.jpg`,
      live_view_watermark: `${folder}live-view-watermark.jpg`,
      protector_watermark: `${folder}protector-watermark-0123456789ab.jpg`,
    },
  } as unknown as PhotoRow;

  it('name the protected preview as the preview and no full-size image', () => {
    const seen = urls.urls(row, caller({ audience: 'private' }));
    expect(seen.preview).toBe(`http://files.test/storage/${row.derivatives.protector_watermark}`);
    expect(seen.protector_watermark).toBe(seen.preview);
    expect(seen.original).toBeNull();
    expect(seen.photo_watermark).toBeNull();
    expect(seen.live_view_watermark).toBeNull();
    expect(seen.thumbnail).toBe(`http://files.test/storage/${folder}thumbnail.jpg`);
  });

  it('fall back to nothing full-size (not another watermark) while the protected preview is missing', () => {
    const bare = { ...row, derivatives: { ...row.derivatives, protector_watermark: undefined } };
    const seen = urls.urls(bare as unknown as PhotoRow, caller({}));
    expect(seen.preview).toBeNull();
    expect(seen.photo_watermark).toBeNull();
  });

  it('are the clean preview once the guest may download', () => {
    const seen = urls.urls(row, caller({ audience: 'attendee', original: true }));
    expect(seen.preview).toMatch(/^http:\/\/app\.test\/media\/photos\/7\/preview\?a=g&/);
    expect(seen.photo_watermark).toBe(`http://files.test/storage/${folder}photo-watermark.jpg`);
  });
});

describe('the protected preview', () => {
  const engine = new ImageEngine();
  const picture = (width: number, height: number, colour = { r: 60, g: 120, b: 180 }) =>
    sharp({ create: { width, height, channels: 3, background: colour } })
      .jpeg()
      .toBuffer();

  it('is at most 1200 px on the long side, with the name marked over every part of it', async () => {
    for (const [w, h] of [
      [2000, 1333],
      [1333, 2000],
    ] as const) {
      const clean = await picture(w, h);
      const made = await engine.protectedPreview(clean, { kind: 'text', text: 'Paid Gala' });
      const meta = await sharp(made.data).metadata();
      expect(Math.max(meta.width, meta.height)).toBe(1200);
      expect({ width: meta.width, height: meta.height }).toEqual({
        width: made.width,
        height: made.height,
      });
      const cells = await cellDifferences(made.data, clean);
      for (const [i, d] of cells.entries()) expect(d, `cell ${i}`).toBeGreaterThan(2);
    }
  });

  it('shows on a white picture and on a black one (light mark with a dark edge)', async () => {
    for (const colour of [
      { r: 255, g: 255, b: 255 },
      { r: 0, g: 0, b: 0 },
    ]) {
      const clean = await picture(1600, 1200, colour);
      const made = await engine.protectedPreview(clean, { kind: 'text', text: 'Gala' });
      const cells = await cellDifferences(made.data, clean);
      for (const d of cells) expect(d).toBeGreaterThan(1);
    }
  });

  it('tiles the event’s own protector image the same way', async () => {
    const logo = await sharp({
      create: {
        width: 300,
        height: 120,
        channels: 4,
        background: { r: 255, g: 0, b: 0, alpha: 1 },
      },
    })
      .png()
      .toBuffer();
    const clean = await picture(1800, 1200);
    const made = await engine.protectedPreview(clean, { kind: 'image', image: logo });
    expect(Math.max(made.width, made.height)).toBe(1200);
    const cells = await cellDifferences(made.data, clean);
    for (const d of cells) expect(d).toBeGreaterThan(2);
  });

  it('never enlarges a small picture, and draws a name with markup as text', async () => {
    const clean = await picture(640, 480);
    const made = await engine.protectedPreview(clean, {
      kind: 'text',
      text: '</text><script>alert(1)</script> & "Co"',
    });
    expect([made.width, made.height]).toEqual([640, 480]);
    const cells = await cellDifferences(made.data, clean);
    expect(Math.min(...cells)).toBeGreaterThan(1);
  });

  it('protects a picture smaller than one tile of the mark (a booth thumbnail, a test photo)', async () => {
    for (const [w, h] of [
      [40, 30],
      [200, 30],
    ] as const) {
      const clean = await picture(w, h);
      const made = await engine.protectedPreview(clean, { kind: 'text', text: 'Gala' });
      expect([made.width, made.height]).toEqual([w, h]);
      expect(made.data.equals(clean)).toBe(false);
    }
  });
});

describe('the protector version', () => {
  it('changes with the image or the text, and is the same for the same mark', () => {
    const a = protectorVersion({ kind: 'text', text: 'Gala' });
    expect(a).toMatch(/^[0-9a-f]{12}$/);
    expect(protectorVersion({ kind: 'text', text: 'Gala' })).toBe(a);
    expect(protectorVersion({ kind: 'text', text: 'Gala 2' })).not.toBe(a);
    expect(protectorVersion({ kind: 'image', key: 'share/1/wm.png' })).not.toBe(a);
  });
});
