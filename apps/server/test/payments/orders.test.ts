import { endpoints, type FlashbulbEvent, type PricingButton } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AttendeeRecord } from '../../src/repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../src/repositories/events/event.repository.ts';
import type { PaymentService } from '../../src/services/payments/payment.service.ts';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Orders and payments: the price is the event's button, fixed in integer cents; creates
 * are idempotent by the client's request id; a payment's status only moves forward, once, however
 * often and in whatever order reports arrive; and only a confirmed payment unlocks the album.
 */

let t: TestApp;
let admin: { authorization: string };
let paid: FlashbulbEvent;
let payments: PaymentService;
let seq = 0;

const button = (patch: Partial<PricingButton>): PricingButton => ({
  buttonText: 'Album',
  priceFormula: '{Final_Amount}',
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
  ...patch,
});

const eventRecord = async (e: FlashbulbEvent): Promise<EventRecord> =>
  (await t.app.container.repositories.events.findById(e.id))!;

const newAttendee = async (e: FlashbulbEvent): Promise<AttendeeRecord> => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;
  return (await t.app.container.repositories.attendees.findByUid(uid))!;
};

const insertPhoto = (event: FlashbulbEvent, attendeeUid: string | null = null) =>
  insertReadyPhoto(t, event, attendeeUid);

const originalOf = async (attendeeUid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: attendeeUid,
      max_size: 10,
      page_number: 1,
    })
  ).photos[0]?.urls.original ?? null;

const count = async (table: string) =>
  Number((await t.database.executeSql(`select count(*) as n from ${table}`, [])).rows[0]!.n);

/** A pending payment of a whole-album order for a new attendee with one photo. */
const pendingPayment = async () => {
  const attendee = await newAttendee(paid);
  await insertPhoto(paid, attendee.row.uid);
  const { order } = await payments.createOrder({
    event: await eventRecord(paid),
    attendee,
    pricingButtonIndex: 0,
    photoUids: 'all',
    photoCount: 1,
    clientRequestId: `req-${(seq += 1)}`,
  });
  const { payment } = await payments.createPayment(order, 'test', `pay-${seq}`);
  return { attendee, order, payment };
};

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    // It sells prints too (button 2): printing must be on.
    is_photo_printer_active: 1,
    opts: {
      description: 'Paid',
      unitPrice: 2.5,
      eventMultiplier: 1.1,
      attendeeIdRegex: '^[A-Z0-9]+$',
      attendeeIdVipRegex: '^VIP',
      pricingButtons: [
        button({ buttonText: 'Whole album', priceFormula: '{Final_Amount}' }),
        button({ buttonText: 'VIP half', priceFormula: '{Final_Amount} / {USER_TYPE}' }),
        button({ buttonText: 'Prints', priceFormula: 'min({Final_Amount} * 2, 30)', prints: true }),
      ],
    },
  });
  payments = t.app.container.services.payments;
});
afterAll(async () => {
  await t?.close();
});

