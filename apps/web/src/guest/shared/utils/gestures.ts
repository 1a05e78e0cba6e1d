/**
 * Touch gestures of the full-screen viewer as pure functions (albums spec §9), so every bound is
 * tested without a browser. Times are milliseconds, distances CSS pixels.
 */

/** A finished touch: where and when it started and ended. */
export interface TouchTrack {
  readonly startX: number;
  readonly startY: number;
  readonly startTime: number;
  readonly endX: number;
  readonly endY: number;
  readonly endTime: number;
}

/** Spec §9: a vertical swipe moves more than 30 px vertically, less than 75 px horizontally, in more than 300 ms. */
export const VERTICAL_SWIPE = { minVerticalPx: 30, maxHorizontalPx: 75, minDurationMs: 300 };
/** Our choice (the spec names no horizontal swipe): 50 px, mostly sideways, at any speed. */
export const HORIZONTAL_SWIPE = { minHorizontalPx: 50 };
/** A touch that moved less than this is a tap. */
export const TAP_MAX_MOVE_PX = 10;
/** Spec §9: on iOS a double tap is a second tap 50 to 250 ms after the first. */
export const DOUBLE_TAP = { minIntervalMs: 50, maxIntervalMs: 250 };

export type Gesture = 'close' | 'next' | 'previous' | 'tap' | null;

export const isVerticalSwipe = (t: TouchTrack): boolean =>
  Math.abs(t.endY - t.startY) > VERTICAL_SWIPE.minVerticalPx &&
  Math.abs(t.endX - t.startX) < VERTICAL_SWIPE.maxHorizontalPx &&
  t.endTime - t.startTime > VERTICAL_SWIPE.minDurationMs;

/** What a finished touch means in the viewer: the vertical swipe closes, sideways moves. */
export const classifyTouch = (t: TouchTrack): Gesture => {
  const dx = t.endX - t.startX;
  const dy = t.endY - t.startY;
  if (isVerticalSwipe(t)) return 'close';
  if (Math.abs(dx) >= HORIZONTAL_SWIPE.minHorizontalPx && Math.abs(dx) > Math.abs(dy)) {
    // Finger to the left brings the next photo in from the right.
    return dx < 0 ? 'next' : 'previous';
  }
  if (Math.abs(dx) < TAP_MAX_MOVE_PX && Math.abs(dy) < TAP_MAX_MOVE_PX) return 'tap';
  return null;
};

/** A tap ending `now` is the second of a double tap when the previous tap ended 50–250 ms before. */
export const isDoubleTap = (previousTapEnd: number | null, now: number): boolean => {
  if (previousTapEnd === null) return false;
  const interval = now - previousTapEnd;
  return interval >= DOUBLE_TAP.minIntervalMs && interval <= DOUBLE_TAP.maxIntervalMs;
};
