import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Prints in a purchase (albums spec §3 pricing button `prints` / `printsPool`): a paid
 * order whose button sells prints is queued for printing once its payment is confirmed — once,
 * on the button's pool — and never before; refusals come before anything is stored.
 */

let t: TestApp;
let admin: { authorization: string };
let world: Awaited<ReturnType<typeof createEventWorld>>;
/** Printing on, pools Desk (default) and Lab, at most 3 photos a request. */
let shop: FlashbulbEvent;
/** The same buttons, printing off. */
let noPrinter: FlashbulbEvent;

const buttons = [
  {
    buttonText: 'Prints',
    priceFormula: '{Final_Amount}',
    digitals: false,
    prints: true,
    partialUnlockTags: false,
    printsPool: 'Lab',
  },
  {
    buttonText: 'Album and prints',
    priceFormula: '{Final_Amount} + 5',
    digitals: true,
    prints: true,
    partialUnlockTags: false,
    printsPool: '',
  },
  {
    buttonText: 'Digital only',
    priceFormula: '{Final_Amount}',
    digitals: true,
    prints: false,
    partialUnlockTags: false,
    printsPool: '',
  },
];

const kiosk = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  // The organiser's kiosk: the private key with the event's display token.
  display: e.display_token,
});

const guest = async (event: FlashbulbEvent, photos: number) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  const rows = [];
  for (let i = 0; i < photos; i += 1) rows.push(await insertReadyPhoto(t, event, uid));
  return { uid, photos: rows };
};

interface RequestRow {
  id: number;
  photo_uids: string[];
  copies: number;
  printer_pool: string | null;
  source: string;
  client_request_id: string;
}
const printRequests = async (event: FlashbulbEvent) =>
  (
    await t.database.executeSql(
      `select id, photo_uids, copies, printer_pool, source, client_request_id
         from print_requests where event_id = $1 order by id`,
      [event.id],
    )
  ).rows as unknown as RequestRow[];

const printJobs = async (requestId: number) =>
  (
    await t.database.executeSql(
      `select pool, photo_ids, source from print_jobs where print_request_id = $1 order by sheet_index`,
      [requestId],
    )
  ).rows as unknown as { pool: string; photo_ids: number[]; source: string }[];

const rowCount = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

/** A purchase on the guest's own album page (a phone): its prints are printed once paid. */
const startPayment = (event: FlashbulbEvent, uid: string, index: number, photoUids?: string[]) =>
  t.ok(endpoints.createQrPayment, {
    key_type: 'attendee' as const,
    key_value: uid,
    attendee_uid: uid,
    pricing_button_index: index,
    ...(photoUids ? { photo_uids: photoUids } : {}),
  });

const payWith = (paymentId: string, card: string) =>
  t.ok(endpoints.testProviderPay, { payment_id: paymentId, card_number: card });

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  shop = await createEvent(t, world.adminA, {
    full_name: 'Print Shop',
    is_free: 0,
    is_photo_printer_active: 1,
    is_printer_pool_enabled: 1,
    printer_pool_name_list: ['Desk', 'Lab'],
    place_holder_count: 1,
    max_print_photos_count: 3,
    secret_code_list: 'Ann_Lee_K7QX',
    opts: { description: 'Prints for sale', unitPrice: 2, pricingButtons: buttons },
  });
  noPrinter = await createEvent(t, world.adminA, {
    full_name: 'No Printer',
    is_free: 0,
    opts: { description: 'No printer', unitPrice: 2, pricingButtons: buttons },
  });
});
afterAll(async () => {
  await t?.close();
});

