import { createHmac } from 'node:crypto';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { paymentsReconcileJob } from '../../src/jobs/payments-reconcile.job.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  SquareAdapter,
  SQUARE_REFERENCE_MAX,
  squareSignature,
} from '../../src/repositories/payments/square.adapter.ts';
import {
  SQUARE_SIGNATURE_KEY,
  SQUARE_TOKEN,
  startSquareDouble,
  type SquareDouble,
} from '../doubles/square/square-double.ts';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Square card readers (albums spec §4, §7.3, §8) against the Square double
 * (test/doubles/square): the owner's pairing calls, Terminal checkouts and the signed
 * `terminal.checkout.updated` notification at `POST /api/webhooks/square`.
 */

const PUBLIC_URL = 'https://photos.example';
const NOTIFICATION_URL = `${PUBLIC_URL}/api/webhooks/square`;

let t: TestApp;
let square: SquareDouble;
let admin: { authorization: string };
let event: FlashbulbEvent;
/** An event whose kiosk sells on the Square reader (`square_access_token` set). */
let kioskEvent: FlashbulbEvent;
/** The same with a 75-cent button: under Square's $1.00. */
let cheapEvent: FlashbulbEvent;
/** A paid event without a Square token. */
let noTokenEvent: FlashbulbEvent;
const logLines: string[] = [];

const post = (hook: { headers: Record<string, string>; body: Buffer }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/square',
    headers: hook.headers,
    payload: hook.body,
  });

/** The adapter as the kiosk calls will use it (the app's own is wired the same way). */
const squareClient = () =>
  new SquareAdapter({
    apiBase: square.url,
    webhookSignatureKey: null,
    notificationUrl: NOTIFICATION_URL,
    timeoutMs: 2000,
  });

const rowCount = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

beforeAll(async () => {
  square = await startSquareDouble();
  t = await createTestApp(
    {
      SQUARE_API_BASE: square.url,
      SQUARE_WEBHOOK_SIGNATURE_KEY: SQUARE_SIGNATURE_KEY,
      FLASHBULB_PUBLIC_URL: PUBLIC_URL,
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'Reader Gala',
    is_free: 0,
    opts: {
      description: 'Paid',
      unitPrice: 3.5,
      pricingButtons: [
        {
          buttonText: 'Album',
          priceFormula: '{Final_Amount} + 1',
          digitals: true,
          prints: false,
          partialUnlockTags: false,
          printsPool: '',
        },
      ],
    },
  });
  const kioskOpts = (formula: string) => ({
    description: 'Paid',
    unitPrice: 3.5,
    pricingButtons: [
      {
        buttonText: 'Album',
        priceFormula: formula,
        digitals: true,
        prints: false,
        partialUnlockTags: false,
        printsPool: '',
      },
    ],
  });
  kioskEvent = await createEvent(t, world.adminA, {
    full_name: 'Reader Kiosk Gala',
    is_free: 0,
    square_access_token: SQUARE_TOKEN,
    opts: kioskOpts('{Final_Amount} + 1'),
  });
  cheapEvent = await createEvent(t, world.adminA, {
    full_name: 'Reader Cheap Gala',
    is_free: 0,
    square_access_token: SQUARE_TOKEN,
    opts: kioskOpts('0.75'),
  });
  noTokenEvent = await createEvent(t, world.adminA, {
    full_name: 'Reader Tokenless Gala',
    is_free: 0,
    opts: kioskOpts('{Final_Amount} + 1'),
  });
});
afterAll(async () => {
  await t?.close();
  await square?.close();
});

describe('the Square notification signature', () => {
  it('is base64 HMAC-SHA256 of the notification URL followed by the raw body', () => {
    const body = '{"event_id":"e1"}';
    expect(squareSignature('key', 'https://a.example/hook', body)).toBe(
      createHmac('sha256', 'key').update(`https://a.example/hook${body}`).digest('base64'),
    );
  });
});

