import { describe, expect, it } from 'vitest';
import {
  STAFF_PIN_MAX_FAILURES,
  STAFF_PIN_MAX_FAILURES_PER_HOUR,
  samePin,
  staffPinThrottled,
} from '../../src/services/attendees/staff-pin.ts';

const now = new Date('2026-11-27T12:00:00Z');
const ago = (seconds: number) => new Date(now.getTime() - seconds * 1000);
const row = (
  consecutiveFailures: number,
  lastSecondsAgo: number,
  hourFailures = consecutiveFailures,
) => ({
  consecutiveFailures,
  lastFailureAt: ago(lastSecondsAgo),
  hourFailures,
  hourWindowStart: ago(30 * 60),
});

describe('the kiosk staff PIN throttle', () => {
  it('lets a kiosk try until five wrong PINs in a row, then makes it wait a minute', () => {
    expect(staffPinThrottled(undefined, now)).toBe(false);
    expect(staffPinThrottled(row(STAFF_PIN_MAX_FAILURES - 1, 1), now)).toBe(false);
    expect(staffPinThrottled(row(STAFF_PIN_MAX_FAILURES, 1), now)).toBe(true);
    expect(staffPinThrottled(row(STAFF_PIN_MAX_FAILURES, 59), now)).toBe(true);
    expect(staffPinThrottled(row(STAFF_PIN_MAX_FAILURES, 61), now)).toBe(false);
  });

  it('stops a kiosk for the rest of the hour after 30 wrong PINs, however slowly typed', () => {
    expect(staffPinThrottled(row(1, 600, STAFF_PIN_MAX_FAILURES_PER_HOUR - 1), now)).toBe(false);
    expect(staffPinThrottled(row(1, 600, STAFF_PIN_MAX_FAILURES_PER_HOUR), now)).toBe(true);
    // The hour is over: counted afresh.
    expect(
      staffPinThrottled(
        { ...row(1, 600, STAFF_PIN_MAX_FAILURES_PER_HOUR), hourWindowStart: ago(3601) },
        now,
      ),
    ).toBe(false);
  });

  it('compares PINs exactly (spaces around a typed PIN do not count)', () => {
    expect(samePin('2468', '2468')).toBe(true);
    expect(samePin(' 2468 ', '2468')).toBe(true);
    expect(samePin('24680', '2468')).toBe(false);
    expect(samePin('', '2468')).toBe(false);
  });
});
