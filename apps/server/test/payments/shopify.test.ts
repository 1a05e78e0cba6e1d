import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsReconcileJob } from '../../src/jobs/payments-reconcile.job.ts';
import { shopifySignature } from '../../src/repositories/payments/shopify.adapter.ts';
import {
  SHOP_DOMAIN,
  SHOPIFY_TOKEN,
  SHOPIFY_WEBHOOK_SECRET,
  startShopifyDouble,
  type ShopifyDouble,
} from '../doubles/shopify/shopify-double.ts';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Shopify draft orders (albums spec §7.3 shop calls) against the Shopify double
 * (test/doubles/shopify): the documented requests, the payment moving only on Shopify's order,
 * `orders/paid` webhooks signed with `X-Shopify-Hmac-Sha256`, replays, reconciliation, secrets.
 */

let t: TestApp;
let shop: ShopifyDouble;
let admin: { authorization: string };
let world: Awaited<ReturnType<typeof createEventWorld>>;
let event: FlashbulbEvent;
let noShop: FlashbulbEvent;
/** The shop's domain with a token Shopify refuses. */
let wrongToken: FlashbulbEvent;
const logLines: string[] = [];

// The organiser's kiosk: the private key with the event's display token.
const kiosk = (e: FlashbulbEvent) => ({
  key_type: 'private',
  key_value: e.private_api_key,
  display: e.display_token,
});
const post = (hook: { headers: Record<string, string>; body: Buffer }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/shopify',
    headers: hook.headers,
    payload: hook.body,
  });
const status = async (paymentId: string) =>
  (await t.app.container.repositories.payments.paymentByPublicId(paymentId))?.status;
const unlocksOf = async (uid: string) =>
  Number(
    (
      await t.database.executeSql(
        `select count(*) as n from attendee_unlocks u join attendees a on a.id = u.attendee_id where a.uid = $1`,
        [uid],
      )
    ).rows[0]!.n,
  );
const rowCount = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

const button = (prints: boolean) => ({
  buttonText: prints ? 'Album & prints' : 'Album',
  priceFormula: '{Final_Amount} + 1',
  digitals: true,
  prints,
  partialUnlockTags: false,
  printsPool: '',
});

beforeAll(async () => {
  shop = await startShopifyDouble();
  t = await createTestApp(
    {
      SHOPIFY_API_BASE: shop.url,
      SHOPIFY_WEBHOOK_SECRET,
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'Shop Gala',
    is_free: 0,
    // A button that sells prints needs printing on (refused before anything is stored).
    is_photo_printer_active: 1,
    shopify_api_key: 'shop-api-key',
    shopify_api_pass: SHOPIFY_TOKEN,
    shopify_shipping_address: {
      shopifyFirstName: 'Ada',
      shopifyLastName: 'Lovelace',
      shopifyAddress1: '1 Print Lane',
      shopifyAddress2: '',
      shopifyCountry: 'US',
      shopifyState: 'NY',
      shopifyCity: 'New York',
      shopifyZip: '10001',
      shopifyCompany: 'Flashbulb',
      shopifyPhoneNumber: '+12125550100',
    },
    opts: {
      description: 'Paid',
      unitPrice: 3.5,
      shopDomain: SHOP_DOMAIN,
      shopOrderTags: 'flashbulb,kiosk',
      pricingButtons: [button(false), button(true)],
    },
  });
  wrongToken = await createEvent(t, world.adminA, {
    full_name: 'Wrong Token Gala',
    is_free: 0,
    shopify_api_pass: 'shpat_wrong',
    opts: {
      description: 'Paid',
      unitPrice: 3.5,
      shopDomain: SHOP_DOMAIN,
      pricingButtons: [button(false)],
    },
  });
  noShop = await createEvent(t, world.adminA, {
    full_name: 'Shopless Gala',
    is_free: 0,
    opts: { description: 'Paid', unitPrice: 3.5, pricingButtons: [button(false)] },
  });
});
afterAll(async () => {
  await t?.close();
  await shop?.close();
});

const guest = async (e: FlashbulbEvent) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  await insertReadyPhoto(t, e, uid);
  return uid;
};

