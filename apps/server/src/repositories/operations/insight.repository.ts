import { randomBytes } from 'node:crypto';
import type { SqlRunner } from '../../db/database.ts';

export type InsightHitKind = 'view' | 'download' | 'face_search';

/** What one slot of the timeline query holds: an event's count of one kind in 15 minutes. */
export interface InsightSlotRow {
  eventId: number;
  kind: InsightSeries;
  /** Start of the 15-minute slot, in ms since the epoch (UTC). */
  slotStartMs: number;
  count: number;
}

/** One photo of a paid order and the booth (robot) that sent it; null: no booth (or no photo). */
export interface OrderPhotoRow {
  orderId: number;
  /** The whole order's amount, in the currency's minor unit (repeated on each of its photos). */
  amount: number;
  robotId: number | null;
  /** Whether the order was refunded (its amount is also the booths' refunds). */
  refunded: boolean;
}

/** The series of the timeline, each from the table that records it. */
export type InsightSeries =
  'photos' | 'views' | 'downloads' | 'shares' | 'leads' | 'prints' | 'face_searches';

/** Totals per event, from every table that records a fact about the event's guests. */
export interface InsightEventTotals {
  eventId: number;
  photos: number;
  views: number;
  uniqueVisitors: number;
  downloads: number;
  faceSearches: number;
  shares: number;
  leads: number;
  prints: number;
  revenue: number;
  refunds: number;
  ordersPaid: number;
  mailsDelivered: number;
  mailsBounced: number;
  smsDelivered: number;
  smsBounced: number;
}

/** Fifteen minutes: every real time zone's offset is a multiple of it, so slots fit local hours. */
export const INSIGHT_SLOT_SECONDS = 900;

const DELIVERED = `('sent', 'delivered')`;
const BOUNCED = `('failed', 'undelivered')`;

/**
 * The insight dashboard's reads and the one write of the guest path (docs/domains/operations.md
 * "Insight"). Hits are appended (one insert, no update, no lock); everything else is counted by
 * SQL from the tables that already record it — photos, shares, leads, the outbox, print jobs,
 * orders — when an operator opens the dashboard.
 */
export class InsightRepository {
  constructor(private readonly db: SqlRunner) {}

  /** Appends one hit; a download naming a photo of the event is put down to the photo's booth. */
  async recordHit(hit: {
    eventId: number;
    kind: InsightHitKind;
    photoUid?: string | null;
    visitor?: string | null;
  }): Promise<void> {
    await this.db.executeSql(
      `insert into insight_hits (event_id, kind, robot_id, visitor)
       select $1::int, $2::text,
              (select robot_id from photos where event_id = $1::int and uid = $3::text limit 1), $4::text`,
      [hit.eventId, hit.kind, hit.photoUid ?? null, hit.visitor ?? null],
    );
  }

  /**
   * The salt of `day` (UTC, `YYYY-MM-DD`): made by the first process that asks, the same for every
   * process; salts of earlier days are deleted, so yesterday's hashes can no longer be redone.
   */
  async saltOf(day: string): Promise<string> {
    await this.db.executeSql(`delete from insight_salts where day < $1`, [day]);
    await this.db.executeSql(
      `insert into insight_salts (day, salt) values ($1, $2) on conflict (day) do nothing`,
      [day, randomBytes(32).toString('hex')],
    );
    const { rows } = await this.db.executeSql(`select salt from insight_salts where day = $1`, [
      day,
    ]);
    return String(rows[0]?.salt);
  }

