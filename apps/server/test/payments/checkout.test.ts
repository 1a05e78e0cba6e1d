import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { UNPAID_BUYER_ALBUM_DAYS } from '../../src/services/payments/album-purchase.service.ts';

/**
 * QR checkout with the built-in test provider (albums spec §7.3): create-qr-payment,
 * check-qr-status, disable-qr-link, the provider's form (test cards) and its signed webhook.
 */

let t: TestApp;
let admin: { authorization: string };
let adminB: { authorization: string };
let paid: FlashbulbEvent;
let world: Awaited<ReturnType<typeof createEventWorld>>;

// The organiser's kiosk: the private key with the event's display token.
const kiosk = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  display: e.display_token,
});

const insertPhoto = (event: FlashbulbEvent, attendeeUid: string | null = null) =>
  insertReadyPhoto(t, event, attendeeUid);

/** A new attendee of the paid event with `photos` photos. */
const guest = async (photos = 2, event?: FlashbulbEvent) => {
  const at = event ?? paid;
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [at.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  const rows = [];
  for (let i = 0; i < photos; i += 1) rows.push(await insertPhoto(at, uid));
  return { uid, photos: rows };
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

const postWebhook = (hook: { headers: Record<string, unknown>; body: Buffer }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/test',
    headers: hook.headers as Record<string, string>,
    payload: hook.body,
  });

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminB = await apiKeyAuth(t, world.adminB);
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
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
});
afterAll(async () => {
  await t?.close();
});