describe('Shopify draft orders from the kiosk', () => {
  it('a kiosk is offered Shopify only where the event’s shop is set up', async () => {
    const methodsAt = async (e: FlashbulbEvent) =>
      (
        await t.ok(endpoints.pricingButtonList, {
          ...kiosk(e),
          attendee_uid: await guest(e),
        } as never)
      ).methods;
    expect(await methodsAt(event)).toContain('shopify');
    const shopless = await methodsAt(noShop);
    expect(shopless).not.toContain('shopify');
    // The other ways to pay stay as the event offers them (no payment terminal is set up here).
    expect(shopless).toEqual(['qr', 'square']);
  });

  it('a counter sale: the draft carries the button, tags, our id; completed paid at the shop, the album unlocks once', async () => {
    const uid = await guest(event);
    const sale = await t.ok(endpoints.shopifyBuyFromKiosk, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
      client_request_id: 'shop-counter-1',
    } as never);
    expect(sale).toMatchObject({ amount: 450, currency: 'USD', status: 'paid' });
    const created = shop.received.find(
      (r) => r.method === 'POST' && r.path.endsWith('/draft_orders.json'),
    )!;
    expect(created.token).toBe(SHOPIFY_TOKEN);
    expect(created.body).toMatchObject({
      draft_order: {
        line_items: [
          { title: 'Album', price: '4.50', quantity: 1, sku: uid, requires_shipping: false },
        ],
        tags: 'flashbulb,kiosk',
        note_attributes: [
          { name: 'flashbulb_payment', value: sale.payment_id },
          { name: 'attendee_id', value: uid },
        ],
      },
    });
    expect(created.body).not.toHaveProperty('draft_order.shipping_address');
    expect(created.body).not.toHaveProperty('draft_order.line_items.0.properties');
    expect(shop.received.some((r) => r.path.includes('/complete.json?payment_pending=false'))).toBe(
      true,
    );
    const unlocked = await unlocksOf(uid);
    expect(unlocked).toBeGreaterThan(0);
    expect(JSON.stringify(sale)).not.toContain(SHOPIFY_TOKEN);

    // Shopify's orders/paid for the same order, delivered twice: nothing more.
    const draft = shop.drafts.get(Number(sale.draft_order_id))!;
    const hook = shop.signed(shop.orders.get(draft.order_id!)!);
    expect((await post(hook)).statusCode).toBe(200);
    expect((await post(hook)).statusCode).toBe(200);
    expect(await unlocksOf(uid)).toBe(unlocked);
    // Completing again is refused by Shopify; our answer stays paid.
    const again = await t.ok(endpoints.shopifyCompleteDraftOrder, {
      ...kiosk(event),
      payment_id: sale.payment_id,
    } as never);
    expect(again).toMatchObject({ status: 'paid' });
  });

  it('the event’s plus id and product collections go on the draft’s line items (not without them)', async () => {
    const collections = await createEvent(t, world.adminA, {
      full_name: 'Collections Gala',
      is_free: 0,
      shopify_api_pass: SHOPIFY_TOKEN,
      opts: {
        description: 'Paid',
        unitPrice: 3.5,
        shopDomain: SHOP_DOMAIN,
        shopPlusId: 'PLUS-42',
        productCollections: ['Prints', 'Gala 2026'],
        pricingButtons: [button(false)],
      },
    });
    const uid = await guest(collections);
    const before = shop.received.length;
    const sale = await t.ok(endpoints.shopifyCreateDraftOrder, {
      ...kiosk(collections),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    const created = shop.received
      .slice(before)
      .find((r) => r.method === 'POST' && r.path.endsWith('/draft_orders.json'))!;
    expect(created.body).toMatchObject({
      draft_order: {
        line_items: [
          {
            title: 'Album',
            price: '4.50',
            sku: 'PLUS-42',
            properties: [{ name: 'collections', value: 'Prints, Gala 2026' }],
          },
        ],
        note_attributes: [
          { name: 'flashbulb_payment', value: sale.payment_id },
          { name: 'attendee_id', value: uid },
        ],
      },
    });
  });

  it('self-checkout: prints ship to the event’s address; pending until orders/paid; bad signatures and replays change nothing', async () => {
    const uid = await guest(event);
    const sale = await t.ok(endpoints.shopifyBuyFromKioskSelfCheckout, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 1,
      email: 'ada@example.com',
    } as never);
    expect(sale.status).toBe('pending');
    expect(sale.invoice_url).toMatch(/^https:\/\/flashbulb-photos\.myshopify\.com\/.+\/invoices\//);
    const draft = shop.drafts.get(Number(sale.draft_order_id))!;
    expect(draft.shipping_address).toMatchObject({
      first_name: 'Ada',
      address1: '1 Print Lane',
      city: 'New York',
      province: 'NY',
      zip: '10001',
    });
    expect(draft.email).toBe('ada@example.com');
    expect(draft.line_items[0]).toMatchObject({ requires_shipping: true });

    const order = shop.payInvoice(draft.id);
    const events = await rowCount('webhook_events');
    const raw = Buffer.from(JSON.stringify(order));
    const bad: { headers: Record<string, string>; body: Buffer }[] = [
      shop.signed(order, { secret: 'another-app-secret' }),
      {
        headers: { ...shop.signed(order).headers },
        body: Buffer.from(JSON.stringify({ ...order, total_price: '0.01' })),
      },
      {
        headers: { 'content-type': 'application/json', 'x-shopify-topic': 'orders/paid' },
        body: raw,
      },
      {
        headers: {
          'content-type': 'application/json',
          'x-shopify-topic': 'orders/paid',
          'x-shopify-hmac-sha256': shopifySignature(SHOPIFY_WEBHOOK_SECRET, raw),
        },
        body: raw,
      },
    ];
    for (const hook of bad) {
      const reply = await post(hook);
      expect(reply.statusCode).toBeGreaterThanOrEqual(400);
      expect(reply.statusCode).toBeLessThan(500);
    }
    expect(await status(sale.payment_id)).toBe('pending');
    expect(await rowCount('webhook_events')).toBe(events);
    expect(await unlocksOf(uid)).toBe(0);

    const good = shop.signed(order, { webhookId: 'wh-self-1' });
    expect((await post(good)).statusCode).toBe(200);
    expect(await status(sale.payment_id)).toBe('paid');
    const unlocked = await unlocksOf(uid);
    expect(unlocked).toBeGreaterThan(0);
    expect((await post(good)).statusCode).toBe(200);
    // Another topic about the same order (out of order, later) changes nothing either.
    expect((await post(shop.signed(order, { topic: 'orders/updated' }))).statusCode).toBe(200);
    expect(await unlocksOf(uid)).toBe(unlocked);
    expect(await rowCount('webhook_events')).toBe(events + 2);

    const receipt = await t.ok(endpoints.shopifySendReceipt, {
      ...kiosk(event),
      payment_id: sale.payment_id,
      email: 'ada@example.com',
    } as never);
    expect(receipt).toEqual({ payment_id: sale.payment_id, sent: 1 });
    expect(shop.invoices.at(-1)).toEqual({ draftId: draft.id, to: 'ada@example.com' });
  });

  it('pending completion then a lost webhook: reconciliation asks Shopify once the sale is minutes old', async () => {
    const uid = await guest(event);
    const created = await t.ok(endpoints.shopifyCreateDraftOrder, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    const completed = await t.ok(endpoints.shopifyCompleteDraftOrderSelfCheckout, {
      ...kiosk(event),
      payment_id: created.payment_id,
    } as never);
    expect(completed.status).toBe('pending');
    expect(shop.orders.get(Number(completed.order_id))!.financial_status).toBe('pending');
    shop.payInvoice(Number(created.draft_order_id));
    const reconcile = t.app.container.services.providerCheckouts;
    await reconcile.reconcilePending();
    expect(await status(created.payment_id)).toBe('pending');
    t.clock.advance(3 * 60_000);
    const result = await paymentsReconcileJob.run({}, { providerCheckouts: reconcile });
    expect((result as { moved: number }).moved).toBeGreaterThanOrEqual(1);
    expect(await status(created.payment_id)).toBe('paid');
    expect(await unlocksOf(uid)).toBeGreaterThan(0);
  });

  it('Shopify not answering or refusing changes nothing; a shopless event and a wrong token are refused', async () => {
    const uid = await guest(event);
    const created = await t.ok(endpoints.shopifyCreateDraftOrder, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    shop.stall();
    const stalled = await t.call(endpoints.shopifyCompleteDraftOrder, {
      ...kiosk(event),
      payment_id: created.payment_id,
    });
    shop.release();
    expect(errorOf(stalled)).toMatchObject({ status: 502, message_key: 'payment_provider_error' });
    expect(await status(created.payment_id)).toBe('pending');
    expect(await unlocksOf(uid)).toBe(0);

    const calls = shop.received.length;
    const other = await guest(noShop);
    const refused = await t.call(endpoints.shopifyBuyFromKiosk, {
      ...kiosk(noShop),
      attendee_uid: other,
      pricing_button_index: 0,
    });
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_provider_unavailable',
    });
    expect(shop.received.length).toBe(calls);
    const foreign = await t.call(endpoints.shopifySendReceipt, {
      ...kiosk(noShop),
      payment_id: created.payment_id,
      email: 'x@example.com',
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });

    const wrongUid = await guest(wrongToken);
    const wrong = await t.call(endpoints.shopifyCreateDraftOrder, {
      ...kiosk(wrongToken),
      attendee_uid: wrongUid,
      pricing_button_index: 0,
    });
    expect(errorOf(wrong)).toMatchObject({ status: 502, message_key: 'payment_provider_refused' });
    expect(JSON.stringify(wrong.body)).not.toContain('shpat_wrong');
  });

  it('disable-qr-link deletes an unpaid draft at Shopify; a draft already paid stays paid', async () => {
    const uid = await guest(event);
    const open = await t.ok(endpoints.shopifyBuyFromKioskSelfCheckout, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    const disabled = await t.ok(endpoints.disableQrLink, {
      ...kiosk(event),
      payment_id: open.payment_id,
    } as never);
    expect(disabled.status).toBe('cancelled');
    expect(shop.drafts.has(Number(open.draft_order_id))).toBe(false);

    const paid = await t.ok(endpoints.shopifyBuyFromKioskSelfCheckout, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    shop.payInvoice(Number(paid.draft_order_id));
    const late = await t.ok(endpoints.disableQrLink, {
      ...kiosk(event),
      payment_id: paid.payment_id,
    } as never);
    expect(late.status).toBe('paid');
    expect(shop.drafts.has(Number(paid.draft_order_id))).toBe(true);
  });

  it('a retried start of a sale already paid answers it paid, with no second draft order', async () => {
    const uid = await guest(event);
    const body = {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
      client_request_id: 'shop-retry-1',
    };
    const sale = await t.ok(endpoints.shopifyBuyFromKiosk, body as never);
    expect(sale.status).toBe('paid');
    const drafts = shop.drafts.size;
    const again = await t.ok(endpoints.shopifyBuyFromKiosk, body as never);
    expect(again).toMatchObject({
      payment_id: sale.payment_id,
      draft_order_id: sale.draft_order_id,
      status: 'paid',
    });
    expect(shop.drafts.size).toBe(drafts);
  });

  it('a refund gives the money back through Shopify’s Refund resource and locks again; twice refunds once', async () => {
    const uid = await guest(event);
    const sale = await t.ok(endpoints.shopifyBuyFromKiosk, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    expect(await unlocksOf(uid)).toBeGreaterThan(0);
    const orderId = Number(sale.order_id);
    const refunded = await t.ok(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: sale.payment_id },
      admin,
    );
    expect(refunded.status).toBe('refunded');
    expect(shop.refunds.filter((r) => r.orderId === orderId)).toEqual([{ orderId, amount: 450 }]);
    expect(shop.orders.get(orderId)!.financial_status).toBe('refunded');
    const made = shop.received.filter((r) => r.path.endsWith(`/orders/${orderId}/refunds.json`));
    expect(made).toHaveLength(1);
    expect(made[0]!.token).toBe(SHOPIFY_TOKEN);
    expect(made[0]!.body).toMatchObject({
      refund: { transactions: [{ kind: 'refund', amount: '4.50', gateway: 'manual' }] },
    });
    expect(await unlocksOf(uid)).toBe(0);
    const again = await t.ok(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: sale.payment_id },
      admin,
    );
    expect(again.status).toBe('refunded');
    expect(shop.refunds.filter((r) => r.orderId === orderId)).toHaveLength(1);
  });

  it('Shopify refusing a refund changes nothing: the payment stays paid and unlocked', async () => {
    const uid = await guest(event);
    const sale = await t.ok(endpoints.shopifyBuyFromKiosk, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    // The money went back from Shopify's admin without the order saying so yet: nothing refundable.
    const order = shop.orders.get(Number(sale.order_id))!;
    const sold = order.transactions.find((x) => x.kind === 'sale')!;
    order.transactions.push({
      ...sold,
      id: 9_999_999,
      kind: 'refund',
      parent_id: sold.id,
    } as never);
    const unlocked = await unlocksOf(uid);
    const refused = await t.call(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: sale.payment_id },
      admin,
    );
    expect(errorOf(refused)).toMatchObject({ message_key: 'payment_provider_refused' });
    expect(await status(sale.payment_id)).toBe('paid');
    expect(await unlocksOf(uid)).toBe(unlocked);
  });

  it('an orders/paid delivery from another shop than the event’s is refused and changes nothing', async () => {
    const uid = await guest(event);
    const sale = await t.ok(endpoints.shopifyBuyFromKioskSelfCheckout, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
    } as never);
    const order = shop.payInvoice(Number(sale.draft_order_id));
    const events = await rowCount('webhook_events');
    for (const other of ['other-shop.myshopify.com', '']) {
      const hook = shop.signed(order, { shop: other });
      const { 'x-shopify-shop-domain': _named, ...unnamed } = hook.headers;
      const reply = await post(other ? hook : { ...hook, headers: unnamed });
      expect(reply.statusCode).toBeGreaterThanOrEqual(400);
      expect(reply.statusCode).toBeLessThan(500);
    }
    expect(await status(sale.payment_id)).toBe('pending');
    expect(await rowCount('webhook_events')).toBe(events);
    expect(await unlocksOf(uid)).toBe(0);
    // The event's own shop (any letter case, as a domain) is taken.
    const own = shop.signed(order, { shop: SHOP_DOMAIN.toUpperCase() });
    expect((await post(own)).statusCode).toBe(200);
    expect(await status(sale.payment_id)).toBe('paid');
  });

  it('never writes the Shopify token or the webhook secret into a log line', () => {
    const everything = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(SHOPIFY_TOKEN);
    expect(everything).not.toContain('shpat_wrong');
    expect(everything).not.toContain(SHOPIFY_WEBHOOK_SECRET);
  });
});
