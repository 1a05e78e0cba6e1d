import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SHOPIFY_API_VERSION } from '../../src/repositories/payments/shopify.adapter.ts';
import {
  SHOP_DOMAIN,
  SHOPIFY_TOKEN,
  startShopifyDouble,
  type ShopifyDouble,
} from '../doubles/shopify/shopify-double.ts';
import {
  SQUARE_TOKEN,
  startSquareDouble,
  type SquareDouble,
} from '../doubles/square/square-double.ts';
import {
  startStripeDouble,
  STRIPE_TEST_KEY,
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
 * The organisation's payment provider connections and card readers (console
 * Payments page) against the Square, Stripe and Shopify doubles: who may manage them, secrets
 * sealed and never answered or logged, one harmless test call per provider with the provider's own
 * words, disconnect, the event's own field before the organisation's connection, stored readers.
 */

let t: TestApp;
let square: SquareDouble;
let stripe: StripeDouble;
let shop: ShopifyDouble;
let world: EventWorld;
let adminA: { authorization: string };
let adminB: { authorization: string };
let ownerA: { authorization: string };
const logLines: string[] = [];
/** A second key the Stripe double accepts: the organisation's (the event's own is STRIPE_TEST_KEY). */
const ORG_STRIPE_KEY = 'sk_test_51OrganisationKeyForFlashbulb000000000wxyz';
const WRONG_STRIPE_KEY = 'sk_test_51WrongKeyThatStripeRefuses9876543210zyxw';
const WRONG_SQUARE_TOKEN = 'EAAAl-not-a-real-square-token-5555';
const WRONG_SHOPIFY_TOKEN = 'shpat_wrong_token_for_the_shop_7777';
const SECRETS = [
  ORG_STRIPE_KEY,
  WRONG_STRIPE_KEY,
  SQUARE_TOKEN,
  WRONG_SQUARE_TOKEN,
  SHOPIFY_TOKEN,
  WRONG_SHOPIFY_TOKEN,
];

const button = {
  buttonText: 'Album',
  priceFormula: '{Final_Amount} + 1',
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
};
const paidOpts = { description: 'Paid', unitPrice: 3.5, pricingButtons: [button] };

const save = (auth: { authorization: string }, body: Record<string, unknown>) =>
  t.call(endpoints.paymentConnectionSave, body, auth);
const connectionsOf = async (auth: { authorization: string }, organisationId?: number) =>
  (
    await t.ok(
      endpoints.paymentConnectionList,
      organisationId ? { organisation_id: organisationId } : {},
      auth,
    )
  ).connections;
const rowCount = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

beforeAll(async () => {
  square = await startSquareDouble();
  stripe = await startStripeDouble({ keys: [STRIPE_TEST_KEY, ORG_STRIPE_KEY] });
  shop = await startShopifyDouble();
  t = await createTestApp(
    {
      SQUARE_API_BASE: square.url,
      STRIPE_API_BASE: stripe.url,
      SHOPIFY_API_BASE: shop.url,
      FLASHBULB_PAYMENTS_TIMEOUT_MS: '2000',
      LOG_LEVEL: 'debug',
    },
    { worker: false, logStream: { write: (line: string) => void logLines.push(line) } },
  );
  world = await createEventWorld(t);
  adminA = { authorization: world.adminA.authorization };
  adminB = { authorization: world.adminB.authorization };
  ownerA = { authorization: world.ownerA.authorization };
});
afterAll(async () => {
  await t?.close();
  await Promise.all([square?.close(), stripe?.close(), shop?.close()]);
});

