import type { SmsMessage } from '../../repositories/messaging/sms/sms-provider.ts';
import type { OutboxService } from './outbox.service.ts';

export type { SmsMessage };

/**
 * Sends SMS through the one outbox, like MailService: stored first; an `sms.deliver` job hands it
 * to the SMS adapter (Twilio) when one is configured; without one it stays held (`outbox`).
 */
export class SmsService {
  constructor(private readonly outbox: OutboxService) {}

  async send(message: SmsMessage): Promise<void> {
    await this.outbox.enqueue({
      channel: 'sms',
      kind: message.kind,
      eventId: message.eventId,
      recipient: message.to,
      sender: message.from ?? null,
      content: { body: message.body },
    });
  }

  /** Job handler for `sms.deliver` (the outbox's, kept for callers of this service). */
  deliver(outboxId: number): Promise<void> {
    return this.outbox.deliver(outboxId);
  }
}