describe('QR checkout with the test provider', () => {
  it('a declined card unlocks nothing; the test card pays and the originals open', async () => {
    const { uid } = await guest(2);
    const first = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    // 2 photos × $3.50 + $1 = $8.00
    expect(first).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    expect(first.payment_id).toMatch(/^pay_[a-z2-7]{26}$/);
    expect(first.checkout_url).toBe(`${t.config.publicUrl}/pay/test/${first.payment_id}`);
    expect(await originals(uid)).toEqual([null, null]);
    // The checkout page reads what it charges, by the payment id alone.
    expect(
      await t.ok(endpoints.testProviderCheckout, { payment_id: ` ${first.payment_id} ` }),
    ).toEqual({
      payment_id: first.payment_id,
      status: 'pending',
      amount: 800,
      currency: 'USD',
      description: 'Album',
      merchant: 'Paid Gala',
    });
    const unknown = await t.call(endpoints.testProviderCheckout, { payment_id: 'pay_unknown' });
    expect(errorOf(unknown)).toMatchObject({ status: 404, message_key: 'not_found' });

    const declined = await t.ok(endpoints.testProviderPay, {
      payment_id: first.payment_id,
      card_number: '4000 0000 0000 0002',
    });
    expect(declined.status).toBe('failed');
    expect(
      (await t.ok(endpoints.testProviderCheckout, { payment_id: first.payment_id })).status,
    ).toBe('failed');
    expect(
      (await t.ok(endpoints.checkQrStatus, { ...kiosk(paid), payment_id: first.payment_id }))
        .status,
    ).toBe('failed');
    expect(await originals(uid)).toEqual([null, null]);
    // A declined payment cannot be paid after all: the guest starts a new one.
    const retry = await t.ok(endpoints.testProviderPay, {
      payment_id: first.payment_id,
      card_number: '4242424242424242',
    });
    expect(retry.status).toBe('failed');

    const second = await t.ok(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: uid,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(second.payment_id).not.toBe(first.payment_id);
    const ok = await t.ok(endpoints.testProviderPay, {
      payment_id: second.payment_id,
      card_number: '4242-4242-4242-4242',
    });
    expect(ok.status).toBe('paid');
    expect((await originals(uid)).every((url) => url?.includes('/original?'))).toBe(true);
    expect(
      await t.ok(endpoints.checkQrStatus, {
        key_type: 'attendee',
        key_value: uid,
        payment_id: second.payment_id,
      }),
    ).toEqual({ payment_id: second.payment_id, status: 'paid', amount: 800, currency: 'USD' });
  });

  it('lists the buttons priced for the attendee’s album, or hides the prices', async () => {
    const { uid } = await guest(3);
    const list = await t.ok(endpoints.pricingButtonList, { ...kiosk(paid), attendee_uid: uid });
    // 3 photos × $3.50 + $1
    expect(list).toEqual({
      is_free: 0,
      currency: 'USD',
      photo_count: 3,
      // A kiosk's key: the kiosks' ways to pay (all by default), but Shopify only where the event
      // has a shop (none here; S/payments/shopify.test.ts shows it offered where one is set up)
      // and the payment terminal only where one is configured (none in this app;
      // S/payments/terminal.test.ts has one).
      methods: ['qr', 'square'],
      buttons: [
        {
          index: 0,
          button_text: 'Album',
          digitals: true,
          prints: false,
          amount: 1150,
          requires_digital: false,
        },
      ],
      // No digital-product message, no upsell at this event.
      digital_message: '',
      upsell_message: null,
      // Prints follow the pricing at a paid event, and this guest bought none.
      prints_free: 0,
      prints_remaining: 0,
    });
    const one = await t.ok(endpoints.pricingButtonList, {
      key_type: 'attendee',
      key_value: uid,
      attendee_uid: uid,
      photo_count: 1,
    });
    expect(one.buttons[0]!.amount).toBe(450);
    const hidden = await createEvent(t, world.adminA, {
      full_name: 'Hidden prices',
      is_free: 0,
      opts: {
        description: 'Hidden',
        unitPrice: 2,
        hideProductPrice: 1,
        pricingButtons: [
          {
            buttonText: 'All',
            priceFormula: '{Final_Amount}',
            digitals: true,
            prints: false,
            partialUnlockTags: false,
            printsPool: '',
          },
        ],
      },
    });
    const hiddenList = await t.ok(endpoints.pricingButtonList, {
      ...kiosk(hidden),
      attendee_uid: uid,
      photo_count: 2,
    });
    expect(hiddenList.buttons[0]!.amount).toBeNull();
  });

  it('is idempotent by client request id and prices the chosen photos', async () => {
    const { uid, photos } = await guest(3);
    const body = {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
      photo_uids: [photos[0]!.uid],
      client_request_id: 'kiosk-1-attempt-1',
    };
    const orders = await rowCount('orders');
    const a = await t.ok(endpoints.createQrPayment, body);
    const b = await t.ok(endpoints.createQrPayment, body);
    expect(b).toEqual(a);
    expect(a.amount).toBe(450); // 1 × $3.50 + $1
    expect(await rowCount('orders')).toBe(orders + 1);
  });

  it('takes the provider’s webhook once: replayed, duplicated, out of order, or badly signed', async () => {
    const { uid } = await guest(1);
    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const adapter = t.app.container.paymentProviders.test!;
    const reference = `tp_${created.payment_id}`;
    const status = async () =>
      (await t.ok(endpoints.checkQrStatus, { ...kiosk(paid), payment_id: created.payment_id }))
        .status;

    // A forged signature and a stale one change nothing.
    const forged = adapter.webhook({
      id: 'evt_forged',
      type: 'payment.succeeded',
      payment_reference: reference,
      reason: null,
    });
    const tampered = {
      ...forged,
      body: Buffer.from(forged.body.toString().replace('evt_forged', 'evt_other')),
    };
    expect((await postWebhook(tampered)).statusCode).toBe(403);
    const stale = adapter.webhook(
      { id: 'evt_stale', type: 'payment.succeeded', payment_reference: reference, reason: null },
      new Date(t.clock.now().getTime() - 6 * 60_000),
    );
    expect((await postWebhook(stale)).statusCode).toBe(403);
    expect(await status()).toBe('pending');
    expect(await originals(uid)).toEqual([null]);

    const paidHook = adapter.webhook({
      id: 'evt_paid_1',
      type: 'payment.succeeded',
      payment_reference: reference,
      reason: null,
    });
    const first = await postWebhook(paidHook);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ result: { duplicate: false } });
    expect(await status()).toBe('paid');
    const again = await postWebhook(paidHook);
    expect(again.json()).toMatchObject({ result: { duplicate: true } });
    // A decline delivered late (out of order) does not undo the payment.
    const late = await postWebhook(
      adapter.webhook({
        id: 'evt_failed_0',
        type: 'payment.failed',
        payment_reference: reference,
        reason: 'card_declined',
      }),
    );
    expect(late.statusCode).toBe(200);
    expect(await status()).toBe('paid');
    expect(await originals(uid)).toEqual([
      expect.stringMatching(/\/media\/photos\/\d+\/original\?/),
    ]);
    const unlocks = await t.database.executeSql(
      `select count(*) as n from attendee_unlocks u join attendees a on a.id = u.attendee_id where a.uid = $1`,
      [uid],
    );
    expect(Number(unlocks.rows[0]!.n)).toBe(1);
  });

  it('two kiosks paying the same album at once: both payments are kept, the album unlocks once', async () => {
    const { uid } = await guest(1);
    const start = (kioskName: string) =>
      t.ok(endpoints.createQrPayment, {
        ...kiosk(paid),
        attendee_uid: uid,
        pricing_button_index: 0,
        client_request_id: kioskName,
      });
    const [a, b] = await Promise.all([start('kiosk-a'), start('kiosk-b')]);
    const results = await Promise.all(
      [a, b].map((p) =>
        t.ok(endpoints.testProviderPay, {
          payment_id: p.payment_id,
          card_number: '4242424242424242',
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(['paid', 'paid']);
    const unlocks = await t.database.executeSql(
      `select u.source from attendee_unlocks u join attendees a on a.id = u.attendee_id where a.uid = $1`,
      [uid],
    );
    expect(unlocks.rows).toEqual([{ source: 'payment' }]);
  });

  it('buying chosen photos opens exactly those originals', async () => {
    const { uid, photos } = await guest(2);
    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
      photo_uids: [photos[1]!.uid],
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242424242424242',
    });
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    });
    const originalOf = (photoUid: string) =>
      list.photos.find((p) => p.uid === photoUid)?.urls.original;
    expect(originalOf(photos[1]!.uid)).toMatch(/\/media\/photos\/\d+\/original\?/);
    expect(originalOf(photos[0]!.uid)).toBeNull();
  });

  it('sends the receipt e-mail through the outbox once the payment is confirmed, never before', async () => {
    const uid = (
      await t.ok(
        endpoints.generateAttendeeList,
        {
          attendee_count: 1,
          event_id_array: [paid.id],
          is_prepaid: 0,
          email: 'guest@example.com',
        },
        admin,
      )
    ).attendees[0]!.uid;
    await insertPhoto(paid, uid);
    const receipts = async () =>
      (
        await t.database.executeSql(
          `select recipient, content from outbox where kind = 'payment_receipt' and recipient = $1`,
          ['guest@example.com'],
        )
      ).rows as { recipient: string; content: { subject: string; text: string; html: string } }[];
    const declined = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: declined.payment_id,
      card_number: '4000000000000002',
    });
    expect(await receipts()).toEqual([]);

    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242424242424242',
    });
    // Paying again (a double tap on the form) sends no second receipt.
    await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242424242424242',
    });
    const sent = await receipts();
    expect(sent).toHaveLength(1);
    expect(sent[0]!.content.subject).toBe('Your receipt: Paid Gala');
    // The event's receipt body with {user_name} filled, and what was bought for how much.
    // The buyer's address is a placeholder value: zero-width spaces keep mail clients from
    // turning it into a link.
    expect(sent[0]!.content.text.replace(/\u200B/g, '')).toContain(
      'Hi guest@example.com, thank you for your purchase.',
    );
    expect(sent[0]!.content.text).toContain('Album: $4.50');
  });

  it('a disabled link cannot be paid; refusals change nothing', async () => {
    const { uid } = await guest(1);
    const other = await guest(1);
    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const before = await rowCount('payments');

    const notACard = await t.call(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '1234 5678',
    });
    expect(errorOf(notACard)).toMatchObject({ status: 400, message_key: 'card_invalid' });
    // Another attendee's key sees neither the payment nor may pay for someone else.
    const foreign = await t.call(endpoints.checkQrStatus, {
      key_type: 'attendee',
      key_value: other.uid,
      payment_id: created.payment_id,
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });
    const forSomeoneElse = await t.call(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: other.uid,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(errorOf(forSomeoneElse).message_key).toBe('invalid_attendee_id');
    const notTheirPhoto = await t.call(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
      photo_uids: [other.photos[0]!.uid],
    });
    expect(errorOf(notTheirPhoto)).toMatchObject({ message_key: 'not_found', field: 'photo_uids' });
    const noButton = await t.call(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 4,
    });
    expect(errorOf(noButton)).toMatchObject({ message_key: 'invalid_value' });
    const publicKey = await t.call(endpoints.createQrPayment, {
      key_type: 'public',
      key_value: paid.public_api_key,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    expect(errorOf(publicKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    expect(await rowCount('payments')).toBe(before);

    const disabled = await t.ok(endpoints.disableQrLink, {
      ...kiosk(paid),
      payment_id: created.payment_id,
    });
    expect(disabled.status).toBe('cancelled');
    const paidAfter = await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242424242424242',
    });
    expect(paidAfter.status).toBe('cancelled');
    expect(await originals(uid)).toEqual([null]);
  });
});

