import {
  createSign,
  createVerify,
  generateKeyPairSync,
  randomBytes,
  randomUUID,
} from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An in-process stand-in for PayPal's REST API, written from PayPal's public API reference
 * (developer.paypal.com: /api/rest/authentication, /docs/api/orders/v2, /api/rest/idempotency,
 * /api/webhooks/v1/#verify-webhook-signature, /api/rest/webhooks/rest#link-eventnotificationpayload,
 * /api/rest/troubleshooting/rest_unprocessable_entity):
 * - `POST /v1/oauth2/token`, `Authorization: Basic base64(client_id:secret)`,
 *   `grant_type=client_credentials` → `{access_token, token_type: 'Bearer', expires_in}`; wrong
 *   credentials 401 `{error: 'invalid_client', error_description: 'Client Authentication failed'}`.
 * - Every other call needs `Authorization: Bearer <token>`; else 401 `AUTHENTICATION_FAILURE`.
 * - `POST /v2/checkout/orders` (`intent` CAPTURE, `purchase_units[0].amount {currency_code, value,
 *   breakdown.item_total}` that must equal the items' sum, else 422 `ITEM_TOTAL_MISMATCH`; a
 *   non-USD order 422 `CURRENCY_NOT_SUPPORTED`; no intent 400 `INVALID_REQUEST`) → 201 order
 *   `CREATED`. `PayPal-Request-Id`: the same id answers the first order again.
 * - `GET /v2/checkout/orders/:id` (404 `RESOURCE_NOT_FOUND`).
 * - `POST /v2/checkout/orders/:id/capture`: 422 `ORDER_NOT_APPROVED` before the buyer approved,
 *   `INSTRUMENT_DECLINED` for a declined card (the order stays APPROVED for another card),
 *   `ORDER_ALREADY_CAPTURED` after; else 201, the order `COMPLETED` with a `COMPLETED` capture.
 * - `POST /v1/notifications/verify-webhook-signature` {auth_algo, cert_url, transmission_id,
 *   transmission_sig, transmission_time, webhook_id, webhook_event} → `{verification_status:
 *   SUCCESS | FAILURE}`. PayPal signs `<transmission id>|<transmission time>|<webhook id>|<CRC32 of
 *   the body, decimal>` with SHA256withRSA (its certificate at cert_url); this double does the same
 *   with its own key, over the body as it serialises the event.
 * - The JavaScript SDK (`GET /sdk/js?client-id=…&currency=USD&intent=capture&components=buttons`,
 *   developer.paypal.com/sdk/js/reference): PayPal's own script cannot be downloaded here, so the
 *   double serves a stand-in with the part of its documented surface the album page uses:
 *   `paypal.FUNDING`, `paypal.Buttons({fundingSource, createOrder, onApprove, onCancel, onError})`
 *   with `isEligible()`, `render(container)` and `close()`. Its "Debit or Credit Card" button opens a
 *   card form; paying calls `createOrder()`, approves the order here with the card (as PayPal's
 *   hosted card form would: `POST /sdk/approve`, the double's only non-PayPal path) and then
 *   `onApprove({orderID})`. Like the real SDK it refuses to load without a `client-id`, and only
 *   USD is set up.
 * Test controls: `approve` (the buyer's card in PayPal's card form), `stall`, `webhook`.
 */

export const PAYPAL_CLIENT_ID = 'AFlashbulbDoubleClientId0123456789';
export const PAYPAL_CLIENT_SECRET = 'EFlashbulbDoubleClientSecret9876543210secret';
export const PAYPAL_WEBHOOK_ID = '8PT597110X687430LKGECATA';
export const CARD_PAYS = '4111111111111111';
export const CARD_DECLINED = '4000000000000002';

export interface PayPalRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  requestId: string | undefined;
  json: Record<string, unknown> | null;
}

interface Order {
  id: string;
  intent: string;
  status: 'CREATED' | 'APPROVED' | 'COMPLETED';
  purchase_units: Record<string, unknown>[];
  card: string | null;
  create_time: string;
}

/**
 * The JavaScript SDK stand-in (see above). Plain ES5 in a string: it runs in the browser as
 * PayPal's script would, with the element names and labels of PayPal's card form.
 */
