/**
 * The mail capability. A message is stored in the outbox first (services/messaging/outbox.service.ts);
 * a `mail.deliver` job then hands it to the configured MailProvider. Adapters live next to this
 * file as `<provider>.adapter.ts` and are chosen in repositories/providers.ts:
 * - embedded default: none — messages stay in the outbox (status `outbox`) for operators to read;
 * - `smtp`: smtp.adapter.ts (nodemailer), `SMTP_URL`.
 */

/** What a service asks to send (MailService.send). */
export interface MailMessage {
  kind: string;
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The sender (e.g. an event's verified address, see `senderFor`); default: the platform sender. */
  from?: string;
  /** The event the message is about, when there is one. */
  eventId?: number | null;
}

/** One stored message as the adapter receives it. */
export interface OutgoingMail {
  /** The outbox row id: lets the receiving side recognise a retried delivery. */
  outboxId: number;
  to: string;
  /** null: the platform sender from configuration. */
  from: string | null;
  subject: string;
  text: string;
  html: string | null;
  /** Extra headers to send (`List-Unsubscribe` …); never overrides the adapter's own. */
  headers?: Record<string, string>;
  /** Text files to attach (name, MIME type, UTF-8 content). */
  attachments?: { filename: string; contentType: string; content: string }[];
}

export interface MailProvider {
  /** The adapter's name as stored in `outbox.provider` (`smtp`). */
  readonly name: string;
  /**
   * Hands the message over. Answers the provider's id for it; throws a ProviderError
   * (`permanent` or `retryable`) when it was not accepted.
   */
  send(message: OutgoingMail): Promise<{ providerMessageId: string | null }>;
  /** Secret values this adapter holds (passwords in URLs …), so callers can scrub texts. */
  readonly secrets: readonly string[];
  close(): void;
}
