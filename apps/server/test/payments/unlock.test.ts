import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Desk sales with an employee's unlock code (albums spec §3, §7.2): `POST
 * /attendee/unlock` unlocks the attendee's album for the kiosk's event, records the employee, and
 * refuses a wrong code without changing anything; wrong codes are rate-limited per kiosk.
 */

let t: TestApp;
let admin: { authorization: string };
let adminB: { authorization: string };
let paid: FlashbulbEvent;
let other: FlashbulbEvent;
let eventB: FlashbulbEvent;

const CODES = 'Ann_Lee_K7QX,Bob_Ray_M4PZ';
const privateKey = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  // The organiser's kiosk: the private key with the event's display token.
  display: e.display_token,
});

const insertPhoto = (event: FlashbulbEvent, attendeeUid: string | null = null) =>
  insertReadyPhoto(t, event, attendeeUid);

const newAttendee = async (events: FlashbulbEvent[], by = admin) =>
  (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: events.map((e) => e.id), is_prepaid: 0 },
      by,
    )
  ).attendees[0]!.uid;

/** The original URL of each photo of the attendee's album, by event id. */
const originals = async (uid: string) => {
  const list = await t.ok(endpoints.publicPhotoList, {
    key_type: 'attendee',
    key_value: uid,
    max_size: 100,
    page_number: 1,
  });
  return list.photos.map((p) => ({ event: p.event_id, original: p.urls.original }));
};

const unlockRows = async () =>
  (
    await t.database.executeSql(
      'select attendee_id, event_id, scope, source, employee_name from attendee_unlocks order by id',
      [],
    )
  ).rows;

/** One kiosk: the call from its own address. */
const unlockFrom = async (
  address: string,
  body: Record<string, unknown>,
  path: string = endpoints.attendeeUnlock.path,
) => {
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/v1${path}`,
    payload: body,
    remoteAddress: address,
  });
  return { statusCode: response.statusCode, body: response.json<unknown>() };
};

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminB = await apiKeyAuth(t, world.adminB);
  paid = await createEvent(t, world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    secret_code_list: CODES,
  });
  other = await createEvent(t, world.adminA, {
    full_name: 'Other Gala',
    is_free: 0,
    secret_code_list: CODES,
  });
  eventB = await createEvent(t, world.adminB, {
    full_name: 'Beta',
    is_free: 0,
    secret_code_list: CODES,
  });
});
afterAll(async () => {
  await t?.close();
});

