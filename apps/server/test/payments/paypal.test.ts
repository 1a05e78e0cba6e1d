import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PayPalAdapter } from '../../src/repositories/payments/paypal.adapter.ts';
import { ProviderError } from '../../src/repositories/provider-error.ts';
import { paymentsReconcileJob } from '../../src/jobs/payments-reconcile.job.ts';
import {
  CARD_DECLINED,
  CARD_PAYS,
  PAYPAL_CLIENT_ID,
  PAYPAL_CLIENT_SECRET,
  PAYPAL_WEBHOOK_ID,
  startPayPalDouble,
  type PayPalDouble,
} from '../doubles/paypal/paypal-double.ts';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  validEventBody,
} from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * PayPal card checkout on the album page (albums spec §7.3), against the PayPal
 * double (test/doubles/paypal): the server creates the Orders v2 order (USD, custom id and sku the
 * attendee, no shipping) and captures it itself; `PAYMENT.CAPTURE.COMPLETED` webhooks are verified
 * through PayPal's verify-webhook-signature call; pending orders are reconciled by asking PayPal;
 * neither the client secret nor an access token reaches a log line or a reply.
 */

let t: TestApp;
let paypal: PayPalDouble;
let admin: { authorization: string };
let event: FlashbulbEvent;
let world: Awaited<ReturnType<typeof createEventWorld>>;
const logLines: string[] = [];

const button = (priceFormula: string) => ({
  buttonText: 'Whole album',
  priceFormula,
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
});

/** The attendee's own key: the album page. */
const page = (uid: string) => ({ key_type: 'attendee' as const, key_value: uid });

const guest = async (photos = 2, of: FlashbulbEvent = event) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [of.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  for (let i = 0; i < photos; i += 1) await insertReadyPhoto(t, of, uid);
  return uid;
};

const originals = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      ...page(uid),
      max_size: 100,
      page_number: 1,
    })
  ).photos.map((p) => p.urls.original);

const rowCount = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

const paymentRow = (publicId: string) =>
  t.app.container.repositories.payments.paymentByPublicId(publicId);

const post = (hook: { headers: Record<string, string>; body: Buffer }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/paypal',
    headers: hook.headers,
    payload: hook.body,
  });

const start = (uid: string, extra: { client_request_id?: string } = {}) =>
  t.ok(endpoints.paypalCreateOrder, {
    ...page(uid),
    attendee_uid: uid,
    pricing_button_index: 0,
    ...extra,
  });

const captureCall = (uid: string, paymentId: string) =>
  t.call(endpoints.paypalCaptureOrder, { ...page(uid), payment_id: paymentId });
const capture = (uid: string, paymentId: string) =>
  t.ok(endpoints.paypalCaptureOrder, { ...page(uid), payment_id: paymentId });

beforeAll(async () => {
  paypal = await startPayPalDouble();
  t = await createTestApp(
    {
      PAYPAL_API_BASE: paypal.url,
      PAYPAL_CLIENT_ID,
      PAYPAL_CLIENT_SECRET,
      PAYPAL_WEBHOOK_ID,
      PAYPAL_ENVIRONMENT: 'sandbox',
      PAYPAL_SDK_URL: paypal.sdkUrl,
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'PayPal Gala',
    is_free: 0,
    opts: { description: 'Paid', unitPrice: 3.5, pricingButtons: [button('{Final_Amount} + 1')] },
  });
});
afterAll(async () => {
  await t?.close();
  await paypal?.close();
});

