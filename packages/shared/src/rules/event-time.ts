/**
 * An event's local time (owner console §3 `date_utc_diff_hours`, plus an IANA time zone): when the
 * event names a zone (`Europe/Berlin`) the offset is the zone's on that instant, daylight saving
 * included; otherwise the fixed `date_utc_diff_hours`. Node and browsers carry the time-zone
 * database in `Intl`, so nothing else is needed.
 */

export interface EventClock {
  /** IANA zone, or '' for none. */
  readonly time_zone?: string | null;
  /** Fixed hours east of UTC, used when no zone is set. */
  readonly date_utc_diff_hours: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** The formatter that reads an instant's wall clock in `zone`, or null for a zone Intl refuses. */
const wallClock = (zone: string): Intl.DateTimeFormat | null => {
  const known = formatters.get(zone);
  if (known) return known;
  try {
    const made = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, made);
    return made;
  } catch {
    return null;
  }
};

/** An IANA zone name Intl knows (`Europe/Berlin`, `UTC`); offsets like `+02:00` are not zones. */
export const isValidTimeZone = (zone: string): boolean =>
  zone.length > 0 && zone.length <= 64 && /^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(zone)
    ? wallClock(zone) !== null
    : false;

/** Minutes east of UTC that `zone` is at `instant` (DST included); null for an unknown zone. */
export const zoneOffsetMinutes = (zone: string, instant: Date): number | null => {
  const format = isValidTimeZone(zone) ? wallClock(zone) : null;
  if (!format || Number.isNaN(instant.getTime())) return null;
  const part = (parts: Intl.DateTimeFormatPart[], type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)?.value ?? 0);
  const parts = format.formatToParts(instant);
  const asUtc = Date.UTC(
    part(parts, 'year'),
    part(parts, 'month') - 1,
    part(parts, 'day'),
    part(parts, 'hour'),
    part(parts, 'minute'),
    part(parts, 'second'),
  );
  const whole = instant.getTime() - instant.getUTCMilliseconds();
  return Math.round((asUtc - whole) / 60_000);
};

/** Minutes east of UTC of the event's local time at `instant`: its zone's if set, else its hours. */
export const eventOffsetMinutes = (event: EventClock, instant: Date): number => {
  const zone = event.time_zone?.trim() ?? '';
  const fromZone = zone ? zoneOffsetMinutes(zone, instant) : null;
  return fromZone ?? event.date_utc_diff_hours * 60;
};

/** The event's wall clock at `instant`, as a Date whose UTC fields read the local time. */
export const eventWallClock = (event: EventClock, instant: Date): Date =>
  new Date(instant.getTime() + eventOffsetMinutes(event, instant) * 60_000);

/**
 * The instant a local wall-clock time of the event names (`2026-03-29 12:00` in Berlin). For a
 * time that happens twice (the hour DST ends) the earlier one; for a time that never happens (the
 * hour DST skips) the instant an hour-forward clock shows as that time (02:30 → 03:30 local).
 */
export const eventLocalToInstant = (event: EventClock, localAsUtcMs: number): Date => {
  const offsetAt = (ms: number) => eventOffsetMinutes(event, new Date(ms)) * 60_000;
  // A zone changes its offset at most once in a day: the offsets half a day either side.
  const before = localAsUtcMs - offsetAt(localAsUtcMs - 43_200_000);
  const after = localAsUtcMs - offsetAt(localAsUtcMs + 43_200_000);
  const reads = (ms: number) => ms + offsetAt(ms) === localAsUtcMs;
  const valid = [before, after].filter(reads);
  return new Date(valid.length > 0 ? Math.min(...valid) : before);
};

/** `UTC+02:00` / `UTC-05:30`: how an offset in minutes is shown. */
export const formatUtcOffset = (minutes: number): string => {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `UTC${sign}${hh}:${mm}`;
};

/**
 * An instant shown in the event's local time, `YYYY-MM-DD HH:mm` followed by the zone's name (or
 * its offset when the event has only `date_utc_diff_hours`).
 */
export const formatEventTime = (event: EventClock, instant: Date): string => {
  const wall = eventWallClock(event, instant);
  const pad = (n: number) => String(n).padStart(2, '0');
  const text = `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())} ${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}`;
  const zone = event.time_zone?.trim() ?? '';
  const label =
    zone && isValidTimeZone(zone) ? zone : formatUtcOffset(eventOffsetMinutes(event, instant));
  return `${text} ${label}`;
};
