import { and, desc, eq, gt, gte, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  attendeeEvents,
  attendeePhotos,
  attendees,
  events,
  orders,
  outbox,
  payments,
  photos,
  printJobs,
  printRequests,
  unsubscribes,
  type OutboxChannel,
  type OutboxStatus,
} from '../../db/schema.ts';
import { isReleased } from '../photos/photo-visibility.ts';

/** Who a notification about an attendee goes to. */
export interface AttendeeContact {
  id: number;
  uid: string;
  urlPrefix: string | null;
  email: string | null;
}

const contactColumns = {
  id: attendees.id,
  uid: attendees.uid,
  urlPrefix: attendees.urlPrefix,
  email: attendees.email,
};

/**
 * What the notifications need to read (recipients of a product event) and the unsubscribe list
 * (table `unsubscribes`).
 */
/** A ready photo a notice is about: a clip carries its length and its poster's thumbnail key. */
export interface ReadyPhotoFacts {
  uid: string;
  eventId: number;
  clip: { durationMs: number | null; posterKey: string | null } | null;
}

export class NotificationRepository {
  constructor(private readonly db: Db) {}

  /** Lower-cased e-mail address, or the digits of a phone number. */
  static normalise(channel: OutboxChannel, recipient: string): string {
    return channel === 'mail' ? recipient.trim().toLowerCase() : recipient.replace(/\D/g, '');
  }

  async isUnsubscribed(eventId: number, channel: OutboxChannel, recipient: string) {
    const [row] = await this.db
      .select({ id: unsubscribes.id })
      .from(unsubscribes)
      .where(
        and(
          eq(unsubscribes.eventId, eventId),
          eq(unsubscribes.recipient, NotificationRepository.normalise(channel, recipient)),
        ),
      );
    return row !== undefined;
  }

  /** Records an unsubscribe (a second one changes nothing). */
  async unsubscribe(eventId: number, channel: OutboxChannel, recipient: string): Promise<void> {
    await this.db
      .insert(unsubscribes)
      .values({
        eventId,
        channel,
        recipient: NotificationRepository.normalise(channel, recipient),
      })
      .onConflictDoNothing();
  }

  async attendee(attendeeId: number): Promise<AttendeeContact | undefined> {
    const [row] = await this.db
      .select(contactColumns)
      .from(attendees)
      .where(eq(attendees.id, attendeeId));
    return row;
  }

  /**
   * The ready photo (of this event) and the attendees whose album at the event holds it: the one
   * it was uploaded for (its attendee id) and those it was attached to.
   */
  async attendeesOfReadyPhoto(
    photoId: number,
  ): Promise<{ photo: ReadyPhotoFacts | null; attendees: AttendeeContact[] }> {
    const [photo] = await this.db
      .select({
        uid: photos.uid,
        eventId: photos.eventId,
        mediaType: photos.mediaType,
        durationMs: photos.durationMs,
        derivatives: photos.derivatives,
        status: photos.status,
        moderation: photos.moderation,
        attendeeUid: photos.attendeeUid,
        organisationId: events.organisationId,
      })
      .from(photos)
      .innerJoin(events, eq(events.id, photos.eventId))
      .where(eq(photos.id, photoId));
    // A photo held by moderation is nobody's news yet: its approval sends `photo.ready`.
    if (!photo || photo.status !== 'ready' || !isReleased(photo))
      return { photo: null, attendees: [] };
    const attached = sql`exists (select 1 from ${attendeePhotos}
      where ${attendeePhotos.attendeeId} = ${attendees.id} and ${attendeePhotos.photoId} = ${photoId})`;
    const rows = await this.db
      .select(contactColumns)
      .from(attendees)
      .innerJoin(
        attendeeEvents,
        and(eq(attendeeEvents.attendeeId, attendees.id), eq(attendeeEvents.eventId, photo.eventId)),
      )
      .where(
        photo.attendeeUid === null
          ? attached
          : or(
              and(
                eq(attendees.organisationId, photo.organisationId),
                eq(attendees.uid, photo.attendeeUid),
              ),
              attached,
            ),
      )
      .orderBy(attendees.id);
    return {
      photo: {
        uid: photo.uid,
        eventId: photo.eventId,
        clip:
          photo.mediaType === 'video'
            ? { durationMs: photo.durationMs, posterKey: photo.derivatives.thumbnail ?? null }
            : null,
      },
      attendees: rows,
    };
  }

