import type { MailMessage } from '../../repositories/messaging/mail/mail-provider.ts';
import type { OutboxService } from './outbox.service.ts';

export type { MailMessage };

/**
 * Sends mail through the one outbox (services/messaging/outbox.service.ts): stored first, then a
 * `mail.deliver` job hands it to the mail adapter (SMTP) when one is configured; without one it
 * stays in the outbox for operators to read.
 */
export class MailService {
  constructor(private readonly outbox: OutboxService) {}

  async send(message: MailMessage): Promise<void> {
    await this.outbox.enqueue({
      channel: 'mail',
      kind: message.kind,
      eventId: message.eventId ?? null,
      recipient: message.to,
      sender: message.from ?? null,
      content: { subject: message.subject, text: message.text, html: message.html ?? null },
    });
  }

  /** Job handler for `mail.deliver` (the outbox's, kept for callers of this service). */
  deliver(outboxId: number): Promise<void> {
    return this.outbox.deliver(outboxId);
  }
}
