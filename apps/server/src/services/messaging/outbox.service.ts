import type { FastifyBaseLogger as Logger } from 'fastify';
import type { OutboxChannel } from '../../db/schema.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { Clock } from '../../lib/clock.ts';
import type { MailContent, SmsContent } from '../../db/schema.ts';
import type { MailProvider } from '../../repositories/messaging/mail/mail-provider.ts';
import type {
  NewOutboxMessage,
  OutboxRepository,
  OutboxRow,
} from '../../repositories/messaging/outbox.repository.ts';
import { ProviderError, redactSecrets } from '../../repositories/provider-error.ts';
import type { SmsProvider } from '../../repositories/messaging/sms/sms-provider.ts';

/** Waits before the 2nd, 3rd … attempt; after the last one a retryable failure is final. */
export const DEFAULT_RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 7200] as const;
/** How long one attempt may take before another worker may take the message over. */
const ATTEMPT_LEASE_MS = 5 * 60_000;
/** At most this many waiting messages are re-enqueued when a worker starts. */
const RESUME_BATCH = 1000;

export interface OutboxDeps {
  rows: OutboxRepository;
  jobs: JobSender;
  /** The configured adapter per channel; null: the embedded default (messages stay held). */
  providers: { mail: MailProvider | null; sms: SmsProvider | null };
  clock: Clock;
  logger: Logger;
  retryDelaysSeconds?: readonly number[];
}

/**
 * The one outbox of mail and SMS. `enqueue` stores the message first (nothing is lost), then a
 * `<channel>.deliver` job calls `deliver(id)`: one attempt through the channel's adapter.
 * - sent: `sent` with the provider's message id; never sent again (the claim in
 *   OutboxRepository lets one attempt at a time through, and none after `sent`);
 * - retryable failure: `queued` with `next_attempt_at` = now + backoff and a job due then;
 * - permanent failure, or the last attempt failed: `failed` with the reason.
 * Without an adapter for the channel a message is stored as `outbox` and stays there.
 * Never logs recipients or bodies (personal data, codes, album links).
 */
export class OutboxService {
  private readonly retryDelays: readonly number[];

  constructor(private readonly deps: OutboxDeps) {
    this.retryDelays = deps.retryDelaysSeconds ?? DEFAULT_RETRY_DELAYS_SECONDS;
  }

  /** Attempts a message gets before a retryable failure is final. */
  get maxAttempts(): number {
    return this.retryDelays.length + 1;
  }

  private providerFor(channel: OutboxChannel): MailProvider | SmsProvider | null {
    return this.deps.providers[channel];
  }

  async enqueue(message: NewOutboxMessage): Promise<OutboxRow> {
    const provider = this.providerFor(message.channel);
    const row = await this.deps.rows.add(message, provider ? 'queued' : 'outbox');
    this.deps.logger.info(
      { outboxId: row.id, channel: row.channel, kind: row.kind },
      'message stored',
    );
    if (provider) await this.schedule(row.channel, row.id);
    return row;
  }

  /**
   * Stores a message at most once per dedupe key (a second call with the same key stores and
   * sends nothing and answers null), then schedules it like `enqueue`.
   */
  async enqueueOnce(message: NewOutboxMessage & { dedupeKey: string }): Promise<OutboxRow | null> {
    const provider = this.providerFor(message.channel);
    const row = await this.deps.rows.addOnce(message, provider ? 'queued' : 'outbox');
    if (!row) return null;
    this.deps.logger.info(
      { outboxId: row.id, channel: row.channel, kind: row.kind },
      'message stored',
    );
    if (provider) await this.schedule(row.channel, row.id);
    return row;
  }

  private async schedule(channel: OutboxChannel, outboxId: number, delaySeconds?: number) {
    const options = delaySeconds ? { startAfterSeconds: delaySeconds } : {};
    if (channel === 'mail') await this.deps.jobs.send('mail.deliver', { outboxId }, options);
    else await this.deps.jobs.send('sms.deliver', { outboxId }, options);
  }

  /** Job handler of `mail.deliver` and `sms.deliver`: one attempt, idempotent. */
  async deliver(outboxId: number): Promise<void> {
    const row = await this.deps.rows.findById(outboxId);
    if (!row) return;
    const provider = this.providerFor(row.channel);
    if (!provider) return;
    const { clock, rows, logger } = this.deps;
    const claimed = await rows.claim(row.id, provider.name, clock.now(), ATTEMPT_LEASE_MS);
    // Sent, failed, held, or another worker is on it.
    if (!claimed) return;
    const log = { outboxId: row.id, channel: row.channel, provider: provider.name };

    let providerMessageId: string | null;
    try {
      ({ providerMessageId } = await this.send(provider, claimed));
    } catch (error) {
      const failure =
        error instanceof ProviderError
          ? error
          : ProviderError.retryable(
              provider.name,
              error instanceof Error ? error.message : 'unexpected error',
            );
      const reason = redactSecrets(failure.message, provider.secrets);
      const attempts = claimed.attempts;
      if (failure.permanent || attempts >= this.maxAttempts) {
        await rows.markFailed(row.id, reason);
        logger.warn(
          { ...log, attempts, permanent: failure.permanent, code: failure.code },
          'message failed',
        );
        return;
      }
      const delay = this.retryDelays[attempts - 1] ?? this.retryDelays.at(-1) ?? 60;
      await rows.markRetry(row.id, reason, new Date(clock.now().getTime() + delay * 1000));
      await this.schedule(row.channel, row.id, delay);
      logger.warn(
        { ...log, attempts, code: failure.code, retryIn: delay },
        'message will be retried',
      );
      return;
    }
    await rows.markSent(row.id, providerMessageId, clock.now());
    logger.info({ ...log, attempts: claimed.attempts }, 'message sent');
  }

  private send(
    provider: MailProvider | SmsProvider,
    row: OutboxRow,
  ): Promise<{ providerMessageId: string | null }> {
    // The envelope is the same on both channels.
    const addressed = { outboxId: row.id, to: row.recipient, from: row.sender };
    if (row.channel === 'mail') {
      const content = row.content as MailContent;
      return (provider as MailProvider).send({
        ...addressed,
        subject: content.subject,
        text: content.text,
        html: content.html,
        ...(content.headers ? { headers: content.headers } : {}),
        ...(content.attachments?.length ? { attachments: content.attachments } : {}),
      });
    }
    const content = row.content as SmsContent;
    return (provider as SmsProvider).send({ ...addressed, body: content.body });
  }

  /**
   * When a worker starts: enqueue again every message that is due (its job may have been lost
   * between the insert and the enqueue, or its worker died mid-attempt). A duplicate job is
   * harmless: `deliver` claims.
   */
  async resumeDue(): Promise<number> {
    const due = await this.deps.rows.due(this.deps.clock.now(), RESUME_BATCH);
    for (const { id, channel } of due) {
      if (this.providerFor(channel)) await this.schedule(channel, id);
    }
    return due.length;
  }
}