const SDK_STAND_IN = String.raw`(function () {
  var script = document.currentScript;
  var src = new URL(script.src);
  var params = src.searchParams;
  if (!params.get('client-id')) throw new Error("SDK Validation error: 'Expected client-id to be passed'");
  var currency = params.get('currency') || 'USD';
  var FUNDING = { PAYPAL: 'paypal', CARD: 'card', VENMO: 'venmo', PAYLATER: 'paylater', CREDIT: 'credit' };
  function el(tag, attrs, text) {
    var node = document.createElement(tag);
    for (var k in attrs) node.setAttribute(k, attrs[k]);
    if (text) node.textContent = text;
    return node;
  }
  function Buttons(options) {
    options = options || {};
    var root = null;
    var funding = options.fundingSource;
    return {
      isEligible: function () {
        return currency === 'USD' && (funding === undefined || funding === FUNDING.CARD || funding === FUNDING.PAYPAL);
      },
      render: function (container) {
        var host = typeof container === 'string' ? document.querySelector(container) : container;
        if (!host) return Promise.reject(new Error('Document is ready and element ' + container + ' does not exist'));
        root = el('div', { 'class': 'paypal-buttons paypal-buttons-context-iframe', 'data-funding-source': funding || 'paypal' });
        root.style.cssText = 'display:grid;gap:10px;font:15px/1.4 system-ui,sans-serif;max-width:750px;';
        var open = el('button', { type: 'button' }, 'Debit or Credit Card');
        open.style.cssText = 'min-height:45px;border:0;border-radius:4px;background:#2c2e2f;color:#fff;font-weight:600;cursor:pointer;';
        var form = el('form', { 'aria-label': 'Card details' });
        form.hidden = true;
        form.style.cssText = 'display:grid;gap:8px;';
        function field(label, name, auto) {
          var wrap = el('label', {}, label);
          wrap.style.cssText = 'display:grid;gap:4px;font-size:13px;color:#333;';
          var input = el('input', { name: name, autocomplete: auto, inputmode: 'numeric', required: 'required' });
          input.style.cssText = 'min-height:40px;padding:0 10px;border:1px solid #aaa;border-radius:4px;font-size:16px;';
          wrap.appendChild(input);
          form.appendChild(wrap);
          return input;
        }
        var number = field('Card number', 'cardnumber', 'cc-number');
        field('Expires', 'exp-date', 'cc-exp');
        field('Security code', 'cvv', 'cc-csc');
        var pay = el('button', { type: 'submit' }, 'Pay Now');
        pay.style.cssText = 'min-height:45px;border:0;border-radius:4px;background:#0070ba;color:#fff;font-weight:600;cursor:pointer;';
        form.appendChild(pay);
        open.addEventListener('click', function () { form.hidden = false; open.hidden = true; number.focus(); });
        form.addEventListener('submit', function (e) {
          e.preventDefault();
          pay.disabled = true;
          var actions = { restart: function () { pay.disabled = false; return Promise.resolve(); } };
          Promise.resolve()
            .then(function () { return options.createOrder ? options.createOrder({ paymentSource: funding || 'paypal' }, {}) : Promise.reject(new Error('createOrder is required')); })
            .then(function (orderID) {
              return fetch(src.origin + '/sdk/approve', { method: 'POST', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ orderID: orderID, card: number.value }) })
                .then(function (r) { if (!r.ok) throw new Error('Order could not be approved'); return orderID; });
            })
            .then(function (orderID) {
              return options.onApprove && options.onApprove({ orderID: orderID, payerID: null, paymentSource: funding || 'paypal' }, actions);
            })
            .then(function () { pay.disabled = false; }, function (error) {
              pay.disabled = false;
              if (options.onError) options.onError(error); else throw error;
            });
        });
        root.appendChild(open);
        root.appendChild(form);
        host.appendChild(root);
        return Promise.resolve();
      },
      close: function () {
        if (root && root.parentNode) root.parentNode.removeChild(root);
        root = null;
        return Promise.resolve();
      },
    };
  }
  window.paypal = { Buttons: Buttons, FUNDING: FUNDING, version: '5-flashbulb-double' };
})();
`;