describe('PayPal card checkout', () => {
  it('tells the album page the client id and environment its checkout script loads with, and lets the page load it', async () => {
    const uid = await guest(0);
    expect(await t.ok(endpoints.paypalSettings, page(uid))).toEqual({
      enabled: 1,
      client_id: PAYPAL_CLIENT_ID,
      environment: 'sandbox',
      script_url: `${paypal.sdkUrl}?client-id=${PAYPAL_CLIENT_ID}&currency=USD&intent=capture&components=buttons`,
    });
    // The page may load it: the SDK's origin is in the page's script-src (and nothing else is).
    const csp = String(
      (await t.app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'],
    );
    const scriptSrc = /script-src ([^;]+)/.exec(csp)![1]!.split(' ');
    expect(scriptSrc).toEqual(["'self'", new URL(paypal.url).origin]);
  });

  it('creates the order as documented, captures it on the server and unlocks exactly once on the verified webhook', async () => {
    const uid = await guest(2);
    const before = paypal.received.length;
    const started = await start(uid);
    // 2 photos × $3.50 + $1 = $8.00
    expect(started).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    const calls = paypal.received.slice(before);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toContain('POST /v2/checkout/orders');
    const create = calls.find((c) => c.path === '/v2/checkout/orders')!;
    expect(create.authorization).toMatch(/^Bearer A21AA/);
    expect(create.requestId).toBe(started.payment_id);
    expect(create.json).toMatchObject({
      intent: 'CAPTURE',
      application_context: { shipping_preference: 'NO_SHIPPING' },
      purchase_units: [
        {
          reference_id: started.payment_id,
          custom_id: uid,
          amount: {
            currency_code: 'USD',
            value: '8.00',
            breakdown: { item_total: { value: '8.00' } },
          },
          items: [
            { sku: uid, quantity: '1', unit_amount: { currency_code: 'USD', value: '8.00' } },
          ],
        },
      ],
    });
    // Nothing opens before PayPal has the money.
    expect((await originals(uid))[0]).toBeNull();
    // Not approved yet (PayPal: ORDER_NOT_APPROVED): still pending.
    expect(await capture(uid, started.payment_id)).toMatchObject({ status: 'pending' });

    paypal.approve(started.order_id, CARD_PAYS);
    const captured = await capture(uid, started.payment_id);
    expect(captured).toMatchObject({ payment_id: started.payment_id, status: 'paid' });
    expect((await originals(uid))[0]).toContain('/original?');
    const unlocks = await rowCount('attendee_unlocks');

    // PayPal's webhook for the same capture, then its redelivery: 200, nothing more happens.
    const hook = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id);
    expect((await post(hook)).statusCode).toBe(200);
    expect((await post(hook)).statusCode).toBe(200);
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
    const events = await t.database.executeSql(
      `select count(*) as n from webhook_events where provider = 'paypal' and provider_event_id = $1`,
      [hook.event.id],
    );
    expect(Number(events.rows[0]!.n)).toBe(1);
    // Asked again: answered paid from our row, PayPal is not asked to capture twice.
    expect(await capture(uid, started.payment_id)).toMatchObject({ status: 'paid' });
  });

  it('a declined card fails the payment and unlocks nothing; a new order then pays', async () => {
    const uid = await guest(1);
    const started = await start(uid);
    paypal.approve(started.order_id, CARD_DECLINED);
    expect(await capture(uid, started.payment_id)).toMatchObject({ status: 'failed' });
    expect((await paymentRow(started.payment_id))?.failureReason).toBe('card_declined');
    expect((await originals(uid))[0]).toBeNull();

    const again = await start(uid);
    expect(again.payment_id).not.toBe(started.payment_id);
    paypal.approve(again.order_id, CARD_PAYS);
    expect(await capture(uid, again.payment_id)).toMatchObject({ status: 'paid' });
    expect((await originals(uid))[0]).toContain('/original?');
  });

  it('refuses webhooks PayPal does not vouch for, or sent too long ago, with 4xx and changes nothing', async () => {
    const uid = await guest(1);
    const started = await start(uid);
    paypal.approve(started.order_id, CARD_PAYS);
    paypal.captureNow(started.order_id);
    const good = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id);
    const forgedBody = {
      headers: good.headers,
      body: Buffer.from(
        JSON.stringify({ ...good.event, id: 'WH-FORGED', resource: { ...good.event.resource } }),
      ),
    };
    const otherKey = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id, {
      sign: 'other-key',
    });
    const otherWebhook = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id, {
      sign: 'other-webhook',
    });
    const stale = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id, {
      at: new Date(t.clock.now().getTime() - 10 * 60_000),
    });
    const unsigned = { headers: { 'content-type': 'application/json' }, body: good.body };
    const events = await rowCount('webhook_events');
    for (const hook of [forgedBody, otherKey, otherWebhook, stale, unsigned]) {
      const reply = await post(hook);
      expect(reply.statusCode).toBeGreaterThanOrEqual(400);
      expect(reply.statusCode).toBeLessThan(500);
    }
    expect(await rowCount('webhook_events')).toBe(events);
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
    expect((await originals(uid))[0]).toBeNull();
    // The genuine webhook then pays once.
    expect((await post(good)).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
  });

  it('a capture that timed out is paid by the later webhook; out-of-order news changes nothing', async () => {
    const uid = await guest(1);
    const started = await start(uid);
    paypal.approve(started.order_id, CARD_PAYS);
    paypal.stall();
    const timedOut = await captureCall(uid, started.payment_id);
    paypal.release();
    expect(errorOf(timedOut)).toMatchObject({ status: 502, message_key: 'payment_provider_error' });
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
    expect((await originals(uid))[0]).toBeNull();

    // PayPal captured while we waited; its webhook arrives later and pays once.
    const completed = paypal.webhook('PAYMENT.CAPTURE.COMPLETED', started.order_id);
    expect((await post(completed)).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
    // A DENIED arriving after the COMPLETED (out of order) is recorded and ignored.
    const denied = paypal.webhook('PAYMENT.CAPTURE.DENIED', started.order_id);
    expect((await post(denied)).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
  });

  it('reconciles an approved order whose capture and webhook were lost: captured once by the job', async () => {
    const uid = await guest(1);
    const started = await start(uid);
    paypal.approve(started.order_id, CARD_PAYS); // the page closed before asking us to capture
    const reconcile = t.app.container.services.providerCheckouts;
    const captures = () =>
      paypal.received.filter((r) => r.path === `/v2/checkout/orders/${started.order_id}/capture`)
        .length;
    await reconcile.reconcilePending();
    expect(captures()).toBe(0); // too fresh
    t.clock.advance(3 * 60_000);
    const result = await paymentsReconcileJob.run({}, { providerCheckouts: reconcile });
    expect(result).toEqual({ checked: 1, moved: 1 });
    expect(captures()).toBe(1);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
    await reconcile.reconcilePending();
    expect(captures()).toBe(1);
  });

  it('refuses a payment id of another attendee or of another provider', async () => {
    const a = await guest(1);
    const b = await guest(1);
    const started = await start(a);
    const reply = await captureCall(b, started.payment_id);
    expect(errorOf(reply)).toMatchObject({ status: 404, message_key: 'not_found' });
    const qr = await t.ok(endpoints.createQrPayment, {
      ...page(a),
      attendee_uid: a,
      pricing_button_index: 0,
    });
    expect(errorOf(await captureCall(a, qr.payment_id))).toMatchObject({
      message_key: 'not_found',
    });
  });

  it('never puts the client secret or an access token in a reply or a log line', async () => {
    const wrong = new PayPalAdapter({
      apiBase: paypal.url,
      clientId: PAYPAL_CLIENT_ID,
      clientSecret: 'EWrongSecretThatPayPalRefuses000111',
      webhookId: PAYPAL_WEBHOOK_ID,
      timeoutMs: 2000,
      now: () => new Date(),
    });
    const error = await wrong
      .createCheckout(
        {
          paymentId: 'pay_x',
          total: { amount: 100, currency: 'USD' },
          tax: { amount: 0, currency: 'USD' },
          items: [],
          reference: 'A1',
          returnUrl: null,
        },
        {},
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).permanent).toBe(true);
    expect((error as Error).message).toContain('invalid_client');
    expect((error as Error).message).not.toContain('EWrongSecret');

    const tokens = paypal.received
      .map((r) => r.authorization ?? '')
      .filter((a) => a.startsWith('Bearer '))
      .map((a) => a.slice('Bearer '.length));
    expect(tokens.length).toBeGreaterThan(0);
    const everything = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(PAYPAL_CLIENT_SECRET);
    expect(everything).not.toContain(
      Buffer.from(`${PAYPAL_CLIENT_ID}:${PAYPAL_CLIENT_SECRET}`).toString('base64'),
    );
    for (const token of new Set(tokens)) expect(everything).not.toContain(token);
  });
});

