/**
 * The SMS capability. Like mail, a message is stored in the outbox first; an `sms.deliver` job
 * hands it to the configured SmsProvider (adapters: `<provider>.adapter.ts` next to this file,
 * chosen in repositories/providers.ts):
 * - embedded default: none — messages stay in the outbox (status `outbox`);
 * - `twilio`: twilio.adapter.ts (Programmable Messaging REST API, status callbacks as webhooks).
 */

/** What a service asks to send (SmsService.send). */
export interface SmsMessage {
  kind: string;
  eventId: number | null;
  /** Digits only. */
  to: string;
  /** Sender name or number (the event's notification SMS sender), if any. */
  from?: string | null;
  body: string;
}

/** One stored message as the adapter receives it. */
export interface OutgoingSms {
  outboxId: number;
  /** Digits only. */
  to: string;
  /** The event's sender, if any; the adapter falls back to its configured one. */
  from: string | null;
  body: string;
}

export interface SmsProvider {
  /** The adapter's name as stored in `outbox.provider` (`twilio`). */
  readonly name: string;
  /** Secret values this adapter holds (auth tokens), so callers can scrub texts. */
  readonly secrets: readonly string[];
  /**
   * Hands the message to the phone network. Answers the provider's message id; throws a
   * ProviderError (`permanent` or `retryable`) when it was not accepted.
   */
  send(message: OutgoingSms): Promise<{ providerMessageId: string | null }>;
}
