import { describe, expect, it } from 'vitest';
import { classifyTouch, isDoubleTap, isVerticalSwipe, type TouchTrack } from './gestures.ts';

const track = (dx: number, dy: number, ms: number): TouchTrack => ({
  startX: 100,
  startY: 200,
  startTime: 1000,
  endX: 100 + dx,
  endY: 200 + dy,
  endTime: 1000 + ms,
});

describe('vertical swipe (spec §9: vertical > 30 px, horizontal < 75 px, duration > 300 ms)', () => {
  it('is a swipe just past every bound, up or down', () => {
    expect(isVerticalSwipe(track(74, 31, 301))).toBe(true);
    expect(isVerticalSwipe(track(-74, -31, 301))).toBe(true);
    expect(classifyTouch(track(0, 200, 400))).toBe('close');
  });
  it('is not a swipe at exactly 30 px vertically', () => {
    expect(isVerticalSwipe(track(0, 30, 400))).toBe(false);
  });
  it('is not a swipe at exactly 75 px horizontally', () => {
    expect(isVerticalSwipe(track(75, 100, 400))).toBe(false);
    expect(isVerticalSwipe(track(-75, 100, 400))).toBe(false);
  });
  it('is not a swipe at exactly 300 ms', () => {
    expect(isVerticalSwipe(track(0, 100, 300))).toBe(false);
    expect(classifyTouch(track(0, 100, 300))).toBeNull();
  });
});

describe('horizontal swipe moves between photos', () => {
  it('left means next, right means previous, from 50 px', () => {
    expect(classifyTouch(track(-50, 5, 100))).toBe('next');
    expect(classifyTouch(track(50, 5, 100))).toBe('previous');
    expect(classifyTouch(track(-49, 5, 100))).toBeNull();
  });
  it('a slow vertical swipe with some sideways drift still closes rather than moves', () => {
    expect(classifyTouch(track(60, 40, 400))).toBe('close');
  });
  it('a touch that barely moved is a tap', () => {
    expect(classifyTouch(track(9, -9, 80))).toBe('tap');
    expect(classifyTouch(track(10, 0, 80))).toBeNull();
  });
});

describe('iOS double tap (spec §9: 50–250 ms between taps)', () => {
  it('counts the bounds themselves', () => {
    expect(isDoubleTap(1000, 1050)).toBe(true);
    expect(isDoubleTap(1000, 1250)).toBe(true);
  });
  it('is too fast at 49 ms and too slow at 251 ms', () => {
    expect(isDoubleTap(1000, 1049)).toBe(false);
    expect(isDoubleTap(1000, 1251)).toBe(false);
  });
  it('needs a first tap', () => {
    expect(isDoubleTap(null, 1100)).toBe(false);
  });
});