  /** Each event's totals (events with nothing recorded answer zeros). */
  async totals(eventIds: number[]): Promise<InsightEventTotals[]> {
    if (eventIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `select e.id as event_id,
         (select count(*)::int from photos p
           where p.event_id = e.id and p.original_photo_id is null) as photos,
         (select count(*)::int from insight_hits h where h.event_id = e.id and h.kind = 'view') as views,
         (select count(distinct (to_char(h.created_at at time zone 'UTC', 'YYYY-MM-DD') || h.visitor))::int
            from insight_hits h
           where h.event_id = e.id and h.kind = 'view' and h.visitor is not null) as unique_visitors,
         (select count(*)::int from insight_hits h where h.event_id = e.id and h.kind = 'download') as downloads,
         (select count(*)::int from insight_hits h where h.event_id = e.id and h.kind = 'face_search') as face_searches,
         (select count(*)::int from photo_shares s where s.event_id = e.id) as shares,
         (select count(*)::int from leads l where l.event_id = e.id) as leads,
         (select coalesce(sum(j.copies), 0)::int from print_jobs j
           where j.event_id = e.id and j.state = 'printed') as prints,
         (select coalesce(sum(o.amount), 0)::bigint from orders o
           where o.event_id = e.id and o.paid_at is not null) as revenue,
         (select coalesce(sum(o.amount), 0)::bigint from orders o
           where o.event_id = e.id and o.status = 'refunded') as refunds,
         (select count(*)::int from orders o where o.event_id = e.id and o.paid_at is not null) as orders_paid,
         (select count(*)::int from outbox m
           where m.event_id = e.id and m.channel = 'mail' and m.status in ${DELIVERED}) as mails_delivered,
         (select count(*)::int from outbox m
           where m.event_id = e.id and m.channel = 'mail' and m.status in ${BOUNCED}) as mails_bounced,
         (select count(*)::int from outbox m
           where m.event_id = e.id and m.channel = 'sms' and m.status in ${DELIVERED}) as sms_delivered,
         (select count(*)::int from outbox m
           where m.event_id = e.id and m.channel = 'sms' and m.status in ${BOUNCED}) as sms_bounced
       from events e where e.id = any($1::int[]) order by e.id`,
      [eventIds],
    );
    return rows.map((row) => ({
      eventId: Number(row.event_id),
      photos: Number(row.photos),
      views: Number(row.views),
      uniqueVisitors: Number(row.unique_visitors),
      downloads: Number(row.downloads),
      faceSearches: Number(row.face_searches),
      shares: Number(row.shares),
      leads: Number(row.leads),
      prints: Number(row.prints),
      revenue: Number(row.revenue),
      refunds: Number(row.refunds),
      ordersPaid: Number(row.orders_paid),
      mailsDelivered: Number(row.mails_delivered),
      mailsBounced: Number(row.mails_bounced),
      smsDelivered: Number(row.sms_delivered),
      smsBounced: Number(row.sms_bounced),
    }));
  }

  /** Shares per channel (network) over the events. */
  async sharesByChannel(eventIds: number[]): Promise<{ channel: string; count: number }[]> {
    if (eventIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `select network, count(*)::int as count from photo_shares
        where event_id = any($1::int[]) group by network order by count desc, network`,
      [eventIds],
    );
    return rows.map((row) => ({ channel: String(row.network), count: Number(row.count) }));
  }

  /**
   * Per booth (robot): photos in, downloads of its photos, shares of its photos and sheets printed
   * (copies counted; a sheet goes to the booth of its first photo, so the booths add up to the
   * total). Photos no robot sent (the console's uploads, guests' uploads) are the row with a null
   * robot. Money per booth: `orderPhotos`.
   */
  async booths(eventIds: number[]): Promise<
    {
      robotId: number | null;
      name: string | null;
      photos: number;
      downloads: number;
      shares: number;
      prints: number;
    }[]
  > {
    if (eventIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `with facts as (
         select p.robot_id, 1 as photos, 0 as downloads, 0 as shares, 0 as prints from photos p
          where p.event_id = any($1::int[]) and p.original_photo_id is null
         union all
         select h.robot_id, 0, 1, 0, 0 from insight_hits h
          where h.event_id = any($1::int[]) and h.kind = 'download' and h.robot_id is not null
         union all
         select p.robot_id, 0, 0, 1, 0 from photo_shares s join photos p on p.id = s.photo_id
          where s.event_id = any($1::int[])
         union all
         select p.robot_id, 0, 0, 0, j.copies from print_jobs j
           left join photos p on p.id = (j.photo_ids ->> 0)::int
          where j.event_id = any($1::int[]) and j.state = 'printed'
       )
       select f.robot_id, r.name, sum(f.photos)::int as photos, sum(f.downloads)::int as downloads,
              sum(f.shares)::int as shares, sum(f.prints)::int as prints
         from facts f left join robots r on r.id = f.robot_id
        group by f.robot_id, r.name
        order by photos desc, f.robot_id nulls last`,
      [eventIds],
    );
    return rows.map((row) => ({
      robotId: row.robot_id === null ? null : Number(row.robot_id),
      name: typeof row.name === 'string' ? row.name : null,
      photos: Number(row.photos),
      downloads: Number(row.downloads),
      shares: Number(row.shares),
      prints: Number(row.prints),
    }));
  }

