import { and, desc, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
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
} from '../db/schema.ts';

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

  /** The ready photo (of this event) and the attendees whose album at the event holds it. */
  async attendeesOfReadyPhoto(
    photoId: number,
  ): Promise<{ photo: { uid: string; eventId: number } | null; attendees: AttendeeContact[] }> {
    const [photo] = await this.db
      .select({ uid: photos.uid, eventId: photos.eventId, status: photos.status })
      .from(photos)
      .where(eq(photos.id, photoId));
    if (!photo || photo.status !== 'ready') return { photo: null, attendees: [] };
    const rows = await this.db
      .select(contactColumns)
      .from(attendeePhotos)
      .innerJoin(attendees, eq(attendees.id, attendeePhotos.attendeeId))
      .innerJoin(
        attendeeEvents,
        and(eq(attendeeEvents.attendeeId, attendees.id), eq(attendeeEvents.eventId, photo.eventId)),
      )
      .where(eq(attendeePhotos.photoId, photoId))
      .orderBy(attendees.id);
    return { photo: { uid: photo.uid, eventId: photo.eventId }, attendees: rows };
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
  async outboxOfEvent(
    eventId: number,
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
          eq(outbox.eventId, eventId),
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
}
