import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An in-process stand-in for Stripe's Checkout Sessions API, written from Stripe's public API
 * reference (https://docs.stripe.com/api/checkout/sessions, /api/errors, /api/idempotent_requests,
 * /webhooks#verify-manually):
 * - `Authorization: Bearer <secret key>`; an unknown key is 401 `invalid_request_error` "Invalid
 *   API Key provided: sk_test_****<last 4>" (Stripe echoes part of the key).
 * - `POST /v1/checkout/sessions`, form-encoded with bracketed nesting: `mode` (required),
 *   `success_url` (required for the hosted page), `line_items[i][price_data][currency|unit_amount|
 *   product_data][name]`, `line_items[i][quantity]`, `client_reference_id`, `metadata[…]`;
 *   answers a `checkout.session` (`id` `cs_test_…`, `url`, `status` open, `payment_status` unpaid,
 *   `amount_total`, `currency`, `expires_at`). A total under $0.50 is 400 `amount_too_small`.
 * - `Idempotency-Key`: the same key with the same parameters answers the first response again; with
 *   other parameters 400 `idempotency_error`.
 * - `GET /v1/checkout/sessions/:id`; unknown → 404 `resource_missing`.
 * - `POST /v1/checkout/sessions/:id/expire`: only an `open` session, else 400.
 * - `GET /v1/account` (https://docs.stripe.com/api/accounts/retrieve): the key's own account
 *   (`{id: acct_…, object: 'account', business_profile: {name}, charges_enabled}`), a harmless call.
 * - `POST /v1/refunds` (https://docs.stripe.com/api/refunds/create): `payment_intent` (or
 *   `charge`) required; `amount` optional, defaults to what is left; answers a `refund` (`re_…`,
 *   status `succeeded`). An unknown intent is 404 `resource_missing`; a fully refunded charge 400
 *   `charge_already_refunded`; more than is left 400 `amount_too_large`.
 * - Events: `{id: evt_…, object: 'event', type, created, data: {object}}` signed with
 *   `Stripe-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * Test controls: `pay` (a card on the hosted page), `stall` (hold replies: a timeout), `event`.
 */

export const STRIPE_TEST_KEY = 'sk_test_51FlashbulbDoubleKey0123456789abcdef';
export const STRIPE_WEBHOOK_SECRET = 'whsec_flashbulb_double_signing_secret_0123456789';
export const CARD_PAYS = '4242424242424242';
export const CARD_DECLINED = '4000000000000002';

export interface StripeSessionObject {
  id: string;
  object: 'checkout.session';
  mode: string;
  url: string | null;
  status: 'open' | 'complete' | 'expired';
  payment_status: 'paid' | 'unpaid';
  amount_total: number;
  currency: string;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string | null;
  created: number;
  expires_at: number;
  payment_intent: string | null;
}

export interface StripeRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  idempotencyKey: string | undefined;
  contentType: string | undefined;
  form: Record<string, unknown>;
}

/** Stripe's bracketed form keys into nested objects and arrays (`a[b][0][c]=v`). */
export const parseStripeForm = (text: string): Record<string, unknown> => {
  const root: Record<string, unknown> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const path = key.split(/\[|\]\[|\]/).filter((p) => p !== '');
    let node: Record<string, unknown> = root;
    path.forEach((part, i) => {
      if (i === path.length - 1) node[part] = value;
      else node = (node[part] ??= /^\d+$/.test(path[i + 1]!) ? [] : {}) as Record<string, unknown>;
    });
  }
  return root;
};

const stripeError = (
  status: number,
  type: string,
  message: string,
  extra: Record<string, string> = {},
) => ({ status, body: { error: { type, message, ...extra } } });

export const startStripeDouble = async (options: { keys?: string[]; secret?: string } = {}) => {
  const keys = new Set(options.keys ?? [STRIPE_TEST_KEY]);
  const secret = options.secret ?? STRIPE_WEBHOOK_SECRET;
  const sessions = new Map<string, StripeSessionObject>();
  const idempotent = new Map<string, { params: string; status: number; body: object }>();
  const received: StripeRequest[] = [];
  const refunds: {
    id: string;
    object: 'refund';
    amount: number;
    payment_intent: string;
    status: string;
    metadata: Record<string, string>;
  }[] = [];
  let stalled: (() => void)[] | null = null;
  let url = '';

  const readBody = async (request: IncomingMessage) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8');
  };

  const createSession = (form: Record<string, unknown>) => {
    if (form.mode !== 'payment' && form.mode !== 'subscription' && form.mode !== 'setup')
      return stripeError(400, 'invalid_request_error', 'Missing required param: mode.', {
        param: 'mode',
        code: 'parameter_missing',
      });
    if (typeof form.success_url !== 'string' || !/^https?:\/\//.test(form.success_url))
      return stripeError(400, 'invalid_request_error', 'Missing required param: success_url.', {
        param: 'success_url',
        code: 'parameter_missing',
      });
    const items = form.line_items as
      { quantity?: string; price_data?: Record<string, unknown> }[] | undefined;
    if (!Array.isArray(items) || items.length === 0)
      return stripeError(400, 'invalid_request_error', 'Missing required param: line_items.', {
        param: 'line_items',
        code: 'parameter_missing',
      });
    let total = 0;
    let currency = '';
    for (const [i, item] of items.entries()) {
      const price = item.price_data ?? {};
      const unit = Number(price.unit_amount);
      const quantity = Number(item.quantity);
      const name = (price.product_data as { name?: string } | undefined)?.name;
      if (
        !Number.isInteger(unit) ||
        unit < 0 ||
        !Number.isInteger(quantity) ||
        quantity < 1 ||
        !name
      )
        return stripeError(400, 'invalid_request_error', `Invalid line_items[${i}].`, {
          param: `line_items[${i}]`,
          code: 'parameter_invalid_integer',
        });
      currency = typeof price.currency === 'string' ? price.currency : '';
      total += unit * quantity;
    }
    // A few of the currencies Stripe settles (lower-case ISO codes; amounts in the minor unit,
    // whole yen for the zero-decimal JPY). The minimum is 50 of the minor unit for each of them
    // ($0.50, €0.50, £0.30 is rounded up here, ¥50).
    if (!['usd', 'eur', 'gbp', 'jpy', 'chf', 'cad', 'aud'].includes(currency))
      return stripeError(400, 'invalid_request_error', 'Invalid currency.', { param: 'currency' });
    if (form.mode === 'payment' && total < 50)
      return stripeError(
        400,
        'invalid_request_error',
        "The Checkout Session's total amount due must add up to at least $0.50 usd",
        { code: 'amount_too_small' },
      );
    const id = `cs_test_${randomBytes(24).toString('hex')}`;
    const created = Math.floor(Date.now() / 1000);
    const session: StripeSessionObject = {
      id,
      object: 'checkout.session',
      mode: form.mode,
      url: `${url}/c/pay/${id}`,
      status: 'open',
      payment_status: 'unpaid',
      amount_total: total,
      currency,
      client_reference_id:
        typeof form.client_reference_id === 'string' ? form.client_reference_id : null,
      metadata: (form.metadata as Record<string, string> | undefined) ?? {},
      success_url: form.success_url,
      cancel_url: typeof form.cancel_url === 'string' ? form.cancel_url : null,
      created,
      expires_at: created + 24 * 3600,
      payment_intent: null,
    };
    sessions.set(id, session);
    return { status: 200, body: session };
  };

  const route = (request: StripeRequest): { status: number; body: object } => {
    const key = (request.authorization ?? '').replace(/^Bearer /, '');
    if (!keys.has(key))
      return stripeError(
        401,
        'invalid_request_error',
        key
          ? `Invalid API Key provided: ${key.slice(0, 8)}****${key.slice(-4)}`
          : 'You did not provide an API key.',
      );
    if (request.method === 'GET' && request.path === '/v1/account')
      return {
        status: 200,
        body: {
          id: 'acct_1FlashbulbDouble',
          object: 'account',
          business_profile: { name: 'Flashbulb Photos' },
          charges_enabled: true,
          country: 'US',
        },
      };
    if (request.method === 'POST' && request.path === '/v1/refunds') {
      const intent = request.form.payment_intent;
      if (typeof intent !== 'string' || !intent)
        return stripeError(
          400,
          'invalid_request_error',
          'Missing required param: payment_intent.',
          {
            param: 'payment_intent',
            code: 'parameter_missing',
          },
        );
      const charged = [...sessions.values()].find((s) => s.payment_intent === intent);
      if (!charged)
        return stripeError(404, 'invalid_request_error', `No such payment_intent: '${intent}'`, {
          code: 'resource_missing',
          param: 'payment_intent',
        });
      const left =
        charged.amount_total -
        refunds.filter((r) => r.payment_intent === intent).reduce((a, r) => a + r.amount, 0);
      if (left <= 0)
        return stripeError(
          400,
          'invalid_request_error',
          `Charge for ${intent} has already been refunded.`,
          {
            code: 'charge_already_refunded',
          },
        );
      const amount = request.form.amount === undefined ? left : Number(request.form.amount);
      if (!Number.isInteger(amount) || amount < 1 || amount > left)
        return stripeError(
          400,
          'invalid_request_error',
          'Refund amount is greater than unrefunded amount on charge',
          {
            code: 'amount_too_large',
            param: 'amount',
          },
        );
      const refund = {
        id: `re_${randomBytes(12).toString('hex')}`,
        object: 'refund' as const,
        amount,
        payment_intent: intent,
        status: 'succeeded',
        metadata: (request.form.metadata as Record<string, string> | undefined) ?? {},
      };
      refunds.push(refund);
      return { status: 200, body: refund };
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(request.path);
    const one = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(request.path);
    if (request.method === 'POST' && request.path === '/v1/checkout/sessions')
      return createSession(request.form);
    const session = sessions.get(decodeURIComponent((expire ?? one)?.[1] ?? ''));
    if ((expire || one) && !session)
      return stripeError(404, 'invalid_request_error', 'No such checkout.session', {
        code: 'resource_missing',
      });
    if (request.method === 'GET' && one && session) return { status: 200, body: session };
    if (request.method === 'POST' && expire && session) {
      if (session.status !== 'open')
        return stripeError(
          400,
          'invalid_request_error',
          'Only Checkout Sessions with a status in ["open"] can be expired.',
        );
      session.status = 'expired';
      session.url = null;
      return { status: 200, body: session };
    }
    return stripeError(404, 'invalid_request_error', `Unrecognized request URL (${request.path}).`);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const text = await readBody(request);
    const req: StripeRequest = {
      method: request.method ?? '',
      path: (request.url ?? '').split('?')[0]!,
      authorization: request.headers.authorization,
      idempotencyKey: request.headers['idempotency-key'] as string | undefined,
      contentType: request.headers['content-type'],
      form: parseStripeForm(text),
    };
    received.push(req);
    let answer: { status: number; body: object };
    const stored = req.idempotencyKey ? idempotent.get(req.idempotencyKey) : undefined;
    if (stored && req.method === 'POST') {
      answer =
        stored.params === text
          ? stored
          : stripeError(
              400,
              'idempotency_error',
              'Keys for idempotent requests can only be used with the same parameters they were first used with.',
            );
    } else {
      answer = route(req);
      if (req.idempotencyKey && req.method === 'POST' && answer.status < 500)
        idempotent.set(req.idempotencyKey, { params: text, ...answer });
    }
    const send = () => {
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        'request-id': `req_${randomBytes(7).toString('hex')}`,
      });
      response.end(JSON.stringify(answer.body));
    };
    // A stalled Stripe has done the work but holds the reply (the caller times out).
    if (stalled) stalled.push(send);
    else send();
  };

  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const event = (type: string, object: object, id = `evt_${randomBytes(12).toString('hex')}`) => ({
    id,
    object: 'event',
    api_version: '2024-06-20',
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    type,
    data: { object },
  });

  return {
    url,
    received,
    sessions,
    refunds,
    /** Holds every reply until `release()`: Stripe does the work, the caller times out. */
    stall() {
      stalled = [];
    },
    release() {
      const held = stalled ?? [];
      stalled = null;
      for (const send of held) send();
    },
    /**
     * A buyer's card on the hosted page. The test card completes the session (answers
     * `checkout.session.completed`); the declined card leaves it open, as Checkout does (the buyer
     * may try another card), and answers `payment_intent.payment_failed`.
     */
    pay(sessionId: string, card: string) {
      const session = sessions.get(sessionId);
      if (!session || session.status !== 'open') throw new Error(`session ${sessionId} not open`);
      const intent = `pi_${randomBytes(12).toString('hex')}`;
      if (card.replace(/\D/g, '') === CARD_DECLINED)
        return event('payment_intent.payment_failed', {
          id: intent,
          object: 'payment_intent',
          status: 'requires_payment_method',
          last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
        });
      if (card.replace(/\D/g, '') !== CARD_PAYS) throw new Error('not a test card');
      session.status = 'complete';
      session.payment_status = 'paid';
      session.payment_intent = intent;
      return event('checkout.session.completed', { ...session });
    },
    event,
    /** The webhook Stripe would send: raw body and `Stripe-Signature`. */
    signed(body: object, at = Math.floor(Date.now() / 1000), key = secret) {
      const raw = Buffer.from(JSON.stringify(body));
      const v1 = createHmac('sha256', key).update(`${at}.`).update(raw).digest('hex');
      return {
        headers: { 'content-type': 'application/json', 'stripe-signature': `t=${at},v1=${v1}` },
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

export type StripeDouble = Awaited<ReturnType<typeof startStripeDouble>>;
