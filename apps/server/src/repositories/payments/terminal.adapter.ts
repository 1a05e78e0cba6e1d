import { minorToDecimal } from '@flashbulb/shared';
import {
  ProviderError,
  requestJson,
  type Checkout,
  type CheckoutRequest,
  type PaymentCredentials,
  type PaymentStatus,
  type PaymentsProvider,
} from './payment-adapter.ts';

/**
 * The payment terminal client (albums spec §7.3, §3, §8): a card terminal
 * service at the venue, spoken to over HTTP JSON:
 * - `POST {terminal}/fcc/pay` with the §3 body (amount, taxAmount, storeId, terminalId, laneId,
 *   invoiceNumber, merchantReferenceCode, clientEnvironment, items); the reply is read from `data`
 *   (`requestId`, `status`).
 * - `POST {terminal}/fcc/check-status {requestId}` → `data` (`status`, and the offline status
 *   result `ErrorCode`, `Message` of §3).
 * - `POST {terminal}/fcc/cancel {requestId}` → `data`.
 * A failure is the §3 payment error object (`TerminalError`: type `global`, message_key
 * `Internal Error`, message and code from a JSON error body if there is one, otherwise empty, plus
 * the transport status and the thrown error); the caller logs it and passes it on. The kiosk's texts
 * (§8): `Status check failed` when the status could not be read, otherwise
 * `Error code - {code} {message}` for a terminal's refusal.
 *
 * Amounts go to the terminal as decimals of the organisation's currency, named in `currency` (ISO
 * 4217; an addition to the §3 body, which knew only dollars): `"15.50"` EUR, `"1550"` JPY, tax 0
 * (albums spec §9); `invoiceNumber` is our payment id, `merchantReferenceCode` the attendee.
 * The statuses the terminal answers (the part of the protocol the spec does not show; the
 * simulator `npm run cli -- terminal-sim` speaks the same): `PENDING` (waiting for the card),
 * `APPROVED`, `DECLINED`, `CANCELLED`, `TIMEOUT` (the card never came).
 */

export const TERMINAL_PROVIDER = 'terminal';
export const TERMINAL_CLIENT_ENVIRONMENT = 'flashbulb-kiosk';
export const STATUS_CHECK_FAILED = 'Status check failed';

export interface TerminalSettings {
  url: string;
  storeId: string;
  terminalId: string;
  laneId: string;
  timeoutMs: number;
}

/** The §3 payment error object. */
export interface TerminalErrorObject {
  type: 'global';
  message_key: 'Internal Error';
  message: string;
  code: string;
  /** The HTTP status of the terminal's reply; 0 when none came. */
  status: number;
  /** What was thrown (a timeout, a refused connection), when the transport failed. */
  error: string | null;
}

export class TerminalError extends ProviderError {
  constructor(
    readonly details: TerminalErrorObject,
    kind: 'permanent' | 'retryable',
  ) {
    super(
      TERMINAL_PROVIDER,
      kind,
      details.message || details.error || `terminal answered ${details.status}`,
      details.code || null,
    );
  }
}

/** The data of a status reply. */
export interface TerminalStatusData {
  requestId: string;
  status: string;
  ErrorCode: string;
  Message: string;
}

/** The §8 kiosk text for a status: null when nothing went wrong. */
export const terminalStatusText = (data: TerminalStatusData | null): string | null => {
  if (!data) return STATUS_CHECK_FAILED;
  if (!data.ErrorCode || data.ErrorCode === '0') return null;
  return `Error code - ${data.ErrorCode} ${data.Message}`;
};

export class TerminalAdapter implements PaymentsProvider {
  readonly name = TERMINAL_PROVIDER;

