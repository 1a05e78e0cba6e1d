import { createHmac } from 'node:crypto';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentsReconcileJob } from '../../src/jobs/payments-reconcile.job.ts';
import { jobCatalogue as jobRegistry } from '../../src/jobs/catalogue.ts';
import {
  CARD_DECLINED,
  CARD_PAYS,
  startStripeDouble,
  STRIPE_TEST_KEY,
  STRIPE_WEBHOOK_SECRET,
  type StripeDouble,
} from '../doubles/stripe/stripe-double.ts';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Stripe Checkout as the pay-on-phone provider (albums spec §7.3), against the
 * Stripe double (test/doubles/stripe): an event carrying `stripe_secret_key` makes Checkout
 * Sessions; `checkout.session.completed` webhooks are verified with `Stripe-Signature`; payments
 * pending for minutes are reconciled by asking Stripe; secrets never reach a log line or a reply.
 */

let t: TestApp;
let stripe: StripeDouble;
let admin: { authorization: string };
let event: FlashbulbEvent;
let cheap: FlashbulbEvent;
let badKey: FlashbulbEvent;
const logLines: string[] = [];
const WRONG_KEY = 'sk_test_51WrongKeyThatStripeRefuses9876543210zyxw';

const button = (priceFormula: string) => ({
  buttonText: 'Album',
  priceFormula,
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
});

// The organiser's kiosk: the private key with the event's display token.
let world: EventWorld;

const kiosk = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  display: e.display_token,
});

const guest = async (e: FlashbulbEvent, photos = 2) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  for (let i = 0; i < photos; i += 1) await insertReadyPhoto(t, e, uid);
  return uid;
};

const originals = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
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
    url: '/api/webhooks/stripe',
    headers: hook.headers,
    payload: hook.body,
  });

/** Seconds on the app's clock (the signature's tolerance is judged by it). */
const nowS = () => Math.floor(t.clock.now().getTime() / 1000);

const sessionIdOf = (checkoutUrl: string) => checkoutUrl.split('/').pop()!;

const startCheckout = async (uid: string, e = event, extra: { client_request_id?: string } = {}) =>
  t.ok(endpoints.createQrPayment, {
    ...kiosk(e),
    attendee_uid: uid,
    pricing_button_index: 0,
    ...extra,
  });

