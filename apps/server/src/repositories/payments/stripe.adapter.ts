import { createHmac } from 'node:crypto';
import {
  providerJson,
  ProviderError,
  redactSecrets,
  sameSignature,
  signedInTime,
  webhookJson,
  type Checkout,
  type CheckoutRequest,
  type PaymentCredentials,
  type PaymentStatus,
  type PaymentsProvider,
  type RawWebhook,
  type VerifiedWebhook,
  type WebhookReceiver,
} from './payment-adapter.ts';

/**
 * Stripe Checkout (pay on phone): a hosted Checkout Session per payment, its URL shown
 * as the QR code. Stripe's documented REST API, form-encoded, `Authorization: Bearer <secret key>`:
 * - `POST /v1/checkout/sessions` (mode `payment`, one `price_data` line item in USD cents,
 *   `client_reference_id` = our payment id, `Idempotency-Key` = our payment id: a retry answers the
 *   same session);
 * - `GET /v1/checkout/sessions/:id` (status `open` | `complete` | `expired`, `payment_status`);
 * - `POST /v1/checkout/sessions/:id/expire` (only an `open` session);
 * - `POST /v1/refunds` (`payment_intent` of the completed session, full amount; a second refund of
 *   the same charge is 400 `charge_already_refunded`, taken as done).
 * Webhooks (`POST /api/webhooks/stripe`): header `Stripe-Signature: t=<unix s>,v1=<hex
 * HMAC-SHA256 of "<t>.<raw body>" keyed by the endpoint secret>` (more than one v1 may be present
 * while a secret rolls), refused outside ±5 minutes; events `checkout.session.completed` (paid when
 * `payment_status` is `paid`), `checkout.session.async_payment_succeeded` / `_failed`,
 * `checkout.session.expired`. The secret key is per event (`stripe_secret_key` secure field,
 * credential `secret_key`); the webhook secret from configuration (`STRIPE_WEBHOOK_SECRET`).
 */

export const STRIPE_PROVIDER = 'stripe';
export const STRIPE_SIGNATURE_HEADER = 'stripe-signature';
/** Stripe Checkout refuses totals under $0.50 (USD); we refuse them first. */
export const STRIPE_MINIMUM_CENTS = 50;

export interface StripeSettings {
  apiBase: string;
  /** Endpoint signing secret (`whsec_…`); without it webhooks are not taken. */
  webhookSecret: string | null;
  /** Where Checkout returns the buyer (our public URL). */
  publicUrl: string;
  /** Milliseconds before a call is given up as retryable. */
  timeoutMs: number;
  now: () => Date;
}

/** The fields of a Checkout Session we read. */
interface StripeSession {
  id: string;
  object?: string;
  url?: string | null;
  status?: 'open' | 'complete' | 'expired' | null;
  payment_status?: 'paid' | 'unpaid' | 'no_payment_required';
  amount_total?: number | null;
  currency?: string | null;
  expires_at?: number | null;
  client_reference_id?: string | null;
  /** The PaymentIntent a completed session charged (refunds go against it). */
  payment_intent?: string | null;
}

/** Stripe's HTML-form encoding of nested parameters (`a[b][0][c]=…`). */
export const stripeForm = (params: Record<string, unknown>): string => {
  const out = new URLSearchParams();
  const walk = (prefix: string, value: unknown) => {
    if (value === undefined || value === null) return;
    if (Array.isArray(value)) value.forEach((v, i) => walk(`${prefix}[${i}]`, v));
    else if (typeof value === 'object')
      for (const [k, v] of Object.entries(value)) walk(prefix ? `${prefix}[${k}]` : k, v);
    else if (typeof value === 'string') out.append(prefix, value);
    else if (typeof value === 'number' || typeof value === 'boolean')
      out.append(prefix, String(value));
  };
  walk('', params);
  return out.toString();
};

export class StripePaymentsAdapter implements PaymentsProvider, WebhookReceiver {
  readonly name = STRIPE_PROVIDER;
  readonly provider = STRIPE_PROVIDER;

