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
 * Shopify draft orders (albums spec §7.3 shop calls), Shopify's documented Admin
 * REST API at `https://<shop>.myshopify.com/admin/api/<version>/…`, JSON, header
 * `X-Shopify-Access-Token` (the event's `shopify_api_pass`: a custom app's Admin API access token):
 * - `POST draft_orders.json {draft_order: {line_items: [{title, price, quantity, sku,
 *   requires_shipping}], tags, shipping_address, note_attributes, email}}` → `{draft_order: {id,
 *   status: open, invoice_url}}`;
 * - `PUT draft_orders/:id/complete.json?payment_pending=true|false` → `{draft_order: {status:
 *   completed, order_id}}`;
 * - `POST draft_orders/:id/send_invoice.json {draft_order_invoice: {to, subject, custom_message}}`;
 * - `GET draft_orders/:id.json`, `GET orders/:id.json` → `{order: {financial_status, line_items}}`;
 * - refunds (Refund resource): `POST orders/:id/refunds/calculate.json {refund: {refund_line_items}}`
 *   answers the suggested transactions (`kind: suggested_refund`, `parent_id`, `amount`,
 *   `gateway`), then `POST orders/:id/refunds.json {refund: {notify, note, refund_line_items,
 *   transactions: [{parent_id, amount, kind: refund, gateway}]}}`; more than the refundable amount
 *   is 422. An order already `refunded` is taken as done (a retry after a lost answer).
 * Errors answer `{errors: "…"}` or `{errors: {field: ["…"]}}` (401 wrong token, 404, 422, 429).
 * Webhooks (`orders/paid`): `X-Shopify-Hmac-Sha256` = base64 HMAC-SHA256 of the raw body keyed by
 * the app's secret; `X-Shopify-Webhook-Id` names the delivery (a retry carries the same id);
 * `X-Shopify-Shop-Domain` names the shop it came from, which must be the payment's event's shop
 * (one app secret may serve several shops: a delivery from another shop is refused). The order
 * carries our payment id in `note_attributes` (`flashbulb_payment`), copied from the draft.
 */

export const SHOPIFY_PROVIDER = 'shopify';
export const SHOPIFY_API_VERSION = '2024-10';
export const SHOPIFY_HMAC_HEADER = 'x-shopify-hmac-sha256';
export const SHOPIFY_PAYMENT_ATTRIBUTE = 'flashbulb_payment';
/** A shop's own domain: only these are called when no API base is configured. */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,60}\.myshopify\.com$/i;

export interface ShopifySettings {
  /** Replaces `https://<shop>` (development and tests); null in production. */
  apiBase: string | null;
  webhookSecret: string | null;
  timeoutMs: number;
  /**
   * Our Shopify payment's provider reference (the draft order id) and its event's shop domain from
   * its public id, for webhooks; null for no such Shopify payment.
   */
  paymentOf: (paymentPublicId: string) => Promise<{ reference: string; shop: string } | null>;
}

export interface ShopifyDraftOrder {
  id: number;
  status: 'open' | 'invoice_sent' | 'completed';
  invoice_url?: string;
  order_id?: number | null;
}

