import {
  ATTENDEE_ID_ALPHABET,
  endpoints,
  type Attendee,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let world: EventWorld;
let admin: { authorization: string };
let eventA1: FlashbulbEvent;
let eventA2: FlashbulbEvent;
let eventB: FlashbulbEvent;

const ID = new RegExp(`^[${ATTENDEE_ID_ALPHABET}]{16}$`);
const PRIVATE = new RegExp(`^[${ATTENDEE_ID_ALPHABET}]{8}$`);

const attendeeCount = async (): Promise<number> => {
  const { rows } = await t.database.executeSql('select count(*)::int as n from attendees', []);
  return Number(rows[0]?.n);
};
const generate = async (count: number, eventIds: number[], extra: Record<string, unknown> = {}) =>
  t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: count, event_id_array: eventIds, is_prepaid: 0, ...extra },
    admin,
  );
const attendeeKey = (a: Attendee) => ({ key_type: 'attendee' as const, key_value: a.display_uid });

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  eventA1 = await createEvent(t, world.adminA, { full_name: 'Gala One' });
  eventA2 = await createEvent(t, world.adminA, { full_name: 'Gala Two' });
  eventB = await createEvent(t, world.adminB, { full_name: 'Beta Fair' });
});
afterAll(async () => {
  await t.close();
});

