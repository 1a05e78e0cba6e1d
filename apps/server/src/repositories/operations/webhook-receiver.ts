/**
 * The webhook convention (docs/adr/0004-outbox-adapters-webhooks.md): a provider calls
 * `POST /api/webhooks/<provider>`; the route keeps the raw body; the provider's adapter verifies
 * the signature from the raw body, headers and public URL and turns the call into a
 * provider-neutral effect with the provider's event id; WebhookService records the id in
 * `webhook_events` (unique per provider) and applies the effect in the same short transaction, so
 * a replayed or duplicated webhook changes state once.
 */

/** A webhook call as it reached us: nothing parsed, nothing trusted yet. */
export interface RawWebhook {
  /** The full URL the provider called: the public address + path + query. */
  url: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The body bytes exactly as received. */
  body: Buffer;
}

/** What a verified webhook asks us to change; one variant per kind of provider news. */
export type WebhookEffect =
  | {
      /** A message's delivery report (SMS status callback, mail bounce …). */
      kind: 'message.status';
      /** Our outbox id when the provider echoes it (we put it in the callback URL). */
      outboxId: number | null;
      providerMessageId: string;
      /** The final status it reports, or null for an intermediate one (queued, sent …). */
      status: 'delivered' | 'undelivered' | 'failed' | null;
      /** The provider's reason for a failure (e.g. `Twilio 30003`), never a secret. */
      reason: string | null;
    }
  | {
      /** A payment provider's news about a payment. */
      kind: 'payment.status';
      /** The provider's id for the payment (our `payments.provider_reference`). */
      providerPaymentId: string;
      status: 'paid' | 'failed' | 'cancelled' | 'expired' | 'refunded';
      /** The provider's reason for a failure (`card_declined`), never a secret. */
      reason: string | null;
    }
  /** Verified, but nothing for us to do (a kind of news we do not use). */
  | { kind: 'ignored' };

export interface VerifiedWebhook {
  /** The provider's id for this piece of news; the same news sent twice has the same id. */
  providerEventId: string;
  effect: WebhookEffect;
}

/** Implemented by an adapter that receives webhooks. */
export interface WebhookReceiver {
  /** The `:provider` path segment (`twilio`). */
  readonly provider: string;
  /**
   * Answers null when the signature is missing or wrong; never throws for bad input. May answer a
   * promise when the provider verifies through a call of its own (PayPal's verify-webhook-signature).
   */
  verifyWebhook(request: RawWebhook): VerifiedWebhook | null | Promise<VerifiedWebhook | null>;
}