/** CRC-32 (IEEE), as PayPal computes it over the webhook body. */
const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
export const crc32 = (data: Buffer): number => {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

const issue = (status: number, name: string, issueName: string, description: string) => ({
  status,
  body: {
    name,
    message: 'The requested action could not be performed.',
    debug_id: randomBytes(6).toString('hex'),
    details: [{ issue: issueName, description }],
  },
});

export const startPayPalDouble = async (options: { webhookId?: string } = {}) => {
  const webhookId = options.webhookId ?? PAYPAL_WEBHOOK_ID;
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const tokens = new Set<string>();
  const orders = new Map<string, Order>();
  const byRequestId = new Map<string, { status: number; body: object }>();
  const received: PayPalRequest[] = [];
  /** The SDK stand-in's loads (path and query), as the album page asked for it. */
  const sdkLoads: string[] = [];
  let stalled: (() => void)[] | null = null;
  let url = '';

  const view = (order: Order) => ({
    id: order.id,
    intent: order.intent,
    status: order.status,
    purchase_units: order.purchase_units,
    create_time: order.create_time,
    links: [
      { href: `${url}/v2/checkout/orders/${order.id}`, rel: 'self', method: 'GET' },
      { href: `${url}/checkoutnow?token=${order.id}`, rel: 'approve', method: 'GET' },
    ],
  });

  const createOrder = (json: Record<string, unknown> | null) => {
    if (json?.intent !== 'CAPTURE' && json?.intent !== 'AUTHORIZE')
      return issue(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'intent is required');
    const units = json.purchase_units as Record<string, unknown>[] | undefined;
    if (!Array.isArray(units) || units.length === 0)
      return issue(400, 'INVALID_REQUEST', 'MISSING_REQUIRED_PARAMETER', 'purchase_units');
    for (const unit of units) {
      const amount = unit.amount as
        | {
            currency_code?: string;
            value?: string;
            breakdown?: { item_total?: { value?: string } };
          }
        | undefined;
      if (!amount || !/^\d+(\.\d{1,2})?$/.test(amount.value ?? ''))
        return issue(400, 'INVALID_REQUEST', 'INVALID_PARAMETER_VALUE', 'amount.value');
      if (amount.currency_code !== 'USD')
        return issue(422, 'UNPROCESSABLE_ENTITY', 'CURRENCY_NOT_SUPPORTED', 'currency');
      const items = (unit.items ?? []) as { quantity?: string; unit_amount?: { value?: string } }[];
      if (items.length > 0) {
        const sum = items.reduce(
          (s, i) => s + Math.round(Number(i.unit_amount?.value) * 100) * Number(i.quantity),
          0,
        );
        const stated = Math.round(Number(amount.breakdown?.item_total?.value) * 100);
        if (sum !== stated)
          return issue(422, 'UNPROCESSABLE_ENTITY', 'ITEM_TOTAL_MISMATCH', 'item total');
      }
    }
    const id = randomBytes(8).toString('hex').toUpperCase().slice(0, 17);
    const order: Order = {
      id,
      intent: json.intent,
      status: 'CREATED',
      purchase_units: units.map((u) => ({ ...u })),
      card: null,
      create_time: new Date().toISOString(),
    };
    orders.set(id, order);
    return { status: 201, body: view(order) };
  };

  const capture = (order: Order) => {
    if (order.status === 'COMPLETED')
      return issue(422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED', 'already captured');
    if (order.status !== 'APPROVED')
      return issue(422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED', 'payer has not approved');
    if (order.card === CARD_DECLINED)
      return issue(422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED', 'instrument declined');
    order.status = 'COMPLETED';
    const unit = order.purchase_units[0] as {
      amount: { currency_code: string; value: string };
      payments?: unknown;
    };
    unit.payments = {
      captures: [
        {
          id: randomBytes(8).toString('hex').toUpperCase(),
          status: 'COMPLETED',
          amount: { currency_code: unit.amount.currency_code, value: unit.amount.value },
          create_time: new Date().toISOString(),
        },
      ],
    };
    return { status: 201, body: view(order) };
  };

  const verify = (json: Record<string, unknown> | null) => {
    const failure = { status: 200, body: { verification_status: 'FAILURE' } };
    for (const f of [
      'auth_algo',
      'cert_url',
      'transmission_id',
      'transmission_sig',
      'transmission_time',
      'webhook_id',
    ])
      if (typeof json?.[f] !== 'string' || !json[f])
        return issue(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', f);
    if (!json!.webhook_event || typeof json!.webhook_event !== 'object')
      return issue(400, 'VALIDATION_ERROR', 'MISSING_REQUIRED_PARAMETER', 'webhook_event');
    if (json!.auth_algo !== 'SHA256withRSA') return failure;
    const crc = crc32(Buffer.from(JSON.stringify(json!.webhook_event)));
    const signed = `${String(json!.transmission_id)}|${String(json!.transmission_time)}|${String(json!.webhook_id)}|${crc}`;
    let ok = false;
    try {
      ok = createVerify('RSA-SHA256')
        .update(signed)
        .verify(publicKey, Buffer.from(json!.transmission_sig as string, 'base64'));
    } catch {
      ok = false;
    }
    return ok ? { status: 200, body: { verification_status: 'SUCCESS' } } : failure;
  };

  const route = (req: PayPalRequest, text: string): { status: number; body: object } => {
    if (req.method === 'POST' && req.path === '/v1/oauth2/token') {
      const basic = Buffer.from(
        (req.authorization ?? '').replace(/^Basic /, ''),
        'base64',
      ).toString();
      if (basic !== `${PAYPAL_CLIENT_ID}:${PAYPAL_CLIENT_SECRET}`)
        return {
          status: 401,
          body: { error: 'invalid_client', error_description: 'Client Authentication failed' },
        };
      if (new URLSearchParams(text).get('grant_type') !== 'client_credentials')
        return { status: 400, body: { error: 'unsupported_grant_type' } };
      const token = `A21AA${randomBytes(24).toString('hex')}`;
      tokens.add(token);
      return {
        status: 200,
        body: {
          scope: 'https://uri.paypal.com/services/payments/payment',
          access_token: token,
          token_type: 'Bearer',
          app_id: 'APP-FLASHBULB',
          expires_in: 32400,
          nonce: randomUUID(),
        },
      };
    }
    if (!tokens.has((req.authorization ?? '').replace(/^Bearer /, '')))
      return issue(401, 'AUTHENTICATION_FAILURE', 'INVALID_TOKEN', 'Authentication failed');
    if (req.method === 'POST' && req.path === '/v1/notifications/verify-webhook-signature')
      return verify(req.json);
    if (req.method === 'POST' && req.path === '/v2/checkout/orders') return createOrder(req.json);
    const m = /^\/v2\/checkout\/orders\/([^/]+)(\/capture)?$/.exec(req.path);
    const order = m ? orders.get(decodeURIComponent(m[1]!)) : undefined;
    if (!m || !order)
      return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'resource does not exist');
    if (req.method === 'GET' && !m[2]) return { status: 200, body: view(order) };
    if (req.method === 'POST' && m[2]) return capture(order);
    return issue(404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID', 'resource does not exist');
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const path = (request.url ?? '').split('?')[0];
    if (request.method === 'GET' && path === '/sdk/js') {
      sdkLoads.push(request.url ?? '');
      response.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' });
      response.end(SDK_STAND_IN);
      return;
    }
    if (request.method === 'POST' && path === '/sdk/approve') {
      // The stand-in's card form (cross-origin, a simple request: text/plain, no preflight).
      let answer = { status: 422, body: { name: 'UNPROCESSABLE_ENTITY' } as object };
      try {
        const { orderID, card } = JSON.parse(text) as { orderID: string; card: string };
        const order = orders.get(orderID);
        if (order && order.status === 'CREATED') {
          order.status = 'APPROVED';
          order.card = card.replace(/\D/g, '');
          answer = { status: 200, body: { id: orderID, status: 'APPROVED' } };
        }
      } catch {
        // answered 422 below
      }
      response.writeHead(answer.status, {
        'content-type': 'application/json',
        'access-control-allow-origin': '*',
      });
      response.end(JSON.stringify(answer.body));
      return;
    }
    let json: Record<string, unknown> | null = null;
    try {
      json =
        text && request.headers['content-type']?.includes('json')
          ? (JSON.parse(text) as Record<string, unknown>)
          : null;
    } catch {
      json = null;
    }
    const req: PayPalRequest = {
      method: request.method ?? '',
      path: (request.url ?? '').split('?')[0]!,
      authorization: request.headers.authorization,
      requestId: request.headers['paypal-request-id'] as string | undefined,
      json,
    };
    received.push(req);
    const key = req.requestId ? `${req.path}|${req.requestId}` : null;
    let answer = key ? byRequestId.get(key) : undefined;
    if (!answer) {
      answer = route(req, text);
      if (key && answer.status < 300) byRequestId.set(key, answer);
    }
    const reply = answer;
    const send = () => {
      response.writeHead(reply.status, {
        'content-type': 'application/json',
        'paypal-debug-id': randomBytes(6).toString('hex'),
      });
      response.end(JSON.stringify(reply.body));
    };
    if (stalled && req.path !== '/v1/oauth2/token') stalled.push(send);
    else send();
  };

  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** A webhook as PayPal sends it: the event body and the `PAYPAL-*` transmission headers. */
  const webhook = (
    type: string,
    orderId: string,
    options: { at?: Date; id?: string; sign?: 'ok' | 'other-key' | 'other-webhook' } = {},
  ) => {
    const order = orders.get(orderId);
    const unit = (order?.purchase_units[0] ?? {}) as {
      amount?: object;
      custom_id?: string;
      payments?: { captures?: { id: string }[] };
    };
    const event = {
      id: options.id ?? `WH-${randomBytes(8).toString('hex').toUpperCase()}`,
      event_version: '1.0',
      create_time: (options.at ?? new Date()).toISOString(),
      resource_type: 'capture',
      resource_version: '2.0',
      event_type: type,
      summary: `Payment ${type}`,
      resource: {
        id: unit.payments?.captures?.[0]?.id ?? randomBytes(8).toString('hex').toUpperCase(),
        status: type === 'PAYMENT.CAPTURE.COMPLETED' ? 'COMPLETED' : 'DECLINED',
        amount: unit.amount,
        custom_id: unit.custom_id,
        supplementary_data: { related_ids: { order_id: orderId } },
      },
    };
    const body = Buffer.from(JSON.stringify(event));
    const transmissionId = randomUUID();
    const time = (options.at ?? new Date()).toISOString();
    const signedFor = options.sign === 'other-webhook' ? 'WH0THERWEBHOOK' : webhookId;
    const keyToUse =
      options.sign === 'other-key'
        ? generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey
        : privateKey;
    const sig = createSign('RSA-SHA256')
      .update(`${transmissionId}|${time}|${signedFor}|${crc32(body)}`)
      .sign(keyToUse)
      .toString('base64');
    return {
      event,
      body,
      headers: {
        'content-type': 'application/json',
        'paypal-auth-algo': 'SHA256withRSA',
        'paypal-cert-url': `${url}/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77`,
        'paypal-transmission-id': transmissionId,
        'paypal-transmission-sig': sig,
        'paypal-transmission-time': time,
      } as Record<string, string>,
    };
  };

  return {
    url,
    /** The SDK stand-in's URL without its query (the server's `PAYPAL_SDK_URL`). */
    sdkUrl: `${url}/sdk/js`,
    sdkLoads,
    received,
    orders,
    /** The buyer approves the order in PayPal's card form with this card (capture follows). */
    approve(orderId: string, card: string) {
      const order = orders.get(orderId);
      if (!order || order.status === 'COMPLETED') throw new Error(`order ${orderId} not open`);
      order.status = 'APPROVED';
      order.card = card.replace(/\D/g, '');
    },
    /** PayPal captured on its side (as after a capture whose reply was lost). */
    captureNow(orderId: string) {
      return capture(orders.get(orderId)!);
    },
    stall() {
      stalled = [];
    },
    release() {
      const held = stalled ?? [];
      stalled = null;
      for (const send of held) send();
    },
    webhook,
    close: () =>
      new Promise<void>((resolve) => {
        for (const send of stalled ?? []) send();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};

export type PayPalDouble = Awaited<ReturnType<typeof startPayPalDouble>>;