describe('generating attendee lists', () => {
  it('generates unique, well-formed ids with private ids and album links, for every event', async () => {
    const result = await generate(40, [eventA1.id, eventA2.id], {
      url_prefix: 'https://albums.example.com/',
    });
    expect(result.count).toBe(40);
    expect(result.attendees).toHaveLength(40);
    const uids = result.attendees.map((a) => a.uid);
    expect(new Set(uids).size).toBe(40);
    for (const a of result.attendees) {
      expect(a.uid).toMatch(ID);
      expect(a.private_id).toMatch(PRIVATE);
      expect(a.display_uid).toBe(a.uid.match(/.{4}/g)!.join('-'));
      expect(a.album_url).toBe(`https://albums.example.com/?attId=${a.display_uid}`);
      expect(a.organisation_id).toBe(world.orgA.id);
      expect([...a.event_ids].sort()).toEqual([eventA1.id, eventA2.id].sort());
      expect(a.is_locked).toBe(0);
      expect(a.photo_count).toBe(0);
    }
    // Without a prefix the link starts with the configured public URL.
    const [plain] = (await generate(1, [eventA1.id])).attendees;
    expect(plain!.album_url).toBe(`${t.config.publicUrl}/?attId=${plain!.display_uid}`);
    // Both events list them.
    const list = await t.ok(
      endpoints.attendeeList,
      { event_id: eventA2.id, max_size: 10, page_number: 1 },
      admin,
    );
    expect(list.total_count).toBe(40);
    expect(list.attendees).toHaveLength(10);
  });

  it('generates several insert chunks in one call, every attendee linked', async () => {
    const before = await attendeeCount();
    const listed = async () =>
      (
        await t.ok(
          endpoints.attendeeList,
          { event_id: eventA2.id, max_size: 1, page_number: 1 },
          admin,
        )
      ).total_count;
    const listedBefore = await listed();
    const result = await generate(4500, [eventA2.id]);
    expect(result.count).toBe(4500);
    expect(result.attendees).toHaveLength(1000);
    expect(await attendeeCount()).toBe(before + 4500);
    const { rows } = await t.database.executeSql(
      'select count(distinct uid)::int as n from attendees',
      [],
    );
    expect(Number(rows[0]?.n)).toBe(before + 4500);
    // Every one of them is linked to the event.
    expect(await listed()).toBe(listedBefore + 4500);
  });

  it('leaves nothing when a generation fails half way', async () => {
    const before = await attendeeCount();
    const rows = t.app.container.repositories.attendees;
    const real = rows.insertChunk.bind(rows);
    let calls = 0;
    const spy = vi.spyOn(rows, 'insertChunk').mockImplementation(async (chunk, eventIds) => {
      calls += 1;
      if (calls === 2) throw new Error('disk full');
      return real(chunk, eventIds);
    });
    try {
      const response = await t.call(
        endpoints.generateAttendeeList,
        { attendee_count: 4500, event_id_array: [eventA1.id] },
        admin,
      );
      expect(errorOf(response)).toMatchObject({ status: 500, message_key: 'Internal Error' });
    } finally {
      spy.mockRestore();
    }
    expect(calls).toBe(2);
    expect(await attendeeCount()).toBe(before);
    const { rows: batches } = await t.database.executeSql(
      "select count(*)::int as n from attendee_batches where status = 'pending'",
      [],
    );
    expect(Number(batches[0]?.n)).toBe(0);
  });

  it('keeps a generation a crash left pending invisible, and removes it after an hour', async () => {
    const rows = t.app.container.repositories.attendees;
    const now = t.clock.now();
    const batchId = await rows.createBatch(world.orgA.id, 2, now);
    const uid = 'PENDINGBATCH0001';
    await rows.insertChunk(
      [{ batchId, uid, privateId: 'ABCDEFGH', organisationId: world.orgA.id, createdAt: now }],
      [eventA1.id],
    );
    const key = { key_type: 'attendee' as const, key_value: uid };
    expect(errorOf(await t.call(endpoints.retrieveAttendee, key)).message_key).toBe(
      'invalid_attendee_id',
    );
    const listed = await t.ok(
      endpoints.attendeeList,
      { event_id: eventA1.id, max_size: 1000, page_number: 1, attendee_uid: 'PENDING' },
      admin,
    );
    expect(listed.attendees).toEqual([]);
    expect((await t.ok(endpoints.checkAttendeeUid, { attendee_uid: uid })).valid).toBe(false);

    const services = t.app.container.services;
    expect(await services.attendees.deleteAbandonedBatches()).toBe(0);
    // (The clock goes back afterwards: later tests sign in with short-lived access tokens.)
    t.clock.advance(61 * 60_000);
    try {
      expect(await services.attendees.deleteAbandonedBatches()).toBe(1);
    } finally {
      t.clock.set(now.getTime());
    }
    const { rows: left } = await t.database.executeSql(
      'select count(*)::int as n from attendees where uid = $1',
      [uid],
    );
    expect(Number(left[0]?.n)).toBe(0);
  });

  it('refuses counts outside 1..1,000,000 with attendee_count_invalid and stores nothing', async () => {
    const before = await attendeeCount();
    for (const count of [0, -3, 1_000_001, 2.5]) {
      const response = await t.call(
        endpoints.generateAttendeeList,
        { attendee_count: count, event_id_array: [eventA1.id] },
        admin,
      );
      expect(errorOf(response)).toMatchObject({
        status: 400,
        message_key: 'attendee_count_invalid',
      });
    }
    expect(await attendeeCount()).toBe(before);
  });

  it('refuses events of two organisations, and another organisation’s admin, changing nothing', async () => {
    const before = await attendeeCount();
    const mixed = await t.call(
      endpoints.generateAttendeeList,
      { attendee_count: 3, event_id_array: [eventA1.id, eventB.id] },
      { authorization: world.superUser.authorization },
    );
    expect(errorOf(mixed).message_key).toBe('forbidden');
    const foreign = await t.call(
      endpoints.generateAttendeeList,
      { attendee_count: 3, event_id_array: [eventA1.id] },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'event_not_found' });
    const partly = await t.call(
      endpoints.generateAttendeeList,
      { attendee_count: 3, event_id_array: [eventB.id, eventA1.id] },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(partly).message_key).toBe('event_not_found');
    const badMail = await t.call(
      endpoints.generateAttendeeList,
      { attendee_count: 3, event_id_array: [eventA1.id], email: 'not-an-address' },
      admin,
    );
    expect(errorOf(badMail).message_key).toBe('email_invalid');
    expect(await attendeeCount()).toBe(before);
    // Nor may another organisation's admin read the list.
    const list = await t.call(
      endpoints.attendeeList,
      { event_id: eventA1.id },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(list).message_key).toBe('event_not_found');
  });

  it('finds attendees by a prefix of their id, typed with dashes and in lower case', async () => {
    const [a] = (await generate(1, [eventA2.id])).attendees;
    const list = await t.ok(
      endpoints.attendeeList,
      {
        event_id: eventA2.id,
        max_size: 100,
        page_number: 1,
        attendee_uid: a!.display_uid.slice(0, 9).toLowerCase(),
      },
      admin,
    );
    expect(list.attendees.map((x) => x.uid)).toContain(a!.uid);
    expect(list.attendees.every((x) => x.uid.startsWith(a!.uid.slice(0, 8)))).toBe(true);
  });
});

