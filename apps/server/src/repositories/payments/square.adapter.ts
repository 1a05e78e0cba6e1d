import { createHmac } from 'node:crypto';
import {
  providerJson,
  ProviderError,
  redactSecrets,
  sameSignature,
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
 * Square card readers (albums spec §4 pairing, §7.3), Square's documented REST
 * API, JSON, `Authorization: Bearer <access token>`, `Square-Version` header:
 * - `GET /v2/locations` → `{locations: [{id, name, status}]}`;
 * - `POST /v2/devices/codes {idempotency_key, device_code: {name, product_type: TERMINAL_API,
 *   location_id}}` → `{device_code: {id, code, status: UNPAIRED, pair_by}}`;
 * - `GET /v2/devices/codes/:id` → `device_code.device_id` once `status` is `PAIRED`;
 * - `POST /v2/terminals/checkouts {idempotency_key, checkout: {amount_money: {amount, currency},
 *   reference_id (≤ 40 chars), device_options: {device_id}}}`, `GET /v2/terminals/checkouts/:id`,
 *   `POST /v2/terminals/checkouts/:id/cancel`.
 * - `POST /v2/refunds {idempotency_key, payment_id, amount_money}` → `{refund: {id, status}}`
 *   against the payment a completed checkout made (`checkout.payment_ids[0]`).
 * Errors answer `{errors: [{category, code, detail}]}`; the `detail` is shown to the operator as
 * the provider's error message (a refused token is Square's error, not our `unauthorized_user`).
 * Webhooks: `x-square-hmacsha256-signature` = base64 HMAC-SHA256, keyed by the subscription's
 * signature key, of the notification URL (byte for byte) followed by the raw body; no timestamp,
 * so replays are caught by the recorded `event_id`.
 */

export const SQUARE_PROVIDER = 'square';
export const SQUARE_SIGNATURE_HEADER = 'x-square-hmacsha256-signature';
export const SQUARE_VERSION = '2024-06-04';
/** Square's limit on `reference_id`. */
export const SQUARE_REFERENCE_MAX = 40;
/** The Terminal API takes no checkout under $1.00 (the reader never completes it). */
export const SQUARE_MINIMUM_CENTS = 100;

export interface SquareSettings {
  apiBase: string;
  /** The webhook subscription's signature key; without it webhooks are not taken. */
  webhookSignatureKey: string | null;
  /** The notification URL as registered at Square (`<public url>/api/webhooks/square`). */
  notificationUrl: string;
  timeoutMs: number;
}

export interface SquareLocation {
  id: string;
  name: string;
}
export interface SquareDeviceCode {
  id: string;
  code: string;
  status: string;
  device_id: string | null;
}
export interface SquareTerminalCheckout {
  id: string;
  status: 'PENDING' | 'IN_PROGRESS' | 'CANCEL_REQUESTED' | 'CANCELED' | 'COMPLETED';
  reference_id: string | null;
  amount_money: { amount: number; currency: string };
  cancel_reason?: string;
  payment_ids?: string[];
}

/** Square's signature of a notification (also used by the test double). */
export const squareSignature = (key: string, notificationUrl: string, body: Buffer | string) =>
  createHmac('sha256', key).update(notificationUrl).update(body).digest('base64');

export const terminalCheckoutStatus = (checkout: SquareTerminalCheckout): PaymentStatus => {
  switch (checkout.status) {
    case 'COMPLETED':
      return {
        state: 'paid',
        paid: { amount: checkout.amount_money.amount, currency: checkout.amount_money.currency },
        paidAt: new Date(),
      };
    case 'CANCELED':
      // A checkout nobody paid within its deadline (5 minutes) is cancelled as TIMED_OUT.
      return checkout.cancel_reason === 'TIMED_OUT' ? { state: 'expired' } : { state: 'cancelled' };
    case 'PENDING':
    case 'IN_PROGRESS':
    case 'CANCEL_REQUESTED':
      return { state: 'pending' };
  }
};