  constructor(
    private readonly settings: TerminalSettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** One call; answers the reply's `data` or throws the §3 error object. */
  private async post(path: string, body: object): Promise<Record<string, unknown>> {
    const reply = await requestJson(
      this.fetchImpl,
      `${this.settings.url.replace(/\/+$/, '')}${path}`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(body),
      },
      this.settings.timeoutMs,
    );
    if ('failure' in reply) {
      throw new TerminalError(
        {
          type: 'global',
          message_key: 'Internal Error',
          message: '',
          code: '',
          status: 0,
          error:
            reply.failure === 'timeout'
              ? 'the terminal did not answer in time'
              : 'the terminal could not be reached',
        },
        'retryable',
      );
    }
    const { status, ok, body: json } = reply;
    const data = (json as { data?: unknown } | null)?.data;
    if (ok && data && typeof data === 'object') return data as Record<string, unknown>;
    const err = (json ?? {}) as { message?: unknown; code?: unknown };
    const details: TerminalErrorObject = {
      type: 'global',
      message_key: 'Internal Error',
      message: typeof err.message === 'string' ? err.message.slice(0, 500) : '',
      code:
        typeof err.code === 'string' || typeof err.code === 'number'
          ? String(err.code).slice(0, 50)
          : '',
      status: status,
      error: ok ? 'the terminal answered no data' : null,
    };
    throw new TerminalError(details, status === 429 || status >= 500 ? 'retryable' : 'permanent');
  }

  async createCheckout(
    request: CheckoutRequest,
    _credentials: PaymentCredentials,
  ): Promise<Checkout> {
    const currency = request.total.currency;
    const decimal = (minor: number) => minorToDecimal(minor, currency);
    const data = await this.post('/fcc/pay', {
      amount: decimal(request.total.amount),
      taxAmount: decimal(request.tax.amount),
      storeId: this.settings.storeId,
      terminalId: this.settings.terminalId,
      laneId: this.settings.laneId,
      invoiceNumber: request.paymentId,
      merchantReferenceCode: request.reference,
      clientEnvironment: TERMINAL_CLIENT_ENVIRONMENT,
      currency,
      items: request.items.map((item) => ({
        sku: item.sku,
        description: item.description,
        quantity: item.quantity,
        unitPrice: decimal(item.unitPrice.amount),
      })),
    });
    const requestId = typeof data.requestId === 'string' ? data.requestId : '';
    if (!requestId || requestId.length > 200)
      throw new TerminalError(
        {
          type: 'global',
          message_key: 'Internal Error',
          message: 'the terminal answered no request id',
          code: '',
          status: 200,
          error: null,
        },
        'permanent',
      );
    return {
      providerPaymentId: requestId,
      handle: { kind: 'terminal', terminalId: this.settings.terminalId },
      expiresAt: null,
    };
  }

  /** The terminal's status reply (`data`) for a request. */
  async checkStatus(requestId: string): Promise<TerminalStatusData> {
    const data = await this.post('/fcc/check-status', { requestId });
    return {
      requestId: typeof data.requestId === 'string' ? data.requestId : requestId,
      status: typeof data.status === 'string' ? data.status.toUpperCase() : 'PENDING',
      ErrorCode:
        typeof data.ErrorCode === 'string' || typeof data.ErrorCode === 'number'
          ? String(data.ErrorCode)
          : '',
      Message: typeof data.Message === 'string' ? data.Message.slice(0, 500) : '',
    };
  }

  async status(
    providerPaymentId: string,
    _credentials: PaymentCredentials,
  ): Promise<PaymentStatus> {
    return terminalPaymentStatus(await this.checkStatus(providerPaymentId));
  }

  async cancel(providerPaymentId: string, _credentials: PaymentCredentials): Promise<void> {
    await this.post('/fcc/cancel', { requestId: providerPaymentId });
  }
}

/** A terminal's status as a payment status (TIMEOUT: the card never came, the sale is off). */
export const terminalPaymentStatus = (data: TerminalStatusData): PaymentStatus => {
  switch (data.status) {
    case 'APPROVED':
      return { state: 'paid', paid: { amount: 0, currency: 'USD' }, paidAt: new Date(0) };
    case 'DECLINED':
      return {
        state: 'failed',
        reason: `terminal_declined_${data.ErrorCode || 'unknown'}`.slice(0, 60),
      };
    case 'CANCELLED':
      return { state: 'cancelled' };
    case 'TIMEOUT':
      return { state: 'expired' };
    default:
      return { state: 'pending' };
  }
};
