import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, lt, ne, sql } from 'drizzle-orm';
import type { PaymentStatusName } from '@flashbulb/shared';
import type { Db } from '../../db/database.ts';
import { attendees, orders, payments } from '../../db/schema.ts';

export type OrderRow = typeof orders.$inferSelect;
export type NewOrderRow = typeof orders.$inferInsert;
export type PaymentRow = typeof payments.$inferSelect;
export type NewPaymentRow = typeof payments.$inferInsert;

/** Orders and payments. Data access only; the rules live in services/payments/payment.service.ts. */
export class PaymentRepository {
  constructor(private readonly db: Db) {}

  /** Inserts unless the event already has an order with this client request id; answers it either way. */
  async insertOrderOrGet(row: NewOrderRow): Promise<{ order: OrderRow; created: boolean }> {
    const [inserted] = await this.db.insert(orders).values(row).onConflictDoNothing().returning();
    if (inserted) return { order: inserted, created: true };
    const [existing] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.eventId, row.eventId), eq(orders.clientRequestId, row.clientRequestId)));
    if (!existing) throw new Error('order conflict without a matching row');
    return { order: existing, created: false };
  }

  /**
   * Deletes, in one statement, at most `limit` personal albums an album purchase made and nobody
   * paid for: attendees of no generated batch, neither prepaid nor unlocked, created before
   * `before`, whose every order is an album purchase (`items.attach`) still open and made before
   * `before`, with no payment paid, refunded or pending and none started since `before`, and
   * nothing else hanging on them (photos, favourites, selfies, profile photos, unlocks, prints).
   * Their orders and payments go with them (foreign keys cascade). Answers the ids deleted.
   */
  async deleteUnpaidBuyerAlbums(before: Date, limit: number): Promise<number[]> {
    const at = before.toISOString();
    const result = await this.db.execute(sql`
      delete from attendees where id in (
        select a.id from attendees a
        where a.batch_id is null and a.is_prepaid = 0 and a.unlocked = 0
          and a.created_at < ${at}::timestamptz
          and exists (select 1 from orders o where o.attendee_id = a.id and o.items ? 'attach')
          and not exists (
            select 1 from orders o where o.attendee_id = a.id
              and (o.status <> 'open' or not (o.items ? 'attach') or o.created_at >= ${at}::timestamptz))
          and not exists (
            select 1 from payments y join orders o on o.id = y.order_id where o.attendee_id = a.id
              and (y.status in ('paid', 'refunded', 'pending') or y.created_at >= ${at}::timestamptz))
          and not exists (select 1 from attendee_photos x where x.attendee_id = a.id)
          and not exists (select 1 from attendee_favourites x where x.attendee_id = a.id)
          and not exists (select 1 from face_selfies x where x.attendee_id = a.id)
          and not exists (select 1 from attendee_profile_photos x where x.attendee_id = a.id)
          and not exists (select 1 from attendee_unlocks x where x.attendee_id = a.id)
          and not exists (select 1 from print_requests x where x.attendee_id = a.id)
        order by a.id
        limit ${limit}
      )
      returning id
    `);
    const rows = Array.isArray(result)
      ? (result as Record<string, unknown>[])
      : ((result as { rows?: Record<string, unknown>[] }).rows ?? []);
    return rows.map((r) => Number(r.id));
  }

  /** The event's order started with this client request id (a retried start), if any. */
  async orderOfRequest(eventId: number, clientRequestId: string): Promise<OrderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(orders)
      .where(and(eq(orders.eventId, eventId), eq(orders.clientRequestId, clientRequestId)));
    return row;
  }

  /** The attendee's paid orders at the event that bought prints (for what a kiosk may print). */
  async printPurchases(attendeeId: number, eventId: number): Promise<OrderRow[]> {
    return (await this.paidOrders(attendeeId, eventId)).filter(
      (row) => row.items.prints.length > 0,
    );
  }

  /** The attendee's paid orders at the event, oldest first. */
  async paidOrders(attendeeId: number, eventId: number): Promise<OrderRow[]> {
    return this.db
      .select()
      .from(orders)
      .where(
        and(
          eq(orders.attendeeId, attendeeId),
          eq(orders.eventId, eventId),
          eq(orders.status, 'paid'),
        ),
      )
      .orderBy(asc(orders.id));
  }

  async orderById(id: number): Promise<OrderRow | undefined> {
    const [row] = await this.db.select().from(orders).where(eq(orders.id, id));
    return row;
  }

  /** Inserts unless the order already has a payment with this client request id. */
  async insertPaymentOrGet(row: NewPaymentRow): Promise<{ payment: PaymentRow; created: boolean }> {
    const [inserted] = await this.db
      .insert(payments)
      .values(row)
      .onConflictDoNothing({ target: [payments.orderId, payments.clientRequestId] })
      .returning();
    if (inserted) return { payment: inserted, created: true };
    const [existing] = await this.db
      .select()
      .from(payments)
      .where(
        and(eq(payments.orderId, row.orderId), eq(payments.clientRequestId, row.clientRequestId)),
      );
    if (!existing) throw new Error('payment conflict without a matching row');
    return { payment: existing, created: false };
  }

  /** The payment a client request id started on an order (a retried start). */
  async paymentOfRequest(
    orderId: number,
    clientRequestId: string,
  ): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.orderId, orderId), eq(payments.clientRequestId, clientRequestId)));
    return row;
  }

  async paymentByPublicId(publicId: string): Promise<PaymentRow | undefined> {
    const [row] = await this.db.select().from(payments).where(eq(payments.publicId, publicId));
    return row;
  }

  async paymentByProviderReference(
    provider: string,
    reference: string,
  ): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .select()
      .from(payments)
      .where(and(eq(payments.provider, provider), eq(payments.providerReference, reference)));
    return row;
  }

  async setProviderReference(id: number, reference: string): Promise<void> {
    await this.db.update(payments).set({ providerReference: reference }).where(eq(payments.id, id));
  }

  /**
   * Moves a payment from `from` to `to` only if it is still in `from` (compare-and-set): of two
   * reports racing, one moves it and the other finds nothing to move. Answers the moved row.
   */
  async movePayment(
    id: number,
    from: PaymentStatusName,
    to: PaymentStatusName,
    changes: { now: Date; failureReason?: string | null },
  ): Promise<PaymentRow | undefined> {
    const [row] = await this.db
      .update(payments)
      .set({
        status: to,
        updatedAt: changes.now,
        ...(to === 'paid' ? { paidAt: changes.now } : {}),
        ...(changes.failureReason !== undefined ? { failureReason: changes.failureReason } : {}),
      })
      .where(and(eq(payments.id, id), eq(payments.status, from)))
      .returning();
    return row;
  }

  async setOrderStatus(id: number, status: OrderRow['status'], now: Date): Promise<void> {
    await this.db
      .update(orders)
      .set({ status, ...(status === 'paid' ? { paidAt: now } : {}) })
      .where(eq(orders.id, id));
  }

  /** An event's orders, newest first, with the attendee's uid and every payment of each. */
  async ordersOfEvent(
    eventId: number,
  ): Promise<{ order: OrderRow; attendeeUid: string; payments: PaymentRow[] }[]> {
    const rows = await this.db
      .select({ order: orders, attendeeUid: attendees.uid })
      .from(orders)
      .innerJoin(attendees, eq(attendees.id, orders.attendeeId))
      .where(eq(orders.eventId, eventId))
      .orderBy(desc(orders.id));
    const ids = rows.map((r) => r.order.id);
    const all = ids.length
      ? await this.db
          .select()
          .from(payments)
          .where(inArray(payments.orderId, ids))
          .orderBy(payments.id)
      : [];
    return rows.map((r) => ({
      order: r.order,
      attendeeUid: r.attendeeUid,
      payments: all.filter((p) => p.orderId === r.order.id),
    }));
  }

  /** The attendee's other paid orders at the event, each with its paid payment. */
  async otherPaidOrders(
    attendeeId: number,
    eventId: number,
    exceptOrderId: number,
  ): Promise<{ order: OrderRow; payment: PaymentRow }[]> {
    const rows = await this.db
      .select({ order: orders, payment: payments })
      .from(orders)
      .innerJoin(payments, and(eq(payments.orderId, orders.id), eq(payments.status, 'paid')))
      .where(
        and(
          eq(orders.attendeeId, attendeeId),
          eq(orders.eventId, eventId),
          eq(orders.status, 'paid'),
          ne(orders.id, exceptOrderId),
        ),
      );
    return rows;
  }

  /** What the payment bought was handed over (see `payments.fulfilled_at`). */
  async markFulfilled(id: number, now: Date): Promise<void> {
    await this.db.update(payments).set({ fulfilledAt: now }).where(eq(payments.id, id));
  }

  /** Paid payments whose effects never completed (a crash after the confirmation), paid before `before`. */
  async unfulfilledPaid(before: Date, limit: number): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(
        and(eq(payments.status, 'paid'), isNull(payments.fulfilledAt), lt(payments.paidAt, before)),
      )
      .orderBy(asc(payments.id))
      .limit(limit);
  }

  /** Payments still pending that were created before `before`, oldest first. */
  async stalePending(before: Date, limit: number): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(and(eq(payments.status, 'pending'), lt(payments.createdAt, before)))
      .orderBy(asc(payments.createdAt))
      .limit(limit);
  }

  /**
   * Payments of `provider` still pending, created before `before`, with the provider's reference,
   * after id `afterId` in id order (the reconciliation job's pages).
   */
  async pendingOfProvider(
    provider: string,
    before: Date,
    afterId: number,
    limit: number,
  ): Promise<PaymentRow[]> {
    return this.db
      .select()
      .from(payments)
      .where(
        and(
          eq(payments.provider, provider),
          eq(payments.status, 'pending'),
          lt(payments.createdAt, before),
          gt(payments.id, afterId),
          isNotNull(payments.providerReference),
        ),
      )
      .orderBy(asc(payments.id))
      .limit(limit);
  }
}
