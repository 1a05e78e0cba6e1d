import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import {
  startStripeDouble,
  STRIPE_TEST_KEY,
  type StripeDouble,
} from '../doubles/stripe/stripe-double.ts';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The built-in test provider is a switch (security review: a guest paid their own album with the
 * test card on a default install). Unset, nothing sells until a real provider is connected;
 * `FLASHBULB_PAYMENTS_PROVIDER=test` turns the test provider on (and the console says so); a real
 * provider configured for an event sells whatever the switch says; no checkout falls back to the
 * test provider for an event that has a real one.
 */

const paidOpts = {
  description: 'Paid',
  unitPrice: 3,
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
};

interface World {
  t: TestApp;
  admin: { authorization: string };
  adminA: Awaited<ReturnType<typeof createEventWorld>>['adminA'];
}

const world = async (env: Record<string, string>): Promise<World> => {
  const t = await createTestApp(env, { worker: false });
  const w = await createEventWorld(t);
  return { t, admin: await apiKeyAuth(t, w.adminA), adminA: w.adminA };
};

/** An attendee of the event with one published photo: their own album link is the attendee key. */
const guestOf = async ({ t, admin }: World, event: FlashbulbEvent): Promise<string> => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  await insertReadyPhoto(t, event, uid);
  return uid;
};

const checkoutByGuest = (t: TestApp, uid: string) =>
  t.call(endpoints.createQrPayment, {
    key_type: 'attendee',
    key_value: uid,
    attendee_uid: uid,
    pricing_button_index: 0,
  });

const rows = async (t: TestApp, table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

describe('the switch in the configuration', () => {
  it('is off unless set: unset and empty mean none, `test` turns the test provider on', () => {
    expect(loadConfig({}).providers.payments).toEqual({ kind: 'none' });
    expect(loadConfig({ FLASHBULB_PAYMENTS_PROVIDER: '' }).providers.payments).toEqual({
      kind: 'none',
    });
    expect(loadConfig({ FLASHBULB_PAYMENTS_PROVIDER: 'none' }).providers.payments).toEqual({
      kind: 'none',
    });
    expect(loadConfig({ FLASHBULB_PAYMENTS_PROVIDER: 'test' }).providers.payments).toEqual({
      kind: 'test',
    });
  });
});

describe('a default install (switch unset)', () => {
  let w: World;
  let stripe: StripeDouble;
  beforeAll(async () => {
    stripe = await startStripeDouble();
    // The helper turns the test provider on for the other tests; '' is the switch left unset.
    w = await world({ FLASHBULB_PAYMENTS_PROVIDER: '', STRIPE_API_BASE: stripe.url });
  });
  afterAll(async () => {
    await w?.t.close();
    await stripe?.close();
  });

  it('sells nothing through the test provider: a guest’s own album link is refused and nothing is stored', async () => {
    const event = await createEvent(w.t, w.adminA, {
      full_name: 'No provider',
      is_free: 0,
      opts: paidOpts,
    });
    const uid = await guestOf(w, event);
    const refused = await checkoutByGuest(w.t, uid);
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'payment_provider_unavailable',
    });
    expect(await rows(w.t, 'orders')).toBe(0);
    expect(await rows(w.t, 'payments')).toBe(0);
    const form = await w.t.call(endpoints.testProviderPay, {
      payment_id: 'pay_any',
      card_number: '4242424242424242',
    });
    expect(errorOf(form).message_key).toBe('not_found');
  });

  it('sells through a real provider configured for the event', async () => {
    const event = await createEvent(w.t, w.adminA, {
      full_name: 'Stripe sells',
      is_free: 0,
      stripe_secret_key: STRIPE_TEST_KEY,
      opts: paidOpts,
    });
    const uid = await guestOf(w, event);
    const started = await w.t.ok(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: uid,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(started.checkout_url).not.toContain('/pay/test/');
    expect(started.checkout_url.startsWith(stripe.url)).toBe(true);
  });

  it('tells the console the test provider is off (my-info)', async () => {
    expect((await w.t.ok(endpoints.myInfo, {}, w.admin)).test_payments).toBe(false);
  });
});

describe('with the test provider switched on', () => {
  let w: World;
  beforeAll(async () => {
    w = await world({ FLASHBULB_PAYMENTS_PROVIDER: 'test' });
  });
  afterAll(async () => {
    await w?.t.close();
  });

  it('sells an event without a real provider through the test provider (demos)', async () => {
    const event = await createEvent(w.t, w.adminA, {
      full_name: 'Demo',
      is_free: 0,
      opts: paidOpts,
    });
    const uid = await guestOf(w, event);
    const started = await w.t.ok(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: uid,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(started.checkout_url).toContain('/pay/test/');
  });

  it('never falls back to it for an event that sells through a real provider without QR checkout', async () => {
    for (const secure of [
      { square_access_token: 'EAAAl-square-token-of-the-venue-0123456789' },
      { shopify_api_pass: 'shpat_0123456789abcdef0123456789abcdef' },
    ]) {
      const event = await createEvent(w.t, w.adminA, {
        full_name: `Real ${Object.keys(secure)[0]}`,
        is_free: 0,
        ...secure,
        opts: { ...paidOpts, shopDomain: 'venue.myshopify.com' },
      });
      const uid = await guestOf(w, event);
      const before = await rows(w.t, 'payments');
      const refused = await checkoutByGuest(w.t, uid);
      expect(errorOf(refused)).toMatchObject({
        status: 409,
        message_key: 'payment_provider_unavailable',
      });
      expect(await rows(w.t, 'payments')).toBe(before);
    }
  });

  it('tells the console the test provider is on (my-info), for the banner on every page', async () => {
    expect((await w.t.ok(endpoints.myInfo, {}, w.admin)).test_payments).toBe(true);
  });
});