  constructor(
    private readonly settings: StripeSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private key(credentials: PaymentCredentials): string {
    const key = credentials.secret_key;
    if (!key) throw ProviderError.permanent(STRIPE_PROVIDER, 'no Stripe secret key', 'no_key');
    return key;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    credentials: PaymentCredentials,
    form: Record<string, unknown> | null,
    idempotencyKey: string | null = null,
  ): Promise<StripeSession> {
    const key = this.key(credentials);
    const { status, ok, body } = await providerJson(
      STRIPE_PROVIDER,
      'Stripe',
      this.fetchImpl,
      `${this.settings.apiBase.replace(/\/+$/, '')}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${key}`,
          ...(form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        ...(form ? { body: stripeForm(form) } : {}),
      },
      this.settings.timeoutMs,
    );
    if (ok && body && typeof body === 'object' && typeof (body as StripeSession).id === 'string')
      return body as StripeSession;
    const error = (body as { error?: { type?: string; code?: string; message?: string } } | null)
      ?.error;
    // Stripe echoes part of a refused key in its message ("Invalid API Key provided: sk_test_****…"):
    // build the reason from type/code and the redacted message only.
    const message = redactSecrets(
      `Stripe ${status} ${error?.type ?? 'error'}: ${error?.message ?? 'no details'}`,
      [key],
    ).replace(/\b(sk|rk)_(live|test)_[A-Za-z0-9*]+/g, '[redacted]');
    const code = error?.code ?? error?.type ?? String(status);
    if (status === 429 || status >= 500)
      throw ProviderError.retryable(STRIPE_PROVIDER, message, code);
    throw ProviderError.permanent(STRIPE_PROVIDER, message, code);
  }

  /** The key's own account (`GET /v1/account`): the harmless credentials test. */
  async account(credentials: PaymentCredentials): Promise<{ id: string }> {
    const reply = await this.call('GET', '/v1/account', credentials, null);
    return { id: reply.id };
  }

  async createCheckout(
    request: CheckoutRequest,
    credentials: PaymentCredentials,
  ): Promise<Checkout> {
    if (request.total.amount < STRIPE_MINIMUM_CENTS)
      throw ProviderError.permanent(
        STRIPE_PROVIDER,
        'below the Stripe minimum',
        'amount_too_small',
      );
    const back = `${this.settings.publicUrl}/pay/stripe/${encodeURIComponent(request.paymentId)}`;
    const session = await this.call(
      'POST',
      '/v1/checkout/sessions',
      credentials,
      {
        mode: 'payment',
        client_reference_id: request.paymentId,
        success_url: `${back}?result=success`,
        cancel_url: `${back}?result=cancel`,
        line_items: [
          {
            quantity: 1,
            price_data: {
              // Stripe takes the ISO code in lower case and the amount in its minor unit (yen
              // for JPY, a zero-decimal currency), as our amounts are.
              currency: request.total.currency.toLowerCase(),
              unit_amount: request.total.amount,
              product_data: { name: request.items[0]?.description || 'Photos' },
            },
          },
        ],
        metadata: { payment_id: request.paymentId, reference: request.reference },
      },
      request.paymentId,
    );
    if (!session.url)
      throw ProviderError.permanent(STRIPE_PROVIDER, 'Stripe answered no checkout URL', 'no_url');
    return {
      providerPaymentId: session.id,
      handle: { kind: 'qr', url: session.url },
      expiresAt: session.expires_at ? new Date(session.expires_at * 1000) : null,
    };
  }

  async status(providerPaymentId: string, credentials: PaymentCredentials): Promise<PaymentStatus> {
    const session = await this.call(
      'GET',
      `/v1/checkout/sessions/${encodeURIComponent(providerPaymentId)}`,
      credentials,
      null,
    );
    return sessionStatus(session, this.settings.now());
  }

  async cancel(providerPaymentId: string, credentials: PaymentCredentials): Promise<void> {
    await this.call(
      'POST',
      `/v1/checkout/sessions/${encodeURIComponent(providerPaymentId)}/expire`,
      credentials,
      {},
    );
  }

  async refund(
    providerPaymentId: string,
    credentials: PaymentCredentials,
    idempotencyKey: string,
  ): Promise<void> {
    const session = await this.call(
      'GET',
      `/v1/checkout/sessions/${encodeURIComponent(providerPaymentId)}`,
      credentials,
      null,
    );
    if (!session.payment_intent)
      throw ProviderError.permanent(STRIPE_PROVIDER, 'the session charged nothing', 'not_paid');
    try {
      await this.call(
        'POST',
        '/v1/refunds',
        credentials,
        { payment_intent: session.payment_intent, metadata: { payment_id: idempotencyKey } },
        `refund_${idempotencyKey}`,
      );
    } catch (error) {
      // Refunded already (from Stripe's dashboard, or an earlier try whose answer was lost).
      if (error instanceof ProviderError && error.code === 'charge_already_refunded') return;
      throw error;
    }
  }

  verifyWebhook(request: RawWebhook): VerifiedWebhook | null {
    const secret = this.settings.webhookSecret;
    const header = request.headers[STRIPE_SIGNATURE_HEADER];
    if (!secret || typeof header !== 'string') return null;
    let t = NaN;
    const given: Buffer[] = [];
    for (const part of header.split(',')) {
      const at = part.indexOf('=');
      const k = part.slice(0, at).trim();
      const v = part.slice(at + 1).trim();
      if (k === 't') t = /^\d+$/.test(v) ? Number(v) : NaN;
      if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v)) given.push(Buffer.from(v, 'hex'));
    }
    if (!Number.isInteger(t) || given.length === 0) return null;
    const expected = Buffer.from(
      createHmac('sha256', secret).update(`${t}.`).update(request.body).digest('hex'),
      'hex',
    );
    if (!given.some((g) => sameSignature(g, expected))) return null;
    if (!signedInTime(t * 1000, this.settings.now())) return null;
    const event = webhookJson<{ id?: unknown; type?: unknown; data?: { object?: StripeSession } }>(
      request,
    );
    if (event === undefined) return null;
    if (typeof event.id !== 'string' || typeof event.type !== 'string') return null;
    const session = event.data?.object;
    const ignored: VerifiedWebhook = { providerEventId: event.id, effect: { kind: 'ignored' } };
    if (!session || typeof session.id !== 'string' || session.object !== 'checkout.session')
      return ignored;
    const status =
      event.type === 'checkout.session.completed'
        ? session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
          ? 'paid'
          : null
        : event.type === 'checkout.session.async_payment_succeeded'
          ? 'paid'
          : event.type === 'checkout.session.async_payment_failed'
            ? 'failed'
            : event.type === 'checkout.session.expired'
              ? 'expired'
              : null;
    if (!status) return ignored;
    return {
      providerEventId: event.id,
      effect: {
        kind: 'payment.status',
        providerPaymentId: session.id,
        status,
        reason: status === 'failed' ? 'payment_failed' : null,
      },
    };
  }
}

const sessionStatus = (session: StripeSession, now: Date): PaymentStatus => {
  if (
    session.status === 'complete' &&
    (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
  )
    return {
      state: 'paid',
      paid: {
        amount: session.amount_total ?? 0,
        currency: (session.currency ?? 'usd').toUpperCase(),
      },
      paidAt: now,
    };
  if (session.status === 'expired') return { state: 'expired' };
  return { state: 'pending' };
};