describe('connecting providers for the organisation', () => {
  it('only super users and the organisation’s admins manage them; bad input is refused and stores nothing', async () => {
    const body = { provider: 'stripe', secret: ORG_STRIPE_KEY };
    expect(errorOf(await save(ownerA, body))).toMatchObject({
      status: 403,
      message_key: 'forbidden',
    });
    expect(errorOf(await save(adminB, { ...body, organisation_id: world.orgA.id }))).toMatchObject({
      status: 403,
      message_key: 'forbidden',
    });
    expect(errorOf(await t.call(endpoints.paymentConnectionList, {}, ownerA))).toMatchObject({
      status: 403,
      message_key: 'forbidden',
    });
    expect(errorOf(await save(adminA, { provider: 'stripe', secret: '  ' }))).toMatchObject({
      status: 400,
      message_key: 'payment_secret_required',
    });
    expect(errorOf(await save(adminA, { provider: 'paypal', secret: 'x1234567' }))).toMatchObject({
      status: 400,
      message_key: 'invalid_value',
    });
    expect(
      errorOf(
        await save(adminA, {
          provider: 'shopify',
          secret: SHOPIFY_TOKEN,
          shop: 'https://evil.example/<b>',
        }),
      ),
    ).toMatchObject({ status: 400, message_key: 'shopify_shop_invalid', field: 'shop' });
    expect(await rowCount('payment_connections')).toBe(0);
  });

  it('saves each provider sealed; the list answers connected, last four and the shop, never the secret', async () => {
    for (const body of [
      { provider: 'square', secret: SQUARE_TOKEN },
      { provider: 'stripe', secret: ORG_STRIPE_KEY },
      { provider: 'shopify', secret: SHOPIFY_TOKEN, shop: SHOP_DOMAIN },
    ]) {
      const reply = await save(adminA, body);
      expect(reply.statusCode).toBe(200);
      expect(JSON.stringify(reply.body)).not.toContain(body.secret);
    }
    const list = await connectionsOf(adminA);
    expect(list).toEqual([
      expect.objectContaining({
        provider: 'square',
        connected: 1,
        last_four: '6789',
        test_ok: null,
      }),
      expect.objectContaining({
        provider: 'stripe',
        connected: 1,
        last_four: 'wxyz',
        test_ok: null,
      }),
      expect.objectContaining({
        provider: 'shopify',
        connected: 1,
        last_four: 'cdef',
        shop: SHOP_DOMAIN,
      }),
    ]);
    const stored = JSON.stringify(
      (await t.database.executeSql('select * from payment_connections', [])).rows,
    );
    for (const secret of SECRETS) expect(stored).not.toContain(secret);
    // Another organisation sees nothing of it.
    expect((await connectionsOf(adminB)).map((c) => c.connected)).toEqual([0, 0, 0]);
  });

  it('“Test credentials” makes one documented harmless call per provider and passes', async () => {
    const before = {
      square: square.received.length,
      stripe: stripe.received.length,
      shop: shop.received.length,
    };
    for (const provider of ['square', 'stripe', 'shopify'] as const) {
      const tested = await t.ok(endpoints.paymentConnectionTest, { provider }, adminA);
      expect(tested).toMatchObject({ provider, connected: 1, test_ok: 1, test_error: null });
      expect(tested.tested_date).not.toBeNull();
    }
    expect(square.received.slice(before.square)).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v2/locations',
        authorization: `Bearer ${SQUARE_TOKEN}`,
      }),
    ]);
    expect(stripe.received.slice(before.stripe)).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: '/v1/account',
        authorization: `Bearer ${ORG_STRIPE_KEY}`,
      }),
    ]);
    expect(shop.received.slice(before.shop)).toEqual([
      expect.objectContaining({
        method: 'GET',
        path: `/admin/api/${SHOPIFY_API_VERSION}/shop.json`,
        token: SHOPIFY_TOKEN,
      }),
    ]);
  });

  it('a refused credential is reported in the provider’s own words, never with the secret', async () => {
    await save(adminB, { provider: 'square', secret: WRONG_SQUARE_TOKEN });
    await save(adminB, { provider: 'stripe', secret: WRONG_STRIPE_KEY });
    await save(adminB, { provider: 'shopify', secret: WRONG_SHOPIFY_TOKEN, shop: SHOP_DOMAIN });
    const result = async (provider: string) => {
      const reply = await t.call(endpoints.paymentConnectionTest, { provider }, adminB);
      expect(reply.statusCode).toBe(200);
      expect(JSON.stringify(reply.body)).not.toMatch(/WrongKey|not-a-real|wrong_token/);
      return (reply.body as { result: { test_ok: number; test_error: string } }).result;
    };
    expect(await result('square')).toMatchObject({
      test_ok: 0,
      test_error: 'This request could not be authorized.',
    });
    const stripeResult = await result('stripe');
    expect(stripeResult.test_ok).toBe(0);
    expect(stripeResult.test_error).toContain('Invalid API Key provided');
    expect(await result('shopify')).toMatchObject({
      test_ok: 0,
      test_error: '[API] Invalid API key or access token (unrecognized login or wrong password)',
    });
    // The result is kept: the list shows it.
    expect((await connectionsOf(adminB)).map((c) => c.test_ok)).toEqual([0, 0, 0]);
  });

  it('a provider that does not answer is our payment_provider_error, and the last result stays', async () => {
    stripe.stall();
    const pending = t.call(endpoints.paymentConnectionTest, { provider: 'stripe' }, adminA);
    const reply = await pending;
    stripe.release();
    expect(errorOf(reply)).toMatchObject({ status: 502, message_key: 'payment_provider_error' });
    expect((await connectionsOf(adminA))[1]).toMatchObject({ provider: 'stripe', test_ok: 1 });
  });
});

