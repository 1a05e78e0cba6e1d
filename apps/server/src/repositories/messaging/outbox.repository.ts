import { and, desc, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  outbox,
  type MailContent,
  type OutboxChannel,
  type OutboxContent,
  type OutboxStatus,
  type SmsContent,
} from '../../db/schema.ts';

export type OutboxRow = typeof outbox.$inferSelect;
/** A row of one channel, its content typed. */
export type OutboxRowOf<C extends OutboxChannel> = Omit<OutboxRow, 'content' | 'channel'> & {
  channel: C;
  content: C extends 'mail' ? MailContent : SmsContent;
};

export interface NewOutboxMessage {
  channel: OutboxChannel;
  kind: string;
  eventId: number | null;
  recipient: string;
  sender: string | null;
  content: OutboxContent;
  /** At most one message per key (see `outbox.dedupe_key`). */
  dedupeKey?: string | null;
}

/** Statuses a delivery report may change (a reported, failed or held message keeps its status). */
const REPORTABLE: OutboxStatus[] = ['sending', 'sent'];

/** The one outbox of mail and SMS (table `outbox`). */
export class OutboxRepository {
  constructor(private readonly db: Db) {}

  async add(message: NewOutboxMessage, status: 'queued' | 'outbox'): Promise<OutboxRow> {
    const [row] = await this.db
      .insert(outbox)
      .values({ ...message, status })
      .returning();
    if (!row) throw new Error('Outbox insert returned nothing');
    return row;
  }

  /** Stores a message unless one with its dedupe key exists (then answers null). */
  async addOnce(
    message: NewOutboxMessage & { dedupeKey: string },
    status: 'queued' | 'outbox',
  ): Promise<OutboxRow | null> {
    const [row] = await this.db
      .insert(outbox)
      .values({ ...message, status })
      .onConflictDoNothing({ target: outbox.dedupeKey })
      .returning();
    return row ?? null;
  }

  async findById(id: number): Promise<OutboxRow | undefined> {
    const [row] = await this.db.select().from(outbox).where(eq(outbox.id, id));
    return row;
  }

  /** Newest first; one channel or both. */
  list<C extends OutboxChannel>(limit: number, channel: C): Promise<OutboxRowOf<C>[]>;
  list(limit: number): Promise<OutboxRow[]>;
  async list(limit: number, channel?: OutboxChannel): Promise<OutboxRow[]> {
    return this.db
      .select()
      .from(outbox)
      .where(channel ? eq(outbox.channel, channel) : undefined)
      .orderBy(desc(outbox.id))
      .limit(limit);
  }

  /**
   * Takes a message for one attempt: `queued` (or `sending` whose lease ran out: its worker died)
   * becomes `sending` with the attempt counted. Only one caller wins; everyone else gets nothing,
   * so a message is never handed to a provider twice at once, and never again once sent.
   */
  async claim(id: number, provider: string, now: Date, leaseMs: number): Promise<OutboxRow | null> {
    const [row] = await this.db
      .update(outbox)
      .set({
        status: 'sending',
        provider,
        attempts: sql`${outbox.attempts} + 1`,
        nextAttemptAt: new Date(now.getTime() + leaseMs),
      })
      .where(
        and(
          eq(outbox.id, id),
          or(
            eq(outbox.status, 'queued'),
            and(eq(outbox.status, 'sending'), lte(outbox.nextAttemptAt, now)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  /**
   * The provider took it. A delivery report that arrived first (it may: the provider calls back
   * while we are still storing its answer) keeps its status.
   */
  async markSent(id: number, providerMessageId: string | null, now: Date): Promise<void> {
    await this.db
      .update(outbox)
      .set({
        status: sql`case when ${outbox.status} = 'sending' then 'sent' else ${outbox.status} end`,
        lastError: sql`case when ${outbox.status} = 'sending' then null else ${outbox.lastError} end`,
        providerMessageId,
        sentAt: now,
        nextAttemptAt: null,
      })
      .where(eq(outbox.id, id));
  }

  /** A retryable failure: queued again, due at `nextAttemptAt`. */
  async markRetry(id: number, error: string, nextAttemptAt: Date): Promise<void> {
    await this.db
      .update(outbox)
      .set({ status: 'queued', lastError: error.slice(0, 500), nextAttemptAt })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
  }

  /** A permanent failure (or attempts used up): final. */
  async markFailed(id: number, error: string): Promise<void> {
    await this.db
      .update(outbox)
      .set({ status: 'failed', lastError: error.slice(0, 500), nextAttemptAt: null })
      .where(and(eq(outbox.id, id), eq(outbox.status, 'sending')));
  }

  /** Messages waiting for an attempt whose job may be lost: queued and due, or a lapsed lease. */
  async due(now: Date, limit: number): Promise<Pick<OutboxRow, 'id' | 'channel'>[]> {
    return this.db
      .select({ id: outbox.id, channel: outbox.channel })
      .from(outbox)
      .where(
        or(
          and(
            eq(outbox.status, 'queued'),
            or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, now)),
          ),
          and(eq(outbox.status, 'sending'), lte(outbox.nextAttemptAt, now)),
        ),
      )
      .orderBy(outbox.id)
      .limit(limit);
  }

  /**
   * A provider's final delivery report for a message it took: `sending`/`sent` → the reported
   * status, once (a message already reported keeps its first final status).
   */
  async applyDeliveryReport(
    db: Db,
    report: {
      provider: string;
      outboxId: number | null;
      providerMessageId: string;
      status: 'delivered' | 'undelivered' | 'failed';
      reason: string | null;
    },
  ): Promise<number> {
    const byMessage = and(
      eq(outbox.provider, report.provider),
      report.outboxId !== null
        ? and(
            eq(outbox.id, report.outboxId),
            or(
              isNull(outbox.providerMessageId),
              eq(outbox.providerMessageId, report.providerMessageId),
            ),
          )
        : eq(outbox.providerMessageId, report.providerMessageId),
    );
    const updated = await db
      .update(outbox)
      .set({
        status: report.status,
        providerMessageId: report.providerMessageId,
        ...(report.reason ? { lastError: report.reason } : {}),
      })
      .where(and(byMessage, inArray(outbox.status, REPORTABLE)))
      .returning({ id: outbox.id });
    return updated.length;
  }
}