export class SquareAdapter implements WebhookReceiver, PaymentsProvider {
  readonly name = SQUARE_PROVIDER;
  readonly provider = SQUARE_PROVIDER;

  constructor(
    private readonly settings: SquareSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private async call<T>(
    method: 'GET' | 'POST',
    path: string,
    token: string,
    body: object | null,
  ): Promise<T> {
    if (!token)
      throw ProviderError.permanent(SQUARE_PROVIDER, 'no Square access token', 'no_token');
    const {
      status,
      ok,
      body: parsed,
    } = await providerJson(
      SQUARE_PROVIDER,
      'Square',
      this.fetchImpl,
      `${this.settings.apiBase.replace(/\/+$/, '')}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          'square-version': SQUARE_VERSION,
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      },
      this.settings.timeoutMs,
    );
    if (ok && parsed && typeof parsed === 'object') return parsed as T;
    const first = (parsed as { errors?: { code?: string; detail?: string }[] } | null)?.errors?.[0];
    const detail = redactSecrets(first?.detail ?? `Square answered ${status}`, [token]);
    const code = first?.code ?? String(status);
    if (status === 429 || status >= 500)
      throw ProviderError.retryable(SQUARE_PROVIDER, detail, code);
    throw ProviderError.permanent(SQUARE_PROVIDER, detail, code);
  }

  async locations(token: string): Promise<SquareLocation[]> {
    const reply = await this.call<{ locations?: { id: string; name?: string }[] }>(
      'GET',
      '/v2/locations',
      token,
      null,
    );
    return (reply.locations ?? []).map((l) => ({ id: l.id, name: l.name ?? l.id }));
  }

  async createDeviceCode(
    token: string,
    input: { name: string; locationId: string; idempotencyKey: string },
  ): Promise<SquareDeviceCode> {
    const reply = await this.call<{ device_code?: Partial<SquareDeviceCode> }>(
      'POST',
      '/v2/devices/codes',
      token,
      {
        idempotency_key: input.idempotencyKey,
        device_code: {
          name: input.name,
          product_type: 'TERMINAL_API',
          location_id: input.locationId,
        },
      },
    );
    return deviceCode(reply.device_code);
  }

  async getDeviceCode(token: string, id: string): Promise<SquareDeviceCode> {
    const reply = await this.call<{ device_code?: Partial<SquareDeviceCode> }>(
      'GET',
      `/v2/devices/codes/${encodeURIComponent(id)}`,
      token,
      null,
    );
    return deviceCode(reply.device_code);
  }

  async createTerminalCheckout(
    credentials: PaymentCredentials,
    input: {
      paymentId: string;
      amount: number;
      currency: string;
      deviceId: string;
      referenceId: string;
      note?: string;
    },
  ): Promise<SquareTerminalCheckout> {
    const reply = await this.call<{ checkout: SquareTerminalCheckout }>(
      'POST',
      '/v2/terminals/checkouts',
      credentials.access_token ?? '',
      {
        idempotency_key: input.paymentId,
        checkout: {
          amount_money: { amount: input.amount, currency: input.currency },
          reference_id: input.referenceId.slice(0, SQUARE_REFERENCE_MAX),
          ...(input.note ? { note: input.note.slice(0, 500) } : {}),
          device_options: { device_id: input.deviceId },
        },
      },
    );
    return reply.checkout;
  }

  async terminalCheckout(credentials: PaymentCredentials, id: string) {
    const reply = await this.call<{ checkout: SquareTerminalCheckout }>(
      'GET',
      `/v2/terminals/checkouts/${encodeURIComponent(id)}`,
      credentials.access_token ?? '',
      null,
    );
    return reply.checkout;
  }

  async cancelTerminalCheckout(credentials: PaymentCredentials, id: string) {
    const reply = await this.call<{ checkout: SquareTerminalCheckout }>(
      'POST',
      `/v2/terminals/checkouts/${encodeURIComponent(id)}/cancel`,
      credentials.access_token ?? '',
      {},
    );
    return reply.checkout;
  }

  /**
   * A Terminal checkout on the paired reader (`credentials.device_id`) for the payment: our payment
   * id is the idempotency key and the `reference_id` (≤ 40 characters), the button text the note.
   */
  async createCheckout(
    request: CheckoutRequest,
    credentials: PaymentCredentials,
  ): Promise<Checkout> {
    const deviceId = credentials.device_id ?? '';
    if (!deviceId)
      throw ProviderError.permanent(SQUARE_PROVIDER, 'no paired Square reader', 'no_device');
    const checkout = await this.createTerminalCheckout(credentials, {
      paymentId: request.paymentId,
      amount: request.total.amount,
      currency: request.total.currency,
      deviceId,
      referenceId: request.paymentId,
      note: request.items.map((item) => item.description).join(', '),
    });
    return {
      providerPaymentId: checkout.id,
      handle: { kind: 'terminal', terminalId: deviceId },
      expiresAt: null,
    };
  }

  async status(providerPaymentId: string, credentials: PaymentCredentials): Promise<PaymentStatus> {
    return terminalCheckoutStatus(await this.terminalCheckout(credentials, providerPaymentId));
  }

  async cancel(providerPaymentId: string, credentials: PaymentCredentials): Promise<void> {
    await this.cancelTerminalCheckout(credentials, providerPaymentId);
  }

  /**
   * Gives a completed checkout's money back (Refunds API, full amount); the idempotency key makes
   * a retried refund give it back once.
   */
  async refund(
    providerPaymentId: string,
    credentials: PaymentCredentials,
    idempotencyKey: string,
  ): Promise<void> {
    const checkout = await this.terminalCheckout(credentials, providerPaymentId);
    const paymentId = checkout.payment_ids?.[0];
    if (checkout.status !== 'COMPLETED' || !paymentId)
      throw ProviderError.permanent(SQUARE_PROVIDER, 'the checkout took no payment', 'not_paid');
    await this.call<{ refund: { id: string; status: string } }>(
      'POST',
      '/v2/refunds',
      credentials.access_token ?? '',
      {
        idempotency_key: `refund_${idempotencyKey}`,
        payment_id: paymentId,
        amount_money: checkout.amount_money,
        reason: 'Refunded by the event operator',
      },
    );
  }

  verifyWebhook(request: RawWebhook): VerifiedWebhook | null {
    const key = this.settings.webhookSignatureKey;
    const header = request.headers[SQUARE_SIGNATURE_HEADER];
    if (!key || typeof header !== 'string') return null;
    const given = Buffer.from(header, 'base64');
    const expected = Buffer.from(
      squareSignature(key, this.settings.notificationUrl, request.body),
      'base64',
    );
    if (!sameSignature(given, expected)) return null;
    const body = webhookJson<{
      event_id?: unknown;
      type?: unknown;
      data?: { object?: { checkout?: SquareTerminalCheckout } };
    }>(request);
    if (body === undefined) return null;
    if (typeof body.event_id !== 'string') return null;
    const checkout = body.data?.object?.checkout;
    if (body.type !== 'terminal.checkout.updated' || !checkout || typeof checkout.id !== 'string')
      return { providerEventId: body.event_id, effect: { kind: 'ignored' } };
    const status = terminalCheckoutStatus(checkout);
    if (status.state !== 'paid' && status.state !== 'cancelled' && status.state !== 'expired')
      return { providerEventId: body.event_id, effect: { kind: 'ignored' } };
    return {
      providerEventId: body.event_id,
      effect: {
        kind: 'payment.status',
        providerPaymentId: checkout.id,
        status: status.state,
        reason: status.state === 'paid' ? null : (checkout.cancel_reason ?? null),
      },
    };
  }
}

const deviceCode = (raw: Partial<SquareDeviceCode> | undefined): SquareDeviceCode => {
  if (!raw?.id)
    throw ProviderError.permanent(SQUARE_PROVIDER, 'Square answered no device code', 'no_code');
  return {
    id: raw.id,
    code: raw.code ?? '',
    status: raw.status ?? 'UNKNOWN',
    device_id: raw.device_id ?? null,
  };
};
