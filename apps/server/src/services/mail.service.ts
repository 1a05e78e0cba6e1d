import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import type {
  MailMessage,
  MailOutboxRepository,
  SmtpTransport,
} from '../repositories/mail.repository.ts';

const MAX_DELIVERY_ATTEMPTS = 6;

/**
 * Sends mail through the outbox: the message is stored first (nothing is lost), then a job hands
 * it to SMTP when one is configured; without SMTP it stays in the outbox for operators to read.
 */
export class MailService {
  constructor(
    private readonly outbox: MailOutboxRepository,
    private readonly jobs: JobQueue,
    private readonly smtp: SmtpTransport | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const row = await this.outbox.add(message, this.smtp ? 'queued' : 'outbox');
    // Never log bodies: they carry codes and temporary passwords.
    this.logger.info({ outboxId: row.id, kind: message.kind }, 'mail stored');
    if (this.smtp)
      await this.jobs.send(
        'mail.deliver',
        { outboxId: row.id },
        { singletonKey: `mail-${row.id}` },
      );
  }

  /** Job handler for `mail.deliver`; a message already sent is not sent again. */
  async deliver(outboxId: number): Promise<void> {
    const row = await this.outbox.findById(outboxId);
    if (!row || row.status === 'sent' || !this.smtp) return;
    try {
      await this.smtp.send(row);
      await this.outbox.markSent(row.id, this.clock.now());
    } catch (error) {
      const final = row.attempts + 1 >= MAX_DELIVERY_ATTEMPTS;
      await this.outbox.markAttemptFailed(
        row.id,
        error instanceof Error ? error.message : String(error),
        final,
      );
      throw error;
    }
  }
}
