import { createHmac, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An in-process stand-in for Shopify's Admin REST API draft orders and orders, written from
 * Shopify's public reference (shopify.dev/docs/api/admin-rest: DraftOrder create / get / complete /
 * send_invoice, Order get; webhooks "Verify webhooks"):
 * - `X-Shopify-Access-Token`; an unknown token is 401 `{errors: "[API] Invalid API key or access
 *   token (unrecognized login or wrong password)"}`.
 * - `POST /admin/api/<v>/draft_orders.json`: line items need a title and a decimal `price` (else
 *   422 `{errors: {line_items: […]}}`); answers 201 with `status: open` and an `invoice_url`.
 * - `PUT …/draft_orders/:id/complete.json?payment_pending=` makes an order (`financial_status`
 *   `paid`, or `pending` with payment_pending=true); completing twice is 422.
 * - `POST …/send_invoice.json {draft_order_invoice: {to}}` → 201.
 * - Refund resource: `POST …/orders/:id/refunds/calculate.json {refund: {refund_line_items}}`
 *   answers `{refund: {transactions: [{parent_id, amount, kind: suggested_refund, gateway}]}}` for
 *   what is still refundable; `POST …/orders/:id/refunds.json {refund: {transactions: [{parent_id,
 *   amount, kind: refund, gateway}]}}` → 201 `{refund: {id, transactions}}`, the order
 *   `refunded` once nothing is left; more than the refundable amount, an unknown parent or an
 *   unpaid order is 422 `{errors: {base: […]}}`.
 * - `GET …/shop.json` (Shop resource): `{shop: {id, name, myshopify_domain, currency}}`, a
 *   harmless call to test a token.
 * - Webhooks: `X-Shopify-Hmac-Sha256` = base64 HMAC-SHA256(app secret, raw body),
 *   `X-Shopify-Topic`, `X-Shopify-Webhook-Id`, `X-Shopify-Shop-Domain`.
 */

export const SHOPIFY_TOKEN = 'shpat_flashbulb_double_0123456789abcdef';
export const SHOPIFY_WEBHOOK_SECRET = 'shopify-double-app-secret-42';
export const SHOP_DOMAIN = 'flashbulb-photos.myshopify.com';

interface DraftOrder {
  id: number;
  status: 'open' | 'invoice_sent' | 'completed';
  invoice_url: string;
  line_items: { title: string; price: string; quantity: number; sku?: string }[];
  tags: string;
  shipping_address?: Record<string, string>;
  note_attributes: { name: string; value: string }[];
  email?: string;
  order_id: number | null;
  total_price: string;
  currency: 'USD';
}
interface Order {
  id: number;
  financial_status: 'pending' | 'paid' | 'refunded';
  total_price: string;
  currency: 'USD';
  note_attributes: { name: string; value: string }[];
  line_items: { id: number; title: string; price: string; quantity: number }[];
  /** Sale and refund transactions (cents kept as decimal strings, as Shopify answers them). */
  transactions: {
    id: number;
    kind: 'sale' | 'refund';
    amount: string;
    gateway: string;
    parent_id?: number;
  }[];
}

const VERSION_PATH = /^\/admin\/api\/\d{4}-\d{2}\//;