describe('the selling settings', () => {
  const sellingButton = (buttonText: string, digitals: boolean, prints: boolean) => ({
    buttonText,
    priceFormula: '{Final_Amount}',
    digitals,
    prints,
    partialUnlockTags: false,
    printsPool: '',
  });
  let selling: FlashbulbEvent;
  const sellingGuest = async () => {
    const uid = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [selling.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    const photo = await insertPhoto(selling, uid);
    return { uid, photo };
  };
  const payFor = async (uid: string, index: number, photoUids?: string[]) => {
    const started = await t.ok(endpoints.createQrPayment, {
      ...kiosk(selling),
      attendee_uid: uid,
      pricing_button_index: index,
      ...(photoUids ? { photo_uids: photoUids } : {}),
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: started.payment_id,
      card_number: '4242424242424242',
    });
    return started;
  };

  beforeAll(async () => {
    selling = await createEvent(t, world.adminA, {
      full_name: 'Selling Gala',
      is_free: 0,
      is_photo_printer_active: 1,
      opts: {
        description: 'Paid',
        unitPrice: 2,
        eventMultiplier: 1.5,
        printMultiplier: 2,
        digitalProductMessage: 'High resolution, no watermark <b>ever</b>',
        upsellEnabled: 1,
        upsellMessage: 'Loved them? Add prints!',
        comboRequired: 1,
        pricingButtons: [
          sellingButton('Digitals', true, false),
          sellingButton('Prints', false, true),
          sellingButton('Both', true, true),
        ],
      },
    });
  });

  it('prices prints with the print multiplier, shows the digital message, offers no upsell before a purchase', async () => {
    const { uid } = await sellingGuest();
    const list = await t.ok(endpoints.pricingButtonList, { ...kiosk(selling), attendee_uid: uid });
    // $2 × 1 photo × 1.5 = $3.00; a button selling prints × 2 = $6.00.
    expect(list.buttons.map((b) => [b.button_text, b.amount])).toEqual([
      ['Digitals', 300],
      ['Prints', 600],
      ['Both', 600],
    ]);
    expect(list.digital_message).toBe('High resolution, no watermark <b>ever</b>');
    expect(list.upsell_message).toBeNull();
    // Combo required: prints alone wait for the digitals; the combo button does not.
    expect(list.buttons.map((b) => b.requires_digital)).toEqual([false, true, false]);
    const both = await t.ok(endpoints.createQrPayment, {
      ...kiosk(selling),
      attendee_uid: uid,
      pricing_button_index: 2,
    });
    expect(both.amount).toBe(600);
  });

  it('combo required: prints alone are refused until the digitals are bought; then the upsell is offered', async () => {
    const { uid, photo } = await sellingGuest();
    const orders = await rowCount('orders');
    const refused = await t.call(endpoints.createQrPayment, {
      ...kiosk(selling),
      attendee_uid: uid,
      pricing_button_index: 1,
      photo_uids: [photo.uid],
    });
    expect(errorOf(refused)).toMatchObject({
      status: 400,
      message_key: 'combo_digital_required',
      field: 'pricing_button_index',
    });
    expect(await rowCount('orders')).toBe(orders);

    await payFor(uid, 0);
    const after = await t.ok(endpoints.pricingButtonList, { ...kiosk(selling), attendee_uid: uid });
    expect(after.upsell_message).toBe('Loved them? Add prints!');
    expect(after.buttons.map((b) => b.requires_digital)).toEqual([false, false, false]);
    const prints = await t.ok(endpoints.createQrPayment, {
      ...kiosk(selling),
      attendee_uid: uid,
      pricing_button_index: 1,
      photo_uids: [photo.uid],
    });
    expect(prints).toMatchObject({ amount: 600, status: 'pending' });
  });

  it('without combo required prints sell alone; without the upsell flag nothing is offered after a purchase', async () => {
    const plain = await createEvent(t, world.adminA, {
      full_name: 'Plain selling',
      is_free: 0,
      is_photo_printer_active: 1,
      opts: {
        description: 'Paid',
        unitPrice: 2,
        upsellMessage: 'Not offered: the flag is off',
        pricingButtons: [
          sellingButton('Digitals', true, false),
          sellingButton('Prints', false, true),
        ],
      },
    });
    const uid = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [plain.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    const photo = await insertPhoto(plain, uid);
    const prints = await t.ok(endpoints.createQrPayment, {
      ...kiosk(plain),
      attendee_uid: uid,
      pricing_button_index: 1,
      photo_uids: [photo.uid],
    });
    // No print multiplier set: prints cost what digitals cost.
    expect(prints.amount).toBe(200);
    await t.ok(endpoints.testProviderPay, {
      payment_id: prints.payment_id,
      card_number: '4242424242424242',
    });
    const list = await t.ok(endpoints.pricingButtonList, { ...kiosk(plain), attendee_uid: uid });
    expect(list.upsell_message).toBeNull();
    expect(list.buttons.every((b) => !b.requires_digital)).toBe(true);
  });

  it('an album purchase of prints alone is refused before any album is made', async () => {
    const photo = await insertPhoto(selling);
    const before = [await rowCount('attendees'), await rowCount('orders')];
    const list = await t.ok(endpoints.albumPurchasePricing, {
      key_type: 'private',
      key_value: selling.private_api_key,
    });
    expect(list.digital_message).toBe('High resolution, no watermark <b>ever</b>');
    expect(list.buttons.map((b) => b.requires_digital)).toEqual([false, true, false]);
    const refused = await t.call(endpoints.albumPurchaseCreate, {
      key_type: 'private',
      key_value: selling.private_api_key,
      pricing_button_index: 1,
      photo_uids: [photo.uid],
    });
    expect(errorOf(refused).message_key).toBe('combo_digital_required');
    expect([await rowCount('attendees'), await rowCount('orders')]).toEqual(before);
  });
});

describe('buying from the public or private album of a paid event', () => {
  const publicKey = () => ({ key_type: 'public' as const, key_value: paid.public_api_key });
  const privateKey = () => ({ key_type: 'private' as const, key_value: paid.private_api_key });
  const albumOf = async (albumUid: string) =>
    (
      await t.ok(endpoints.publicPhotoList, {
        key_type: 'attendee',
        key_value: albumUid,
        max_size: 100,
        page_number: 1,
      })
    ).photos;

  it('a public-album guest buys two photos: a personal album holds exactly those, opened only once the provider confirms, once', async () => {
    const [a, b, c] = [await insertPhoto(paid), await insertPhoto(paid), await insertPhoto(paid)];
    await t.app.container.storage.put(a.storageKey, Buffer.from('original a'), 'image/jpeg');
    const priced = await t.ok(endpoints.albumPurchasePricing, { ...publicKey(), photo_count: 2 });
    // 2 photos × $3.50 + $1, the album page's ways to pay.
    expect(priced).toMatchObject({ is_free: 0, photo_count: 2, methods: ['qr', 'paypal'] });
    expect(priced.buttons).toEqual([expect.objectContaining({ index: 0, amount: 800 })]);

    const attendeesBefore = await rowCount('attendees');
    const start = () =>
      t.ok(endpoints.albumPurchaseCreate, {
        ...publicKey(),
        pricing_button_index: 0,
        photo_uids: [a.uid, b.uid],
        client_request_id: 'public-guest-1',
      });
    const created = await start();
    expect(created).toMatchObject({ amount: 800, currency: 'USD', status: 'pending' });
    expect(created.checkout_url).toBe(`${t.config.publicUrl}/pay/test/${created.payment_id}`);
    // A retried start answers the same payment and makes no second album.
    expect((await start()).payment_id).toBe(created.payment_id);
    expect(await rowCount('attendees')).toBe(attendeesBefore + 1);

    // Before the provider confirms: no album named, nothing in it, nothing unlocked.
    const status = () =>
      t.ok(endpoints.albumPurchaseStatus, { ...publicKey(), payment_id: created.payment_id });
    expect(await status()).toMatchObject({ status: 'pending', album_uid: null, album_url: null });
    const held = async () => ({
      photos: await rowCount("attendee_photos where source = 'purchase'"),
      unlocks: await rowCount('attendee_unlocks'),
      attendees: await rowCount('attendees'),
    });
    const before = await held();

    const adapter = t.app.container.paymentProviders.test!;
    const paidHook = adapter.webhook({
      id: 'evt_album_purchase_1',
      type: 'payment.succeeded',
      payment_reference: `tp_${created.payment_id}`,
      reason: null,
    });
    expect((await postWebhook(paidHook)).statusCode).toBe(200);
    const after = await status();
    expect(after.status).toBe('paid');
    expect(after.album_uid).toMatch(/^[A-Z0-9-]+$/);
    expect(after.album_url).toBe(
      `${t.config.publicUrl}/?attId=${encodeURIComponent(after.album_uid!)}`,
    );
    const album = await albumOf(after.album_uid!);
    expect(album.map((p) => p.uid).sort()).toEqual([a.uid, b.uid].sort());
    expect(album.map((p) => p.uid)).not.toContain(c.uid);
    for (const photo of album)
      expect(photo.urls.original).toMatch(/\/media\/photos\/\d+\/original\?/);
    const originalA = album.find((p) => p.uid === a.uid)!.urls.original!;
    const download = await t.app.inject({
      method: 'GET',
      url: originalA.slice(originalA.indexOf('/media/')),
    });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('original a');
    const held1 = await held();
    expect(held1).toEqual({ ...before, photos: before.photos + 2, unlocks: before.unlocks + 2 });

    // The webhook replayed changes nothing.
    expect((await postWebhook(paidHook)).json()).toMatchObject({ result: { duplicate: true } });
    expect(await held()).toEqual(held1);
    // The public album itself still gives no original.
    const publicList = await t.ok(endpoints.publicPhotoList, {
      ...publicKey(),
      max_size: 100,
      page_number: 1,
    });
    expect(publicList.photos.find((p) => p.uid === a.uid)?.urls.original).toBeNull();

    // A second purchase on the same device joins the same album.
    const more = await t.ok(endpoints.albumPurchaseCreate, {
      ...publicKey(),
      pricing_button_index: 0,
      photo_uids: [c.uid],
      buyer_album_uid: after.album_uid!,
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: more.payment_id,
      card_number: '4242424242424242',
    });
    expect(
      (await t.ok(endpoints.albumPurchaseStatus, { ...publicKey(), payment_id: more.payment_id }))
        .album_uid,
    ).toBe(after.album_uid);
    expect((await albumOf(after.album_uid!)).map((p) => p.uid).sort()).toEqual(
      [a.uid, b.uid, c.uid].sort(),
    );
    expect(await rowCount('attendees')).toBe(held1.attendees);
  });

  it('bad input and refused purchases make no album and change nothing', async () => {
    const photo = await insertPhoto(paid);
    const hidden = await insertPhoto(paid);
    await t.app.container.repositories.photos.update(hidden.id, { isVisible: 0 });
    const other = await createEvent(t, world.adminA, { full_name: 'Other' });
    const elsewhere = await insertPhoto(other);
    const before = [await rowCount('attendees'), await rowCount('orders')];
    const refusals: [Record<string, unknown>, string][] = [
      [{ photo_uids: [hidden.uid] }, 'not_found'],
      [{ photo_uids: [elsewhere.uid] }, 'not_found'],
      [{ photo_uids: [photo.uid], pricing_button_index: 3 }, 'invalid_value'],
      [{ photo_uids: [photo.uid], email: 'not an address' }, 'email_invalid'],
      [{ photo_uids: [] }, 'photos_required'],
    ];
    for (const [body, key] of refusals) {
      const answer = await t.call(endpoints.albumPurchaseCreate, {
        ...privateKey(),
        pricing_button_index: 0,
        ...body,
      });
      expect(errorOf(answer).message_key).toBe(key);
    }
    // A free event sells nothing.
    const free = await t.call(endpoints.albumPurchaseCreate, {
      key_type: 'public',
      key_value: other.public_api_key,
      pricing_button_index: 0,
      photo_uids: [elsewhere.uid],
    });
    expect(errorOf(free).message_key).toBe('invalid_value');
    expect([await rowCount('attendees'), await rowCount('orders')]).toEqual(before);
    // An attendee's own purchase is no album purchase: its payment is not found here.
    const { uid } = await guest(1);
    const own = await t.ok(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: uid,
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const notOurs = await t.call(endpoints.albumPurchaseStatus, {
      ...publicKey(),
      payment_id: own.payment_id,
    });
    expect(errorOf(notOurs).message_key).toBe('not_found');
  });

  it('a private-album guest who leaves the checkout cancels it: the link cannot be paid, no album is named', async () => {
    const photo = await insertPhoto(paid);
    const created = await t.ok(endpoints.albumPurchaseCreate, {
      ...privateKey(),
      pricing_button_index: 0,
      photo_uids: [photo.uid],
    });
    expect(
      await t.ok(endpoints.albumPurchaseCancel, {
        ...privateKey(),
        payment_id: created.payment_id,
      }),
    ).toEqual({ payment_id: created.payment_id, status: 'cancelled' });
    const tried = await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242424242424242',
    });
    expect(tried.status).toBe('cancelled');
    expect(
      await t.ok(endpoints.albumPurchaseStatus, {
        ...privateKey(),
        payment_id: created.payment_id,
      }),
    ).toMatchObject({ status: 'cancelled', album_uid: null });
    // The cancelled buyer's album received nothing.
    const attached = await t.database.executeSql(
      `select count(*) as n from attendee_photos p join orders o on o.attendee_id = p.attendee_id
       join payments y on y.order_id = o.id where y.public_id = $1`,
      [created.payment_id],
    );
    expect(Number(attached.rows[0]!.n)).toBe(0);
  });
});

describe('the clean-up of unpaid buyer albums', () => {
  const privateKey = () => ({ key_type: 'private' as const, key_value: paid.private_api_key });
  const buyerOf = async (paymentId: string): Promise<number> =>
    Number(
      (
        await t.database.executeSql(
          'select o.attendee_id as id from orders o join payments y on y.order_id = o.id where y.public_id = $1',
          [paymentId],
        )
      ).rows[0]!.id,
    );
  const exists = async (attendeeId: number) =>
    (await t.database.executeSql('select 1 from attendees where id = $1', [attendeeId])).rows
      .length === 1;
  const purchase = async (card: string | null) => {
    const photo = await insertPhoto(paid);
    const created = await t.ok(endpoints.albumPurchaseCreate, {
      ...privateKey(),
      pricing_button_index: 0,
      photo_uids: [photo.uid],
    });
    if (card)
      await t.ok(endpoints.testProviderPay, { payment_id: created.payment_id, card_number: card });
    return buyerOf(created.payment_id);
  };

  it('removes albums nobody paid for after the set days, with their orders; never paid, pending or other albums; twice is harmless', async () => {
    const cleanup = t.app.container.services.albumPurchases;
    const declined = await purchase('4000 0000 0000 0002');
    const bought = await purchase('4242 4242 4242 4242');
    const pending = await purchase(null);
    // A generated album with nothing in it and no order: never the clean-up's business.
    const generated = (await guest(0)).uid;
    const generatedId = (await t.app.container.repositories.attendees.findByUid(generated))!.row.id;
    const attendeesBefore = await rowCount('attendees');
    const now = t.clock.now();
    // Fresh: a late confirmation may still come, nothing goes.
    expect(await cleanup.removeUnpaidAlbums(now)).toBe(0);
    expect(await rowCount('attendees')).toBe(attendeesBefore);
    // A day short of the limit: still kept.
    const day = 86_400_000;
    expect(
      await cleanup.removeUnpaidAlbums(
        new Date(now.getTime() + (UNPAID_BUYER_ALBUM_DAYS - 1) * day),
      ),
    ).toBe(0);

    const later = new Date(now.getTime() + (UNPAID_BUYER_ALBUM_DAYS + 1) * day);
    const removed = await cleanup.removeUnpaidAlbums(later);
    // The declined buyer's album goes (and the album a cancelled purchase above left behind).
    expect(removed).toBeGreaterThanOrEqual(1);
    expect(await exists(declined)).toBe(false);
    const orphans = await t.database.executeSql(
      'select count(*) as n from orders o left join attendees a on a.id = o.attendee_id where a.id is null',
      [],
    );
    expect(Number(orphans.rows[0]!.n)).toBe(0);
    // Paid, still pending (the expiry job ends it first) and generated albums stay.
    expect(await exists(bought)).toBe(true);
    expect(await exists(pending)).toBe(true);
    expect(await exists(generatedId)).toBe(true);
    expect(await rowCount('attendees')).toBe(attendeesBefore - removed);
    // Idempotent: a second run removes nothing.
    expect(await cleanup.removeUnpaidAlbums(later)).toBe(0);
    expect(await rowCount('attendees')).toBe(attendeesBefore - removed);
  });
});

describe('operator side', () => {
  const pay = async (uid: string, card = '4242424242424242') => {
    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    await t.ok(endpoints.testProviderPay, { payment_id: created.payment_id, card_number: card });
    return created;
  };

  it('lists orders with their payments and the paid totals per day and per button', async () => {
    const before = await t.ok(endpoints.orderList, { event_id: paid.id }, admin);
    const { uid } = await guest(1);
    const declined = await pay(uid, '4000000000000002');
    const ok = await pay(uid);
    const after = await t.ok(endpoints.orderList, { event_id: paid.id }, admin);
    expect(after.orders.length).toBe(before.orders.length + 2);
    // Newest first: the paid order, then the declined one.
    expect(after.orders[0]).toMatchObject({
      attendee_uid: uid,
      button_text: 'Album',
      amount: 450,
      currency: 'USD',
      status: 'paid',
      payments: [{ payment_id: ok.payment_id, provider: 'test', status: 'paid' }],
    });
    expect(after.orders[1]).toMatchObject({
      status: 'open',
      payments: [
        { payment_id: declined.payment_id, status: 'failed', failure_reason: 'card_declined' },
      ],
    });
    expect(after.totals.paid_amount).toBe(before.totals.paid_amount + 450);
    expect(after.totals.paid_count).toBe(before.totals.paid_count + 1);
    const today = t.clock.now().toISOString().slice(0, 10);
    expect(after.totals.by_day.find((d) => d.day === today)?.amount).toBe(after.totals.paid_amount);
    expect(after.totals.by_button).toEqual([
      { button_text: 'Album', amount: after.totals.paid_amount, count: after.totals.paid_count },
    ]);
    const foreign = await t.call(endpoints.orderList, { event_id: paid.id }, adminB);
    expect(errorOf(foreign).message_key).toBe('event_not_found');
  });

  it("counts a sale on the event's own day (its time zone), not the UTC day", async () => {
    const far = await createEvent(t, world.adminA, {
      full_name: 'Island Gala',
      is_free: 0,
      time_zone: 'Pacific/Kiritimati',
      opts: { description: 'Island', pricingButtons: paid.opts.pricingButtons },
    });
    const real = t.clock.now().getTime();
    // 20:00 UTC on 1 June is 10:00 on 2 June at UTC+14.
    t.clock.set(Date.UTC(2026, 5, 1, 20, 0));
    try {
      const { uid } = await guest(1, far);
      const created = await t.ok(endpoints.createQrPayment, {
        ...kiosk(far),
        attendee_uid: uid,
        pricing_button_index: 0,
      });
      await t.ok(endpoints.testProviderPay, {
        payment_id: created.payment_id,
        card_number: '4242424242424242',
      });
    } finally {
      t.clock.set(real);
    }
    const list = await t.ok(endpoints.orderList, { event_id: far.id }, admin);
    expect(list.totals.by_day.map((d) => d.day)).toEqual(['2026-06-02']);
  });

  it('a refund locks the album again, unless another paid order covers it', async () => {
    const { uid } = await guest(1);
    const first = await pay(uid);
    expect(await originals(uid)).toEqual([
      expect.stringMatching(/\/media\/photos\/\d+\/original\?/),
    ]);
    const refunded = await t.ok(
      endpoints.refundPayment,
      { event_id: paid.id, payment_id: first.payment_id },
      admin,
    );
    expect(refunded.status).toBe('refunded');
    expect(await originals(uid)).toEqual([null]);
    const list = await t.ok(endpoints.orderList, { event_id: paid.id }, admin);
    expect(list.orders.find((o) => o.payments[0]?.payment_id === first.payment_id)?.status).toBe(
      'refunded',
    );

    // Two paid orders for the same album: refunding one keeps it open.
    const second = await pay(uid);
    const third = await pay(uid);
    await t.ok(
      endpoints.refundPayment,
      { event_id: paid.id, payment_id: second.payment_id },
      admin,
    );
    expect(await originals(uid)).toEqual([
      expect.stringMatching(/\/media\/photos\/\d+\/original\?/),
    ]);
    await t.ok(endpoints.refundPayment, { event_id: paid.id, payment_id: third.payment_id }, admin);
    expect(await originals(uid)).toEqual([null]);
  });

  it('refuses to refund a payment that is not paid, or of another event, changing nothing', async () => {
    const { uid } = await guest(1);
    const pending = await t.ok(endpoints.createQrPayment, {
      ...kiosk(paid),
      attendee_uid: uid,
      pricing_button_index: 0,
    });
    const notPaid = await t.call(
      endpoints.refundPayment,
      { event_id: paid.id, payment_id: pending.payment_id },
      admin,
    );
    expect(errorOf(notPaid)).toMatchObject({ status: 409, message_key: 'payment_not_paid' });
    const elsewhere = await createEvent(t, world.adminA, { full_name: 'Elsewhere', is_free: 0 });
    const wrongEvent = await t.call(
      endpoints.refundPayment,
      { event_id: elsewhere.id, payment_id: pending.payment_id },
      admin,
    );
    expect(errorOf(wrongEvent)).toMatchObject({ status: 404, message_key: 'not_found' });
    expect(
      (await t.ok(endpoints.checkQrStatus, { ...kiosk(paid), payment_id: pending.payment_id }))
        .status,
    ).toBe('pending');
  });
});

describe('with the test provider switched off', () => {
  it('refuses checkout and the test form, creating nothing; the webhook path does not exist', async () => {
    const off = await createTestApp({ FLASHBULB_PAYMENTS_PROVIDER: 'none' }, { worker: false });
    try {
      const w = await createEventWorld(off);
      const auth = await apiKeyAuth(off, w.adminA);
      const event = await createEvent(off, w.adminA, {
        full_name: 'No checkout',
        is_free: 0,
        opts: {
          description: 'Off',
          unitPrice: 1,
          pricingButtons: [
            {
              buttonText: 'Album',
              priceFormula: '{Final_Amount}',
              digitals: true,
              prints: false,
              partialUnlockTags: false,
              printsPool: '',
            },
          ],
        },
      });
      const uid = (
        await off.ok(
          endpoints.generateAttendeeList,
          { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
          auth,
        )
      ).attendees[0]!.uid;
      const refused = await off.call(endpoints.createQrPayment, {
        key_type: 'private',
        key_value: event.private_api_key,
        display: event.display_token,
        attendee_uid: uid,
        pricing_button_index: 0,
      });
      expect(errorOf(refused)).toMatchObject({
        status: 409,
        message_key: 'payment_provider_unavailable',
      });
      const count = async (table: string) =>
        Number(
          (await off.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n,
        );
      expect(await count('orders')).toBe(0);
      expect(await count('payments')).toBe(0);
      const form = await off.call(endpoints.testProviderPay, {
        payment_id: 'pay_any',
        card_number: '4242424242424242',
      });
      expect(errorOf(form).message_key).toBe('not_found');
      const hook = await off.app.inject({
        method: 'POST',
        url: '/api/webhooks/test',
        payload: '{}',
      });
      expect(hook.statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