describe('orders', () => {
  it('fixes the amount in cents from the button: unit price × photos × multiplier', async () => {
    const attendee = await newAttendee(paid);
    const event = await eventRecord(paid);
    const make = (pricingButtonIndex: number, photoCount: number, clientRequestId: string) =>
      payments.createOrder({
        event,
        attendee,
        pricingButtonIndex,
        photoUids: ['p1', 'p2', 'p3'].slice(0, photoCount),
        photoCount,
        clientRequestId,
      });
    // 2.5 × 3 × 1.1 = 8.25
    expect((await make(0, 3, 'a')).order).toMatchObject({ amount: 825, currency: 'USD' });
    // min(2.75 × 2, 30) = 5.50, digitals and prints of the chosen photos
    expect((await make(2, 1, 'b')).order).toMatchObject({
      amount: 550,
      buttonText: 'Prints',
      items: { digitals: ['p1'], prints: ['p1'], printsPool: null },
      status: 'open',
    });
  });

  it('is idempotent by client request id: a retry answers the first order and adds none', async () => {
    const attendee = await newAttendee(paid);
    const event = await eventRecord(paid);
    const body = {
      event,
      attendee,
      pricingButtonIndex: 0,
      photoUids: 'all' as const,
      photoCount: 2,
      clientRequestId: 'retry-1',
    };
    const first = await payments.createOrder(body);
    const before = await count('orders');
    const again = await payments.createOrder({ ...body, photoCount: 20 });
    expect(first.created).toBe(true);
    expect(again).toEqual({ order: first.order, created: false });
    expect(await count('orders')).toBe(before);
    const p1 = await payments.createPayment(first.order, 'test', 'p');
    const p2 = await payments.createPayment(first.order, 'test', 'p');
    expect(p2).toEqual({ payment: p1.payment, created: false });
    expect(p1.payment.publicId).toMatch(/^pay_[a-z2-7]{26}$/);
    expect(p1.payment).toMatchObject({ status: 'pending', amount: 550, currency: 'USD' });
  });

  it('prices VIPs by USER_TYPE', async () => {
    const event = await eventRecord(paid);
    const attendee = await newAttendee(paid);
    const vip = { ...attendee, row: { ...attendee.row, uid: 'VIP0001' } };
    const order = (a: AttendeeRecord, id: string) =>
      payments.createOrder({
        event,
        attendee: a,
        pricingButtonIndex: 1,
        photoUids: 'all',
        photoCount: 4,
        clientRequestId: id,
      });
    expect((await order(attendee, 'reg')).order.amount).toBe(1100); // 2.5 × 4 × 1.1
    expect((await order(vip, 'vip')).order.amount).toBe(550);
  });

  it('refuses a button that does not exist or a free event, creating nothing', async () => {
    const attendee = await newAttendee(paid);
    const before = await count('orders');
    const body = {
      event: await eventRecord(paid),
      attendee,
      photoUids: 'all' as const,
      photoCount: 1,
      clientRequestId: 'bad',
    };
    await expect(payments.createOrder({ ...body, pricingButtonIndex: 3 })).rejects.toMatchObject({
      key: 'invalid_value',
      field: 'pricing_button_index',
    });
    const free = await eventRecord(paid);
    await expect(
      payments.createOrder({
        ...body,
        event: { ...free, row: { ...free.row, is_free: 1 } },
        pricingButtonIndex: 0,
      }),
    ).rejects.toMatchObject({ key: 'invalid_value' });
    expect(await count('orders')).toBe(before);
  });
});