describe('card reader pairing (owner calls)', () => {
  it('token → locations → device code → still unpaired → paired device id', async () => {
    const refused = await t.ok(
      endpoints.squareLocations,
      { access_token: 'EAAA-not-a-token' },
      admin,
    );
    // Square's refusal is Square's error text, not our unauthorized_user.
    expect(refused).toEqual({
      locations: [],
      error_message: 'This request could not be authorized.',
    });

    const { locations } = await t.ok(
      endpoints.squareLocations,
      { access_token: SQUARE_TOKEN },
      admin,
    );
    expect(locations).toEqual([
      { id: 'L8RX2V9DSQ1M3', name: 'Main Hall' },
      { id: 'LZ4QP7Y0W2K5B', name: 'Photo Booth Tent' },
    ]);

    const calls = square.received.length;
    const noName = await t.call(
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: '  ', location_id: locations[0]!.id },
      admin,
    );
    expect(errorOf(noName)).toMatchObject({
      status: 400,
      message_key: 'square_device_name_required',
    });
    const noLocation = await t.call(
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: 'Desk 1', location_id: '' },
      admin,
    );
    expect(errorOf(noLocation)).toMatchObject({
      status: 400,
      message_key: 'square_location_required',
    });
    expect(square.received.length).toBe(calls);

    const unknown = await t.ok(
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: 'Desk 1', location_id: 'LNOPE' },
      admin,
    );
    expect(unknown).toEqual({ device_code: null, error_message: 'Location `LNOPE` not found.' });

    const created = await t.ok(
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: 'Desk 1', location_id: locations[1]!.id },
      admin,
    );
    expect(created.error_message).toBeNull();
    expect(created.device_code).toMatchObject({ status: 'UNPAIRED' });
    const sent = square.received.at(-1)!;
    expect(sent).toMatchObject({
      method: 'POST',
      path: '/v2/devices/codes',
      authorization: `Bearer ${SQUARE_TOKEN}`,
      body: {
        device_code: {
          name: 'Desk 1',
          product_type: 'TERMINAL_API',
          location_id: locations[1]!.id,
        },
      },
    });
    expect((sent.body as { idempotency_key: string }).idempotency_key).toMatch(/\S{8,}/);

    const id = created.device_code!.id;
    const before = await t.ok(
      endpoints.squareGetDeviceCode,
      { access_token: SQUARE_TOKEN, id },
      admin,
    );
    expect(before.device_code).toMatchObject({ id, status: 'UNPAIRED', device_id: '' });

    const deviceId = square.pair(created.device_code!.code);
    const after = await t.ok(
      endpoints.squareGetDeviceCode,
      { access_token: SQUARE_TOKEN, id },
      admin,
    );
    expect(after.device_code).toEqual({ id, status: 'PAIRED', device_id: deviceId });

    const missing = await t.ok(
      endpoints.squareGetDeviceCode,
      { access_token: SQUARE_TOKEN, id: 'NOPE' },
      admin,
    );
    expect(missing).toEqual({ device_code: null, error_message: 'Device code not found.' });
  });

  it('Square not answering is our error key; keys and nobody are refused before Square is called', async () => {
    square.stall();
    const reply = await t.call(
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: 'Desk 2', location_id: 'L8RX2V9DSQ1M3' },
      admin,
    );
    square.release();
    expect(errorOf(reply)).toMatchObject({
      status: 502,
      message_key: 'square_create_device_error',
    });

    const calls = square.received.length;
    const anonymous = await t.call(endpoints.squareLocations, { access_token: SQUARE_TOKEN });
    expect(errorOf(anonymous)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    expect(square.received.length).toBe(calls);
  });
});

