import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { startTerminalSim, type TerminalSim } from '../../src/cli/terminal-sim.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Kiosk powers need the kiosk (security review: the private key is also the guests' private-album
 * link, yet it guessed desk codes, printed hidden photos, rewrote the e-mail of attendees of other
 * events, merged albums and completed Shopify drafts as paid). Cashier and desk calls take the
 * private key AND the event's display token (only the organiser's kiosk links carry it), and
 * reach attendees of that event only; the event-owner key's view loses the unlock codes and the
 * display token.
 */

let t: TestApp;
let admin: { authorization: string };
/** The organisation's administrator, signed in (creates events). */
let adminA: Parameters<typeof createEvent>[1];
let event: FlashbulbEvent;
let sibling: FlashbulbEvent;
/** A paid event selling through the payment terminal (the kiosk's card machine). */
let shop: FlashbulbEvent;
let terminal: TerminalSim;

const CODES = 'Ann_Lee_K7QX,Bob_Ray_M4PZ';

/** A guest's private-album link: the private key alone. */
const guestLink = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
});
/** The organiser's kiosk: the private key and the event's display token. */
const kiosk = (e: FlashbulbEvent) => ({ ...guestLink(e), display: e.display_token });

const newAttendee = async (e: FlashbulbEvent) =>
  (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0 },
      admin,
    )
  ).attendees[0]!.uid;

const emailOf = async (uid: string) =>
  (await t.database.executeSql('select email from attendees where uid = $1', [uid])).rows[0]
    ?.email ?? null;

const count = async (sql: string) => Number((await t.database.executeSql(sql, [])).rows[0]!.n);