  /**
   * The photos of every paid order (refunded ones included, as in the revenue), one row per photo
   * with its booth: the photos it unlocks (`all`: the attendee's album of the event), prints and
   * puts into the buyer's album, each once. An order naming no photo of the event is one row
   * without a booth.
   */
  async orderPhotos(eventIds: number[]): Promise<OrderPhotoRow[]> {
    if (eventIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `with paid as (
         select o.id, o.event_id, o.attendee_id, o.amount, o.items, o.status from orders o
          where o.event_id = any($1::int[]) and o.paid_at is not null
       ), named as (
         select paid.id as order_id, p.id as photo_id, p.robot_id
           from paid
           cross join lateral (
             select jsonb_array_elements_text(
                      case when jsonb_typeof(paid.items -> 'digitals') = 'array'
                           then paid.items -> 'digitals' else '[]'::jsonb end) as uid
             union
             select jsonb_array_elements_text(coalesce(paid.items -> 'prints', '[]'::jsonb))
             union
             select jsonb_array_elements_text(coalesce(paid.items -> 'attach', '[]'::jsonb))
           ) u
           join photos p on p.event_id = paid.event_id and p.uid = u.uid
         union
         select paid.id, p.id, p.robot_id
           from paid
           join attendee_photos ap on ap.attendee_id = paid.attendee_id
           join photos p on p.id = ap.photo_id and p.event_id = paid.event_id
          where jsonb_typeof(paid.items -> 'digitals') = 'string'
       )
       select paid.id as order_id, paid.amount, paid.status = 'refunded' as refunded, n.robot_id
         from paid left join named n on n.order_id = paid.id
        order by paid.id`,
      [eventIds],
    );
    return rows.map((row) => ({
      orderId: Number(row.order_id),
      amount: Number(row.amount),
      robotId: row.robot_id === null || row.robot_id === undefined ? null : Number(row.robot_id),
      refunded: row.refunded === true,
    }));
  }

  /**
   * Counts per event, series and 15-minute slot (UTC). The service puts the slots into the
   * event's local hours; 15 minutes keeps half- and quarter-hour zones right.
   */
  async slots(eventIds: number[]): Promise<InsightSlotRow[]> {
    if (eventIds.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `with facts as (
         select event_id, 'photos' as kind, created_at as at, 1 as n from photos
          where event_id = any($1::int[]) and original_photo_id is null
         union all
         select event_id, case kind when 'view' then 'views' when 'download' then 'downloads'
                               else 'face_searches' end, created_at, 1 from insight_hits
          where event_id = any($1::int[])
         union all
         select event_id, 'shares', created_at, 1 from photo_shares where event_id = any($1::int[])
         union all
         select event_id, 'leads', created_at, 1 from leads where event_id = any($1::int[])
         union all
         select event_id, 'prints', updated_at, copies from print_jobs
          where event_id = any($1::int[]) and state = 'printed'
       )
       select event_id, kind, floor(extract(epoch from at) / ${INSIGHT_SLOT_SECONDS})::bigint as slot,
              sum(n)::int as count
         from facts group by event_id, kind, slot order by slot`,
      [eventIds],
    );
    return rows.map((row) => ({
      eventId: Number(row.event_id),
      kind: String(row.kind) as InsightSeries,
      slotStartMs: Number(row.slot) * INSIGHT_SLOT_SECONDS * 1000,
      count: Number(row.count),
    }));
  }
}