describe('PayPal’s card form on the public or private album of a paid event', () => {
  const publicKey = (e: FlashbulbEvent = event) => ({
    key_type: 'public' as const,
    key_value: e.public_api_key,
  });
  const privateKey = () => ({ key_type: 'private' as const, key_value: event.private_api_key });
  const albumOf = async (albumUid: string) =>
    (await t.ok(endpoints.publicPhotoList, { ...page(albumUid), max_size: 100, page_number: 1 }))
      .photos;

  it('offers the card form, makes the order at PayPal and hands the two photos over only once PayPal captured it', async () => {
    const [a, b] = [await insertReadyPhoto(t, event), await insertReadyPhoto(t, event)];
    // The album page learns the card form's script with the prices.
    const priced = await t.ok(endpoints.albumPurchasePricing, { ...publicKey(), photo_count: 2 });
    expect(priced.methods).toContain('paypal');
    expect(priced.card_script_url).toBe(
      `${paypal.sdkUrl}?client-id=${PAYPAL_CLIENT_ID}&currency=USD&intent=capture&components=buttons`,
    );
    const asked = paypal.received.length;
    const started = await t.ok(endpoints.albumPurchasePayPalOrder, {
      ...publicKey(),
      pricing_button_index: 0,
      photo_uids: [a.uid, b.uid],
      client_request_id: 'paypal-public-1',
    });
    // 2 photos × $3.50 + $1 = $8.00, an order at PayPal for it.
    expect(started).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    const create = paypal.received.slice(asked).find((c) => c.path === '/v2/checkout/orders')!;
    expect(create.requestId).toBe(started.payment_id);
    expect(create.json).toMatchObject({
      purchase_units: [{ reference_id: started.payment_id, amount: { value: '8.00' } }],
    });
    // A retry of the start answers the same order (no second sale, no second album).
    const attendees = await rowCount('attendees');
    expect(
      await t.ok(endpoints.albumPurchasePayPalOrder, {
        ...publicKey(),
        pricing_button_index: 0,
        photo_uids: [a.uid, b.uid],
        client_request_id: 'paypal-public-1',
      }),
    ).toMatchObject({ payment_id: started.payment_id, order_id: started.order_id });
    expect(await rowCount('attendees')).toBe(attendees);

    // Not approved yet: still pending, no album named.
    const capture = () =>
      t.ok(endpoints.albumPurchasePayPalCapture, {
        ...publicKey(),
        payment_id: started.payment_id,
      });
    expect(await capture()).toEqual({ payment_id: started.payment_id, status: 'pending' });
    const status = () =>
      t.ok(endpoints.albumPurchaseStatus, { ...publicKey(), payment_id: started.payment_id });
    expect(await status()).toMatchObject({ status: 'pending', album_uid: null });

    // A declined card: failed, nothing handed over.
    paypal.approve(started.order_id, CARD_DECLINED);
    expect(await capture()).toEqual({ payment_id: started.payment_id, status: 'failed' });
    expect(await status()).toMatchObject({ status: 'failed', album_uid: null });

    // A new order paid with a good card: the buyer's album holds exactly the two photos, open.
    const again = await t.ok(endpoints.albumPurchasePayPalOrder, {
      ...publicKey(),
      pricing_button_index: 0,
      photo_uids: [a.uid, b.uid],
      client_request_id: 'paypal-public-2',
    });
    paypal.approve(again.order_id, CARD_PAYS);
    expect(
      await t.ok(endpoints.albumPurchasePayPalCapture, {
        ...publicKey(),
        payment_id: again.payment_id,
      }),
    ).toEqual({ payment_id: again.payment_id, status: 'paid' });
    const done = await t.ok(endpoints.albumPurchaseStatus, {
      ...publicKey(),
      payment_id: again.payment_id,
    });
    expect(done.status).toBe('paid');
    const bought = await albumOf(done.album_uid!);
    expect(bought.map((p) => p.uid).sort()).toEqual([a.uid, b.uid].sort());
    for (const photo of bought) expect(photo.urls.original).toContain('/original?');
    // Captured once: asked again, answered from our row.
    const captures = paypal.received.filter((c) => c.path.endsWith('/capture')).length;
    expect(
      (
        await t.ok(endpoints.albumPurchasePayPalCapture, {
          ...publicKey(),
          payment_id: again.payment_id,
        })
      ).status,
    ).toBe('paid');
    expect(paypal.received.filter((c) => c.path.endsWith('/capture')).length).toBe(captures);
  });

  it('a private-album link buys the whole event; another event’s key, a QR payment or an album without PayPal are refused', async () => {
    const started = await t.ok(endpoints.albumPurchasePayPalOrder, {
      ...privateKey(),
      pricing_button_index: 0,
      client_request_id: 'paypal-private-1',
    });
    expect(started.status).toBe('pending');
    // The payment is this event's: another event's key does not find it.
    const other = await createEvent(t, world.adminA, {
      full_name: 'Other PayPal Gala',
      is_free: 0,
      opts: {
        description: 'Paid',
        unitPrice: 3.5,
        pricingButtons: [button('{Final_Amount}')],
        albumPaymentMethods: ['qr'],
      },
    });
    const foreign = await t.call(endpoints.albumPurchasePayPalCapture, {
      ...publicKey(other),
      payment_id: started.payment_id,
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });
    // A purchase paid by the QR checkout is not PayPal's to capture.
    await insertReadyPhoto(t, other);
    const qr = await t.ok(endpoints.albumPurchaseCreate, {
      ...publicKey(other),
      pricing_button_index: 0,
      client_request_id: 'qr-other-1',
    });
    const notPayPal = await t.call(endpoints.albumPurchasePayPalCapture, {
      ...publicKey(other),
      payment_id: qr.payment_id,
    });
    expect(errorOf(notPayPal)).toMatchObject({ status: 404, message_key: 'not_found' });
    // That album offers no PayPal: no card form, and a start is refused before PayPal is asked.
    const pricing = await t.ok(endpoints.albumPurchasePricing, publicKey(other));
    expect(pricing.card_script_url).toBe('');
    const asked = paypal.received.length;
    const refused = await t.call(endpoints.albumPurchasePayPalOrder, {
      ...publicKey(other),
      pricing_button_index: 0,
    });
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_method_not_offered',
    });
    expect(paypal.received.length).toBe(asked);
  });
});