beforeAll(async () => {
  terminal = await startTerminalSim();
  t = await createTestApp(
    {
      FLASHBULB_PAYMENT_TERMINAL_URL: terminal.url,
      FLASHBULB_PAYMENT_TERMINAL_STORE_ID: 'store-1',
      FLASHBULB_PAYMENT_TERMINAL_ID: 'term-1',
      FLASHBULB_PAYMENT_TERMINAL_LANE_ID: 'lane-1',
    },
    { worker: false },
  );
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminA = world.adminA;
  const settings = {
    is_free: 0 as const,
    secret_code_list: CODES,
    is_photo_printer_active: 1 as const,
    // The kiosk prints without a purchase here (prints bought at a kiosk: printing/paid-prints).
    opts: { description: 'Kiosk gala', printsFree: 1 as const },
  };
  event = await createEvent(t, world.adminA, { full_name: 'Kiosk Gala', ...settings });
  sibling = await createEvent(t, world.adminA, { full_name: 'Sibling Gala', ...settings });
  shop = await createEvent(t, world.adminA, {
    full_name: 'Shop Gala',
    is_free: 0,
    opts: {
      description: 'Paid',
      unitPrice: 3.5,
      pricingButtons: [
        {
          buttonText: 'Whole album',
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
  await terminal?.close();
});

describe('a guest’s private-album link (the private key alone)', () => {
  it('cannot guess desk codes, unlock and print, print, e-mail, group, touch profile photos or sell at the counter', async () => {
    const uid = await newAttendee(event);
    const other = await newAttendee(event);
    const photo = await insertReadyPhoto(t, event, uid);
    const calls = [
      [endpoints.attendeeUnlock, { attendee_uid: uid, unlock_code: 'K7QX' }],
      [
        endpoints.attendeeUnlockAndPrint,
        { attendee_uid: uid, unlock_code: 'K7QX', photo_uid_array: [photo.uid] },
      ],
      [endpoints.publicPrintWithQueue, { printable_photo_uid_array: [photo.uid] }],
      [endpoints.publicPrintStory, { printable_photo_uid_array: [photo.uid, photo.uid] }],
      [endpoints.updateAttendeeByKiosk, { attendee_uid: uid, email_address: 'evil@example.com' }],
      [endpoints.checkAndGroupAttendees, { attendee_uid_list: [uid, other] }],
      [endpoints.listProfilePhotos, { attendee_uid: uid }],
      [endpoints.profilePhotoUploadAccess, { attendee_uid: uid, file_name: 'me.jpg' }],
      [endpoints.shopifyCompleteDraftOrder, { payment_id: 'pay_0123456789abcdef' }],
      [endpoints.shopifyBuyFromKiosk, { attendee_uid: uid, pricing_button_index: 0 }],
    ] as const;
    for (const [endpoint, body] of calls) {
      for (const key of [
        guestLink(event),
        // Another event's display token, or any text, is no kiosk.
        { ...guestLink(event), display: sibling.display_token },
        { ...guestLink(event), display: `${event.display_token}x` },
        { ...guestLink(event), display: 'é'.repeat(event.display_token.length) },
      ]) {
        const reply = await t.call(endpoint, { ...key, ...body });
        expect(errorOf(reply), endpoint.path).toMatchObject({
          status: 401,
          message_key: 'invalid_key',
        });
      }
    }
    // Nothing changed: no unlock, no print, no address, no group.
    expect(await count('select count(*) as n from attendee_unlocks')).toBe(0);
    expect(await count('select count(*) as n from print_jobs')).toBe(0);
    expect(await count('select count(*) as n from print_requests')).toBe(0);
    expect(await emailOf(uid)).toBeNull();
  });

  it('is refused before a wrong code counts: guessing from a private link never reaches the codes', async () => {
    const uid = await newAttendee(event);
    const before = await count('select count(*) as n from attendee_unlocks');
    for (const code of ['AAAA', 'K7QX', 'M4PZ']) {
      const reply = await t.call(endpoints.attendeeUnlock, {
        ...guestLink(event),
        attendee_uid: uid,
        unlock_code: code,
      });
      expect(errorOf(reply).message_key).toBe('invalid_key');
    }
    expect(await count('select count(*) as n from attendee_unlocks')).toBe(before);
  });
});

describe('the kiosk’s card, album and sale calls', () => {
  /** The rows those calls write: album photos, orders, payments, unlocks; the terminal's sales. */
  const written = async () => ({
    albumPhotos: await count('select count(*) as n from attendee_photos'),
    orders: await count('select count(*) as n from orders'),
    payments: await count('select count(*) as n from payments'),
    unlocks: await count('select count(*) as n from attendee_unlocks'),
    terminalSales: terminal.requests.filter((r) => r.path === '/fcc/pay').length,
  });

  const kioskCalls = async () => {
    const uid = await newAttendee(shop);
    await insertReadyPhoto(t, shop, uid);
    const photo = await insertReadyPhoto(t, shop);
    const { rows } = await t.database.executeSql(
      'select private_id from attendees where uid = $1',
      [uid],
    );
    const card = String(rows[0]!.private_id);
    const sale = { attendee_uid: uid, pricing_button_index: 0 };
    return [
      [endpoints.checkKioskCard, { card_code: `https://x.example/?attId=${card}` }],
      [endpoints.attendeeUnlock, { attendee_uid: uid, unlock_code: 'K7QX' }],
      [endpoints.attachPhotosByKey, { attendee_uid: uid, photo_uid_array: [photo.uid] }],
      [endpoints.attachPhotosByQrScan, { qr_text: uid, photo_uid_array: [photo.uid] }],
      [endpoints.createAttendeeCustomPhoto, { attendee_uid: uid, file_name: 'me.jpg' }],
      [endpoints.pricingButtonList, { attendee_uid: uid }],
      [endpoints.createQrPayment, { ...sale, client_request_id: `qr-${uid}` }],
      [endpoints.terminalPay, { ...sale, client_request_id: `terminal-${uid}` }],
    ] as const;
  };

  it('a guest’s private-album link checks no card, opens no desk, adds nothing and starts no sale', async () => {
    const calls = await kioskCalls();
    const before = await written();
    for (const [endpoint, body] of calls) {
      const reply = await t.call(endpoint, { ...guestLink(shop), ...body });
      expect(errorOf(reply), endpoint.path).toMatchObject({
        status: 401,
        message_key: 'invalid_key',
      });
    }
    expect(await written()).toEqual(before);
  });

  it('the organiser’s kiosk link does each of them', async () => {
    const calls = await kioskCalls();
    const before = await written();
    for (const [endpoint, body] of calls) {
      const reply = await t.call(endpoint, { ...kiosk(shop), ...body });
      // The desk code is not one of this event's: the kiosk reached the codes and was told so.
      if (endpoint === endpoints.attendeeUnlock)
        expect(errorOf(reply).message_key).toBe('invalid_unlock_code');
      else expect(reply.statusCode, endpoint.path).toBe(200);
      if (endpoint === endpoints.checkKioskCard)
        expect(reply.body).toMatchObject({ result: { valid: true } });
    }
    const after = await written();
    expect(after.albumPhotos).toBe(before.albumPhotos + 1);
    expect(after.payments).toBe(before.payments + 2);
    expect(after.terminalSales).toBe(before.terminalSales + 1);
  });
});

describe('the organiser’s kiosk (private key + display token)', () => {
  it('unlocks with a desk code, for attendees of its own event only', async () => {
    const mine = await newAttendee(event);
    const elsewhere = await newAttendee(sibling);
    const refused = await t.call(endpoints.attendeeUnlock, {
      ...kiosk(event),
      attendee_uid: elsewhere,
      unlock_code: 'K7QX',
    });
    expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
    const done = await t.ok(endpoints.attendeeUnlock, {
      ...kiosk(event),
      attendee_uid: mine,
      unlock_code: 'K7QX',
    });
    expect(done).toMatchObject({ event_id: event.id, unlocked: 1 });
  });

  it('leaves an e-mail address for an attendee of its event, never for one of another event of the organisation', async () => {
    const mine = await newAttendee(event);
    const elsewhere = await newAttendee(sibling);
    const refused = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kiosk(event),
      attendee_uid: elsewhere,
      email_address: 'evil@example.com',
    });
    expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
    expect(await emailOf(elsewhere)).toBeNull();
    expect(
      await t.ok(endpoints.updateAttendeeByKiosk, {
        ...kiosk(event),
        attendee_uid: mine,
        email_address: 'guest@example.com',
      }),
    ).toEqual({ attendee_uid: mine, email: 'guest@example.com' });
    expect(await emailOf(mine)).toBe('guest@example.com');
  });

  it('groups only cards of its own event', async () => {
    const a = await newAttendee(event);
    const b = await newAttendee(event);
    const elsewhere = await newAttendee(sibling);
    const refused = await t.call(endpoints.checkAndGroupAttendees, {
      ...kiosk(event),
      attendee_uid_list: [a, elsewhere],
    });
    expect(errorOf(refused)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
    const grouped = await t.ok(endpoints.checkAndGroupAttendees, {
      ...kiosk(event),
      attendee_uid_list: [a, b],
    });
    expect(grouped.grouped_uids).toEqual([b]);
  });

  it('lists profile photos of its event’s attendees only', async () => {
    const mine = await newAttendee(event);
    const elsewhere = await newAttendee(sibling);
    expect(
      await t.ok(endpoints.listProfilePhotos, { ...kiosk(event), attendee_uid: mine }),
    ).toEqual({ profile_photos: [] });
    expect(
      errorOf(
        await t.call(endpoints.listProfilePhotos, { ...kiosk(event), attendee_uid: elsewhere }),
      ),
    ).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
  });

  it('prints what its album shows, never a photo the owner hid', async () => {
    const hidden = await insertReadyPhoto(t, event);
    await t.app.container.repositories.photos.update(hidden.id, { isVisible: 0 });
    const reply = await t.call(endpoints.publicPrintWithQueue, {
      ...kiosk(event),
      printable_photo_uid_array: [hidden.uid],
    });
    expect(errorOf(reply)).toMatchObject({ status: 404, message_key: 'not_found' });
    const shown = await insertReadyPhoto(t, event);
    const queued = await t.ok(endpoints.publicPrintWithQueue, {
      ...kiosk(event),
      printable_photo_uid_array: [shown.uid],
    });
    expect(queued).toBeTruthy();
  });

  it('passes the counter’s access check (Shopify completion as paid at the counter)', async () => {
    const reply = await t.call(endpoints.shopifyCompleteDraftOrder, {
      ...kiosk(event),
      payment_id: 'pay_0123456789abcdef',
    });
    // The kiosk may ask; there is no such payment.
    expect(errorOf(reply).message_key).not.toBe('invalid_key');
  });
});

describe('the kiosk’s staff PIN (staff controls: desk code, VIP code, print pool, delete)', () => {
  const pinOf = async (e: FlashbulbEvent) =>
    (await t.database.executeSql('select secure_fields from events where id = $1', [e.id])).rows[0]
      ?.secure_fields as Record<string, string>;

  it('is set sealed in the event settings (4–8 digits), answered only as “set”, and checked by the server for the kiosk only', async () => {
    const fresh = await createEvent(t, adminA, { full_name: 'Staff Gala' });
    // No PIN yet: the kiosk is told to set one (no staff controls without it).
    expect(
      errorOf(await t.call(endpoints.checkKioskStaffPin, { ...kiosk(fresh), pin: '2468' })),
    ).toMatchObject({ status: 409, message_key: 'kiosk_staff_pin_not_set', field: 'pin' });

    // Letters, or too short: refused, nothing stored.
    for (const pin of ['12ab', '123', '123456789']) {
      const refused = await t.call(
        endpoints.updateEvent,
        { id: fresh.id, event_last_updated_date: fresh.updated_date, kiosk_staff_pin: pin },
        admin,
      );
      expect(errorOf(refused), pin).toMatchObject({ status: 400, message_key: 'staff_pin_format' });
    }
    expect(await pinOf(fresh)).toEqual({});

    const updated = await t.ok(
      endpoints.updateEvent,
      { id: fresh.id, event_last_updated_date: fresh.updated_date, kiosk_staff_pin: ' 2468 ' },
      admin,
    );
    expect(updated.secure_fields_set).toContain('kiosk_staff_pin');
    expect(JSON.stringify(updated)).not.toContain('2468');
    // Sealed at rest, like the event's other secrets.
    const sealed = (await pinOf(fresh)).kiosk_staff_pin!;
    expect(sealed).toBeTruthy();
    expect(sealed).not.toContain('2468');
    // The kiosk's own event read carries no PIN either.
    const kioskView = await t.ok(endpoints.publicEventFullData, kiosk(fresh));
    expect(JSON.stringify(kioskView)).not.toContain('2468');
    expect(JSON.stringify(kioskView)).not.toContain(sealed);

    // A guest's private-album link (no display token) is no kiosk, even with the right PIN.
    for (const key of [guestLink(fresh), { ...guestLink(fresh), display: event.display_token }])
      expect(
        errorOf(await t.call(endpoints.checkKioskStaffPin, { ...key, pin: '2468' })),
      ).toMatchObject({ status: 401, message_key: 'invalid_key' });
    // Another event's kiosk does not open this one's controls with this PIN.
    expect(
      errorOf(await t.call(endpoints.checkKioskStaffPin, { ...kiosk(event), pin: '2468' })),
    ).toMatchObject({ message_key: 'kiosk_staff_pin_not_set' });

    expect(
      errorOf(await t.call(endpoints.checkKioskStaffPin, { ...kiosk(fresh), pin: '1357' })),
    ).toMatchObject({ status: 403, message_key: 'invalid_staff_pin', field: 'pin' });
    expect(await t.ok(endpoints.checkKioskStaffPin, { ...kiosk(fresh), pin: '2468' })).toEqual({
      valid: true,
    });
  });

  it('makes a kiosk wait after five wrong PINs in a row: then even the right one is refused', async () => {
    const guarded = await createEvent(t, adminA, { full_name: 'Guarded Gala' });
    await t.ok(
      endpoints.updateEvent,
      { id: guarded.id, event_last_updated_date: guarded.updated_date, kiosk_staff_pin: '97531' },
      admin,
    );
    for (let attempt = 0; attempt < 5; attempt += 1)
      expect(
        errorOf(
          await t.call(endpoints.checkKioskStaffPin, { ...kiosk(guarded), pin: `0000${attempt}` }),
        ),
      ).toMatchObject({ message_key: 'invalid_staff_pin' });
    expect(
      errorOf(await t.call(endpoints.checkKioskStaffPin, { ...kiosk(guarded), pin: '97531' })),
    ).toMatchObject({ status: 429, message_key: 'too_many_attempts', field: 'pin' });
  });
});

describe('counter completion of a Shopify draft by other keys', () => {
  it('is refused for the attendee’s own album link and the event-owner key', async () => {
    const uid = await newAttendee(event);
    for (const key of [
      { key_type: 'attendee' as const, key_value: uid },
      { key_type: 'event_owner' as const, key_value: event.owner_api_key },
    ]) {
      const reply = await t.call(endpoints.shopifyCompleteDraftOrder, {
        ...key,
        payment_id: 'pay_0123456789abcdef',
      });
      expect(errorOf(reply).message_key).toBe('invalid_key');
    }
  });
});

describe('the event-owner key (roaming photographers)', () => {
  it('reads the event without the unlock codes and without the display token', async () => {
    const [seen] = (await t.ok(endpoints.publicEventFullData, {
      key_type: 'event_owner',
      key_value: event.owner_api_key,
    })) as Record<string, unknown>[];
    expect(seen?.full_name).toBe('Kiosk Gala');
    expect(seen).not.toHaveProperty('secret_code_list');
    expect(seen).not.toHaveProperty('display_token');
    const text = JSON.stringify(seen);
    expect(text).not.toContain('K7QX');
    expect(text).not.toContain(event.display_token);
  });

  it('has none of the kiosk powers', async () => {
    const uid = await newAttendee(event);
    const owner = { key_type: 'event_owner' as const, key_value: event.owner_api_key };
    for (const [endpoint, body] of [
      [endpoints.attendeeUnlock, { attendee_uid: uid, unlock_code: 'K7QX' }],
      [endpoints.updateAttendeeByKiosk, { attendee_uid: uid, email_address: 'x@example.com' }],
      [endpoints.listProfilePhotos, { attendee_uid: uid }],
    ] as const) {
      // Even with the display token (taken from a kiosk link): it makes only the private key a kiosk.
      const reply = await t.call(endpoint, {
        ...owner,
        display: event.display_token,
        ...body,
      });
      expect(errorOf(reply).message_key, endpoint.path).toBe('invalid_key');
    }
  });
});