  /**
   * Attendees whose album expires in (from, to] at an event with `enableAttendeeReminder` on,
   * with the event (an album spanning two such events is reminded once per event).
   */
  async expiringAlbums(
    from: Date,
    to: Date,
    limit: number,
  ): Promise<(AttendeeContact & { eventId: number; expiresAt: Date })[]> {
    const rows = await this.db
      .select({
        ...contactColumns,
        eventId: attendeeEvents.eventId,
        expiresAt: attendees.expiresAt,
      })
      .from(attendees)
      .innerJoin(attendeeEvents, eq(attendeeEvents.attendeeId, attendees.id))
      .innerJoin(events, eq(events.id, attendeeEvents.eventId))
      .where(
        and(
          gt(attendees.expiresAt, from),
          lte(attendees.expiresAt, to),
          sql`${events.opts}->>'enableAttendeeReminder' in ('1', 'true')`,
        ),
      )
      .orderBy(attendees.id)
      .limit(limit);
    return rows.flatMap((r) => (r.expiresAt ? [{ ...r, expiresAt: r.expiresAt }] : []));
  }

  /** An event's messages, newest first (the console's Outbox page). */
  /** An event's messages (`eventId`), or with null the messages of no event. */
  async outboxOfEvent(
    eventId: number | null,
    filter: {
      channel?: OutboxChannel | undefined;
      status?: OutboxStatus | undefined;
      limit: number;
    },
  ) {
    return this.db
      .select()
      .from(outbox)
      .where(
        and(
          eventId === null ? isNull(outbox.eventId) : eq(outbox.eventId, eventId),
          filter.channel ? eq(outbox.channel, filter.channel) : undefined,
          filter.status ? eq(outbox.status, filter.status) : undefined,
        ),
      )
      .orderBy(desc(outbox.id))
      .limit(filter.limit);
  }

  /** The attendee who paid a payment. */
  async payer(paymentId: number): Promise<AttendeeContact | undefined> {
    const [row] = await this.db
      .select(contactColumns)
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .innerJoin(attendees, eq(attendees.id, orders.attendeeId))
      .where(eq(payments.id, paymentId));
    return row;
  }

  /**
   * The attendee whose print request a finished print job belongs to, with the request (none for
   * an operator's print or a job without a request).
   */
  async printRequester(
    printJobId: number,
  ): Promise<{ attendee: AttendeeContact; printRequestId: number } | undefined> {
    const [row] = await this.db
      .select({ ...contactColumns, printRequestId: printRequests.id })
      .from(printJobs)
      .innerJoin(printRequests, eq(printRequests.id, printJobs.printRequestId))
      .innerJoin(attendees, eq(attendees.id, printRequests.attendeeId))
      .where(eq(printJobs.id, printJobId));
    if (!row) return undefined;
    const { printRequestId, ...attendee } = row;
    return { attendee, printRequestId };
  }

  // ---- the daily report and the generated attendee list -----------------------

  /** Events that name an address for reports (`email_for_reports`). */
  async reportEvents(): Promise<{ id: number; emailForReports: string }[]> {
    return this.db
      .select({ id: events.id, emailForReports: events.email_for_reports })
      .from(events)
      .where(sql`btrim(${events.email_for_reports}) <> ''`)
      .orderBy(events.id);
  }