describe('the ways to pay the operator offers per event (album page and kiosks)', () => {
  const methodsEvent = (name: string, opts: Record<string, unknown>) =>
    createEvent(t, world.adminA, {
      full_name: name,
      is_free: 0,
      opts: {
        description: 'Paid',
        unitPrice: 3.5,
        pricingButtons: [button('{Final_Amount} + 1')],
        ...opts,
      },
    });
  // The organiser's kiosk: the private key with the event's display token.
  const kioskKey = (e: FlashbulbEvent) => ({
    key_type: 'private' as const,
    key_value: e.private_api_key,
    display: e.display_token,
  });
  const sale = (uid: string) => ({ attendee_uid: uid, pricing_button_index: 0 });

  it('offers everything by default, and tells each page what it offers', async () => {
    const open = await methodsEvent('Everything Gala', {});
    expect(open.opts).toMatchObject({
      albumPaymentMethods: ['qr', 'paypal'],
      kioskPaymentMethods: ['qr', 'square', 'terminal', 'shopify'],
    });
    const uid = await guest(1, open);
    expect(
      (await t.ok(endpoints.pricingButtonList, { ...page(uid), ...sale(uid) })).methods,
    ).toEqual(['qr', 'paypal']);
    expect(
      (await t.ok(endpoints.pricingButtonList, { ...kioskKey(open), ...sale(uid) })).methods,
      // Shopify only where the event has a shop, the terminal only where one is set up (neither).
    ).toEqual(['qr', 'square']);
  });

  it('an album without PayPal: the page is told it is off and a PayPal start is refused before PayPal is asked', async () => {
    const qrOnly = await methodsEvent('QR Only Gala', { albumPaymentMethods: ['qr'] });
    const uid = await guest(1, qrOnly);
    expect((await t.ok(endpoints.paypalSettings, page(uid))).enabled).toBe(0);
    const asked = paypal.received.length;
    const orders = await rowCount('orders');
    const refused = await t.call(endpoints.paypalCreateOrder, { ...page(uid), ...sale(uid) });
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_method_not_offered',
    });
    expect(paypal.received.length).toBe(asked);
    expect(await rowCount('orders')).toBe(orders);
    // The phone checkout still works on that album.
    expect((await t.ok(endpoints.createQrPayment, { ...page(uid), ...sale(uid) })).status).toBe(
      'pending',
    );
  });

  it('a kiosk without the phone checkout refuses it with a key while the album page keeps it', async () => {
    const readerOnly = await methodsEvent('Reader Only Gala', { kioskPaymentMethods: ['square'] });
    const uid = await guest(1, readerOnly);
    const orders = await rowCount('orders');
    const refused = await t.call(endpoints.createQrPayment, {
      ...kioskKey(readerOnly),
      ...sale(uid),
    });
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_method_not_offered',
    });
    expect(await rowCount('orders')).toBe(orders);
    expect((await t.ok(endpoints.createQrPayment, { ...page(uid), ...sale(uid) })).status).toBe(
      'pending',
    );
  });

  it('an unknown way to pay is refused when the event is saved, and nothing changes', async () => {
    const refused = await t.call(
      endpoints.createEvent,
      {
        ...validEventBody({
          full_name: 'Bitcoin Gala',
          opts: { albumPaymentMethods: ['bitcoin'] },
        }),
      },
      { authorization: world.adminA.authorization },
    );
    expect(refused.statusCode).toBeGreaterThanOrEqual(400);
    expect(refused.statusCode).toBeLessThan(500);
  });
});