describe('locking, expiry and the card check', () => {
  it('locks an album: its key opens nothing, retrieve says attendee_locked; unlocking reopens it', async () => {
    const [a] = (await generate(1, [eventA1.id])).attendees;
    const opened = await t.ok(endpoints.retrieveAttendee, attendeeKey(a!));
    expect(opened.uid).toBe(a!.uid);
    expect(opened).not.toHaveProperty('private_id');
    expect(opened.events.map((e) => e.name)).toEqual([eventA1.name]);

    // Another organisation's admin cannot lock it.
    const foreign = await t.call(
      endpoints.lockAttendee,
      { event_id: eventA1.id, attendee_uid: a!.uid, is_locked: 1 },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(foreign).message_key).toBe('event_not_found');
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).uid).toBe(a!.uid);

    const locked = await t.ok(
      endpoints.lockAttendee,
      { event_id: eventA1.id, attendee_uid: a!.display_uid, is_locked: 1 },
      admin,
    );
    expect(locked.is_locked).toBe(1);
    const list = await t.call(endpoints.publicPhotoList, {
      ...attendeeKey(a!),
      max_size: 10,
      page_number: 1,
    });
    expect(errorOf(list)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    const retrieved = await t.call(endpoints.retrieveAttendee, attendeeKey(a!));
    expect(errorOf(retrieved)).toMatchObject({ status: 403, message_key: 'attendee_locked' });
    expect(
      await t.ok(endpoints.checkAttendeeUid, { attendee_uid: a!.uid, private_id: a!.private_id! }),
    ).toEqual({ valid: false, attendee_uid: null });

    await t.ok(
      endpoints.lockAttendee,
      { event_id: eventA1.id, attendee_uid: a!.uid, is_locked: 0 },
      admin,
    );
    const reopened = await t.ok(endpoints.publicPhotoList, {
      ...attendeeKey(a!),
      max_size: 10,
      page_number: 1,
    });
    expect(reopened.photos).toEqual([]);
  });

  it('expires an album after expiration_minutes by the clock: attendee_expired, key invalid', async () => {
    const [a] = (await generate(1, [eventA1.id], { expiration_minutes: 30 })).attendees;
    expect(a!.expires_date).toBe(new Date(t.clock.now().getTime() + 30 * 60_000).toISOString());
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).uid).toBe(a!.uid);
    t.clock.advance(31 * 60_000);
    const retrieved = await t.call(endpoints.retrieveAttendee, attendeeKey(a!));
    expect(errorOf(retrieved)).toMatchObject({ status: 403, message_key: 'attendee_expired' });
    const list = await t.call(endpoints.publicPhotoList, {
      ...attendeeKey(a!),
      max_size: 10,
      page_number: 1,
    });
    expect(errorOf(list).message_key).toBe('unauthorized_user');
    expect((await t.ok(endpoints.checkAttendeeUid, { attendee_uid: a!.uid })).valid).toBe(false);
  });

  it('retrieve with organisation_id needs the attendee’s own organisation; other key types are refused', async () => {
    const [a] = (await generate(1, [eventA1.id])).attendees;
    const wrongOrg = await t.call(endpoints.retrieveAttendee, {
      ...attendeeKey(a!),
      organisation_id: world.orgB.id,
    });
    expect(errorOf(wrongOrg).message_key).toBe('invalid_attendee_id');
    const right = await t.ok(endpoints.retrieveAttendee, {
      ...attendeeKey(a!),
      organisation_id: world.orgA.id,
    });
    expect(right.organisation_id).toBe(world.orgA.id);
    const unknown = await t.call(endpoints.retrieveAttendee, {
      key_type: 'attendee',
      key_value: 'ZZZZ-ZZZZ-ZZZZ-ZZZZ',
    });
    expect(errorOf(unknown).message_key).toBe('invalid_attendee_id');
    const publicKey = await t.call(endpoints.retrieveAttendee, {
      key_type: 'public',
      key_value: eventA1.public_api_key,
    });
    expect(errorOf(publicKey).message_key).toBe('invalid_key');
  });

  it('checks a card: id in any case and with dashes, the private id must match', async () => {
    const [a] = (await generate(1, [eventA1.id])).attendees;
    expect(
      await t.ok(endpoints.checkAttendeeUid, {
        attendee_uid: a!.display_uid.toLowerCase(),
        private_id: a!.private_id!.toLowerCase(),
      }),
    ).toEqual({ valid: true, attendee_uid: a!.uid });
    expect(await t.ok(endpoints.checkAttendeeUid, { attendee_uid: a!.uid })).toEqual({
      valid: true,
      attendee_uid: a!.uid,
    });
    const wrong = a!.private_id!.startsWith('2') ? '3' : '2';
    expect(
      await t.ok(endpoints.checkAttendeeUid, {
        attendee_uid: a!.uid,
        private_id: wrong + a!.private_id!.slice(1),
      }),
    ).toEqual({ valid: false, attendee_uid: null });
    expect(
      await t.ok(endpoints.checkAttendeeUid, { attendee_uid: a!.uid, private_id: 'short' }),
    ).toEqual({ valid: false, attendee_uid: null });
    for (const unknown of ['NOPE-NOPE', '!!!', 'x'.repeat(110)]) {
      expect(await t.ok(endpoints.checkAttendeeUid, { attendee_uid: unknown })).toEqual({
        valid: false,
        attendee_uid: null,
      });
    }
  });
});

