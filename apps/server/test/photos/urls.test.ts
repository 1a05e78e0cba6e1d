import { describe, expect, it } from 'vitest';
import { PhotoUrls } from '../../src/services/photos/photo-urls.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';

const start = Date.UTC(2026, 10, 24, 10, 1, 0, 400);

const setUp = () => {
  let now = start;
  const urls = new PhotoUrls({
    storage: { publicUrl: (key: string) => `https://cdn.example/${key}` } as StorageRepository,
    clock: { now: () => new Date(now) },
    publicUrl: 'https://photos.example/',
    appSecret: 'photo-urls-test-secret-0123456789abcdef',
  });
  return { urls, advance: (ms: number) => (now += ms) };
};

const query = (url: string) => Object.fromEntries(new URL(url).searchParams);
const grantOf = (urls: PhotoUrls, url: string) => {
  const [id, variant] = new URL(url).pathname.split('/').slice(-2);
  return urls.check(id!, variant!, query(url));
};

describe('PhotoUrls media URLs and their per-window cache', () => {
  it('keeps owner and guest URLs of one photo and variant apart, each valid for its audience', () => {
    const { urls } = setUp();
    const owner = urls.mediaUrl(7, 'preview', 'o');
    const guest = urls.mediaUrl(7, 'preview', 'g');
    // asked again, from the cache: still each audience's own URL
    expect(urls.mediaUrl(7, 'preview', 'o')).toBe(owner);
    expect(urls.mediaUrl(7, 'preview', 'g')).toBe(guest);
    expect(query(owner).a).toBe('o');
    expect(query(guest).a).toBe('g');
    expect(grantOf(urls, owner)).toMatchObject({ ok: true, grant: { audience: 'o' } });
    expect(grantOf(urls, guest)).toMatchObject({ ok: true, grant: { audience: 'g' } });
    // photo 7's preview URL is not photo 8's, nor its original's
    expect(urls.mediaUrl(8, 'preview', 'o')).not.toBe(owner);
    expect(urls.mediaUrl(7, 'original', 'o')).not.toBe(owner);
    expect(grantOf(urls, urls.mediaUrl(7, 'original', 'o'))).toMatchObject({
      ok: true,
      grant: { photoId: 7, variant: 'original' },
    });
  });

  it('signs correctly past the cache size and renews the URL in the next window', () => {
    const { urls, advance } = setUp();
    const first = urls.mediaUrl(1, 'preview', 'o');
    for (let id = 2; id <= 10_000; id += 1) {
      const url = urls.mediaUrl(id, id % 2 ? 'preview' : 'original', id % 3 ? 'o' : 'g');
      if (id % 997 === 0)
        expect(grantOf(urls, url)).toMatchObject({ ok: true, grant: { photoId: id } });
    }
    // 10,000 URLs later (more than the cache holds), the same window still gives the same URL
    expect(urls.mediaUrl(1, 'preview', 'o')).toBe(first);
    advance(3600_000);
    const next = urls.mediaUrl(1, 'preview', 'o');
    expect(Number(query(next).e)).toBe(Number(query(first).e) + 3600);
    expect(grantOf(urls, next).ok).toBe(true);
  });
});
