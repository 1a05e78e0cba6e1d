import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { smsOutbox } from '../db/schema.ts';

export type SmsOutboxRow = typeof smsOutbox.$inferSelect;

export interface SmsMessage {
  kind: string;
  eventId: number | null;
  /** Digits only. */
  to: string;
  /** Sender name or number (the event's notification SMS sender), if any. */
  from?: string | null;
  body: string;
}

/**
 * A provider that hands an SMS to the phone network (e.g. Twilio's REST API:
 * `POST /2010-04-01/Accounts/{sid}/Messages.json` with To, From, Body). None is configured in the
 * embedded default: messages then stay in the outbox for operators to read.
 */
export interface SmsProvider {
  send(message: SmsOutboxRow): Promise<void>;
}

/** The SMS outbox table, mirroring the mail outbox. */
export class SmsOutboxRepository {
  constructor(private readonly db: Db) {}

  async add(message: SmsMessage, status: 'queued' | 'outbox'): Promise<SmsOutboxRow> {
    const [row] = await this.db
      .insert(smsOutbox)
      .values({
        kind: message.kind,
        eventId: message.eventId,
        toNumber: message.to,
        fromName: message.from ?? null,
        body: message.body,
        status,
      })
      .returning();
    if (!row) throw new Error('SMS outbox insert returned nothing');
    return row;
  }

  async findById(id: number): Promise<SmsOutboxRow | undefined> {
    const [row] = await this.db.select().from(smsOutbox).where(eq(smsOutbox.id, id));
    return row;
  }

  async list(limit: number): Promise<SmsOutboxRow[]> {
    return this.db.select().from(smsOutbox).orderBy(desc(smsOutbox.id)).limit(limit);
  }

  async markSent(id: number, now: Date): Promise<void> {
    await this.db
      .update(smsOutbox)
      .set({
        status: 'sent',
        sentAt: now,
        attempts: sql`${smsOutbox.attempts} + 1`,
        lastError: null,
      })
      .where(eq(smsOutbox.id, id));
  }

  async markAttemptFailed(id: number, error: string, final: boolean): Promise<void> {
    await this.db
      .update(smsOutbox)
      .set({
        status: final ? 'failed' : 'queued',
        attempts: sql`${smsOutbox.attempts} + 1`,
        lastError: error.slice(0, 500),
      })
      .where(eq(smsOutbox.id, id));
  }
}