describe('POST /attendee/unlock', () => {
  it('unlocks the album for the kiosk’s event only and records the employee', async () => {
    const uid = await newAttendee([paid, other]);
    await insertPhoto(paid, uid);
    await insertPhoto(other, uid);
    expect((await originals(uid)).every((p) => p.original === null)).toBe(true);

    const result = await t.ok(endpoints.attendeeUnlock, {
      ...privateKey(paid),
      attendee_uid: uid.toLowerCase(),
      unlock_code: ' m4pz ',
    });
    expect(result).toEqual({ attendee_uid: uid, event_id: paid.id, unlocked: 1 });

    const after = await originals(uid);
    expect(after.find((p) => p.event === paid.id)?.original).toMatch(
      /\/media\/photos\/\d+\/original\?/,
    );
    // Another event of the same album stays locked: a sale is per event.
    expect(after.find((p) => p.event === other.id)?.original).toBeNull();
    expect(await unlockRows()).toEqual([
      expect.objectContaining({
        event_id: paid.id,
        scope: '*',
        source: 'employee_code',
        employee_name: 'Bob Ray',
      }),
    ]);

    // A second unlock (another employee) answers ok and keeps the first sale's record.
    await t.ok(endpoints.attendeeUnlock, {
      ...privateKey(paid),
      attendee_uid: uid,
      unlock_code: 'K7QX',
    });
    expect(await unlockRows()).toHaveLength(1);
    expect((await unlockRows())[0]).toMatchObject({ employee_name: 'Bob Ray' });
  });

  it('refuses a wrong code, a wrong key, another organisation’s attendee and a locked one, changing nothing', async () => {
    const uid = await newAttendee([paid]);
    await insertPhoto(paid, uid);
    const locked = await newAttendee([paid]);
    await t.ok(
      endpoints.lockAttendee,
      { event_id: paid.id, attendee_uid: locked, is_locked: 1 },
      admin,
    );
    const theirs = await newAttendee([eventB], adminB);
    const before = await unlockRows();
    const cases: [Record<string, unknown>, number, string, string | undefined][] = [
      [
        { ...privateKey(paid), attendee_uid: uid, unlock_code: 'ZZZZ' },
        400,
        'invalid_unlock_code',
        'unlock_code',
      ],
      // A code of another event's list is no code here; neither is a name or a whole entry.
      [
        { ...privateKey(paid), attendee_uid: uid, unlock_code: 'Bob_Ray_M4PZ' },
        400,
        'invalid_unlock_code',
        'unlock_code',
      ],
      [
        { ...privateKey(paid), attendee_uid: uid, unlock_code: '' },
        400,
        'invalid_unlock_code',
        'unlock_code',
      ],
      [
        {
          key_type: 'public',
          key_value: paid.public_api_key,
          attendee_uid: uid,
          unlock_code: 'M4PZ',
        },
        401,
        'invalid_key',
        'display',
      ],
      [
        { key_type: 'attendee', key_value: uid, attendee_uid: uid, unlock_code: 'M4PZ' },
        401,
        'invalid_key',
        'display',
      ],
      // A guest's private-album link (the private key without the display token) is no kiosk.
      [
        {
          key_type: 'private',
          key_value: paid.private_api_key,
          attendee_uid: uid,
          unlock_code: 'M4PZ',
        },
        401,
        'invalid_key',
        'display',
      ],
      [
        { ...privateKey(paid), attendee_uid: theirs, unlock_code: 'M4PZ' },
        404,
        'invalid_attendee_id',
        'attendee_uid',
      ],
      [
        { ...privateKey(paid), attendee_uid: locked, unlock_code: 'M4PZ' },
        403,
        'attendee_locked',
        'attendee_uid',
      ],
      [
        { ...privateKey(paid), attendee_uid: 'NOBODY', unlock_code: 'M4PZ' },
        404,
        'invalid_attendee_id',
        'attendee_uid',
      ],
    ];
    for (const [index, [body, status, key, field]] of cases.entries()) {
      // Each from its own kiosk, so the wrong codes do not add up to a wait.
      const response = await unlockFrom(`10.1.0.${index}`, body);
      expect(errorOf(response), JSON.stringify(body)).toMatchObject({
        status,
        message_key: key,
        ...(field ? { field } : {}),
      });
    }
    expect(await unlockRows()).toEqual(before);
    expect((await originals(uid))[0]?.original).toBeNull();
  });

  it('rate-limits wrong codes per kiosk: the sixth try waits, another kiosk does not', async () => {
    const uid = await newAttendee([other]);
    const body = { ...privateKey(other), attendee_uid: uid };
    for (let i = 0; i < 5; i += 1) {
      const wrong = await unlockFrom('10.2.0.1', { ...body, unlock_code: `Q${i}Q${i}` });
      expect(errorOf(wrong).message_key).toBe('invalid_unlock_code');
    }
    // Even the right code is not tried now: guessing cannot go on at full speed.
    const waiting = await unlockFrom('10.2.0.1', { ...body, unlock_code: 'K7QX' });
    expect(errorOf(waiting)).toMatchObject({ status: 429, message_key: 'too_many_attempts' });
    expect((await unlockRows()).filter((r) => r.event_id === other.id)).toEqual([]);

    const elsewhere = await unlockFrom('10.2.0.2', { ...body, unlock_code: 'K7QX' });
    expect(elsewhere.statusCode).toBe(200);

    t.clock.advance(61_000);
    const later = await unlockFrom('10.2.0.1', { ...body, unlock_code: 'K7QX' });
    expect(later.statusCode).toBe(200);
  });
});