describe('kiosk e-mail and unlinking rules', () => {
  it('update-by-kiosk refuses a bad e-mail and keeps the old one; a good one is stored', async () => {
    const [a] = (await generate(1, [eventA1.id], { email: 'first@example.com' })).attendees;
    const kiosk = {
      key_type: 'private' as const,
      key_value: eventA1.private_api_key,
      display: eventA1.display_token,
    };
    const bad = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kiosk,
      attendee_uid: a!.uid,
      email_address: 'nobody@',
    });
    expect(errorOf(bad)).toMatchObject({ status: 400, message_key: 'email_invalid' });
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).email).toBe(
      'first@example.com',
    );
    const good = await t.ok(endpoints.updateAttendeeByKiosk, {
      ...kiosk,
      attendee_uid: a!.display_uid,
      email_address: ' guest@example.com ',
    });
    expect(good).toEqual({ attendee_uid: a!.uid, email: 'guest@example.com' });
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).email).toBe(
      'guest@example.com',
    );
    const unknown = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kiosk,
      attendee_uid: 'ZZZZZZZZ',
      email_address: 'guest@example.com',
    });
    expect(errorOf(unknown).message_key).toBe('invalid_attendee_id');
  });

  it('update-by-kiosk needs the kiosk (private key + display token) of the attendee’s event: a printed id or a guest link changes nothing', async () => {
    const [a] = (await generate(1, [eventA1.id], { email: 'first@example.com' })).attendees;
    const attempt = (extra: Record<string, unknown>) =>
      t.call(endpoints.updateAttendeeByKiosk, {
        attendee_uid: a!.uid,
        email_address: 'thief@example.com',
        ...extra,
      });
    // No key at all: the body is refused before anything is read.
    expect(errorOf(await attempt({}))).toMatchObject({ status: 401, message_key: 'invalid_key' });
    // The attendee's own id, the public key, the event-owner key, the private key alone (a
    // guest's private-album link): not the kiosk.
    for (const key of [
      { key_type: 'attendee', key_value: a!.uid },
      { key_type: 'public', key_value: eventA1.public_api_key },
      { key_type: 'event_owner', key_value: eventA1.owner_api_key },
      { key_type: 'private', key_value: eventA1.private_api_key },
    ]) {
      expect(errorOf(await attempt(key))).toMatchObject({
        status: 401,
        message_key: 'invalid_key',
        field: 'display',
      });
    }
    // A wrong private key opens nothing.
    expect(errorOf(await attempt({ key_type: 'private', key_value: 'not-a-key' }))).toMatchObject({
      status: 401,
      message_key: 'invalid_key',
    });
    // The kiosk of another organisation, or of another event of the same organisation, cannot
    // reach this attendee.
    for (const other of [eventB, eventA2])
      expect(
        errorOf(
          await attempt({
            key_type: 'private',
            key_value: other.private_api_key,
            display: other.display_token,
          }),
        ),
      ).toMatchObject({ status: 404, message_key: 'invalid_attendee_id', field: 'attendee_uid' });
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).email).toBe(
      'first@example.com',
    );
    // The kiosk of the attendee's event.
    await t.ok(endpoints.updateAttendeeByKiosk, {
      key_type: 'private',
      key_value: eventA1.private_api_key,
      display: eventA1.display_token,
      attendee_uid: a!.uid,
      email_address: 'desk@example.com',
    });
    expect((await t.ok(endpoints.retrieveAttendee, attendeeKey(a!))).email).toBe(
      'desk@example.com',
    );
  });

  it('unlinks from exactly one event', async () => {
    const [a] = (await generate(1, [eventA1.id, eventA2.id])).attendees;
    const two = await t.call(
      endpoints.unlinkPhotos,
      { event_id_array: [eventA1.id, eventA2.id], attendee_uid: a!.uid, photo_uid_array: ['x'] },
      admin,
    );
    expect(errorOf(two)).toMatchObject({ status: 400, message_key: 'unlink_single_event' });
    const none = await t.call(
      endpoints.unlinkPhotos,
      { event_id_array: [], attendee_uid: a!.uid, photo_uid_array: ['x'] },
      admin,
    );
    expect(errorOf(none).message_key).toBe('event_not_found');
  });
});