describe('prints in a purchase', () => {
  it('queues the chosen photos on the button’s pool once the payment is confirmed, once', async () => {
    const { uid, photos } = await guest(shop, 3);
    const chosen = [photos[0]!.uid, photos[2]!.uid];
    const created = await startPayment(shop, uid, 0, chosen);
    expect(created.amount).toBe(400); // 2 photos × $2
    // Nothing is printed on a pending payment, nor on a declined card.
    expect(await printRequests(shop)).toEqual([]);
    expect((await payWith(created.payment_id, '4000 0000 0000 0002')).status).toBe('failed');
    expect(await printRequests(shop)).toEqual([]);

    const retry = await startPayment(shop, uid, 0, chosen);
    expect((await payWith(retry.payment_id, '4242 4242 4242 4242')).status).toBe('paid');
    const [request, ...more] = await printRequests(shop);
    expect(more).toEqual([]);
    expect(request).toMatchObject({
      photo_uids: chosen,
      copies: 1,
      printer_pool: 'Lab',
      source: 'payment',
    });
    expect(request!.client_request_id).toMatch(/^order:\d+$/);
    // The printing service queued one sheet per photo (one placeholder) on the Lab pool.
    const jobs = await printJobs(request!.id);
    expect(jobs).toEqual([
      { pool: 'Lab', photo_ids: [photos[0]!.id], source: 'unlock' },
      { pool: 'Lab', photo_ids: [photos[2]!.id], source: 'unlock' },
    ]);

    // The provider's confirmation again (a replayed webhook) prints nothing more.
    const adapter = t.app.container.paymentProviders.test!;
    const replay = adapter.webhook({
      id: 'evt_prints_replay',
      type: 'payment.succeeded',
      payment_reference: `tp_${retry.payment_id}`,
      reason: null,
    });
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/test',
      headers: replay.headers as Record<string, string>,
      payload: replay.body,
    });
    expect(answer.statusCode).toBe(200);
    expect(await printRequests(shop)).toHaveLength(1);
    expect(await printJobs(request!.id)).toHaveLength(2);
    // A prints-only button opens no originals.
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    });
    expect(list.photos.map((p) => p.urls.original)).toEqual([null, null, null]);
  });

  it('a phone’s favourites bought as prints from the public album: printed once paid, never before', async () => {
    // The guest has no album yet: the purchase makes one, and the prints go to the button's pool.
    const photos = [await insertReadyPhoto(t, shop), await insertReadyPhoto(t, shop)];
    const favourites = photos.map((p) => p.uid);
    const publicKey = { key_type: 'public' as const, key_value: shop.public_api_key };
    const ofThese = async () =>
      (await printRequests(shop)).filter((r) => r.photo_uids.some((u) => favourites.includes(u)));
    const created = await t.ok(endpoints.albumPurchaseCreate, {
      ...publicKey,
      pricing_button_index: 0,
      photo_uids: favourites,
      client_request_id: 'phone-prints-1',
    });
    expect(created.amount).toBe(400);
    // Pending, then declined: nothing printed.
    expect(await ofThese()).toEqual([]);
    expect((await payWith(created.payment_id, '4000000000000002')).status).toBe('failed');
    expect(await ofThese()).toEqual([]);
    const again = await t.ok(endpoints.albumPurchaseCreate, {
      ...publicKey,
      pricing_button_index: 0,
      photo_uids: favourites,
      client_request_id: 'phone-prints-2',
    });
    expect(await ofThese()).toEqual([]);
    expect((await payWith(again.payment_id, '4242424242424242')).status).toBe('paid');
    const [request, ...more] = await ofThese();
    expect(more).toEqual([]);
    expect(request).toMatchObject({
      photo_uids: favourites,
      printer_pool: 'Lab',
      source: 'payment',
    });
    expect((await printJobs(request!.id)).map((j) => j.pool)).toEqual(['Lab', 'Lab']);
  });

  it('an album page offers the buttons that sell prints only where the event prints', async () => {
    const offered = async (event: FlashbulbEvent) =>
      (
        await t.ok(endpoints.albumPurchasePricing, {
          key_type: 'public',
          key_value: event.public_api_key,
          photo_count: 2,
        })
      ).buttons.map((b) => [b.index, b.prints]);
    expect(await offered(shop)).toEqual([
      [0, true],
      [1, true],
      [2, false],
    ]);
    // Printing off: a prints button would be refused (printing_not_active), so it is not offered.
    expect(await offered(noPrinter)).toEqual([[2, false]]);
    // The most one purchase may print, so the page can ask the guest to choose before paying.
    const pricing = await t.ok(endpoints.albumPurchasePricing, {
      key_type: 'public',
      key_value: shop.public_api_key,
      photo_count: 4,
    });
    expect(pricing.max_print_photos).toBe(3);
  });

  it('a whole album with prints prints every photo of it on the event’s default pool', async () => {
    const { uid, photos } = await guest(shop, 2);
    const created = await startPayment(shop, uid, 1);
    expect(created.amount).toBe(900); // 2 × $2 + $5
    await payWith(created.payment_id, '4242424242424242');
    const mine = (await printRequests(shop)).filter((r) =>
      r.photo_uids.every((u) => photos.some((p) => p.uid === u)),
    );
    expect(mine).toHaveLength(1);
    expect([...mine[0]!.photo_uids].sort()).toEqual(photos.map((p) => p.uid).sort());
    expect(mine[0]!.printer_pool).toBeNull();
    const jobs = await printJobs(mine[0]!.id);
    expect(jobs.map((j) => j.pool)).toEqual(['Desk', 'Desk']);
    // Digitals came with it: the originals are open.
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    });
    expect(list.photos.every((p) => p.urls.original !== null)).toBe(true);
  });

  it('a button without prints prints nothing', async () => {
    const { uid } = await guest(shop, 1);
    const before = await rowCount('print_requests');
    const created = await startPayment(shop, uid, 2);
    expect((await payWith(created.payment_id, '4242424242424242')).status).toBe('paid');
    expect(await rowCount('print_requests')).toBe(before);
  });

  it('refuses prints where printing is off or over the event’s maximum, storing nothing', async () => {
    const orders = await rowCount('orders');
    const payments = await rowCount('payments');
    const off = await guest(noPrinter, 1);
    const printingOff = await t.call(endpoints.createQrPayment, {
      ...kiosk(noPrinter),
      attendee_uid: off.uid,
      pricing_button_index: 0,
    });
    expect(errorOf(printingOff)).toMatchObject({
      status: 400,
      message_key: 'printing_not_active',
      field: 'pricing_button_index',
    });
    const big = await guest(shop, 4);
    const tooMany = await t.call(endpoints.createQrPayment, {
      ...kiosk(shop),
      attendee_uid: big.uid,
      pricing_button_index: 0,
      photo_uids: big.photos.map((p) => p.uid),
    });
    expect(errorOf(tooMany)).toMatchObject({
      message_key: 'per_request_count_error',
      field: 'photo_uids',
    });
    const wholeTooBig = await t.call(endpoints.createQrPayment, {
      ...kiosk(shop),
      attendee_uid: big.uid,
      pricing_button_index: 1,
    });
    expect(errorOf(wholeTooBig).message_key).toBe('per_request_count_error');
    expect(await rowCount('orders')).toBe(orders);
    expect(await rowCount('payments')).toBe(payments);
    // The same album without prints sells.
    const digital = await startPayment(shop, big.uid, 2);
    expect(digital.amount).toBe(800);
  });

  it('a desk request cannot take a paid order’s print id', async () => {
    const { uid, photos } = await guest(shop, 1);
    const before = await rowCount('print_requests');
    const taken = await t.call(endpoints.attendeeUnlockAndPrint, {
      ...kiosk(shop),
      attendee_uid: uid,
      unlock_code: 'K7QX',
      photo_uid_array: [photos[0]!.uid],
      client_request_id: 'order:999999',
    });
    expect(errorOf(taken)).toMatchObject({
      message_key: 'invalid_value',
      field: 'client_request_id',
    });
    expect(await rowCount('print_requests')).toBe(before);
  });
});

