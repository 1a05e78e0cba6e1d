import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Clock } from '../lib/clock.ts';
import type { JobQueue } from '../jobs/job-queue.ts';
import { PermanentSmsError } from '../repositories/twilio-sms.provider.ts';
import type {
  SmsMessage,
  SmsOutboxRepository,
  SmsProvider,
} from '../repositories/sms.repository.ts';

const MAX_DELIVERY_ATTEMPTS = 6;

/**
 * Sends SMS through the outbox, like MailService: the message is stored first; a job hands it to
 * the provider when one is configured; without one it stays in the outbox (status `outbox`).
 */
export class SmsService {
  constructor(
    private readonly outbox: SmsOutboxRepository,
    private readonly jobs: JobQueue,
    private readonly provider: SmsProvider | null,
    private readonly clock: Clock,
    private readonly logger: Logger,
  ) {}

  async send(message: SmsMessage): Promise<void> {
    const row = await this.outbox.add(message, this.provider ? 'queued' : 'outbox');
    // Never log bodies or numbers: they carry personal data and album links.
    this.logger.info({ smsOutboxId: row.id, kind: message.kind }, 'sms stored');
    if (this.provider)
      await this.jobs.send('sms.deliver', { outboxId: row.id }, { singletonKey: `sms-${row.id}` });
  }

  /** Job handler for `sms.deliver`; a message already sent is not sent again. */
  async deliver(outboxId: number): Promise<void> {
    const row = await this.outbox.findById(outboxId);
    if (!row || row.status === 'sent' || !this.provider) return;
    try {
      await this.provider.send(row);
      await this.outbox.markSent(row.id, this.clock.now());
    } catch (error) {
      const permanent = error instanceof PermanentSmsError;
      await this.outbox.markAttemptFailed(
        row.id,
        error instanceof Error ? error.message : String(error),
        permanent || row.attempts + 1 >= MAX_DELIVERY_ATTEMPTS,
      );
      // A refusal that cannot change is final: no retry (it stays `failed` for operators).
      if (permanent) {
        this.logger.warn({ smsOutboxId: row.id, err: error.message }, 'sms refused by provider');
        return;
      }
      throw error;
    }
  }
}
