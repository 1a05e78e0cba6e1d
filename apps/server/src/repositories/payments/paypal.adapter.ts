import { minorToDecimal } from '@flashbulb/shared';
import {
  providerJson,
  ProviderError,
  redactSecrets,
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
 * PayPal card checkout on the album page (albums spec §7.3: USD, amount,
 * description, the attendee id as custom id and sku, no shipping, card funding only). PayPal's
 * documented REST API:
 * - OAuth 2.0 client credentials: `POST /v1/oauth2/token` (`Authorization: Basic
 *   base64(client_id:secret)`, `grant_type=client_credentials`) → `{access_token, expires_in}`;
 *   the token is kept until shortly before it expires.
 * - Orders v2: `POST /v2/checkout/orders` (`intent` CAPTURE, one purchase unit with `reference_id`
 *   = our payment id, `custom_id` = the attendee id, `description`, `amount` with its
 *   `breakdown.item_total`, one item with `sku`; `shipping_preference` NO_SHIPPING;
 *   `PayPal-Request-Id` = our payment id, so a retry answers the same order); `GET
 *   /v2/checkout/orders/:id`; `POST /v2/checkout/orders/:id/capture` once the buyer approved
 *   (422 `ORDER_NOT_APPROVED` before, `INSTRUMENT_DECLINED` for a declined card,
 *   `ORDER_ALREADY_CAPTURED` after). The capture is asked by our server, never taken from the page.
 * - Webhooks (`POST /api/webhooks/paypal`): verified by PayPal itself through `POST
 *   /v1/notifications/verify-webhook-signature` with the `PAYPAL-*` transmission headers, our
 *   webhook id and the event; only `verification_status: SUCCESS` is taken. We also refuse a
 *   transmission time outside ±5 minutes of our clock (a stale replay of a signed event).
 *   `PAYMENT.CAPTURE.COMPLETED` pays, `PAYMENT.CAPTURE.DENIED` fails; the order id is the capture's
 *   `supplementary_data.related_ids.order_id`.
 * Credentials are global configuration (client id, secret, environment), never per event.
 */

export const PAYPAL_PROVIDER = 'paypal';

export interface PayPalSettings {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  /** The webhook's id at PayPal; without it webhooks are not taken. */
  webhookId: string | null;
  timeoutMs: number;
  now: () => Date;
}

/** The fields of an Orders v2 order we read. */
interface PayPalOrder {
  id: string;
  status?: 'CREATED' | 'SAVED' | 'APPROVED' | 'VOIDED' | 'COMPLETED' | 'PAYER_ACTION_REQUIRED';
  purchase_units?: {
    reference_id?: string;
    amount?: { currency_code?: string; value?: string };
    payments?: {
      captures?: {
        id?: string;
        status?: string;
        amount?: { currency_code?: string; value?: string };
      }[];
    };
  }[];
}

/** Cents as PayPal's decimal string (`1550` → `"15.50"`). */
export const paypalValue = (cents: number): string =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** PayPal's decimal string as cents (`"15.50"` → 1550), or null. */
export const paypalCents = (value: string | undefined): number | null => {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(value ?? '');
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0')) : null;
};

const TRANSMISSION_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

export class PayPalAdapter implements PaymentsProvider, WebhookReceiver {
  readonly name = PAYPAL_PROVIDER;
  readonly provider = PAYPAL_PROVIDER;
  private token: { value: string; until: number } | null = null;

  constructor(
    private readonly settings: PayPalSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** The client id the album page's checkout script is loaded with (public by PayPal's design). */
  get clientId(): string {
    return this.settings.clientId;
  }

  private url(path: string): string {
    return `${this.settings.apiBase.replace(/\/+$/, '')}${path}`;
  }

  /** A reason that never carries a credential, built from PayPal's answer only. */
  private reason(status: number, body: unknown): { message: string; code: string } {
    const b = (body ?? {}) as {
      name?: string;
      message?: string;
      error?: string;
      error_description?: string;
      details?: { issue?: string; description?: string }[];
    };
    const issue = b.details?.[0]?.issue;
    const code = issue ?? b.name ?? b.error ?? String(status);
    const text = b.details?.[0]?.description ?? b.message ?? b.error_description ?? 'no details';
    return {
      code,
      message: redactSecrets(`PayPal ${status} ${code}: ${text}`, [
        this.settings.clientSecret,
        this.token?.value ?? '',
      ]),
    };
  }

  private async send(path: string, init: RequestInit): Promise<{ status: number; body: unknown }> {
    const { status, body } = await providerJson(
      PAYPAL_PROVIDER,
      'PayPal',
      this.fetchImpl,
      this.url(path),
      init,
      this.settings.timeoutMs,
    );
    return { status, body };
  }

  private fail(status: number, body: unknown): never {
    const { message, code } = this.reason(status, body);
    if (status === 429 || status >= 500)
      throw ProviderError.retryable(PAYPAL_PROVIDER, message, code);
    throw ProviderError.permanent(PAYPAL_PROVIDER, message, code);
  }

  /** An OAuth access token (client credentials), kept until a minute before it expires. */
  private async accessToken(): Promise<string> {
    const now = this.settings.now().getTime();
    if (this.token && this.token.until > now) return this.token.value;
    const basic = Buffer.from(`${this.settings.clientId}:${this.settings.clientSecret}`).toString(
      'base64',
    );
    const { status, body } = await this.send('/v1/oauth2/token', {
      method: 'POST',
      headers: {
        authorization: `Basic ${basic}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    const token = body as { access_token?: unknown; expires_in?: unknown } | null;
    if (status !== 200 || typeof token?.access_token !== 'string') this.fail(status, body);
    const seconds = typeof token.expires_in === 'number' ? token.expires_in : 300;
    this.token = { value: token.access_token, until: now + Math.max(0, seconds - 60) * 1000 };
    return token.access_token;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    json: unknown,
    requestId: string | null = null,
  ): Promise<{ status: number; body: unknown }> {
    const token = await this.accessToken();
    const answer = await this.send(path, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        ...(requestId ? { 'paypal-request-id': requestId } : {}),
      },
      ...(json === undefined ? {} : { body: JSON.stringify(json) }),
    });
    // A token PayPal no longer takes is fetched again on the next call.
    if (answer.status === 401) this.token = null;
    return answer;
  }

  private async order(method: 'GET' | 'POST', path: string, json?: unknown, requestId?: string) {
    const { status, body } = await this.call(method, path, json, requestId ?? null);
    if (status >= 200 && status < 300 && typeof (body as PayPalOrder | null)?.id === 'string')
      return body as PayPalOrder;
    return this.fail(status, body);
  }

  async createCheckout(
    request: CheckoutRequest,
    _credentials: PaymentCredentials,
  ): Promise<Checkout> {
    if (request.total.amount < 1)
      throw ProviderError.permanent(PAYPAL_PROVIDER, 'nothing to pay', 'amount_too_small');
    // PayPal's amounts are decimal strings of the major unit, in the currency's own decimals.
    const currency = request.total.currency;
    const value = minorToDecimal(request.total.amount, currency);
    const item = request.items[0];
    const order = await this.order(
      'POST',
      '/v2/checkout/orders',
      {
        intent: 'CAPTURE',
        purchase_units: [
          {
            reference_id: request.paymentId,
            custom_id: request.reference,
            description: (item?.description || 'Photos').slice(0, 127),
            amount: {
              currency_code: currency,
              value,
              breakdown: { item_total: { currency_code: currency, value } },
            },
            items: [
              {
                name: (item?.description || 'Photos').slice(0, 127),
                sku: request.reference.slice(0, 127),
                quantity: '1',
                unit_amount: { currency_code: currency, value },
                category: 'DIGITAL_GOODS',
              },
            ],
          },
        ],
        application_context: { shipping_preference: 'NO_SHIPPING', user_action: 'PAY_NOW' },
      },
      request.paymentId,
    );
    return {
      providerPaymentId: order.id,
      handle: { kind: 'client_token', token: order.id },
      expiresAt: null,
    };
  }

  async status(
    providerPaymentId: string,
    _credentials: PaymentCredentials,
  ): Promise<PaymentStatus> {
    const order = await this.order(
      'GET',
      `/v2/checkout/orders/${encodeURIComponent(providerPaymentId)}`,
    );
    return orderStatus(order, this.settings.now());
  }

  /**
   * Captures an approved order (the buyer approved it in PayPal's card form); an order captured
   * before answers its captured state. A declined card is `failed`; an order not yet approved stays
   * `pending`.
   */
  async capture(providerPaymentId: string): Promise<PaymentStatus> {
    const path = `/v2/checkout/orders/${encodeURIComponent(providerPaymentId)}/capture`;
    // Our own request id per order: a retried capture is answered, not repeated, by PayPal.
    const { status, body } = await this.call('POST', path, {}, `capture-${providerPaymentId}`);
    if (status >= 200 && status < 300 && typeof (body as PayPalOrder | null)?.id === 'string')
      return orderStatus(body as PayPalOrder, this.settings.now());
    const issue = (body as { details?: { issue?: string }[] } | null)?.details?.[0]?.issue;
    if (status === 422 && issue === 'ORDER_ALREADY_CAPTURED')
      return this.status(providerPaymentId, {});
    if (status === 422 && issue === 'ORDER_NOT_APPROVED') return { state: 'pending' };
    if (status === 422 && issue === 'INSTRUMENT_DECLINED')
      return { state: 'failed', reason: 'card_declined' };
    return this.fail(status, body);
  }

  /** Reconciliation: an approved order nobody captured (the page closed) is captured now. */
  async settle(providerPaymentId: string): Promise<PaymentStatus> {
    const order = await this.order(
      'GET',
      `/v2/checkout/orders/${encodeURIComponent(providerPaymentId)}`,
    );
    if (order.status === 'APPROVED') return this.capture(providerPaymentId);
    return orderStatus(order, this.settings.now());
  }

  /** PayPal has no cancel for an order: one never captured simply expires there. */
  async cancel(_providerPaymentId: string, _credentials: PaymentCredentials): Promise<void> {}

  async verifyWebhook(request: RawWebhook): Promise<VerifiedWebhook | null> {
    const webhookId = this.settings.webhookId;
    if (!webhookId) return null;
    const fields: Record<string, string> = {};
    for (const [field, header] of Object.entries(TRANSMISSION_HEADERS)) {
      const value = request.headers[header];
      if (typeof value !== 'string' || !value || value.length > 2000) return null;
      fields[field] = value;
    }
    const sent = Date.parse(fields.transmission_time!);
    if (!Number.isFinite(sent) || !signedInTime(sent, this.settings.now())) return null;
    const event = webhookJson<{
      id?: unknown;
      event_type?: unknown;
      resource?: {
        id?: string;
        status?: string;
        supplementary_data?: { related_ids?: { order_id?: string } };
      };
    }>(request);
    if (event === undefined) return null;
    if (!event || typeof event.id !== 'string' || typeof event.event_type !== 'string') return null;
    let answer: { status: number; body: unknown };
    try {
      answer = await this.call('POST', '/v1/notifications/verify-webhook-signature', {
        ...fields,
        webhook_id: webhookId,
        webhook_event: event,
      });
    } catch {
      // PayPal not answering: refuse now, PayPal redelivers (and reconciliation asks meanwhile).
      return null;
    }
    if (
      answer.status !== 200 ||
      (answer.body as { verification_status?: unknown } | null)?.verification_status !== 'SUCCESS'
    )
      return null;
    const ignored: VerifiedWebhook = { providerEventId: event.id, effect: { kind: 'ignored' } };
    const orderId = event.resource?.supplementary_data?.related_ids?.order_id;
    if (typeof orderId !== 'string' || !orderId) return ignored;
    const status =
      event.event_type === 'PAYMENT.CAPTURE.COMPLETED'
        ? 'paid'
        : event.event_type === 'PAYMENT.CAPTURE.DENIED'
          ? 'failed'
          : event.event_type === 'PAYMENT.CAPTURE.REFUNDED'
            ? 'refunded'
            : null;
    if (!status) return ignored;
    return {
      providerEventId: event.id,
      effect: {
        kind: 'payment.status',
        providerPaymentId: orderId,
        status,
        reason: status === 'failed' ? 'capture_denied' : null,
      },
    };
  }
}

const orderStatus = (order: PayPalOrder, now: Date): PaymentStatus => {
  const capture = order.purchase_units?.[0]?.payments?.captures?.[0];
  if (order.status === 'COMPLETED' && capture?.status === 'COMPLETED')
    return {
      state: 'paid',
      paid: {
        amount: paypalCents(capture.amount?.value) ?? 0,
        currency: capture.amount?.currency_code ?? 'USD',
      },
      paidAt: now,
    };
  if (capture?.status === 'DECLINED' || capture?.status === 'FAILED')
    return { state: 'failed', reason: 'card_declined' };
  if (order.status === 'VOIDED') return { state: 'cancelled' };
  // CREATED, APPROVED, PAYER_ACTION_REQUIRED, or a capture still PENDING at PayPal.
  return { state: 'pending' };
};