describe('the event’s own field first, then the organisation’s connection', () => {
  let ownKey: FlashbulbEvent;
  let orgKey: FlashbulbEvent;

  const guest = async (e: FlashbulbEvent) => {
    const admin = await apiKeyAuth(t, world.adminA);
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
  const startQr = async (e: FlashbulbEvent) =>
    t.ok(endpoints.createQrPayment, {
      key_type: 'private',
      key_value: e.private_api_key,
      display: e.display_token,
      attendee_uid: await guest(e),
      pricing_button_index: 0,
    });
  const lastSession = () =>
    stripe.received.filter((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions').at(-1);

  beforeAll(async () => {
    ownKey = await createEvent(t, world.adminA, {
      full_name: 'Own Key Gala',
      is_free: 0,
      stripe_secret_key: STRIPE_TEST_KEY,
      opts: paidOpts,
    });
    orgKey = await createEvent(t, world.adminA, {
      full_name: 'Organisation Key Gala',
      is_free: 0,
      opts: paidOpts,
    });
  });

  it('Stripe: an event with its own key sells with it; one without uses the organisation’s key', async () => {
    await startQr(ownKey);
    expect(lastSession()?.authorization).toBe(`Bearer ${STRIPE_TEST_KEY}`);
    const sessions = stripe.received.length;
    await startQr(orgKey);
    expect(stripe.received.length).toBeGreaterThan(sessions);
    expect(lastSession()?.authorization).toBe(`Bearer ${ORG_STRIPE_KEY}`);
  });

  it('Square and Shopify: an event without its own credentials reads the organisation’s', async () => {
    const credentials = t.app.container.repositories.eventCredentials;
    expect(await credentials.read(orgKey.id, ['square_access_token'])).toEqual({
      square_access_token: SQUARE_TOKEN,
    });
    expect(await credentials.shopify(orgKey.id)).toEqual({
      shop: SHOP_DOMAIN,
      access_token: SHOPIFY_TOKEN,
    });
    // An event of another organisation never gets organisation A's connection.
    const other = await createEvent(t, world.adminB, {
      full_name: 'Beta Gala',
      is_free: 0,
      opts: paidOpts,
    });
    expect(await credentials.read(other.id, ['stripe_secret_key'])).toEqual({
      stripe_secret_key: WRONG_STRIPE_KEY,
    });
  });

  it('disconnecting removes the secret: an event without its own key no longer sells through Stripe', async () => {
    const removed = await t.ok(endpoints.paymentConnectionDelete, { provider: 'stripe' }, adminA);
    expect(removed).toMatchObject({ provider: 'stripe', connected: 0, last_four: '' });
    expect(
      errorOf(await t.call(endpoints.paymentConnectionDelete, { provider: 'stripe' }, adminA)),
    ).toMatchObject({ status: 404, message_key: 'payment_connection_not_found' });
    const sessions = stripe.received.length;
    // The organisation still sells through Square (its connection): the phone checkout has no
    // real provider left and never falls back to the test provider.
    const refused = await t.call(endpoints.createQrPayment, {
      key_type: 'private',
      key_value: orgKey.private_api_key,
      display: orgKey.display_token,
      attendee_uid: await guest(orgKey),
      pricing_button_index: 0,
    });
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_provider_unavailable',
    });
    expect(stripe.received.length).toBe(sessions);
    expect(
      await t.app.container.repositories.eventCredentials.read(orgKey.id, ['stripe_secret_key']),
    ).toEqual({});
  });
});

describe('card readers stored per organisation', () => {
  it('pairs with the organisation’s Square connection, lists it unpaired, re-checks it paired, removes it', async () => {
    // The popup may leave the token empty: the organisation's Square connection is used.
    const code = await t.ok(
      endpoints.squareCreateDeviceCode,
      { access_token: '', name: 'Front desk', location_id: 'L8RX2V9DSQ1M3' },
      adminA,
    );
    expect(square.received.at(-1)?.authorization).toBe(`Bearer ${SQUARE_TOKEN}`);
    const saved = await t.ok(
      endpoints.cardReaderSave,
      {
        name: 'Front desk',
        location_id: 'L8RX2V9DSQ1M3',
        location_name: 'Main Hall',
        device_code_id: code.device_code!.id,
        device_id: '',
      },
      adminA,
    );
    expect(saved).toMatchObject({ name: 'Front desk', paired: 0, device_id: '' });
    const check = () => t.ok(endpoints.cardReaderCheck, { id: saved.id }, adminA);
    expect((await check()).reader).toMatchObject({ paired: 0 });
    const deviceId = square.pair(code.device_code!.code);
    const paired = await check();
    expect(paired.error_message).toBeNull();
    expect(paired.reader).toMatchObject({ id: saved.id, paired: 1, device_id: deviceId });
    expect((await t.ok(endpoints.cardReaderList, {}, adminA)).readers).toEqual([
      expect.objectContaining({ id: saved.id, location_name: 'Main Hall', paired: 1 }),
    ]);
    // Another organisation neither sees nor checks nor removes it.
    expect((await t.ok(endpoints.cardReaderList, {}, adminB)).readers).toEqual([]);
    expect(
      errorOf(await t.call(endpoints.cardReaderCheck, { id: saved.id }, adminB)),
    ).toMatchObject({ status: 404, message_key: 'card_reader_not_found' });
    expect(
      errorOf(await t.call(endpoints.cardReaderDelete, { id: saved.id }, adminB)),
    ).toMatchObject({ status: 404, message_key: 'card_reader_not_found' });
    expect(await t.ok(endpoints.cardReaderDelete, { id: saved.id }, adminA)).toEqual({
      deleted: 1,
    });
    expect((await t.ok(endpoints.cardReaderList, {}, adminA)).readers).toEqual([]);
  });

  it('a re-check with a Square token Square refuses answers Square’s words; without a connection our key', async () => {
    const saved = await t.ok(
      endpoints.cardReaderSave,
      {
        name: 'Tent',
        location_id: 'L1',
        location_name: 'Tent',
        device_code_id: 'code-of-b',
        device_id: '',
      },
      adminB,
    );
    expect(await t.ok(endpoints.cardReaderCheck, { id: saved.id }, adminB)).toMatchObject({
      reader: { paired: 0 },
      error_message: 'This request could not be authorized.',
    });
    await t.ok(endpoints.paymentConnectionDelete, { provider: 'square' }, adminB);
    expect(
      errorOf(await t.call(endpoints.cardReaderCheck, { id: saved.id }, adminB)),
    ).toMatchObject({ status: 404, message_key: 'payment_connection_not_found' });
  });
});

describe('secrets in the log stream', () => {
  it('no log line carries a connected secret', () => {
    expect(logLines.some((l) => l.includes('payment provider connected'))).toBe(true);
    expect(logLines.some((l) => l.includes('payment credentials test failed'))).toBe(true);
    for (const line of logLines) for (const secret of SECRETS) expect(line).not.toContain(secret);
  });
});
