import { describe, expect, it } from 'vitest';
import type { InsightSlotRow } from '../../src/repositories/operations/insight.repository.ts';
import {
  boothMoney,
  bucketTimeline,
  MAX_HOURLY_BUCKETS,
  visitorHash,
} from '../../src/services/operations/insight-rules.ts';
import { totalsOf } from '../../src/services/operations/insight.service.ts';

const at = (iso: string) => new Date(iso).getTime();
const slot = (
  eventId: number,
  kind: InsightSlotRow['kind'],
  iso: string,
  count = 1,
): InsightSlotRow => ({ eventId, kind, slotStartMs: at(iso), count });

describe('insight timeline', () => {
  it('puts 15-minute UTC slots into the event’s local hours (its zone, DST included) with empty hours between', () => {
    const berlin = { time_zone: 'Europe/Berlin', date_utc_diff_hours: 0 };
    const { unit, points, busiestHours } = bucketTimeline(
      [
        // Summer: Berlin is UTC+2. 10:45 and 11:00 UTC are 12:45 and 13:00 local.
        slot(1, 'views', '2026-07-04T10:45:00Z', 2),
        slot(1, 'views', '2026-07-04T11:00:00Z', 3),
        slot(1, 'photos', '2026-07-04T11:15:00Z', 4),
        slot(1, 'downloads', '2026-07-04T13:30:00Z', 1),
      ],
      () => berlin,
    );
    expect(unit).toBe('hour');
    expect(points.map((p) => p.at)).toEqual([
      '2026-07-04 12:00',
      '2026-07-04 13:00',
      '2026-07-04 14:00',
      '2026-07-04 15:00',
    ]);
    expect(points.map((p) => [p.views, p.photos, p.downloads])).toEqual([
      [2, 0, 0],
      [3, 4, 0],
      [0, 0, 0],
      [0, 0, 1],
    ]);
    expect(busiestHours).toHaveLength(24);
    expect(busiestHours[13]).toEqual({ hour: 13, total: 7 });
    expect(busiestHours[12]!.total).toBe(2);
    // Winter: the same zone is UTC+1.
    const winter = bucketTimeline([slot(1, 'views', '2026-01-10T10:00:00Z')], () => berlin);
    expect(winter.points.map((p) => p.at)).toEqual(['2026-01-10 11:00']);
  });

  it('a half-hour zone and a fixed offset: each event in its own clock', () => {
    const { points } = bucketTimeline(
      [
        // Kolkata is UTC+5:30: 08:15 UTC → 13:45 local; 08:30 UTC → 14:00 local.
        slot(1, 'shares', '2026-03-01T08:15:00Z'),
        slot(1, 'shares', '2026-03-01T08:30:00Z'),
        // Event 2 has no zone, 3 hours east of UTC: 10:00 UTC → 13:00 local.
        slot(2, 'leads', '2026-03-01T10:00:00Z'),
      ],
      (eventId) =>
        eventId === 1
          ? { time_zone: 'Asia/Kolkata', date_utc_diff_hours: 0 }
          : { time_zone: '', date_utc_diff_hours: 3 },
    );
    expect(points).toEqual([
      expect.objectContaining({ at: '2026-03-01 13:00', shares: 1, leads: 1 }),
      expect.objectContaining({ at: '2026-03-01 14:00', shares: 1, leads: 0 }),
    ]);
  });

  it('a span longer than a week is drawn by day; nothing recorded is an empty timeline', () => {
    const utc = { date_utc_diff_hours: 0 };
    const long = bucketTimeline(
      [
        slot(1, 'prints', '2026-05-01T09:00:00Z', 2),
        slot(1, 'prints', '2026-05-01T17:00:00Z', 1),
        slot(1, 'face_searches', '2026-05-10T23:45:00Z'),
      ],
      () => utc,
    );
    expect(MAX_HOURLY_BUCKETS).toBe(168);
    expect(long.unit).toBe('day');
    expect(long.points).toHaveLength(10);
    expect(long.points[0]).toEqual(expect.objectContaining({ at: '2026-05-01', prints: 3 }));
    expect(long.points[9]).toEqual(expect.objectContaining({ at: '2026-05-10', face_searches: 1 }));
    const none = bucketTimeline([], () => utc);
    expect(none.points).toEqual([]);
    expect(none.busiestHours.every((h) => h.total === 0)).toBe(true);
  });
});

