import { EVENT_LIMITS } from '@flashbulb/shared';

/** The event settings' defaults (`EVENT_LIMITS`). */
export const DEFAULT_SLIDESHOW_SECONDS = {
  min: EVENT_LIMITS.defaultSlideshowMinSeconds,
  max: EVENT_LIMITS.defaultSlideshowMaxSeconds,
};

/**
 * The slide show's intervals from the event's settings: the defaults when they are missing, out
 * of order, or longer than the rules allow (a value stored before the limit: a browser timer
 * over 24.8 days fires at once, and the show would race).
 */
export const slideshowSeconds = (
  opts: { slideshowMinIntervalSeconds?: number; slideshowMaxIntervalSeconds?: number } | undefined,
): { min: number; max: number } => {
  const min = opts?.slideshowMinIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.min;
  const max = opts?.slideshowMaxIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.max;
  return min > 0 && max > min && max <= EVENT_LIMITS.slideshowIntervalMaxSeconds
    ? { min, max }
    : DEFAULT_SLIDESHOW_SECONDS;
};
