import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An in-process stand-in for Square's Locations, Devices and Terminal APIs, written from Square's
 * public API reference (developer.squareup.com/reference/square: ListLocations, CreateDeviceCode,
 * GetDeviceCode, CreateTerminalCheckout, GetTerminalCheckout, CancelTerminalCheckout; webhooks
 * "Validate notifications"):
 * - `Authorization: Bearer <token>`; an unknown token is 401 `{errors: [{category:
 *   AUTHENTICATION_ERROR, code: UNAUTHORIZED, detail: "This request could not be authorized."}]}`.
 * - `POST /v2/devices/codes` needs `idempotency_key`, `device_code.product_type` TERMINAL_API and a
 *   known `location_id` (else 400 `INVALID_REQUEST_ERROR` / 404 `NOT_FOUND` with a detail); the code
 *   is UNPAIRED until the reader signs in (`pair`), then PAIRED with a `device_id`.
 * - `POST /v2/terminals/checkouts`: `amount_money`, `device_options.device_id`, `reference_id` of
 *   at most 40 characters (else 400 `VALUE_TOO_LONG`); idempotent by `idempotency_key`.
 * - `POST /v2/refunds {idempotency_key, payment_id, amount_money}`: only a COMPLETED payment, at
 *   most what it collected (else 400 `REFUND_AMOUNT_INVALID`); answers `{refund: {status: PENDING}}`.
 * - A checkout nobody pays within its deadline is CANCELED with `cancel_reason` TIMED_OUT; the buyer
 *   cancelling on the reader (after a declined card) is CANCELED / BUYER_CANCELED.
 * - Notifications: `x-square-hmacsha256-signature` = base64 HMAC-SHA256(signature key,
 *   notification URL + raw body); the body carries `event_id`, `type`, `data.object.checkout`.
 */

export const SQUARE_TOKEN = 'EAAAl-flashbulb-double-access-token-0123456789';
export const SQUARE_SIGNATURE_KEY = 'square-double-signature-key-abcdef';

interface DeviceCode {
  id: string;
  name: string;
  code: string;
  product_type: string;
  location_id: string;
  status: 'UNPAIRED' | 'PAIRED' | 'EXPIRED';
  device_id?: string;
  pair_by: string;
  created_at: string;
}

interface TerminalCheckout {
  id: string;
  amount_money: { amount: number; currency: string };
  reference_id?: string;
  note?: string;
  device_options: { device_id: string };
  status: 'PENDING' | 'IN_PROGRESS' | 'CANCEL_REQUESTED' | 'CANCELED' | 'COMPLETED';
  cancel_reason?: string;
  payment_ids?: string[];
}

const squareError = (status: number, category: string, code: string, detail: string) => ({
  status,
  body: { errors: [{ category, code, detail }] },
});