describe('payments', () => {
  it('unlocks nothing while pending; a confirmation unlocks the album once, a replay changes nothing', async () => {
    const { attendee, payment } = await pendingPayment();
    expect(await originalOf(attendee.row.uid)).toBeNull();

    const confirmed = await payments.recordStatus(payment, 'paid');
    expect(confirmed.transition.kind).toBe('move');
    expect(confirmed.payment.status).toBe('paid');
    expect(await originalOf(attendee.row.uid)).toMatch(/\/media\/photos\/\d+\/original\?/);
    const unlocks = await t.database.executeSql(
      'select source, payment_id, scope from attendee_unlocks where attendee_id = $1',
      [attendee.row.id],
    );
    expect(unlocks.rows).toEqual([{ source: 'payment', payment_id: payment.id, scope: '*' }]);
    const order = await t.app.container.repositories.payments.orderById(payment.orderId);
    expect(order?.status).toBe('paid');

    // The same report again (duplicate webhook), and the stale row it was read from.
    expect((await payments.recordStatus(confirmed.payment, 'paid')).transition.kind).toBe('same');
    expect((await payments.recordStatus(payment, 'paid')).transition.kind).toBe('same');
    // A late decline after the confirmation is ignored.
    const late = await payments.recordStatus(payment, 'failed', { failureReason: 'declined' });
    expect(late.transition).toEqual({ kind: 'refused', from: 'paid', to: 'failed' });
    const stored = await t.app.container.repositories.payments.paymentByPublicId(payment.publicId);
    expect(stored).toMatchObject({ status: 'paid', failureReason: null });
    const rows = await t.database.executeSql(
      'select count(*) as n from attendee_unlocks where attendee_id = $1',
      [attendee.row.id],
    );
    expect(Number(rows.rows[0]!.n)).toBe(1);
  });

  it('two confirmations racing apply once', async () => {
    const { attendee, payment } = await pendingPayment();
    const confirmedEvents: number[] = [];
    payments.onPaymentConfirmed((e) => {
      if (e.paymentId === payment.id) confirmedEvents.push(e.paymentId);
      return Promise.resolve();
    });
    const results = await Promise.all([
      payments.recordStatus(payment, 'paid'),
      payments.recordStatus(payment, 'paid'),
      payments.recordStatus(payment, 'paid'),
    ]);
    expect(results.map((r) => r.transition.kind).sort()).toEqual(['move', 'same', 'same']);
    expect(confirmedEvents).toEqual([payment.id]);
    expect(await originalOf(attendee.row.uid)).toMatch(/\/media\/photos\/\d+\/original\?/);
  });

  it('a declined or cancelled payment unlocks nothing and cannot be confirmed later', async () => {
    for (const end of ['failed', 'cancelled'] as const) {
      const { attendee, payment } = await pendingPayment();
      const ended = await payments.recordStatus(payment, end, {
        failureReason: end === 'failed' ? 'card declined' : null,
      });
      expect(ended.payment.status).toBe(end);
      const late = await payments.recordStatus(ended.payment, 'paid');
      expect(late.transition).toEqual({ kind: 'refused', from: end, to: 'paid' });
      expect(await originalOf(attendee.row.uid)).toBeNull();
      const order = await t.app.container.repositories.payments.orderById(payment.orderId);
      expect(order?.status).toBe('open');
    }
  });

  it('a refund after payment marks the order refunded; nothing refunds a pending payment', async () => {
    const { payment } = await pendingPayment();
    expect((await payments.recordStatus(payment, 'refunded')).transition.kind).toBe('refused');
    const paidNow = await payments.recordStatus(payment, 'paid');
    const refunded = await payments.recordStatus(paidNow.payment, 'refunded');
    expect(refunded.payment.status).toBe('refunded');
    const order = await t.app.container.repositories.payments.orderById(payment.orderId);
    expect(order?.status).toBe('refunded');
    // A replayed confirmation after the refund does not bring it back.
    expect((await payments.recordStatus(refunded.payment, 'paid')).transition.kind).toBe('refused');
  });
});

describe('expiry', () => {
  it('the payments.expire job expires payments pending over 30 minutes, once, and nothing else', async () => {
    const old = await pendingPayment();
    const paidOne = await pendingPayment();
    await payments.recordStatus(paidOne.payment, 'paid');
    t.clock.advance(31 * 60_000);
    const fresh = await pendingPayment();
    expect(await payments.expireStale()).toBeGreaterThanOrEqual(1);
    const status = async (publicId: string) =>
      (await t.app.container.repositories.payments.paymentByPublicId(publicId))?.status;
    expect(await status(old.payment.publicId)).toBe('expired');
    expect(await status(paidOne.payment.publicId)).toBe('paid');
    expect(await status(fresh.payment.publicId)).toBe('pending');
    // Run again: nothing left to expire; the expired one unlocks nothing by itself.
    expect(await payments.expireStale()).toBe(0);
    expect(await originalOf(old.attendee.row.uid)).toBeNull();
    // The provider confirms it late (the guest paid after we gave up): honoured once, it unlocks.
    const expiredRow = await t.app.container.repositories.payments.paymentByPublicId(
      old.payment.publicId,
    );
    const late = await payments.recordStatus(expiredRow!, 'paid');
    expect(late.transition).toEqual({ kind: 'move', from: 'expired', to: 'paid' });
    expect(await originalOf(old.attendee.row.uid)).toMatch(/\/original\?/);
    const order = await t.app.container.repositories.payments.orderById(old.payment.orderId);
    expect(order?.status).toBe('paid');
    expect((await payments.recordStatus(late.payment, 'paid')).transition.kind).toBe('same');
  });
});
