import { eventLocalToInstant, type EventClock } from './event-time.ts';
/**
 * When a stock image shows in albums and kiosk lists (albums spec §3, §4): while now lies inside
 * its `dateStart`–`dateEnd` window (either end may be open) and its tag policy holds — all
 * (no policy), include (content with one of the tags exists), exclude (no content with any of
 * them). Window ends are `YYYY-MM-DD HH:mm` (or `YYYY-MM-DD`) in the event's time zone
 * (`date_utc_diff_hours`); an ISO time with its own offset is read as written.
 */

export interface StockImageRule {
  dateStart: string | null;
  dateEnd: string | null;
  policy: { inc: string[] } | { exc: string[] } | Record<string, never>;
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2}))?$/;

/** A window end as an instant, or null when empty or unreadable (an unreadable end is open). */
export const stockWindowInstant = (
  value: string | null,
  utcDiffHours: number | EventClock,
): Date | null => {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  const local = LOCAL_TIME.exec(trimmed);
  if (local) {
    const [, y, mo, d, h, mi] = local;
    const ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0));
    if (Number.isNaN(ms)) return null;
    // With the event's zone the offset is the one of that local day (daylight saving included).
    return typeof utcDiffHours === 'number'
      ? new Date(ms - utcDiffHours * 3_600_000)
      : eventLocalToInstant(utcDiffHours, ms);
  }
  const parsed = new Date(trimmed);
  return Number.isNaN(parsed.getTime()) ? null : parsed;
};

/** Inside the window: on or after the start, before the end. */
export const stockWindowOpen = (
  image: StockImageRule,
  now: Date,
  utcDiffHours: number | EventClock,
): boolean => {
  const start = stockWindowInstant(image.dateStart, utcDiffHours);
  const end = stockWindowInstant(image.dateEnd, utcDiffHours);
  if (start && now.getTime() < start.getTime()) return false;
  if (end && now.getTime() >= end.getTime()) return false;
  return true;
};

/** The tags a policy names (lower case), empty for "all". */
export const stockPolicyTags = (image: StockImageRule): string[] => {
  const tags =
    'inc' in image.policy ? image.policy.inc : 'exc' in image.policy ? image.policy.exc : [];
  return tags.map((t) => t.trim().toLowerCase()).filter(Boolean);
};

/** Whether the policy holds given the (lower-case) tags found on the album's content. */
export const stockPolicyHolds = (image: StockImageRule, found: ReadonlySet<string>): boolean => {
  const tags = stockPolicyTags(image);
  if ('inc' in image.policy) return tags.some((t) => found.has(t));
  if ('exc' in image.policy) return !tags.some((t) => found.has(t));
  return true;
};

/**
 * The tags a new photo carries: those its uploader sent, the event's hash tag(s) (without `#`, split on commas and spaces) and
 * the event's forced index tags; valid tags only, each once (case-insensitive), first spelling kept.
 */
export const photoTagsFor = (
  sent: readonly string[],
  hashTag: string,
  forcedIndexTags: readonly string[],
): string[] => {
  const seen = new Set<string>();
  const out: string[] = [];
  const hashTags = hashTag.split(/[\s,]+/);
  for (const raw of [...sent, ...hashTags, ...forcedIndexTags]) {
    const tag = raw.trim().replace(/^#+/, '');
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(tag) || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
};
