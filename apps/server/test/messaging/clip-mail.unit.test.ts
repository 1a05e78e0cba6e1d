import { describe, expect, it } from 'vitest';
import { clipLength, clipLines, clipThumb } from '../../src/services/messaging/clip-mail.ts';

describe('what a mail or SMS says of a clip', () => {
  it('writes a clip’s length as the guest grid does', () => {
    expect(clipLength(6400)).toBe('0:06');
    expect(clipLength(59_600)).toBe('1:00');
    expect(clipLength(3_723_000)).toBe('1:02:03');
    expect(clipLength(null)).toBe('');
    expect(clipLength(-1)).toBe('');
  });

  it('shows the poster named a video, linking its page; no poster, no picture', () => {
    expect(
      clipThumb({ posterUrl: 'https://x/p.jpg', durationMs: 6000, pageUrl: 'https://x/share/a' }),
    ).toEqual({
      src: 'https://x/p.jpg',
      href: 'https://x/share/a',
      alt: 'Video, 0:06',
      caption: '▶ Video · 0:06',
    });
    expect(clipThumb({ posterUrl: null, durationMs: 6000, pageUrl: null })).toBeNull();
  });

  it('links each clip’s page, or the mail’s own link where the public may not see it; three at most', () => {
    const clip = (pageUrl: string | null) => ({ posterUrl: null, durationMs: 2000, pageUrl });
    expect(clipLines([clip('https://x/share/a'), clip(null)], 'https://x/?mId=t')).toEqual([
      'Video (0:02): https://x/share/a',
      'Video (0:02): https://x/?mId=t',
    ]);
    expect(clipLines([clip(null), clip(null), clip(null), clip(null)], 'u')).toHaveLength(3);
    expect(clipLines([{ posterUrl: null, durationMs: null, pageUrl: null }], 'u')).toEqual([
      'Video (–): u',
    ]);
  });
});