/** Shopify's signature of a webhook body (also used by the test double). */
export const shopifySignature = (secret: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(body).digest('base64');

/** `4.5` dollars as Shopify's decimal string from integer cents. */
const decimal = (cents: number) =>
  `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

const errorText = (body: unknown, status: number): string => {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (typeof errors === 'string') return errors;
  if (errors && typeof errors === 'object')
    return Object.entries(errors as Record<string, unknown>)
      .map(([field, list]) => `${field} ${Array.isArray(list) ? list.join(', ') : String(list)}`)
      .join('; ');
  return `Shopify answered ${status}`;
};

export class ShopifyAdapter implements WebhookReceiver, PaymentsProvider {
  readonly name = SHOPIFY_PROVIDER;
  readonly provider = SHOPIFY_PROVIDER;

  constructor(
    private readonly settings: ShopifySettings,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  private base(shop: string): string {
    if (this.settings.apiBase) return this.settings.apiBase;
    if (!SHOP_DOMAIN.test(shop))
      throw ProviderError.permanent(SHOPIFY_PROVIDER, 'not a myshopify.com shop domain', 'shop');
    return `https://${shop.toLowerCase()}`;
  }

  private async call<T>(
    credentials: PaymentCredentials,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    body: object | null,
  ): Promise<T> {
    const token = credentials.access_token ?? '';
    const shop = credentials.shop ?? '';
    if (!token || !shop)
      throw ProviderError.permanent(SHOPIFY_PROVIDER, 'no Shopify shop or token', 'no_token');
    const reply = await providerJson(
      SHOPIFY_PROVIDER,
      'Shopify',
      this.fetchImpl,
      `${this.base(shop)}/admin/api/${SHOPIFY_API_VERSION}/${path}`,
      {
        method,
        headers: {
          'x-shopify-access-token': token,
          accept: 'application/json',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
        ...(body ? { body: JSON.stringify(body) } : {}),
      },
      this.settings.timeoutMs,
    );
    if (reply.ok && reply.body && typeof reply.body === 'object') return reply.body as T;
    const detail = redactSecrets(errorText(reply.body, reply.status), [token]);
    if (reply.status === 429 || reply.status >= 500)
      throw ProviderError.retryable(SHOPIFY_PROVIDER, detail, String(reply.status));
    throw ProviderError.permanent(SHOPIFY_PROVIDER, detail, String(reply.status));
  }

  /**
   * A draft order for the sale. Credentials carry the call's context besides the token: `shop`,
   * `tags` (the event's order tags), `shipping` (the event's address as JSON, for prints),
   * `email` (the buyer's, optional), `sku` (the line items' SKU: the event's shop product,
   * optional) and `collections` (a line-item property, optional).
   */
  async createCheckout(
    request: CheckoutRequest,
    credentials: PaymentCredentials,
  ): Promise<Checkout> {
    const shipping = credentials.shipping ? (JSON.parse(credentials.shipping) as object) : null;
    const reply = await this.call<{ draft_order: ShopifyDraftOrder }>(
      credentials,
      'POST',
      'draft_orders.json',
      {
        draft_order: {
          line_items: request.items.map((item) => ({
            title: item.description,
            price: decimal(item.unitPrice.amount),
            quantity: item.quantity,
            // A custom line item's SKU (the event's shop product), else ours.
            sku: credentials.sku || item.sku,
            requires_shipping: shipping !== null,
            taxable: false,
            // Custom attributes of the line item: the collections the event files sales under.
            ...(credentials.collections
              ? { properties: [{ name: 'collections', value: credentials.collections }] }
              : {}),
          })),
          tags: credentials.tags ?? '',
          ...(shipping ? { shipping_address: shipping } : {}),
          ...(credentials.email ? { email: credentials.email } : {}),
          note_attributes: [
            { name: SHOPIFY_PAYMENT_ATTRIBUTE, value: request.paymentId },
            { name: 'attendee_id', value: request.reference },
          ],
        },
      },
    );
    const draft = reply.draft_order;
    return {
      providerPaymentId: String(draft.id),
      handle: { kind: 'qr', url: draft.invoice_url ?? '' },
      expiresAt: null,
    };
  }

  /** The shop the token opens (`GET /admin/api/<v>/shop.json`): the harmless credentials test. */
  async shop(credentials: PaymentCredentials): Promise<{ name: string }> {
    const reply = await this.call<{ shop?: { name?: string } }>(
      credentials,
      'GET',
      'shop.json',
      null,
    );
    return { name: reply.shop?.name ?? '' };
  }

  async draftOrder(credentials: PaymentCredentials, id: string): Promise<ShopifyDraftOrder> {
    return (
      await this.call<{ draft_order: ShopifyDraftOrder }>(
        credentials,
        'GET',
        `draft_orders/${encodeURIComponent(id)}.json`,
        null,
      )
    ).draft_order;
  }

  /** Turns the draft into an order: paid at the shop's counter, or pending the buyer's payment. */
  async complete(
    credentials: PaymentCredentials,
    id: string,
    paymentPending: boolean,
  ): Promise<ShopifyDraftOrder> {
    return (
      await this.call<{ draft_order: ShopifyDraftOrder }>(
        credentials,
        'PUT',
        `draft_orders/${encodeURIComponent(id)}/complete.json?payment_pending=${paymentPending}`,
        null,
      )
    ).draft_order;
  }

  async sendInvoice(
    credentials: PaymentCredentials,
    id: string,
    invoice: { to: string; subject: string; custom_message: string },
  ): Promise<void> {
    await this.call(
      credentials,
      'POST',
      `draft_orders/${encodeURIComponent(id)}/send_invoice.json`,
      {
        draft_order_invoice: invoice,
      },
    );
  }

  /**
   * Gives a paid sale's money back in full through Shopify's Refund resource on the order the draft
   * became: the calculate call suggests the transactions for every line item, the refund takes
   * them. An order Shopify already calls `refunded` answers without a second refund.
   */
  async refund(providerPaymentId: string, credentials: PaymentCredentials): Promise<void> {
    const draft = await this.draftOrder(credentials, providerPaymentId);
    if (!draft.order_id)
      throw ProviderError.permanent(SHOPIFY_PROVIDER, 'the draft order has no order', 'no_order');
    const orderPath = `orders/${draft.order_id}`;
    const { order } = await this.call<{
      order: { financial_status?: string; line_items?: { id: number; quantity: number }[] };
    }>(credentials, 'GET', `${orderPath}.json`, null);
    if (order.financial_status === 'refunded') return;
    const lines = (order.line_items ?? []).map((line) => ({
      line_item_id: line.id,
      quantity: line.quantity,
      restock_type: 'no_restock',
    }));
    const { refund: suggested } = await this.call<{
      refund: {
        transactions?: { parent_id: number; amount: string; gateway: string; kind: string }[];
      };
    }>(credentials, 'POST', `${orderPath}/refunds/calculate.json`, {
      refund: { refund_line_items: lines },
    });
    const transactions = suggested.transactions ?? [];
    // Nothing left to give back (refunded from Shopify's admin meanwhile): a refund would only
    // mark the items, not return money; the operator hears it instead.
    if (transactions.length === 0)
      throw ProviderError.permanent(SHOPIFY_PROVIDER, 'nothing left to refund', 'not_refundable');
    await this.call(credentials, 'POST', `${orderPath}/refunds.json`, {
      refund: {
        notify: true,
        note: 'Refunded by the event operator',
        refund_line_items: lines,
        transactions: transactions.map((t) => ({
          parent_id: t.parent_id,
          amount: t.amount,
          kind: 'refund',
          gateway: t.gateway,
        })),
      },
    });
  }

  /** Paid once the draft became an order Shopify calls `paid`; otherwise still pending. */
  async status(providerPaymentId: string, credentials: PaymentCredentials): Promise<PaymentStatus> {
    const draft = await this.draftOrder(credentials, providerPaymentId);
    if (draft.status !== 'completed' || !draft.order_id) return { state: 'pending' };
    const { order } = await this.call<{
      order: { financial_status?: string; total_price?: string; currency?: string };
    }>(credentials, 'GET', `orders/${draft.order_id}.json`, null);
    if (order.financial_status !== 'paid') return { state: 'pending' };
    return {
      state: 'paid',
      paid: {
        amount: Math.round(Number(order.total_price ?? '0') * 100),
        currency: order.currency ?? 'USD',
      },
      paidAt: new Date(),
    };
  }

  /**
   * Closes a sale not yet paid (disable-qr-link): the draft order is deleted, so its invoice can
   * no longer be paid. A draft already completed is refused by Shopify (the caller then asks).
   */
  async cancel(providerPaymentId: string, credentials: PaymentCredentials): Promise<void> {
    const draft = await this.draftOrder(credentials, providerPaymentId);
    if (draft.status === 'completed')
      throw ProviderError.permanent(SHOPIFY_PROVIDER, 'the draft order is completed', 'completed');
    await this.call(
      credentials,
      'DELETE',
      `draft_orders/${encodeURIComponent(providerPaymentId)}.json`,
      null,
    );
  }

  async verifyWebhook(request: RawWebhook): Promise<VerifiedWebhook | null> {
    const secret = this.settings.webhookSecret;
    const header = request.headers[SHOPIFY_HMAC_HEADER];
    const id = request.headers['x-shopify-webhook-id'];
    if (!secret || typeof header !== 'string' || typeof id !== 'string' || !id) return null;
    const given = Buffer.from(header, 'base64');
    const expected = Buffer.from(shopifySignature(secret, request.body), 'base64');
    if (!sameSignature(given, expected)) return null;
    const order = webhookJson<{
      financial_status?: unknown;
      note_attributes?: { name?: unknown; value?: unknown }[];
    }>(request);
    if (order === undefined) return null;
    const topic = request.headers['x-shopify-topic'];
    const paymentId = (Array.isArray(order.note_attributes) ? order.note_attributes : []).find(
      (a) => a?.name === SHOPIFY_PAYMENT_ATTRIBUTE,
    )?.value;
    if (
      topic !== 'orders/paid' ||
      order.financial_status !== 'paid' ||
      typeof paymentId !== 'string'
    )
      return { providerEventId: id, effect: { kind: 'ignored' } };
    const payment = await this.settings.paymentOf(paymentId);
    if (!payment) return { providerEventId: id, effect: { kind: 'ignored' } };
    // Another shop's delivery naming our payment: refused, nothing recorded.
    const from = request.headers['x-shopify-shop-domain'];
    if (typeof from !== 'string' || from.trim().toLowerCase() !== payment.shop.trim().toLowerCase())
      return null;
    const reference = payment.reference;
    return {
      providerEventId: id,
      effect: {
        kind: 'payment.status',
        providerPaymentId: reference,
        status: 'paid',
        reason: null,
      },
    };
  }
}
