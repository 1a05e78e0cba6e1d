/**
 * The payments capability (interface only; the payment issues implement it). Adapters:
 * `<provider>.adapter.ts` next to this file (e.g. `test.adapter.ts` — the embedded default, a
 * built-in test provider per flow — then `stripe`, `square`, `paypal`, a QR provider, a payment
 * terminal), chosen by configuration in repositories/providers.ts, embedded default first.
 *
 * Rules every adapter keeps:
 * - Amounts are integers in minor units (cents) with an ISO 4217 currency (`USD`); never floats.
 * - Every call that creates something carries our own idempotency key (the payment's id), so a
 *   retried job or request never charges twice (DESIGN §2: payment writes are idempotent).
 * - Credentials come per call (`PaymentCredentials`): from configuration, or decrypted from the
 *   event's secure fields (`events.secure_fields`, SecretBox) by the calling service just before
 *   the call. Adapters never log them, never put them in errors, stored reasons or replies.
 * - Failures are ProviderErrors (repositories/provider-error.ts): `permanent` for a declined card
 *   or a refused request, `retryable` for 429/5xx/network.
 * - Provider news (payment succeeded, refunded …) arrives as webhooks: the adapter also implements
 *   WebhookReceiver (repositories/operations/webhook-receiver.ts), verifies the provider's signature
 *   from the raw body and answers a provider-neutral effect with the provider's event id.
 *   Confirmation then raises the `payment.confirmed` domain event.
 */

/** Secrets for one call, by name (`secret_key`, `token` …); resolved by the caller, never stored here. */
export type PaymentCredentials = Readonly<Record<string, string>>;

export interface Money {
  /** Minor units (cents). */
  amount: number;
  /** ISO 4217, upper case (`USD`). */
  currency: string;
}

/** What is being sold (albums spec: an attendee's album unlock, digital copies, prints). */
export interface PaymentItem {
  sku: string;
  description: string;
  quantity: number;
  unitPrice: Money;
}

export interface CheckoutRequest {
  /** Our payment id: the idempotency key and the reference the provider echoes back. */
  paymentId: string;
  total: Money;
  tax: Money;
  items: readonly PaymentItem[];
  /** What the buyer unlocks (e.g. the attendee id), carried as the provider's custom id. */
  reference: string;
  /** Where a redirect flow returns the buyer. */
  returnUrl: string | null;
}

/** How the buyer pays: one of a redirect page, a client token for an embedded form, a QR code, or a terminal. */
export type CheckoutHandle =
  | { kind: 'redirect'; url: string }
  | { kind: 'client_token'; token: string }
  | { kind: 'qr'; url: string }
  | { kind: 'terminal'; terminalId: string };

export interface Checkout {
  /** The provider's id for this payment (to ask its status, cancel it, match its webhooks). */
  providerPaymentId: string;
  handle: CheckoutHandle;
  /** When the provider stops accepting payment for it, if it says. */
  expiresAt: Date | null;
}

export type PaymentStatus =
  | { state: 'pending' }
  | { state: 'paid'; paid: Money; paidAt: Date }
  | { state: 'failed'; reason: string }
  | { state: 'cancelled' }
  | { state: 'expired' }
  | { state: 'refunded'; refunded: Money };

export interface PaymentsProvider {
  /** The adapter's name, also its `/api/webhooks/:provider` segment. */
  readonly name: string;
  /** Starts a payment; the same `paymentId` twice answers the same checkout. */
  createCheckout(request: CheckoutRequest, credentials: PaymentCredentials): Promise<Checkout>;
  /** The provider's current word on a payment (reconciliation jobs, status polls). */
  status(providerPaymentId: string, credentials: PaymentCredentials): Promise<PaymentStatus>;
  /** Cancels a payment not yet paid (a QR link disabled, a terminal sale cancelled). */
  cancel(providerPaymentId: string, credentials: PaymentCredentials): Promise<void>;
  /**
   * Gives a paid payment's money back in full. Optional: an adapter without it
   * cannot refund, and the operator's refund is then refused (`payment_refund_unsupported`).
   * `idempotencyKey` (our payment id) makes a retried refund give the money back once; a payment
   * the provider already refunded answers without error.
   */
  refund?(
    providerPaymentId: string,
    credentials: PaymentCredentials,
    idempotencyKey: string,
  ): Promise<void>;
}