describe('insight visitors and totals', () => {
  it('a visitor hash keeps no address: same day and guest, same hash; another salt, another hash', () => {
    const one = visitorHash('salt-a', 7, '203.0.113.9', 'Mozilla/5.0');
    expect(one).toMatch(/^[0-9a-f]{16}$/);
    expect(one).not.toContain('203');
    expect(visitorHash('salt-a', 7, '203.0.113.9', 'Mozilla/5.0')).toBe(one);
    expect(visitorHash('salt-b', 7, '203.0.113.9', 'Mozilla/5.0')).not.toBe(one);
    expect(visitorHash('salt-a', 7, '203.0.113.10', 'Mozilla/5.0')).not.toBe(one);
  });

  it('the organisation’s totals add up its events', () => {
    const event = (id: number, n: number) => ({
      eventId: id,
      photos: n,
      views: n,
      uniqueVisitors: n,
      downloads: n,
      faceSearches: n,
      shares: n,
      leads: n,
      prints: n,
      revenue: n * 100,
      refunds: n * 10,
      ordersPaid: n,
      mailsDelivered: n,
      mailsBounced: n,
      smsDelivered: n,
      smsBounced: n,
    });
    const totals = totalsOf([event(1, 2), event(2, 3)]);
    expect(totals.views).toBe(5);
    expect(totals.revenue).toBe(500);
    expect(totals.refunds).toBe(50);
    expect(totals.sms_bounced).toBe(5);
    expect(Object.values(totals).every((v) => v > 0)).toBe(true);
  });
});

describe('insight revenue per booth', () => {
  const revenueOf = (money: ReturnType<typeof boothMoney>) =>
    new Map([...money].map(([robotId, m]) => [robotId, m.revenue]));

  it('splits each order over its photos’ booths in whole minor units that add up to the order', () => {
    const revenue = revenueOf(
      boothMoney([
        // 1000 over three photos: two of booth 1, one of booth 2.
        { orderId: 1, amount: 1000, robotId: 1, refunded: false },
        { orderId: 1, amount: 1000, robotId: 1, refunded: false },
        { orderId: 1, amount: 1000, robotId: 2, refunded: false },
        // 500 for one photo of booth 2.
        { orderId: 2, amount: 500, robotId: 2, refunded: false },
        // An order naming no booth photo (a console upload, or no photo): the row without a booth.
        { orderId: 3, amount: 250, robotId: null, refunded: false },
      ]),
    );
    expect(revenue.get(1)).toBe(667);
    expect(revenue.get(2)).toBe(333 + 500);
    expect(revenue.get(null)).toBe(250);
    expect([...revenue.values()].reduce((a, b) => a + b, 0)).toBe(1750);
  });

  it('an order of one cent over two booths gives the cent to one of them, never both', () => {
    const revenue = revenueOf(
      boothMoney([
        { orderId: 9, amount: 1, robotId: 5, refunded: false },
        { orderId: 9, amount: 1, robotId: 6, refunded: false },
      ]),
    );
    expect((revenue.get(5) ?? 0) + (revenue.get(6) ?? 0)).toBe(1);
  });

  it('a refunded order is the same shares again as the booths’ refunds, so revenue less refunds is what they keep', () => {
    const money = boothMoney([
      { orderId: 1, amount: 1000, robotId: 1, refunded: false },
      // Refunded: 301 over two photos of booth 1 and one of booth 2.
      { orderId: 2, amount: 301, robotId: 1, refunded: true },
      { orderId: 2, amount: 301, robotId: 1, refunded: true },
      { orderId: 2, amount: 301, robotId: 2, refunded: true },
      { orderId: 3, amount: 80, robotId: null, refunded: true },
    ]);
    expect(money.get(1)).toEqual({ revenue: 1000 + 201, refunds: 201 });
    expect(money.get(2)).toEqual({ revenue: 100, refunds: 100 });
    expect(money.get(null)).toEqual({ revenue: 80, refunds: 80 });
    const refunds = [...money.values()].reduce((total, m) => total + m.refunds, 0);
    expect(refunds).toBe(301 + 80);
  });
});