export const startSquareDouble = async (options: { token?: string } = {}) => {
  const token = options.token ?? SQUARE_TOKEN;
  const locations = [
    { id: 'L8RX2V9DSQ1M3', name: 'Main Hall', status: 'ACTIVE' },
    { id: 'LZ4QP7Y0W2K5B', name: 'Photo Booth Tent', status: 'ACTIVE' },
  ];
  const codes = new Map<string, DeviceCode>();
  const checkouts = new Map<string, TerminalCheckout>();
  const idempotent = new Map<string, { status: number; body: object }>();
  /** Refunded cents by Square payment id. */
  const refunds = new Map<string, number>();
  const received: { method: string; path: string; authorization?: string; body: unknown }[] = [];
  let stalled: (() => void)[] | null = null;

  const route = (
    method: string,
    path: string,
    authorization: string | undefined,
    body: Record<string, unknown>,
  ): { status: number; body: object } => {
    if (authorization !== `Bearer ${token}`)
      return squareError(
        401,
        'AUTHENTICATION_ERROR',
        'UNAUTHORIZED',
        'This request could not be authorized.',
      );
    if (method === 'GET' && path === '/v2/locations') return { status: 200, body: { locations } };
    if (method === 'POST' && path === '/v2/devices/codes') {
      const dc = (body.device_code ?? {}) as Record<string, unknown>;
      if (typeof body.idempotency_key !== 'string' || !body.idempotency_key)
        return squareError(
          400,
          'INVALID_REQUEST_ERROR',
          'MISSING_REQUIRED_PARAMETER',
          'Field must be set',
        );
      if (dc.product_type !== 'TERMINAL_API')
        return squareError(400, 'INVALID_REQUEST_ERROR', 'INVALID_VALUE', 'Invalid product_type');
      if (!locations.some((l) => l.id === dc.location_id))
        return squareError(
          404,
          'INVALID_REQUEST_ERROR',
          'NOT_FOUND',
          `Location \`${String(dc.location_id)}\` not found.`,
        );
      const code: DeviceCode = {
        id: `B3Z6NAMYQ${randomBytes(4).toString('hex').toUpperCase()}`,
        name: typeof dc.name === 'string' ? dc.name : '',
        code: randomBytes(3).toString('hex').toUpperCase(),
        product_type: 'TERMINAL_API',
        location_id: String(dc.location_id),
        status: 'UNPAIRED',
        pair_by: new Date(Date.now() + 5 * 60_000).toISOString(),
        created_at: new Date().toISOString(),
      };
      codes.set(code.id, code);
      return { status: 200, body: { device_code: code } };
    }
    const codeMatch = /^\/v2\/devices\/codes\/([^/]+)$/.exec(path);
    if (method === 'GET' && codeMatch) {
      const code = codes.get(decodeURIComponent(codeMatch[1]!));
      return code
        ? { status: 200, body: { device_code: code } }
        : squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Device code not found.');
    }
    if (method === 'POST' && path === '/v2/terminals/checkouts') {
      const c = (body.checkout ?? {}) as Record<string, unknown>;
      const reference = c.reference_id as string | undefined;
      if (reference && reference.length > 40)
        return squareError(
          400,
          'INVALID_REQUEST_ERROR',
          'VALUE_TOO_LONG',
          'Field must not be greater than 40 length',
        );
      const device = (c.device_options as { device_id?: string } | undefined)?.device_id;
      if (![...codes.values()].some((code) => code.device_id === device))
        return squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Device not found.');
      const amount = c.amount_money as TerminalCheckout['amount_money'] | undefined;
      if (!amount || !Number.isInteger(amount.amount) || amount.amount < 1)
        return squareError(400, 'INVALID_REQUEST_ERROR', 'INVALID_VALUE', 'Invalid amount_money');
      const checkout: TerminalCheckout = {
        id: `08YceKh7B3ZqO${randomBytes(4).toString('hex')}`,
        amount_money: amount,
        ...(reference ? { reference_id: reference } : {}),
        ...(typeof c.note === 'string' ? { note: c.note } : {}),
        device_options: { device_id: device! },
        status: 'PENDING',
      };
      checkouts.set(checkout.id, checkout);
      return { status: 200, body: { checkout } };
    }
    if (method === 'POST' && path === '/v2/refunds') {
      const paymentId = body.payment_id;
      const money = body.amount_money as { amount?: number; currency?: string } | undefined;
      if (typeof body.idempotency_key !== 'string' || !body.idempotency_key)
        return squareError(
          400,
          'INVALID_REQUEST_ERROR',
          'MISSING_REQUIRED_PARAMETER',
          'Field must be set',
        );
      const paid = [...checkouts.values()].find(
        (c) => c.status === 'COMPLETED' && c.payment_ids?.includes(String(paymentId)),
      );
      if (!paid)
        return squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Payment not found.');
      const already = refunds.get(String(paymentId)) ?? 0;
      if (!money?.amount || already + money.amount > paid.amount_money.amount)
        return squareError(
          400,
          'INVALID_REQUEST_ERROR',
          'REFUND_AMOUNT_INVALID',
          'The requested refund amount exceeds the amount available to refund.',
        );
      refunds.set(String(paymentId), already + money.amount);
      return {
        status: 200,
        body: {
          refund: {
            id: `${String(paymentId)}_${randomBytes(6).toString('hex')}`,
            status: 'PENDING',
            amount_money: money,
            payment_id: paymentId,
          },
        },
      };
    }
    const checkoutMatch = /^\/v2\/terminals\/checkouts\/([^/]+)(\/cancel)?$/.exec(path);
    if (checkoutMatch) {
      const checkout = checkouts.get(decodeURIComponent(checkoutMatch[1]!));
      if (!checkout)
        return squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', 'Checkout not found.');
      if (method === 'GET' && !checkoutMatch[2]) return { status: 200, body: { checkout } };
      if (method === 'POST' && checkoutMatch[2]) {
        if (checkout.status === 'COMPLETED')
          return squareError(
            400,
            'INVALID_REQUEST_ERROR',
            'BAD_REQUEST',
            'Checkout is already completed.',
          );
        checkout.status = 'CANCELED';
        checkout.cancel_reason = 'SELLER_CANCELED';
        return { status: 200, body: { checkout } };
      }
    }
    return squareError(404, 'INVALID_REQUEST_ERROR', 'NOT_FOUND', `No route ${method} ${path}`);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    const method = request.method ?? '';
    const path = (request.url ?? '').split('?')[0]!;
    received.push({ method, path, authorization: request.headers.authorization, body });
    const key =
      method === 'POST' && typeof body.idempotency_key === 'string'
        ? `${path}:${body.idempotency_key}`
        : null;
    let answer = key ? idempotent.get(key) : undefined;
    if (!answer) {
      answer = route(method, path, request.headers.authorization, body);
      if (key && answer.status < 500) idempotent.set(key, answer);
    }
    const reply = answer;
    const send = () => {
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.body));
    };
    if (stalled) stalled.push(send);
    else send();
  };

  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const notification = (checkout: TerminalCheckout, eventId: string = randomUUID()) => ({
    merchant_id: 'MLFLASHBULB01',
    type: 'terminal.checkout.updated',
    event_id: eventId,
    created_at: new Date().toISOString(),
    data: { type: 'checkout.event', id: checkout.id, object: { checkout: { ...checkout } } },
  });

  return {
    url,
    locations,
    codes,
    checkouts,
    received,
    stall() {
      stalled = [];
    },
    release() {
      const held = stalled ?? [];
      stalled = null;
      for (const send of held) send();
    },
    /** The reader signs in with the code: the code is PAIRED and carries the device id. */
    pair(code: string): string {
      const found = [...codes.values()].find((c) => c.code === code);
      if (!found) throw new Error(`no device code ${code}`);
      found.status = 'PAIRED';
      found.device_id = `device:${randomBytes(8).toString('hex').toUpperCase()}`;
      return found.device_id;
    },
    /** The buyer taps a card on the reader: the checkout completes; answers the notification. */
    complete(checkoutId: string) {
      const checkout = checkouts.get(checkoutId)!;
      checkout.status = 'COMPLETED';
      checkout.payment_ids = [`pay_sq_${randomBytes(6).toString('hex')}`];
      return notification(checkout);
    },
    /** Nobody paid within the deadline: Square cancels it as TIMED_OUT; answers the notification. */
    timeOut(checkoutId: string) {
      const checkout = checkouts.get(checkoutId)!;
      checkout.status = 'CANCELED';
      checkout.cancel_reason = 'TIMED_OUT';
      return notification(checkout);
    },
    /** The card was declined and the buyer gave up on the reader; answers the notification. */
    decline(checkoutId: string) {
      const checkout = checkouts.get(checkoutId)!;
      checkout.status = 'CANCELED';
      checkout.cancel_reason = 'BUYER_CANCELED';
      return notification(checkout);
    },
    refunds,
    notification,
    /** A notification as Square posts it to `notificationUrl`. */
    signed(body: object, notificationUrl: string, key = SQUARE_SIGNATURE_KEY) {
      const raw = Buffer.from(JSON.stringify(body));
      const signature = createHmac('sha256', key)
        .update(notificationUrl)
        .update(raw)
        .digest('base64');
      return {
        headers: { 'content-type': 'application/json', 'x-square-hmacsha256-signature': signature },
        body: raw,
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const send of stalled ?? []) send();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type SquareDouble = Awaited<ReturnType<typeof startSquareDouble>>;
