import { desc, eq, sql } from 'drizzle-orm';
import { createTransport, type Transporter } from 'nodemailer';
import type { Db } from '../db/database.ts';
import { mailOutbox } from '../db/schema.ts';

export type OutboxRow = typeof mailOutbox.$inferSelect;

export interface MailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender (e.g. an event's verified address, see `senderFor`); default: the platform sender. */
  from?: string;
}

/** The outbox table: every message, whether or not an SMTP server delivers it. */
export class MailOutboxRepository {
  constructor(private readonly db: Db) {}

  async add(message: MailMessage, status: 'queued' | 'outbox'): Promise<OutboxRow> {
    const [row] = await this.db
      .insert(mailOutbox)
      .values({
        kind: message.kind,
        toAddress: message.to,
        subject: message.subject,
        textBody: message.text,
        htmlBody: message.html ?? null,
        fromAddress: message.from ?? null,
        status,
      })
      .returning();
    if (!row) throw new Error('Outbox insert returned nothing');
    return row;
  }

  async findById(id: number): Promise<OutboxRow | undefined> {
    const [row] = await this.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    return row;
  }

  async list(limit: number): Promise<OutboxRow[]> {
    return this.db.select().from(mailOutbox).orderBy(desc(mailOutbox.id)).limit(limit);
  }

  async markSent(id: number, now: Date): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({
        status: 'sent',
        sentAt: now,
        attempts: sql`${mailOutbox.attempts} + 1`,
        lastError: null,
      })
      .where(eq(mailOutbox.id, id));
  }

  async markAttemptFailed(id: number, error: string, final: boolean): Promise<void> {
    await this.db
      .update(mailOutbox)
      .set({
        status: final ? 'failed' : 'queued',
        attempts: sql`${mailOutbox.attempts} + 1`,
        lastError: error.slice(0, 500),
      })
      .where(eq(mailOutbox.id, id));
  }
}

/** Hands a message to an SMTP server. */
export class SmtpTransport {
  private readonly transporter: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
  ) {
    this.transporter = createTransport(smtpUrl);
  }

  async send(message: OutboxRow): Promise<void> {
    await this.transporter.sendMail({
      from: message.fromAddress ?? this.from,
      to: message.toAddress,
      subject: message.subject,
      text: message.textBody,
      ...(message.htmlBody ? { html: message.htmlBody } : {}),
      // The outbox id makes a retried delivery recognisable to the receiving side.
      headers: { 'X-Flashbulb-Outbox-Id': String(message.id) },
    });
  }

  close(): void {
    this.transporter.close();
  }
}