export const startShopifyDouble = async () => {
  const drafts = new Map<number, DraftOrder>();
  const orders = new Map<number, Order>();
  const invoices: { draftId: number; to: string; subject?: string; custom_message?: string }[] = [];
  /** Refunds made, by order, in cents. */
  const refunds: { orderId: number; amount: number }[] = [];
  const received: { method: string; path: string; token?: string; body: unknown }[] = [];
  let nextId = 1_000_001;
  let stalled: (() => void)[] | null = null;

  /** The order a completed draft becomes (paid: with its sale transaction). */
  const orderOf = (draft: DraftOrder, paid: boolean): Order => {
    const order: Order = {
      id: nextId++,
      financial_status: paid ? 'paid' : 'pending',
      total_price: draft.total_price,
      currency: 'USD',
      note_attributes: draft.note_attributes,
      line_items: draft.line_items.map((item) => ({
        id: nextId++,
        title: item.title,
        price: item.price,
        quantity: item.quantity,
      })),
      transactions: [],
    };
    if (paid) pay(order);
    return order;
  };
  const pay = (order: Order) => {
    order.financial_status = 'paid';
    if (!order.transactions.some((t) => t.kind === 'sale'))
      order.transactions.push({
        id: nextId++,
        kind: 'sale',
        amount: order.total_price,
        gateway: 'manual',
      });
  };
  const cents = (value: string) => Math.round(Number(value) * 100);
  /** What is left to refund of a sale transaction. */
  const refundable = (order: Order, saleId: number) => {
    const sale = order.transactions.find((t) => t.id === saleId && t.kind === 'sale');
    if (!sale) return null;
    const back = order.transactions
      .filter((t) => t.kind === 'refund' && t.parent_id === saleId)
      .reduce((sum, t) => sum + cents(t.amount), 0);
    return cents(sale.amount) - back;
  };
  const unprocessable = (text: string) => ({ status: 422, body: { errors: { base: [text] } } });

  const refundRoute = (order: Order, calculate: boolean, body: Record<string, unknown>) => {
    if (order.financial_status === 'pending')
      return unprocessable('Order has no transactions that can be refunded');
    const sales = order.transactions.filter((t) => t.kind === 'sale');
    if (calculate)
      return {
        status: 200,
        body: {
          refund: {
            refund_line_items:
              (body.refund as { refund_line_items?: unknown[] } | undefined)?.refund_line_items ??
              [],
            transactions: sales
              .map((sale) => ({ sale, left: refundable(order, sale.id)! }))
              .filter(({ left }) => left > 0)
              .map(({ sale, left }) => ({
                order_id: order.id,
                parent_id: sale.id,
                kind: 'suggested_refund',
                gateway: sale.gateway,
                amount: (left / 100).toFixed(2),
                maximum_refundable: (left / 100).toFixed(2),
              })),
          },
        },
      };
    const asked = ((body.refund as { transactions?: unknown[] } | undefined)?.transactions ??
      []) as { parent_id?: number; amount?: string; kind?: string; gateway?: string }[];
    for (const t of asked) {
      const left = refundable(order, Number(t.parent_id));
      if (left === null || t.kind !== 'refund') return unprocessable('Transaction is invalid');
      if (!/^\d+(\.\d{1,2})?$/.test(String(t.amount)) || cents(String(t.amount)) > left)
        return unprocessable('Refund amount must be less than or equal to the refundable amount');
    }
    const made = asked.map((t) => ({
      id: nextId++,
      kind: 'refund' as const,
      parent_id: Number(t.parent_id),
      amount: String(t.amount),
      gateway: t.gateway ?? 'manual',
      status: 'success',
    }));
    order.transactions.push(...made);
    if (sales.every((sale) => refundable(order, sale.id)! <= 0))
      order.financial_status = 'refunded';
    refunds.push({ orderId: order.id, amount: made.reduce((sum, t) => sum + cents(t.amount), 0) });
    return {
      status: 201,
      body: { refund: { id: nextId++, order_id: order.id, transactions: made } },
    };
  };

  const route = (
    method: string,
    url: URL,
    token: string | undefined,
    body: Record<string, unknown>,
  ) => {
    if (token !== SHOPIFY_TOKEN)
      return {
        status: 401,
        body: {
          errors: '[API] Invalid API key or access token (unrecognized login or wrong password)',
        },
      };
    if (!VERSION_PATH.test(url.pathname)) return { status: 404, body: { errors: 'Not Found' } };
    const path = url.pathname.replace(VERSION_PATH, '');
    if (method === 'GET' && path === 'shop.json')
      return {
        status: 200,
        body: {
          shop: {
            id: 548380009,
            name: 'Flashbulb Photos',
            myshopify_domain: SHOP_DOMAIN,
            currency: 'USD',
          },
        },
      };
    if (method === 'POST' && path === 'draft_orders.json') {
      const d = (body.draft_order ?? {}) as Record<string, unknown>;
      const items = Array.isArray(d.line_items) ? (d.line_items as DraftOrder['line_items']) : [];
      if (
        items.length === 0 ||
        items.some((i) => !i.title || !/^\d+\.\d{2}$/.test(String(i.price)))
      )
        return { status: 422, body: { errors: { line_items: ['must have a title and a price'] } } };
      const id = nextId++;
      const total = items.reduce(
        (sum, i) => sum + Math.round(Number(i.price) * 100) * i.quantity,
        0,
      );
      const draft: DraftOrder = {
        id,
        status: 'open',
        invoice_url: `https://${SHOP_DOMAIN}/1234/invoices/${randomUUID().replaceAll('-', '')}`,
        line_items: items,
        tags: typeof d.tags === 'string' ? d.tags : '',
        ...(d.shipping_address
          ? { shipping_address: d.shipping_address as Record<string, string> }
          : {}),
        note_attributes: (d.note_attributes as DraftOrder['note_attributes']) ?? [],
        ...(typeof d.email === 'string' ? { email: d.email } : {}),
        order_id: null,
        total_price: (total / 100).toFixed(2),
        currency: 'USD',
      };
      drafts.set(id, draft);
      return { status: 201, body: { draft_order: draft } };
    }
    const draftMatch = /^draft_orders\/(\d+)(\/complete|\/send_invoice)?\.json$/.exec(path);
    if (draftMatch) {
      const draft = drafts.get(Number(draftMatch[1]));
      if (!draft) return { status: 404, body: { errors: 'Not Found' } };
      if (method === 'GET' && !draftMatch[2]) return { status: 200, body: { draft_order: draft } };
      if (method === 'DELETE' && !draftMatch[2]) {
        drafts.delete(draft.id);
        return { status: 200, body: {} };
      }
      if (method === 'PUT' && draftMatch[2] === '/complete') {
        if (draft.status === 'completed')
          return { status: 422, body: { errors: { base: ['This order has already been paid.'] } } };
        const pending = url.searchParams.get('payment_pending') === 'true';
        const order = orderOf(draft, !pending);
        orders.set(order.id, order);
        draft.status = 'completed';
        draft.order_id = order.id;
        return { status: 200, body: { draft_order: draft } };
      }
      if (method === 'POST' && draftMatch[2] === '/send_invoice') {
        const invoice = (body.draft_order_invoice ?? {}) as {
          to?: string;
          subject?: string;
          custom_message?: string;
        };
        invoices.push({
          draftId: draft.id,
          to: invoice.to ?? draft.email ?? '',
          subject: invoice.subject,
          custom_message: invoice.custom_message,
        });
        if (draft.status === 'open') draft.status = 'invoice_sent';
        return { status: 201, body: { draft_order_invoice: invoice } };
      }
    }
    const refundMatch = /^orders\/(\d+)\/refunds(\/calculate)?\.json$/.exec(path);
    if (method === 'POST' && refundMatch) {
      const order = orders.get(Number(refundMatch[1]));
      if (!order) return { status: 404, body: { errors: 'Not Found' } };
      return refundRoute(order, Boolean(refundMatch[2]), body);
    }
    const orderMatch = /^orders\/(\d+)\.json$/.exec(path);
    if (method === 'GET' && orderMatch) {
      const order = orders.get(Number(orderMatch[1]));
      return order
        ? { status: 200, body: { order } }
        : { status: 404, body: { errors: 'Not Found' } };
    }
    return { status: 404, body: { errors: 'Not Found' } };
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
    const url = new URL(request.url ?? '/', 'http://double');
    const token = request.headers['x-shopify-access-token'] as string | undefined;
    received.push({ method: request.method ?? '', path: url.pathname + url.search, token, body });
    const answer = route(request.method ?? '', url, token, body);
    const send = () => {
      response.writeHead(answer.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(answer.body));
    };
    if (stalled) stalled.push(send);
    else send();
  };

  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url,
    drafts,
    orders,
    invoices,
    refunds,
    received,
    stall() {
      stalled = [];
    },
    release() {
      const held = stalled ?? [];
      stalled = null;
      for (const send of held) send();
    },
    /** The buyer pays the draft's invoice on Shopify's checkout: the order is paid; answers it. */
    payInvoice(draftId: number): Order {
      const draft = drafts.get(draftId)!;
      if (!draft.order_id) {
        const order = orderOf(draft, true);
        orders.set(order.id, order);
        draft.status = 'completed';
        draft.order_id = order.id;
      }
      const order = orders.get(draft.order_id)!;
      pay(order);
      return order;
    },
    /** An `orders/paid` delivery as Shopify posts it. */
    signed(
      order: object,
      options: { secret?: string; webhookId?: string; topic?: string; shop?: string } = {},
    ) {
      const raw = Buffer.from(JSON.stringify(order));
      return {
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': options.topic ?? 'orders/paid',
          'x-shopify-hmac-sha256': createHmac('sha256', options.secret ?? SHOPIFY_WEBHOOK_SECRET)
            .update(raw)
            .digest('base64'),
          'x-shopify-shop-domain': options.shop ?? SHOP_DOMAIN,
          'x-shopify-webhook-id': options.webhookId ?? randomUUID(),
        },
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

export type ShopifyDouble = Awaited<ReturnType<typeof startShopifyDouble>>;
