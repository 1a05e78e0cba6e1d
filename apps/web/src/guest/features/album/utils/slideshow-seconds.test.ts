import { describe, expect, it } from 'vitest';
import { DEFAULT_SLIDESHOW_SECONDS, slideshowSeconds } from './slideshow-seconds.ts';

describe('the slide show’s intervals', () => {
  it('takes the event’s intervals when they are in order and within an hour', () => {
    expect(
      slideshowSeconds({ slideshowMinIntervalSeconds: 2, slideshowMaxIntervalSeconds: 3600 }),
    ).toEqual({ min: 2, max: 3600 });
  });

  it('falls back to the defaults when missing, out of order or too long for a browser timer', () => {
    expect(slideshowSeconds(undefined)).toEqual(DEFAULT_SLIDESHOW_SECONDS);
    expect(
      slideshowSeconds({ slideshowMinIntervalSeconds: 5, slideshowMaxIntervalSeconds: 5 }),
    ).toEqual(DEFAULT_SLIDESHOW_SECONDS);
    // Stored before the rule: 2^31 s would make every timer fire at once.
    expect(
      slideshowSeconds({ slideshowMinIntervalSeconds: 3, slideshowMaxIntervalSeconds: 2 ** 31 }),
    ).toEqual(DEFAULT_SLIDESHOW_SECONDS);
  });
});