beforeAll(async () => {
  stripe = await startStripeDouble();
  t = await createTestApp(
    {
      STRIPE_API_BASE: stripe.url,
      STRIPE_WEBHOOK_SECRET,
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const paidOpts = (formula: string) => ({
    description: 'Paid',
    unitPrice: 3.5,
    pricingButtons: [button(formula)],
  });
  event = await createEvent(t, world.adminA, {
    full_name: 'Stripe Gala',
    is_free: 0,
    stripe_secret_key: STRIPE_TEST_KEY,
    opts: paidOpts('{Final_Amount} + 1'),
  });
  cheap = await createEvent(t, world.adminA, {
    full_name: 'Cheap Gala',
    is_free: 0,
    stripe_secret_key: STRIPE_TEST_KEY,
    opts: paidOpts('0.25'),
  });
  badKey = await createEvent(t, world.adminA, {
    full_name: 'Wrong Key Gala',
    is_free: 0,
    stripe_secret_key: WRONG_KEY,
    opts: paidOpts('{Final_Amount} + 1'),
  });
});
afterAll(async () => {
  await t?.close();
  await stripe?.close();
});

describe('the Stripe-Signature scheme', () => {
  it('is hex HMAC-SHA256 keyed by the endpoint secret over "<t>.<raw body>" (Stripe’s manual verification)', () => {
    const body = '{"id":"evt_1"}';
    const hook = stripe.signed(JSON.parse(body) as object, 1700000000);
    const expected = createHmac('sha256', STRIPE_WEBHOOK_SECRET)
      .update(`1700000000.${body}`)
      .digest('hex');
    expect(hook.headers['stripe-signature']).toBe(`t=1700000000,v1=${expected}`);
  });
});

describe("the organisation's currency", () => {
  it('prices, orders and asks Stripe in EUR; a zero-decimal currency (JPY) in whole yen', async () => {
    const w = world;
    const adminB = await apiKeyAuth(t, w.adminB);
    const org = (await t.ok(endpoints.listOrganisations, {}, adminB)).organisations[0]!;
    expect(org.currency).toBe('USD');
    const setCurrency = (currency: string) =>
      t.call(endpoints.renameOrganisation, { id: org.id, name: org.name, currency }, adminB);
    // A code Intl does not know changes nothing.
    expect(errorOf(await setCurrency('EURO'))).toMatchObject({
      message_key: 'invalid_value',
      field: 'currency',
    });
    expect((await t.ok(endpoints.listOrganisations, {}, adminB)).organisations[0]!.currency).toBe(
      'USD',
    );
    await t.ok(
      endpoints.renameOrganisation,
      { id: org.id, name: org.name, currency: 'eur' },
      adminB,
    );
    const euro = await createEvent(t, w.adminB, {
      full_name: 'Euro Gala',
      is_free: 0,
      stripe_secret_key: STRIPE_TEST_KEY,
      opts: { description: 'Paid', unitPrice: 3.5, pricingButtons: [button('{Final_Amount} + 1')] },
    });
    const buyer = async (e: FlashbulbEvent) => {
      const uid = (
        await t.ok(
          endpoints.generateAttendeeList,
          { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
          adminB,
        )
      ).attendees[0]!.uid;
      for (let i = 0; i < 2; i += 1) await insertReadyPhoto(t, e, uid);
      return uid;
    };
    const uid = await buyer(euro);
    const prices = await t.ok(endpoints.pricingButtonList, { ...kiosk(euro), attendee_uid: uid });
    expect(prices).toMatchObject({ currency: 'EUR', buttons: [{ amount: 800 }] });
    const before = stripe.received.length;
    const started = await startCheckout(uid, euro);
    expect(started).toMatchObject({ amount: 800, currency: 'EUR' });
    expect(stripe.received[before]!.form).toMatchObject({
      line_items: [{ price_data: { currency: 'eur', unit_amount: '800' } }],
    });

    // Yen have no decimals: 2 × ¥350 + ¥100 is 800 yen, not 80,000.
    await t.ok(
      endpoints.renameOrganisation,
      { id: org.id, name: org.name, currency: 'JPY' },
      adminB,
    );
    const yen = await createEvent(t, w.adminB, {
      full_name: 'Yen Gala',
      is_free: 0,
      stripe_secret_key: STRIPE_TEST_KEY,
      opts: {
        description: 'Paid',
        unitPrice: 350,
        pricingButtons: [button('{Final_Amount} + 100')],
      },
    });
    const yenBuyer = await buyer(yen);
    const next = stripe.received.length;
    const inYen = await startCheckout(yenBuyer, yen);
    expect(inYen).toMatchObject({ amount: 800, currency: 'JPY' });
    expect(stripe.received[next]!.form).toMatchObject({
      line_items: [{ price_data: { currency: 'jpy', unit_amount: '800' } }],
    });
    // The euro order keeps its currency.
    const orders = await t.ok(endpoints.orderList, { event_id: euro.id }, adminB);
    expect(orders.orders[0]).toMatchObject({ amount: 800, currency: 'EUR' });
  });
});

describe('Stripe Checkout pay-on-phone', () => {
  it('creates a Checkout Session as documented and unlocks the album exactly once on the verified webhook', async () => {
    const uid = await guest(event, 2);
    const before = stripe.received.length;
    const started = await startCheckout(uid);
    // 2 photos × $3.50 + $1 = $8.00
    expect(started).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    expect(started.checkout_url).toMatch(new RegExp(`^${stripe.url}/c/pay/cs_test_`));
    const request = stripe.received[before]!;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/v1/checkout/sessions',
      authorization: `Bearer ${STRIPE_TEST_KEY}`,
      idempotencyKey: started.payment_id,
      contentType: 'application/x-www-form-urlencoded',
    });
    expect(request.form).toMatchObject({
      mode: 'payment',
      client_reference_id: started.payment_id,
      line_items: [
        {
          quantity: '1',
          price_data: { currency: 'usd', unit_amount: '800', product_data: { name: 'Album' } },
        },
      ],
      metadata: { payment_id: started.payment_id, reference: uid },
    });
    expect(await originals(uid)).toEqual([null, null]);

    const completed = stripe.pay(sessionIdOf(started.checkout_url), CARD_PAYS);
    const hook = stripe.signed(completed, nowS());
    const first = await post(hook);
    expect(first.statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid)).every((u) => u?.includes('/original?'))).toBe(true);
    const unlocks = await rowCount('attendee_unlocks');
    const events = await rowCount('webhook_events');

    // Replayed (Stripe retries deliveries): answered 2xx, nothing changes.
    expect((await post(hook)).statusCode).toBe(200);
    expect((await post(stripe.signed(completed, nowS()))).statusCode).toBe(200);
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
    expect(await rowCount('webhook_events')).toBe(events);

    // Out of order: news older than `paid` arrives late and is ignored.
    const session = stripe.sessions.get(sessionIdOf(started.checkout_url))!;
    for (const type of ['checkout.session.expired', 'checkout.session.async_payment_failed']) {
      const late = stripe.event(type, { ...session, status: 'expired' });
      expect((await post(stripe.signed(late, nowS()))).statusCode).toBe(200);
    }
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
    expect(
      (await t.ok(endpoints.checkQrStatus, { ...kiosk(event), payment_id: started.payment_id }))
        .status,
    ).toBe('paid');
  });

  it('a declined card unlocks nothing; the session stays open and a good card then pays', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const declined = stripe.pay(sessionIdOf(started.checkout_url), CARD_DECLINED);
    expect((await post(stripe.signed(declined, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
    expect(await originals(uid)).toEqual([null]);
    // A completed session whose payment is not yet settled unlocks nothing either.
    const session = stripe.sessions.get(sessionIdOf(started.checkout_url))!;
    const unpaid = stripe.event('checkout.session.completed', {
      ...session,
      status: 'complete',
      payment_status: 'unpaid',
    });
    expect((await post(stripe.signed(unpaid, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
    expect(await originals(uid)).toEqual([null]);

    const paid = stripe.pay(session.id, CARD_PAYS);
    expect((await post(stripe.signed(paid, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
  });

  it('an async payment failure fails the payment and unlocks nothing', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const session = stripe.sessions.get(sessionIdOf(started.checkout_url))!;
    const failed = stripe.event('checkout.session.async_payment_failed', {
      ...session,
      status: 'complete',
      payment_status: 'unpaid',
    });
    expect((await post(stripe.signed(failed, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('failed');
    expect(await originals(uid)).toEqual([null]);
  });

  it('refuses badly signed, stale, tampered or unsigned webhooks with 4xx and changes nothing', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const completed = stripe.pay(sessionIdOf(started.checkout_url), CARD_PAYS);
    const events = await rowCount('webhook_events');
    const good = stripe.signed(completed, nowS());
    const attempts = [
      stripe.signed(completed, nowS(), 'whsec_someone_else'),
      stripe.signed(completed, nowS() - 301),
      stripe.signed(completed, nowS() + 301),
      {
        headers: good.headers,
        body: Buffer.from(good.body.toString().replace('"paid"', '"pa1d"')),
      },
      { headers: { 'content-type': 'application/json' }, body: good.body },
      {
        headers: {
          ...good.headers,
          'stripe-signature': good.headers['stripe-signature'].replace(/v1=.*/, 'v1='),
        },
        body: good.body,
      },
    ];
    for (const attempt of attempts) {
      const reply = await post(attempt);
      expect(reply.statusCode).toBeGreaterThanOrEqual(400);
      expect(reply.statusCode).toBeLessThan(500);
    }
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');
    expect(await rowCount('webhook_events')).toBe(events);
    expect(await originals(uid)).toEqual([null]);
    // Stripe signs with several v1 while a secret rolls: one matching is enough.
    const rolled = {
      headers: {
        ...good.headers,
        'stripe-signature': `${good.headers['stripe-signature']},v1=${'0'.repeat(64)}`,
      },
      body: good.body,
    };
    expect((await post(rolled)).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
  });

  it('refuses amounts under Stripe’s $0.50 minimum first, with a key, before any row or Stripe call', async () => {
    const uid = await guest(cheap, 1);
    const calls = stripe.received.length;
    const [orders, payments] = [await rowCount('orders'), await rowCount('payments')];
    const reply = await t.call(endpoints.createQrPayment, {
      ...kiosk(cheap),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(errorOf(reply)).toMatchObject({
      status: 400,
      message_key: 'payment_amount_below_minimum',
    });
    expect(stripe.received.length).toBe(calls);
    expect(await rowCount('orders')).toBe(orders);
    expect(await rowCount('payments')).toBe(payments);
  });

  it('a timed-out create is retried with the same request id onto the same session; the later webhook pays once', async () => {
    const uid = await guest(event, 1);
    stripe.stall();
    const reply = await t.call(endpoints.createQrPayment, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
      client_request_id: 'kiosk-7-retry-1',
    });
    stripe.release();
    expect(errorOf(reply)).toMatchObject({ status: 502, message_key: 'payment_provider_error' });
    const sessionsBefore = stripe.sessions.size;
    const retried = await startCheckout(uid, event, { client_request_id: 'kiosk-7-retry-1' });
    // Stripe's idempotency answers the session it made while we were timing out.
    expect(stripe.sessions.size).toBe(sessionsBefore);
    expect(retried.status).toBe('pending');
    const completed = stripe.pay(sessionIdOf(retried.checkout_url), CARD_PAYS);
    expect((await post(stripe.signed(completed, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(retried.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
  });

  it('reconciles a payment whose webhook was lost by asking Stripe, once; a fresh one is not asked', async () => {
    expect(jobRegistry).toContain(paymentsReconcileJob.job);
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const sessionId = sessionIdOf(started.checkout_url);
    const lostWebhook = stripe.pay(sessionId, CARD_PAYS);
    const reconcile = t.app.container.services.providerCheckouts;

    // Too fresh: not asked yet.
    const gets = () =>
      stripe.received.filter((r) => r.method === 'GET' && r.path.endsWith(sessionId)).length;
    await reconcile.reconcilePending();
    expect(gets()).toBe(0);
    expect((await paymentRow(started.payment_id))?.status).toBe('pending');

    t.clock.advance(3 * 60_000);
    const result = await paymentsReconcileJob.run({}, { providerCheckouts: reconcile });
    expect(result).toMatchObject({ moved: 1 });
    expect(gets()).toBe(1);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
    const unlocks = await rowCount('attendee_unlocks');

    // The webhook arrives after all: nothing changes; the next run does not ask again.
    expect((await post(stripe.signed(lostWebhook, nowS()))).statusCode).toBe(200);
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
    await reconcile.reconcilePending();
    expect(gets()).toBe(1);
  });

  it('disable-qr-link expires the session at Stripe; a session paid meanwhile stays paid', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const disabled = await t.ok(endpoints.disableQrLink, {
      ...kiosk(event),
      payment_id: started.payment_id,
    });
    expect(disabled.status).toBe('cancelled');
    expect(stripe.sessions.get(sessionIdOf(started.checkout_url))?.status).toBe('expired');
    // Stripe's `checkout.session.expired` for it then changes nothing.
    const expired = stripe.event('checkout.session.expired', {
      ...stripe.sessions.get(sessionIdOf(started.checkout_url))!,
    });
    expect((await post(stripe.signed(expired, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('cancelled');

    const other = await startCheckout(uid);
    stripe.pay(sessionIdOf(other.checkout_url), CARD_PAYS); // its webhook is not here yet
    const late = await t.ok(endpoints.disableQrLink, {
      ...kiosk(event),
      payment_id: other.payment_id,
    });
    expect(late.status).toBe('paid');
    expect((await originals(uid))[0]).toContain('/original?');
  });

  it('a refund goes to Stripe first (POST /v1/refunds on the session’s PaymentIntent), then re-locks; a retry refunds once', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const sessionId = sessionIdOf(started.checkout_url);
    expect((await post(stripe.signed(stripe.pay(sessionId, CARD_PAYS), nowS()))).statusCode).toBe(
      200,
    );
    expect((await originals(uid))[0]).toMatch(/\/original\?/);
    const intent = stripe.sessions.get(sessionId)!.payment_intent!;

    // Stripe stalls: our key, nothing recorded, the album stays open.
    stripe.stall();
    const stalled = await t.call(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: started.payment_id },
      admin,
    );
    stripe.release();
    expect(errorOf(stalled)).toMatchObject({ message_key: 'payment_provider_error' });
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toMatch(/\/original\?/);

    // Asked again, Stripe refunds (keyed by our payment id: a repeat refunds once); it re-locks.
    const refunded = await t.ok(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: started.payment_id },
      admin,
    );
    expect(refunded.status).toBe('refunded');
    const calls = stripe.received.filter((r) => r.path === '/v1/refunds');
    expect(calls.at(-1)).toMatchObject({
      method: 'POST',
      authorization: `Bearer ${STRIPE_TEST_KEY}`,
      idempotencyKey: `refund_${started.payment_id}`,
      form: { payment_intent: intent },
    });
    expect(stripe.refunds.filter((r) => r.payment_intent === intent)).toMatchObject([
      { amount: started.amount, status: 'succeeded' },
    ]);
    expect(await originals(uid)).toEqual([null]);
  });

  it('a refund Stripe refuses changes nothing here', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const sessionId = sessionIdOf(started.checkout_url);
    await post(stripe.signed(stripe.pay(sessionId, CARD_PAYS), nowS()));
    // Refunded in Stripe's dashboard already: Stripe says charge_already_refunded → taken as done.
    stripe.refunds.push({
      id: 're_dashboard',
      object: 'refund',
      amount: started.amount,
      payment_intent: stripe.sessions.get(sessionId)!.payment_intent!,
      status: 'succeeded',
      metadata: {},
    });
    expect(
      (
        await t.ok(
          endpoints.refundPayment,
          { event_id: event.id, payment_id: started.payment_id },
          admin,
        )
      ).status,
    ).toBe('refunded');
    // A session Stripe never charged (our row says paid, Stripe disagrees): refused, nothing moves.
    const other = await guest(event, 1);
    const second = await startCheckout(other);
    await t.app.container.services.payments.recordStatus(
      (await paymentRow(second.payment_id))!,
      'paid',
    );
    const refused = await t.call(
      endpoints.refundPayment,
      { event_id: event.id, payment_id: second.payment_id },
      admin,
    );
    expect(errorOf(refused)).toMatchObject({ message_key: 'payment_provider_refused' });
    expect((await paymentRow(second.payment_id))?.status).toBe('paid');
  });

  it('a payment our expiry job gave up on, paid at Stripe later, is honoured once by the late webhook', async () => {
    const uid = await guest(event, 1);
    const started = await startCheckout(uid);
    const sessionId = sessionIdOf(started.checkout_url);
    t.clock.advance(31 * 60_000);
    await t.app.container.services.payments.expireStale();
    expect((await paymentRow(started.payment_id))?.status).toBe('expired');
    expect(await originals(uid)).toEqual([null]);
    // The Stripe session is still open (24 h): the guest pays; the webhook arrives late.
    const completed = stripe.pay(sessionId, CARD_PAYS);
    expect((await post(stripe.signed(completed, nowS()))).statusCode).toBe(200);
    expect((await paymentRow(started.payment_id))?.status).toBe('paid');
    expect((await originals(uid))[0]).toMatch(/\/original\?/);
    const unlocks = await rowCount('attendee_unlocks');
    expect((await post(stripe.signed(completed, nowS()))).statusCode).toBe(200);
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
  });

  it('a refused Stripe key is a provider error: no secret in the reply, the stored rows or any log line', async () => {
    const uid = await guest(badKey, 1);
    const reply = await t.call(endpoints.createQrPayment, {
      ...kiosk(badKey),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(errorOf(reply)).toMatchObject({ status: 502, message_key: 'payment_provider_refused' });
    // Stripe quoted part of the key back; none of it reaches the guest.
    expect(JSON.stringify(reply.body)).not.toContain(WRONG_KEY.slice(-4));
    expect(JSON.stringify(reply.body)).not.toContain('sk_test');

    // The payment waits, without a Stripe session, for a retry once the key is fixed.
    const stuck = await t.app.container.repositories.payments.paymentByPublicId(
      (
        await t.database.executeSql(
          `select p.public_id from payments p join orders o on o.id = p.order_id where o.event_id = $1`,
          [badKey.id],
        )
      ).rows[0]!.public_id as string,
    );
    expect(stuck?.status).toBe('pending');

    const everything = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of [STRIPE_TEST_KEY, WRONG_KEY, STRIPE_WEBHOOK_SECRET])
      expect(everything).not.toContain(secret);
    expect(everything).not.toMatch(/sk_test_[A-Za-z0-9]{6}/);
    const stored = JSON.stringify((await t.database.executeSql('select * from payments', [])).rows);
    expect(stored).not.toContain(STRIPE_TEST_KEY);
    expect(stored).not.toContain(WRONG_KEY);
  });
});