describe('prints sold at a kiosk: a locked album prints only what was bought', () => {
  const kioskPrint = (
    event: FlashbulbEvent,
    uid: string,
    photoUids: string[],
    requestId?: string,
  ) =>
    t.call(endpoints.publicPrintWithQueue, {
      ...kiosk(event),
      printable_photo_uid_array: photoUids,
      attUid: uid,
      ...(requestId ? { client_request_id: requestId } : {}),
    });
  const buyAtKiosk = async (event: FlashbulbEvent, uid: string, photoUids: string[]) => {
    const created = await t.ok(endpoints.createQrPayment, {
      ...kiosk(event),
      attendee_uid: uid,
      pricing_button_index: 0,
      photo_uids: photoUids,
    });
    expect((await payWith(created.payment_id, '4242424242424242')).status).toBe('paid');
  };
  const kioskSheets = async (event: FlashbulbEvent) =>
    Number(
      (
        await t.database.executeSql(
          `select count(*) as n from print_jobs where event_id = $1 and source = 'kiosk'`,
          [event.id],
        )
      ).rows[0]!.n,
    );
  const printInfo = (event: FlashbulbEvent, uid: string) =>
    t.ok(endpoints.pricingButtonList, { ...kiosk(event), attendee_uid: uid });

  it('refuses a print nobody paid for, offers what a print costs, and queues nothing', async () => {
    const { uid, photos } = await guest(shop, 1);
    const before = await kioskSheets(shop);
    const refused = await kioskPrint(shop, uid, [photos[0]!.uid], 'kiosk-unpaid-1');
    expect(errorOf(refused)).toMatchObject({
      status: 400,
      message_key: 'prints_not_paid',
      field: 'printable_photo_uid_array',
    });
    // Without naming the guest nothing can have been bought either.
    const anonymous = await t.call(endpoints.publicPrintWithQueue, {
      ...kiosk(shop),
      printable_photo_uid_array: [photos[0]!.uid],
    });
    expect(errorOf(anonymous).message_key).toBe('prints_not_paid');
    expect(await kioskSheets(shop)).toBe(before);
    // What the kiosk's print step reads: prints are sold, none left, a print's price.
    const info = await t.ok(endpoints.pricingButtonList, {
      ...kiosk(shop),
      attendee_uid: uid,
      photo_count: 1,
    });
    expect(info).toMatchObject({ prints_free: 0, prints_remaining: 0 });
    expect(info.buttons[0]).toMatchObject({ prints: true, amount: 200 });
  });

  it('a purchase at the kiosk prints there: N bought, N printed, not one more', async () => {
    const { uid, photos } = await guest(shop, 3);
    const bought = [photos[0]!.uid, photos[1]!.uid];
    await buyAtKiosk(shop, uid, bought);
    // Bought at the kiosk: nothing printed yet — the guest's "Print" does it.
    expect((await printRequests(shop)).filter((r) => r.photo_uids.includes(bought[0]!))).toEqual(
      [],
    );
    expect((await printInfo(shop, uid)).prints_remaining).toBe(2);
    const before = await kioskSheets(shop);
    // A photo not bought stays refused.
    expect(errorOf(await kioskPrint(shop, uid, [photos[2]!.uid])).message_key).toBe(
      'prints_not_paid',
    );
    const first = await kioskPrint(shop, uid, [bought[0]!], 'kiosk-bought-1');
    expect(first.statusCode).toBe(200);
    // A retry of the same request prints nothing more and spends nothing more.
    const retried = await kioskPrint(shop, uid, [bought[0]!], 'kiosk-bought-1');
    expect((retried.body as { result: { replayed: number } }).result.replayed).toBe(1);
    expect((await printInfo(shop, uid)).prints_remaining).toBe(1);
    expect((await kioskPrint(shop, uid, [bought[1]!], 'kiosk-bought-2')).statusCode).toBe(200);
    expect(await kioskSheets(shop)).toBe(before + 2);
    // Both prints used: the same photo again is refused.
    const again = await kioskPrint(shop, uid, [bought[0]!], 'kiosk-bought-3');
    expect(errorOf(again).message_key).toBe('prints_not_paid');
    expect(await kioskSheets(shop)).toBe(before + 2);
    expect((await printInfo(shop, uid)).prints_remaining).toBe(0);
  });

  it('two kiosks printing the last print at once print it once', async () => {
    const { uid, photos } = await guest(shop, 1);
    await buyAtKiosk(shop, uid, [photos[0]!.uid]);
    const before = await kioskSheets(shop);
    const answers = await Promise.all([
      kioskPrint(shop, uid, [photos[0]!.uid], 'kiosk-race-a'),
      kioskPrint(shop, uid, [photos[0]!.uid], 'kiosk-race-b'),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    expect(errorOf(answers.find((a) => a.statusCode === 400)!).message_key).toBe('prints_not_paid');
    expect(await kioskSheets(shop)).toBe(before + 1);
    const used = await t.database.executeSql(
      `select prints_used from orders where attendee_id = (select id from attendees where uid = $1)`,
      [uid],
    );
    expect(used.rows).toEqual([{ prints_used: 1 }]);
  });

  it('“prints are free at this event” lets the kiosk print without buying', async () => {
    const free = await createEvent(t, world.adminA, {
      full_name: 'Free Prints',
      is_free: 0,
      is_photo_printer_active: 1,
      place_holder_count: 1,
      opts: { description: 'Prints on us', unitPrice: 2, pricingButtons: buttons },
    });
    const { uid, photos } = await guest(free, 1);
    expect(errorOf(await kioskPrint(free, uid, [photos[0]!.uid])).message_key).toBe(
      'prints_not_paid',
    );
    await t.ok(
      endpoints.updateEvent,
      {
        id: free.id,
        event_last_updated_date: free.updated_date,
        opts: { ...free.opts, printsFree: 1 },
      },
      admin,
    );
    expect((await printInfo(free, uid)).prints_free).toBe(1);
    expect((await kioskPrint(free, uid, [photos[0]!.uid])).statusCode).toBe(200);
    expect(await kioskSheets(free)).toBe(1);
  });
});

describe('a crash between the confirmation and what it hands over', () => {
  it('payments.fulfil unlocks and prints a paid order the crash cut off, once', async () => {
    const { uid, photos } = await guest(shop, 2);
    const created = await startPayment(shop, uid, 1);
    // What a process killed right after recording the provider's confirmation leaves: the payment
    // paid, nothing handed over.
    await t.database.executeSql(
      `update payments set status = 'paid', paid_at = $2, updated_at = $2 where public_id = $1`,
      [created.payment_id, t.clock.now()],
    );
    const originals = async () =>
      (
        await t.ok(endpoints.publicPhotoList, {
          key_type: 'attendee',
          key_value: uid,
          max_size: 100,
          page_number: 1,
        })
      ).photos.map((p) => p.urls.original);
    const mine = async () =>
      (await printRequests(shop)).filter((r) =>
        r.photo_uids.every((u) => photos.some((p) => p.uid === u)),
      );
    // The provider's confirmation again changes nothing (paid → paid is no move): still locked.
    const adapter = t.app.container.paymentProviders.test!;
    const replay = adapter.webhook({
      id: 'evt_after_crash',
      type: 'payment.succeeded',
      payment_reference: `tp_${created.payment_id}`,
      reason: null,
    });
    await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/test',
      headers: replay.headers as Record<string, string>,
      payload: replay.body,
    });
    expect(await originals()).toEqual([null, null]);

    const payments = t.app.container.services.payments;
    // A confirmation under a minute old may still be running its effects: left alone.
    expect(await payments.fulfilMissed()).toBe(0);
    t.clock.advance(61_000);
    // Only this payment: every other paid payment of this file was handed over when confirmed.
    expect(await payments.fulfilMissed()).toBe(1);
    expect((await originals()).every((url) => typeof url === 'string')).toBe(true);
    expect(await mine()).toHaveLength(1);
    // Done once: a second sweep redoes nothing.
    expect(await payments.fulfilMissed()).toBe(0);
    expect(await mine()).toHaveLength(1);
  });
});
