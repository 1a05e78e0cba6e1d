import { createHash } from 'node:crypto';
import { eventWallClock, type EventClock } from '@flashbulb/shared/rules/event-time';
import type {
  InsightSeries,
  InsightSlotRow,
  OrderPhotoRow,
} from '../../repositories/operations/insight.repository.ts';

export const INSIGHT_SERIES: readonly InsightSeries[] = [
  'photos',
  'views',
  'downloads',
  'shares',
  'leads',
  'prints',
  'face_searches',
];

export type TimelinePoint = { at: string } & Record<InsightSeries, number>;

/** Longest span drawn hour by hour (a week); a longer one is drawn day by day. */
export const MAX_HOURLY_BUCKETS = 7 * 24;
/** The most buckets a timeline answers (the newest kept): a year of days. */
export const MAX_TIMELINE_BUCKETS = 366;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const emptyPoint = (at: string): TimelinePoint => ({
  at,
  photos: 0,
  views: 0,
  downloads: 0,
  shares: 0,
  leads: 0,
  prints: 0,
  face_searches: 0,
});

/**
 * The timeline of the dashboard: the repository's 15-minute slots (UTC) put into each event's
 * local hours (its time zone, daylight saving included, else its fixed offset) and every hour
 * between the first and the last present, zeros included, so the chart's gaps are real. A span
 * longer than a week is drawn by local day. `busiest_hours`: every series added up by local hour
 * of the day (0–23), the "when were guests here" view.
 */
export const bucketTimeline = (
  slots: readonly InsightSlotRow[],
  clockOf: (eventId: number) => EventClock,
): {
  unit: 'hour' | 'day';
  points: TimelinePoint[];
  busiestHours: { hour: number; total: number }[];
} => {
  const busiest = Array.from({ length: 24 }, (_, hour) => ({ hour, total: 0 }));
  // Local wall-clock hour (as ms of a UTC-read date) → counts.
  const byHour = new Map<number, Record<InsightSeries, number>>();
  for (const slot of slots) {
    const local = eventWallClock(clockOf(slot.eventId), new Date(slot.slotStartMs)).getTime();
    const hourStart = Math.floor(local / HOUR_MS) * HOUR_MS;
    const counts = byHour.get(hourStart) ?? emptyPoint('');
    counts[slot.kind] += slot.count;
    byHour.set(hourStart, counts);
    busiest[new Date(hourStart).getUTCHours()]!.total += slot.count;
  }
  if (byHour.size === 0) return { unit: 'hour', points: [], busiestHours: busiest };
  const hours = [...byHour.keys()].sort((a, b) => a - b);
  const first = hours[0]!;
  const last = hours[hours.length - 1]!;
  const hourly = (last - first) / HOUR_MS + 1 <= MAX_HOURLY_BUCKETS;
  const step = hourly ? HOUR_MS : DAY_MS;
  const bucketOf = (ms: number) => Math.floor(ms / step) * step;
  const points = new Map<number, TimelinePoint>();
  const label = (ms: number) =>
    hourly
      ? `${new Date(ms).toISOString().slice(0, 13).replace('T', ' ')}:00`
      : new Date(ms).toISOString().slice(0, 10);
  let start = bucketOf(first);
  const end = bucketOf(last);
  if ((end - start) / step + 1 > MAX_TIMELINE_BUCKETS)
    start = end - (MAX_TIMELINE_BUCKETS - 1) * step;
  for (let at = start; at <= end; at += step) points.set(at, emptyPoint(label(at)));
  for (const [hour, counts] of byHour) {
    const point = points.get(bucketOf(hour));
    if (!point) continue;
    for (const series of INSIGHT_SERIES) point[series] += counts[series];
  }
  return { unit: hourly ? 'hour' : 'day', points: [...points.values()], busiestHours: busiest };
};

/**
 * The anonymous visitor of a view: a hash of the guest's address and browser with the day's salt,
 * cut to 16 hex characters. The same guest is one visitor within a UTC day and no one can tell
 * who it was: the address is never stored and the salt is deleted after its day.
 */
export const visitorHash = (salt: string, eventId: number, ip: string, userAgent: string): string =>
  createHash('sha256')
    .update(`${salt}\n${eventId}\n${ip}\n${userAgent}`)
    .digest('hex')
    .slice(0, 16);

/** What a booth's photos earned: paid orders (refunded ones included) and the refunded part. */
export interface BoothMoney {
  revenue: number;
  refunds: number;
}

/**
 * Money per booth: each paid order's amount shared evenly over the photos it names, each
 * photo's share going to the booth that sent it. Shares are whole minor units handed out by the
 * largest remainder (ties to the booth seen first), so every order's shares add up to its amount
 * and the booths add up to the dashboard's revenue. A refunded order's shares count as the
 * booths' refunds too, so a booth's revenue less its refunds is what it kept, as in the totals.
 */
export const boothMoney = (rows: readonly OrderPhotoRow[]): Map<number | null, BoothMoney> => {
  const orders = new Map<
    number,
    { amount: number; refunded: boolean; photos: Map<number | null, number> }
  >();
  for (const row of rows) {
    const order = orders.get(row.orderId) ?? {
      amount: row.amount,
      refunded: row.refunded,
      photos: new Map(),
    };
    order.photos.set(row.robotId, (order.photos.get(row.robotId) ?? 0) + 1);
    orders.set(row.orderId, order);
  }
  const money = new Map<number | null, BoothMoney>();
  for (const { amount, refunded, photos } of orders.values()) {
    const count = [...photos.values()].reduce((a, b) => a + b, 0);
    const shares = [...photos.entries()].map(([robotId, n], index) => {
      const exact = (amount * n) / count;
      return { robotId, whole: Math.floor(exact), rest: exact - Math.floor(exact), index };
    });
    let left = amount - shares.reduce((total, share) => total + share.whole, 0);
    for (const share of [...shares].sort((a, b) => b.rest - a.rest || a.index - b.index)) {
      if (left <= 0) break;
      share.whole += 1;
      left -= 1;
    }
    for (const share of shares) {
      const booth = money.get(share.robotId) ?? { revenue: 0, refunds: 0 };
      booth.revenue += share.whole;
      if (refunded) booth.refunds += share.whole;
      money.set(share.robotId, booth);
    }
  }
  return money;
};
