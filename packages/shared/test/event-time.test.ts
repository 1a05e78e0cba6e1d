import { describe, expect, it } from 'vitest';
import {
  eventLocalToInstant,
  eventOffsetMinutes,
  formatEventTime,
  isValidTimeZone,
  zoneOffsetMinutes,
} from '../src/rules/event-time.ts';

const berlin = { time_zone: 'Europe/Berlin', date_utc_diff_hours: 1 };
const at = (iso: string) => new Date(iso);

describe('an event’s local time across daylight saving', () => {
  it('Europe/Berlin is UTC+1 before 2026-03-29 01:00 UTC and UTC+2 after', () => {
    expect(zoneOffsetMinutes('Europe/Berlin', at('2026-03-29T00:59:59Z'))).toBe(60);
    expect(zoneOffsetMinutes('Europe/Berlin', at('2026-03-29T01:00:00Z'))).toBe(120);
    expect(formatEventTime(berlin, at('2026-03-29T00:30:00Z'))).toBe(
      '2026-03-29 01:30 Europe/Berlin',
    );
    expect(formatEventTime(berlin, at('2026-03-29T01:30:00Z'))).toBe(
      '2026-03-29 03:30 Europe/Berlin',
    );
  });

  it('and back to UTC+1 at 2026-10-25 01:00 UTC', () => {
    expect(eventOffsetMinutes(berlin, at('2026-10-25T00:59:00Z'))).toBe(120);
    expect(eventOffsetMinutes(berlin, at('2026-10-25T01:00:00Z'))).toBe(60);
    // 02:30 local happens twice that night.
    expect(formatEventTime(berlin, at('2026-10-25T00:30:00Z'))).toBe(
      '2026-10-25 02:30 Europe/Berlin',
    );
    expect(formatEventTime(berlin, at('2026-10-25T01:30:00Z'))).toBe(
      '2026-10-25 02:30 Europe/Berlin',
    );
  });

  it('reads a local wall-clock time back to its instant, either side of both changes', () => {
    const local = (text: string) => eventLocalToInstant(berlin, Date.parse(`${text}Z`));
    expect(local('2026-03-28T12:00:00').toISOString()).toBe('2026-03-28T11:00:00.000Z');
    expect(local('2026-03-29T12:00:00').toISOString()).toBe('2026-03-29T10:00:00.000Z');
    // 02:30 never happens on 29 March: the clock shows 03:30 then.
    expect(local('2026-03-29T02:30:00').toISOString()).toBe('2026-03-29T01:30:00.000Z');
    // 02:30 happens twice on 25 October: the first.
    expect(local('2026-10-25T02:30:00').toISOString()).toBe('2026-10-25T00:30:00.000Z');
    expect(local('2026-10-25T12:00:00').toISOString()).toBe('2026-10-25T11:00:00.000Z');
  });

  it('without a zone the fixed hours apply all year', () => {
    const fixed = { time_zone: '', date_utc_diff_hours: -5 };
    expect(eventOffsetMinutes(fixed, at('2026-01-10T12:00:00Z'))).toBe(-300);
    expect(eventOffsetMinutes(fixed, at('2026-07-10T12:00:00Z'))).toBe(-300);
    expect(formatEventTime(fixed, at('2026-07-10T12:00:00Z'))).toBe('2026-07-10 07:00 UTC-05:00');
  });

  it('knows zone names and refuses what is not one', () => {
    expect(isValidTimeZone('Europe/Berlin')).toBe(true);
    expect(isValidTimeZone('America/New_York')).toBe(true);
    expect(isValidTimeZone('UTC')).toBe(true);
    for (const bad of ['', 'Mars/Olympus', '+02:00', 'Europe/Berlin<script>', 'a'.repeat(80)])
      expect(isValidTimeZone(bad)).toBe(false);
    // An unknown zone stored before validation falls back to the fixed hours.
    expect(
      eventOffsetMinutes(
        { time_zone: 'Mars/Olympus', date_utc_diff_hours: 3 },
        at('2026-01-01T00:00:00Z'),
      ),
    ).toBe(180);
  });
});

describe('stock-image windows in the event’s zone', () => {
  it('a window end written in Berlin local time closes at that local time, summer or winter', async () => {
    const { stockWindowInstant } = await import('../src/rules/stock-images.ts');
    expect(stockWindowInstant('2026-03-28 18:00', berlin)?.toISOString()).toBe(
      '2026-03-28T17:00:00.000Z',
    );
    expect(stockWindowInstant('2026-03-29 18:00', berlin)?.toISOString()).toBe(
      '2026-03-29T16:00:00.000Z',
    );
    // The fixed hours still work as before.
    expect(stockWindowInstant('2026-03-29 18:00', 1)?.toISOString()).toBe(
      '2026-03-29T17:00:00.000Z',
    );
  });
});