describe('Terminal checkouts and terminal.checkout.updated notifications', () => {
  /** A pending payment of the event handed to a Square Terminal checkout on a paired reader. */
  const terminalSale = async () => {
    const uid = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    await insertReadyPhoto(t, event, uid);
    // The kiosk endpoints (initiate-square-payment) are not built yet: the payment is started
    // through the QR call and moved onto Square here, as initiate-square-payment will do.
    const started = await t.ok(endpoints.createQrPayment, {
      key_type: 'private',
      key_value: event.private_api_key,
      display: event.display_token,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const code = await t.app.container.services.squarePairing.createDeviceCode({ id: 1 } as never, {
      access_token: SQUARE_TOKEN,
      name: 'Kiosk',
      location_id: 'L8RX2V9DSQ1M3',
    });
    const deviceId = square.pair(code.device_code!.code);
    const adapter = squareClient();
    const longReference = `${started.payment_id}-with-a-suffix-beyond-forty-characters`;
    const checkout = await adapter.createTerminalCheckout(
      { access_token: SQUARE_TOKEN },
      {
        paymentId: started.payment_id,
        amount: started.amount,
        currency: 'USD',
        deviceId,
        referenceId: longReference,
      },
    );
    expect(checkout.reference_id).toBe(longReference.slice(0, SQUARE_REFERENCE_MAX));
    expect(checkout).toMatchObject({ status: 'PENDING', amount_money: { amount: started.amount } });
    await t.database.executeSql(
      `update payments set provider = 'square', provider_reference = $1 where public_id = $2`,
      [checkout.id, started.payment_id],
    );
    return { uid, paymentId: started.payment_id, checkoutId: checkout.id };
  };

  const status = async (paymentId: string) =>
    (await t.app.container.repositories.payments.paymentByPublicId(paymentId))?.status;

  it('a completed checkout pays once; replayed, out of order and badly signed notifications change nothing', async () => {
    const sale = await terminalSale();
    const completed = square.complete(sale.checkoutId);
    const events = await rowCount('webhook_events');

    const bad = [
      square.signed(completed, NOTIFICATION_URL, 'another-key'),
      // The URL is signed byte for byte: another scheme or a trailing slash is another signature.
      square.signed(completed, NOTIFICATION_URL.replace('https', 'http')),
      square.signed(completed, `${NOTIFICATION_URL}/`),
      {
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify(completed)),
      },
    ];
    for (const hook of bad) {
      const reply = await post(hook);
      expect(reply.statusCode).toBeGreaterThanOrEqual(400);
      expect(reply.statusCode).toBeLessThan(500);
    }
    expect(await status(sale.paymentId)).toBe('pending');
    expect(await rowCount('webhook_events')).toBe(events);

    const good = square.signed(completed, NOTIFICATION_URL);
    expect((await post(good)).statusCode).toBe(200);
    expect(await status(sale.paymentId)).toBe('paid');
    const unlocks = await rowCount('attendee_unlocks');
    expect((await post(good)).statusCode).toBe(200);
    const checkout = square.checkouts.get(sale.checkoutId)!;
    const cancelledLate = square.notification({ ...checkout, status: 'CANCELED' });
    expect((await post(square.signed(cancelledLate, NOTIFICATION_URL))).statusCode).toBe(200);
    expect(await status(sale.paymentId)).toBe('paid');
    expect(await rowCount('attendee_unlocks')).toBe(unlocks);
    expect(await rowCount('webhook_events')).toBe(events + 2);
  });

  it('cancelling the checkout at Square cancels the sale; nothing unlocks', async () => {
    const sale = await terminalSale();
    const adapter = squareClient();
    const cancelled = await adapter.cancelTerminalCheckout(
      { access_token: SQUARE_TOKEN },
      sale.checkoutId,
    );
    expect(cancelled.status).toBe('CANCELED');
    const hook = square.signed(
      square.notification(square.checkouts.get(cancelled.id)!),
      NOTIFICATION_URL,
    );
    expect((await post(hook)).statusCode).toBe(200);
    expect(await status(sale.paymentId)).toBe('cancelled');
    // A checkout already completed cannot be cancelled: Square's detail comes back as the reason.
    const paid = await terminalSale();
    square.complete(paid.checkoutId);
    await expect(
      adapter.cancelTerminalCheckout({ access_token: SQUARE_TOKEN }, paid.checkoutId),
    ).rejects.toMatchObject({ permanent: true, message: 'Checkout is already completed.' });
    expect(
      (await adapter.terminalCheckout({ access_token: SQUARE_TOKEN }, paid.checkoutId)).status,
    ).toBe('COMPLETED');
  });

  it('never writes the Square token or signature key into a log line', () => {
    const everything = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(0);
    expect(everything).not.toContain(SQUARE_TOKEN);
    expect(everything).not.toContain(SQUARE_SIGNATURE_KEY);
  });
});

describe('selling on the paired reader from the kiosk (initiate / check status / cancel)', () => {
  // The organiser's kiosk: the private key with the event's display token.
  const kioskKey = (e: FlashbulbEvent) => ({
    key_type: 'private',
    key_value: e.private_api_key,
    display: e.display_token,
  });
  let deviceId = '';

  /** An attendee of the event with one photo, and the reader paired once for the suite. */
  const guest = async (e: FlashbulbEvent) => {
    const uid = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    await insertReadyPhoto(t, e, uid);
    if (!deviceId) {
      const code = await t.ok(
        endpoints.squareCreateDeviceCode,
        { access_token: SQUARE_TOKEN, name: 'Kiosk reader', location_id: 'L8RX2V9DSQ1M3' },
        admin,
      );
      deviceId = square.pair(code.device_code!.code);
    }
    return uid;
  };
  const initiate = (e: FlashbulbEvent, uid: string, extra: Record<string, unknown> = {}) =>
    t.call(endpoints.squareInitiatePayment, {
      ...kioskKey(e),
      attendee_uid: uid,
      pricing_button_index: 0,
      device_id: deviceId,
      ...extra,
    });
  const checkStatus = (e: FlashbulbEvent, paymentId: string) =>
    t.ok(endpoints.squareCheckoutStatus, { ...kioskKey(e), payment_id: paymentId } as never);
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
  const checkoutPosts = () =>
    square.received.filter((r) => r.method === 'POST' && r.path === '/v2/terminals/checkouts');

  it('a tap on the reader pays once: the checkout carries cents, our id, the device; a retry makes no second sale', async () => {
    const uid = await guest(kioskEvent);
    const before = checkoutPosts().length;
    const reply = await initiate(kioskEvent, uid, { client_request_id: 'kiosk-sale-1' });
    expect(reply.statusCode).toBe(200);
    const started = (
      reply.body as { result: { payment_id: string; checkout_id: string; amount: number } }
    ).result;
    // {Final_Amount} + 1 with one photo at $3.50 → $4.50.
    expect(started).toMatchObject({ amount: 450, currency: 'USD', status: 'pending' });
    const sent = checkoutPosts().at(-1)!;
    expect(sent).toMatchObject({
      authorization: `Bearer ${SQUARE_TOKEN}`,
      body: {
        idempotency_key: started.payment_id,
        checkout: {
          amount_money: { amount: 450, currency: 'USD' },
          reference_id: started.payment_id,
          device_options: { device_id: deviceId },
        },
      },
    });
    expect(started.payment_id.length).toBeLessThanOrEqual(SQUARE_REFERENCE_MAX);
    // The token is Square's business: it is in no reply.
    expect(JSON.stringify(reply.body)).not.toContain(SQUARE_TOKEN);

    const again = await initiate(kioskEvent, uid, { client_request_id: 'kiosk-sale-1' });
    expect((again.body as { result: { checkout_id: string } }).result.checkout_id).toBe(
      started.checkout_id,
    );
    expect(checkoutPosts().length).toBe(before + 1);

    expect(await checkStatus(kioskEvent, started.payment_id)).toMatchObject({
      status: 'pending',
      checkout_status: 'PENDING',
    });
    expect(await unlocksOf(uid)).toBe(0);

    const hook = square.complete(started.checkout_id);
    expect(await checkStatus(kioskEvent, started.payment_id)).toMatchObject({
      status: 'paid',
      checkout_status: 'COMPLETED',
    });
    const unlocked = await unlocksOf(uid);
    expect(unlocked).toBeGreaterThan(0);
    // Square's notification arriving after the poll, twice: nothing more.
    const signed = square.signed(hook, NOTIFICATION_URL);
    expect((await post(signed)).statusCode).toBe(200);
    expect((await post(signed)).statusCode).toBe(200);
    expect(await checkStatus(kioskEvent, started.payment_id)).toMatchObject({ status: 'paid' });
    expect(await unlocksOf(uid)).toBe(unlocked);
  });

  it('a declined card the buyer gives up on cancels the sale; a timed-out checkout expires; nothing unlocks', async () => {
    const uid = await guest(kioskEvent);
    const first = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    const declined = square.decline(first.checkout_id);
    expect((await post(square.signed(declined, NOTIFICATION_URL))).statusCode).toBe(200);
    expect(await status(first.payment_id)).toBe('cancelled');

    const second = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    square.timeOut(second.checkout_id);
    expect(await checkStatus(kioskEvent, second.payment_id)).toMatchObject({
      status: 'expired',
      checkout_status: 'CANCELED',
    });
    expect(await unlocksOf(uid)).toBe(0);
  });

  it('Square not answering a poll changes nothing; its later notification pays', async () => {
    const uid = await guest(kioskEvent);
    const sale = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    const hook = square.complete(sale.checkout_id);
    square.stall();
    const stalled = await t.call(endpoints.squareCheckoutStatus, {
      ...kioskKey(kioskEvent),
      payment_id: sale.payment_id,
    });
    square.release();
    expect(errorOf(stalled)).toMatchObject({ status: 502, message_key: 'payment_provider_error' });
    expect(await status(sale.payment_id)).toBe('pending');
    expect(await unlocksOf(uid)).toBe(0);
    expect((await post(square.signed(hook, NOTIFICATION_URL))).statusCode).toBe(200);
    expect(await status(sale.payment_id)).toBe('paid');
    expect(await unlocksOf(uid)).toBeGreaterThan(0);
  });

  it('a lost notification is reconciled by asking Square once the sale is a few minutes old', async () => {
    const uid = await guest(kioskEvent);
    const sale = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    square.complete(sale.checkout_id);
    const gets = () =>
      square.received.filter((r) => r.method === 'GET' && r.path.endsWith(sale.checkout_id)).length;
    const reconcile = t.app.container.services.providerCheckouts;
    await reconcile.reconcilePending();
    expect(gets()).toBe(0);
    t.clock.advance(3 * 60_000);
    const result = await paymentsReconcileJob.run({}, { providerCheckouts: reconcile });
    expect(result).toMatchObject({ moved: 1 });
    expect(gets()).toBe(1);
    expect(await status(sale.payment_id)).toBe('paid');
    const unlocked = await unlocksOf(uid);
    expect(unlocked).toBeGreaterThan(0);
    await reconcile.reconcilePending();
    expect(gets()).toBe(1);
    expect(await unlocksOf(uid)).toBe(unlocked);
  });

  it('cancel at the kiosk cancels the checkout at Square; a sale paid meanwhile stays paid', async () => {
    const uid = await guest(kioskEvent);
    const open = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    const cancelled = await t.ok(endpoints.squareCancelCheckout, {
      ...kioskKey(kioskEvent),
      payment_id: open.payment_id,
    } as never);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(square.checkouts.get(open.checkout_id)!.status).toBe('CANCELED');

    const paid = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    square.complete(paid.checkout_id);
    const late = await t.ok(endpoints.squareCancelCheckout, {
      ...kioskKey(kioskEvent),
      payment_id: paid.payment_id,
    } as never);
    expect(late).toMatchObject({ status: 'paid' });
    expect(await unlocksOf(uid)).toBeGreaterThan(0);
  });

  it('the operator refunds a reader sale through Square’s Refunds API, once; the album locks again', async () => {
    const uid = await guest(kioskEvent);
    const sale = (
      (await initiate(kioskEvent, uid)).body as {
        result: { payment_id: string; checkout_id: string };
      }
    ).result;
    square.complete(sale.checkout_id);
    await checkStatus(kioskEvent, sale.payment_id);
    expect(await unlocksOf(uid)).toBeGreaterThan(0);
    const refunded = await t.ok(
      endpoints.refundPayment,
      { event_id: kioskEvent.id, payment_id: sale.payment_id },
      admin,
    );
    expect(refunded.status).toBe('refunded');
    const squarePayment = square.checkouts.get(sale.checkout_id)!.payment_ids![0]!;
    expect(square.refunds.get(squarePayment)).toBe(450);
    expect(await unlocksOf(uid)).toBe(0);
    expect(square.received.filter((r) => r.path === '/v2/refunds').at(-1)).toMatchObject({
      body: {
        idempotency_key: `refund_${sale.payment_id}`,
        payment_id: squarePayment,
        amount_money: { amount: 450, currency: 'USD' },
      },
    });
    const again = await t.ok(
      endpoints.refundPayment,
      { event_id: kioskEvent.id, payment_id: sale.payment_id },
      admin,
    );
    expect(again.status).toBe('refunded');
    expect(square.refunds.get(squarePayment)).toBe(450);
  });

  it('refuses before Square is asked: under $1.00, no paired reader, an event without a token, another event’s payment', async () => {
    const uid = await guest(cheapEvent);
    const calls = square.received.length;
    expect(errorOf(await initiate(cheapEvent, uid))).toMatchObject({
      status: 400,
      message_key: 'payment_amount_below_minimum',
    });
    expect(errorOf(await initiate(cheapEvent, uid, { device_id: '  ' }))).toMatchObject({
      status: 400,
      message_key: 'square_device_required',
    });
    const other = await guest(noTokenEvent);
    expect(errorOf(await initiate(noTokenEvent, other))).toMatchObject({
      status: 409,
      message_key: 'payment_provider_unavailable',
    });
    expect(square.received.length).toBe(calls);

    const mine = await guest(kioskEvent);
    const sale = ((await initiate(kioskEvent, mine)).body as { result: { payment_id: string } })
      .result;
    const foreign = await t.call(endpoints.squareCheckoutStatus, {
      ...kioskKey(cheapEvent),
      payment_id: sale.payment_id,
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });
  });

  it('never writes the Square token into a log line on the kiosk path either', () => {
    expect(logLines.join('\n')).not.toContain(SQUARE_TOKEN);
  });
});