describe('unlock-and-print', () => {
  const printRows = async () =>
    (
      await t.database.executeSql(
        'select event_id, photo_uids, copies, source, employee_name, status from print_requests order by id',
        [],
      )
    ).rows;

  it('at the desk: unlocks with the code and stores the print request of the chosen photos', async () => {
    const uid = await newAttendee([paid]);
    const a = await insertPhoto(paid, uid);
    await insertPhoto(paid, uid);
    const before = (await printRows()).length;
    const result = await t.ok(endpoints.attendeeUnlockAndPrint, {
      ...privateKey(paid),
      attendee_uid: uid,
      unlock_code: 'K7QX',
      photo_uid_array: [a.uid, a.uid],
      printing_count: 1,
    });
    expect(result).toMatchObject({
      attendee_uid: uid,
      event_id: paid.id,
      unlocked: 1,
      photo_count: 1,
    });
    const rows = await printRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toEqual({
      event_id: paid.id,
      photo_uids: [a.uid],
      copies: 1,
      source: 'employee_code',
      employee_name: 'Ann Lee',
      // sent to the print queue at once (printing: apps/server/test/printing/printing.test.ts)
      status: 'sent',
    });
    expect((await originals(uid)).every((p) => p.original !== null)).toBe(true);
  });

  it('refuses a wrong code, photos outside the album and counts over the event’s limits, changing nothing', async () => {
    const uid = await newAttendee([paid]);
    const mine = await insertPhoto(paid, uid);
    const someoneElse = await insertPhoto(paid, await newAttendee([paid]));
    const unlocksBefore = await unlockRows();
    const printsBefore = await printRows();
    const body = { ...privateKey(paid), attendee_uid: uid, unlock_code: 'K7QX' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...body, unlock_code: 'ZZZZ', photo_uid_array: [mine.uid] }, 'invalid_unlock_code'],
      [{ ...body, photo_uid_array: [someoneElse.uid] }, 'not_found'],
      [{ ...body, photo_uid_array: ['nope'] }, 'not_found'],
      [{ ...body, photo_uid_array: [] }, 'photos_required'],
      // The event allows 1 copy and 5 photos per request (defaults).
      [{ ...body, photo_uid_array: [mine.uid], printing_count: 2 }, 'photos_copy_count_error'],
    ];
    for (const [index, [request, key]] of cases.entries()) {
      const response = await unlockFrom(
        `10.3.0.${index}`,
        request,
        endpoints.attendeeUnlockAndPrint.path,
      );
      expect(errorOf(response).message_key, JSON.stringify(request)).toBe(key);
    }
    expect(await unlockRows()).toEqual(unlocksBefore);
    expect(await printRows()).toEqual(printsBefore);
  });

  it('is idempotent by client_request_id: retries (even at once) store one print request', async () => {
    const uid = await newAttendee([paid]);
    const photo = await insertPhoto(paid, uid);
    const before = (await printRows()).length;
    const body = {
      ...privateKey(paid),
      attendee_uid: uid,
      unlock_code: 'M4PZ',
      photo_uid_array: [photo.uid],
      client_request_id: 'desk-1-req-42',
    };
    const first = await t.ok(endpoints.attendeeUnlockAndPrint, body);
    const retries = await Promise.all([
      t.ok(endpoints.attendeeUnlockAndPrint, body),
      t.ok(endpoints.attendeeUnlockAndPrint, body),
    ]);
    for (const again of retries) expect(again).toEqual(first);
    expect(await printRows()).toHaveLength(before + 1);
    // Without an id each request is a new print (the spec's body has none).
    const { client_request_id: _omitted, ...plain } = body;
    await t.ok(endpoints.attendeeUnlockAndPrint, plain);
    expect(await printRows()).toHaveLength(before + 2);
    // The owner's call is idempotent the same way.
    const ownerBody = {
      event_id: paid.id,
      attendee_uid: uid,
      photo_uid_array: [photo.uid],
      client_request_id: 'owner-7',
    };
    const owner = await t.ok(endpoints.ownerUnlockAndPrint, ownerBody, admin);
    expect(await t.ok(endpoints.ownerUnlockAndPrint, ownerBody, admin)).toEqual(owner);
    expect(await printRows()).toHaveLength(before + 3);

    // The id already used for another attendee: refused, nothing unlocked or stored.
    const stranger = await newAttendee([paid]);
    const theirs = await insertPhoto(paid, stranger);
    const unlocksBefore = await unlockRows();
    const reused = await t.call(endpoints.attendeeUnlockAndPrint, {
      ...body,
      attendee_uid: stranger,
      photo_uid_array: [theirs.uid],
    });
    expect(errorOf(reused)).toMatchObject({
      message_key: 'invalid_value',
      field: 'client_request_id',
    });
    expect(await unlockRows()).toEqual(unlocksBefore);
    expect(await printRows()).toHaveLength(before + 3);
  });

  it('by the owner: any attendee of the organisation, recorded as the owner’s', async () => {
    const uid = await newAttendee([other]);
    const photo = await insertPhoto(other, uid);
    const result = await t.ok(
      endpoints.ownerUnlockAndPrint,
      { event_id: other.id, attendee_uid: uid, photo_uid_array: [photo.uid] },
      admin,
    );
    expect(result).toMatchObject({ event_id: other.id, unlocked: 1, photo_count: 1 });
    expect((await printRows()).at(-1)).toMatchObject({ source: 'owner', employee_name: null });
    const refused = await t.call(
      endpoints.ownerUnlockAndPrint,
      { event_id: other.id, attendee_uid: uid, photo_uid_array: [photo.uid] },
      adminB,
    );
    expect(errorOf(refused).message_key).toBe('event_not_found');
  });
});