  /**
   * An event's figures for the report: what happened in [from, to) and the totals so far —
   * photos uploaded, attendees (albums), paid orders and their amount, printed sheets.
   */
  async reportFigures(eventId: number, from: Date, to: Date) {
    const f = from.toISOString();
    const t = to.toISOString();
    const result = await this.db.execute(sql`
      select
        (select count(*) from photos p where p.event_id = ${eventId}
           and p.created_at >= ${f}::timestamptz and p.created_at < ${t}::timestamptz) as photos_day,
        (select count(*) from photos p where p.event_id = ${eventId}
           and p.created_at < ${t}::timestamptz) as photos_total,
        (select count(*) from attendee_events ae where ae.event_id = ${eventId}
           and ae.created_at >= ${f}::timestamptz and ae.created_at < ${t}::timestamptz) as attendees_day,
        (select count(*) from attendee_events ae where ae.event_id = ${eventId}
           and ae.created_at < ${t}::timestamptz) as attendees_total,
        (select count(*) from payments y join orders o on o.id = y.order_id
           where o.event_id = ${eventId} and y.status = 'paid'
           and y.paid_at >= ${f}::timestamptz and y.paid_at < ${t}::timestamptz) as sales_day,
        (select count(*) from payments y join orders o on o.id = y.order_id
           where o.event_id = ${eventId} and y.status = 'paid'
           and y.paid_at < ${t}::timestamptz) as sales_total,
        (select g.currency from organisations g join events e on e.organisation_id = g.id
           where e.id = ${eventId}) as currency,
        (select coalesce(sum(j.copies), 0) from print_jobs j where j.event_id = ${eventId}
           and j.state = 'printed'
           and j.updated_at >= ${f}::timestamptz and j.updated_at < ${t}::timestamptz) as prints_day,
        (select coalesce(sum(j.copies), 0) from print_jobs j where j.event_id = ${eventId}
           and j.state = 'printed' and j.updated_at < ${t}::timestamptz) as prints_total
    `);
    const rows = Array.isArray(result)
      ? (result as Record<string, unknown>[])
      : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
    const row = rows[0] ?? {};
    const n = (key: string) => Number(row[key] ?? 0);
    // Amounts are in each payment's minor unit: summed per currency, never across.
    const byCurrency = await this.db
      .select({ currency: payments.currency, amount: sql<string>`sum(${payments.amount})` })
      .from(payments)
      .innerJoin(orders, eq(orders.id, payments.orderId))
      .where(
        and(
          eq(orders.eventId, eventId),
          eq(payments.status, 'paid'),
          gte(payments.paidAt, from),
          lt(payments.paidAt, to),
        ),
      )
      .groupBy(payments.currency)
      .orderBy(payments.currency);
    return {
      photosDay: n('photos_day'),
      photosTotal: n('photos_total'),
      attendeesDay: n('attendees_day'),
      attendeesTotal: n('attendees_total'),
      salesDay: n('sales_day'),
      /** The organisation's currency now (a day without sales is shown in it). */
      currency: typeof row.currency === 'string' ? row.currency : 'USD',
      salesByCurrencyDay: byCurrency.map((r) => ({
        currency: r.currency,
        amount: Number(r.amount),
      })),
      salesTotal: n('sales_total'),
      printsDay: n('prints_day'),
      printsTotal: n('prints_total'),
    };
  }

  /** The cards of one generated batch (ready), in the order they were made, at most `limit`. */
  async batchCards(
    batchId: number,
    limit: number,
  ): Promise<{ uid: string; privateId: string | null; urlPrefix: string | null }[]> {
    return this.db
      .select({
        uid: attendees.uid,
        privateId: attendees.privateId,
        urlPrefix: attendees.urlPrefix,
      })
      .from(attendees)
      .where(eq(attendees.batchId, batchId))
      .orderBy(attendees.id)
      .limit(limit);
  }

  /** How many cards a batch holds. */
  async batchSize(batchId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(attendees)
      .where(eq(attendees.batchId, batchId));
    return row?.n ?? 0;
  }
}
