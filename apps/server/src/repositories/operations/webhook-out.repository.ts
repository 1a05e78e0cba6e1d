import { and, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema.ts';

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type NewWebhookEndpoint = Omit<
  typeof webhookEndpoints.$inferInsert,
  'id' | 'enabled' | 'failureCount' | 'disabledReason' | 'createdAt'
>;

/** Outgoing webhooks: the operators' endpoints and the delivery log (tables `webhook_*`). */
export class WebhookOutRepository {
  constructor(private readonly db: Db) {}

  async addEndpoint(row: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
    const [inserted] = await this.db.insert(webhookEndpoints).values(row).returning();
    if (!inserted) throw new Error('webhook endpoint insert returned nothing');
    return inserted;
  }

  async endpoint(id: number): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    return row;
  }

  endpointsOf(organisationId: number): Promise<WebhookEndpointRow[]> {
    return this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.organisationId, organisationId))
      .orderBy(webhookEndpoints.id);
  }

  /** Enabled endpoints of the organisation that take this type for this event (or every event). */
  async subscribers(
    organisationId: number,
    eventId: number | null,
    eventType: string,
  ): Promise<WebhookEndpointRow[]> {
    return this.db
      .select()
      .from(webhookEndpoints)
      .where(
        and(
          eq(webhookEndpoints.organisationId, organisationId),
          eq(webhookEndpoints.enabled, true),
          eventId === null
            ? isNull(webhookEndpoints.eventId)
            : or(isNull(webhookEndpoints.eventId), eq(webhookEndpoints.eventId, eventId)),
          sql`${webhookEndpoints.eventTypes} @> ${JSON.stringify([eventType])}::jsonb`,
        ),
      );
  }

  async setEnabled(id: number, enabled: boolean, reason: string | null): Promise<void> {
    await this.db
      .update(webhookEndpoints)
      .set({ enabled, disabledReason: reason, ...(enabled ? { failureCount: 0 } : {}) })
      .where(eq(webhookEndpoints.id, id));
  }

  async deleteEndpoint(id: number): Promise<void> {
    await this.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  }

  /** One more failed attempt in a row; answers the new count. */
  async countFailure(id: number): Promise<number> {
    const [row] = await this.db
      .update(webhookEndpoints)
      .set({ failureCount: sql`${webhookEndpoints.failureCount} + 1` })
      .where(eq(webhookEndpoints.id, id))
      .returning({ failureCount: webhookEndpoints.failureCount });
    return row?.failureCount ?? 0;
  }

  /** Disables unless already disabled; answers whether this call did it (one notice). */
  async disableAfterFailures(id: number, reason: string): Promise<boolean> {
    const rows = await this.db
      .update(webhookEndpoints)
      .set({ enabled: false, disabledReason: reason })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.enabled, true)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }

  async resetFailures(id: number): Promise<void> {
    await this.db
      .update(webhookEndpoints)
      .set({ failureCount: 0 })
      .where(eq(webhookEndpoints.id, id));
  }

  /** Stores a delivery unless its dedupe key exists (then answers null). */
  async addDelivery(row: {
    endpointId: number;
    eventKey: string;
    eventType: string;
    body: string;
    dedupeKey: string | null;
  }): Promise<WebhookDeliveryRow | null> {
    const [inserted] = await this.db
      .insert(webhookDeliveries)
      .values({ ...row, status: 'queued' })
      .onConflictDoNothing({ target: webhookDeliveries.dedupeKey })
      .returning();
    return inserted ?? null;
  }

  async delivery(id: number): Promise<WebhookDeliveryRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, id));
    return row;
  }

  deliveriesOf(endpointId: number, limit: number): Promise<WebhookDeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(limit);
  }

  /** As the outbox's claim: one attempt at a time, none after `sent` or `failed`. */
  async claim(id: number, now: Date, leaseMs: number): Promise<WebhookDeliveryRow | null> {
    const [row] = await this.db
      .update(webhookDeliveries)
      .set({
        status: 'sending',
        attempts: sql`${webhookDeliveries.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + leaseMs),
      })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          or(
            eq(webhookDeliveries.status, 'queued'),
            and(eq(webhookDeliveries.status, 'sending'), lte(webhookDeliveries.nextAttemptAt, now)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  async markSent(id: number, statusCode: number, now: Date): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        status: 'sent',
        lastStatusCode: statusCode,
        lastError: null,
        sentAt: now,
        nextAttemptAt: null,
      })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'sending')));
  }

  async markRetry(
    id: number,
    statusCode: number | null,
    error: string,
    nextAttemptAt: Date,
  ): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        status: 'queued',
        lastStatusCode: statusCode,
        lastError: error.slice(0, 500),
        nextAttemptAt,
      })
      .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'sending')));
  }

  async markFailed(id: number, statusCode: number | null, error: string): Promise<void> {
    await this.db
      .update(webhookDeliveries)
      .set({
        status: 'failed',
        lastStatusCode: statusCode,
        lastError: error.slice(0, 500),
        nextAttemptAt: null,
      })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          or(eq(webhookDeliveries.status, 'sending'), eq(webhookDeliveries.status, 'queued')),
        ),
      );
  }

  /** Deliveries whose job may be lost: queued and due, or a lapsed lease. */
  due(now: Date, limit: number): Promise<{ id: number }[]> {
    return this.db
      .select({ id: webhookDeliveries.id })
      .from(webhookDeliveries)
      .where(
        or(
          and(
            eq(webhookDeliveries.status, 'queued'),
            or(isNull(webhookDeliveries.nextAttemptAt), lte(webhookDeliveries.nextAttemptAt, now)),
          ),
          and(eq(webhookDeliveries.status, 'sending'), lte(webhookDeliveries.nextAttemptAt, now)),
        ),
      )
      .orderBy(webhookDeliveries.id)
      .limit(limit);
  }
}
