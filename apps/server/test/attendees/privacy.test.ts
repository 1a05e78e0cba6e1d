import { crc32 } from 'node:zlib';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
 * Privacy requests: an owner exports everything kept about one attendee (a ZIP streamed from a
 * ticket) and erases it (rows in one transaction, storage after the commit, orders kept under a
 * placeholder), each recorded in the privacy log that survives the erasure.
 */

let t: TestApp;
let world: EventWorld;
let adminA: { authorization: string };
let adminB: { authorization: string };
let event: FlashbulbEvent;
let uid: string;
let friendUid: string;
const EMAIL = 'guest@example.com';
const keys = {
  own: '',
  attached: '',
  shared: '',
  selfie: '',
  profile: '',
  stranger: '',
};

/** Reads a zip by its central directory, checking each entry's CRC-32 against its bytes. */
const unzip = (zip: Buffer): Map<string, Buffer> => {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(-1);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const body = zip.subarray(start, start + size);
    expect(crc32(body)).toBe(crc);
    files.set(name, body);
    at += 46 + nameLength + extra;
  }
  return files;
};

const sql = async (text: string, params: unknown[] = []): Promise<Record<string, unknown>[]> =>
  (await t.database.executeSql(text, params)).rows;
const attendeeIdOf = async (u: string) =>
  Number((await sql('select id from attendees where uid = $1', [u]))[0]!.id);
const exists = async (key: string) => (await t.app.container.storage.head(key)) !== null;
const storedPhoto = async (label: string, attendee: string | null) => {
  const row = await insertReadyPhoto(t, event, attendee);
  await t.app.container.storage.put(row.storageKey, Buffer.from(`original ${label}`), 'image/jpeg');
  return row;
};

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  world = await createEventWorld(t);
  adminA = await apiKeyAuth(t, world.adminA);
  adminB = await apiKeyAuth(t, world.adminB);
  event = await createEvent(t, world.adminA, { full_name: 'Summer Gala' });
  const list = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 2, event_id_array: [event.id], is_prepaid: 0 },
    adminA,
  );
  uid = list.attendees[0]!.uid;
  friendUid = list.attendees[1]!.uid;
  const attendeeId = await attendeeIdOf(uid);
  await sql('update attendees set email = $1 where id = $2', [EMAIL, attendeeId]);

  // Photos: one uploaded with their id (theirs alone), one attached to their album (the event's),
  // one uploaded with their id that a friend's album holds too, and one of nobody.
  const own = await storedPhoto('own', uid);
  const attached = await storedPhoto('attached', null);
  const shared = await storedPhoto('shared', uid);
  const stranger = await storedPhoto('stranger', null);
  keys.own = own.storageKey;
  keys.attached = attached.storageKey;
  keys.shared = shared.storageKey;
  keys.stranger = stranger.storageKey;
  await t.ok(
    endpoints.ownerAttachPhotos,
    { event_id: event.id, attendee_uid: uid, photo_uid_array: [attached.uid] },
    adminA,
  );
  await t.ok(
    endpoints.ownerAttachPhotos,
    { event_id: event.id, attendee_uid: friendUid, photo_uid_array: [shared.uid] },
    adminA,
  );

  // A lead with consent, messages (one to them, one to someone else), a selfie with its face
  // vector, a profile photo and an order with its payment.
  await sql(
    `insert into leads (event_id, full_name, email, phone, source, consent_version, consent_text, consented_at)
     values ($1, 'Gina Guest', $2, '+1 555 0100', 'attendee', 'v1', 'I agree', now()),
            ($1, 'Other Person', 'other@example.com', null, 'public', null, null, null)`,
    [event.id, EMAIL],
  );
  await sql(
    `insert into outbox (channel, kind, event_id, recipient, content, status)
     values ('mail', 'attendee_album_link', $1, $2, $3, 'sent'),
            ('sms', 'attendee_album_link', $1, '15550100', $4, 'sent'),
            ('mail', 'attendee_album_link', $1, 'other@example.com', $3, 'sent')`,
    [
      event.id,
      EMAIL,
      JSON.stringify({ subject: 'Your album', text: 'Here it is', html: null }),
      JSON.stringify({ body: 'Your album is ready' }),
    ],
  );
  // Their face found in their own photo (a face vector of the index).
  await sql(
    `insert into photo_faces (photo_id, event_id, box_x, box_y, box_width, box_height, width_px, height_px, score, model, descriptor)
     values ($1, $2, 0.1, 0.1, 0.2, 0.2, 80, 80, 0.9, 'm', $3)`,
    [own.id, event.id, `{${new Array(128).fill(0.25).join(',')}}`],
  );
  keys.selfie = `selfies/${event.name}/selfie-1.jpg`;
  await t.app.container.storage.put(keys.selfie, Buffer.from('selfie bytes'), 'image/jpeg');
  await sql(
    `insert into face_selfies (event_id, storage_key, key_type, attendee_id, consent_version, consented_at, expires_at, model, descriptor)
     values ($1, $2, 'attendee', $3, 'faces-v2', now(), now() + interval '30 days', 'm', $4)`,
    [event.id, keys.selfie, attendeeId, `{${new Array(128).fill(0.5).join(',')}}`],
  );
  keys.profile = `profile-photos/${uid}/me.png`;
  await t.app.container.storage.put(keys.profile, Buffer.from('profile bytes'), 'image/png');
  await sql(
    `insert into attendee_profile_photos (attendee_id, storage_key, file_name, width, height)
     values ($1, $2, 'me.png', 10, 10)`,
    [attendeeId, keys.profile],
  );
  const [order] = (await sql(
    `insert into orders (event_id, attendee_id, pricing_button_index, button_text, items, amount, currency, status, client_request_id, paid_at)
     values ($1, $2, 0, 'All photos', $3, 1500, 'USD', 'paid', 'req-1', now()) returning id`,
    [event.id, attendeeId, JSON.stringify({ digitals: 'all', prints: [] })],
  )) as { id: number }[];
  await sql(
    `insert into payments (public_id, order_id, provider, status, amount, currency, client_request_id)
     values ('pay_test1', $1, 'test', 'paid', 1500, 'USD', 'req-1')`,
    [order!.id],
  );
});
afterAll(async () => {
  await t.close();
});

describe('attendee export', () => {
  it('streams a ZIP with their photos and their leads, consents, messages and orders as JSON and CSV', async () => {
    const result = await t.ok(endpoints.exportAttendee, { attendee_uid: uid }, adminA);
    expect(result.counts).toEqual({
      photos: 3,
      leads: 1,
      consents: 2,
      messages: 2,
      orders: 1,
      selfies: 1,
      profile_photos: 1,
    });
    const reply = await t.app.inject({
      method: 'GET',
      url: new URL(result.url).pathname + new URL(result.url).search,
    });
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['content-type']).toBe('application/zip');
    const files = unzip(reply.rawPayload);
    const names = [...files.keys()];
    const photoNames = names.filter((n) => n.startsWith('photos/')).sort();
    expect(names.filter((n) => !n.startsWith('photos/')).sort()).toEqual(
      [
        'attendee.json',
        'consents.csv',
        'consents.json',
        'leads.csv',
        'leads.json',
        'messages.csv',
        'messages.json',
        'orders.csv',
        'orders.json',
        'photos.csv',
        'photos.json',
        'profile-photos/me.png',
        'selfies/selfie-1.jpg',
      ].sort(),
    );
    expect(photoNames).toHaveLength(3);
    const photoBytes = photoNames.map((n) => files.get(n)!.toString()).sort();
    expect(photoBytes).toEqual(['original attached', 'original own', 'original shared']);
    expect(files.get('selfies/selfie-1.jpg')!.toString()).toBe('selfie bytes');
    expect(files.get('profile-photos/me.png')!.toString()).toBe('profile bytes');

    const json = (name: string) =>
      JSON.parse(files.get(name)!.toString()) as Record<string, unknown>[];
    expect(JSON.parse(files.get('attendee.json')!.toString())).toMatchObject({
      uid,
      email: EMAIL,
      events: [{ name: event.name, full_name: 'Summer Gala' }],
    });
    expect(json('leads.json')).toEqual([
      expect.objectContaining({ full_name: 'Gina Guest', email: EMAIL, phone: '+1 555 0100' }),
    ]);
    expect(json('consents.json').map((c) => [c.kind, c.version])).toEqual([
      ['lead', 'v1'],
      ['face_recognition', 'faces-v2'],
    ]);
    expect(json('messages.json').map((m) => [m.channel, m.recipient, m.subject ?? m.text])).toEqual(
      [
        ['mail', EMAIL, 'Your album'],
        ['sms', '15550100', 'Your album is ready'],
      ],
    );
    expect(json('orders.json')).toEqual([
      expect.objectContaining({
        amount: 1500,
        currency: 'USD',
        status: 'paid',
        payments: 'pay_test1:test:paid',
      }),
    ]);
    expect(
      json('photos.json')
        .map((p) => p.how)
        .sort(),
    ).toEqual(['attached', 'uploaded_with_id', 'uploaded_with_id']);
    // The CSVs hold the same rows: a header and one line per row.
    const csvLines = (name: string) => files.get(name)!.toString().trimEnd().split('\r\n');
    expect(csvLines('leads.csv')[0]).toContain('full_name');
    expect(csvLines('leads.csv')).toHaveLength(2);
    expect(csvLines('messages.csv')).toHaveLength(3);
    expect(csvLines('orders.csv')).toHaveLength(2);
    expect(csvLines('consents.csv')).toHaveLength(3);
    expect(csvLines('photos.csv')).toHaveLength(4);

    const log = await sql(
      "select actor_user_id, attendee_uid, counts from privacy_requests where action = 'export'",
    );
    expect(log).toEqual([
      expect.objectContaining({
        attendee_uid: uid,
        counts: expect.objectContaining({ photos: 3 }) as unknown,
      }),
    ]);
    expect(log[0]!.actor_user_id).not.toBeNull();
  });

  it('refuses an unreadable ticket', async () => {
    const reply = await t.app.inject({
      method: 'GET',
      url: '/api/v1/attendee/export/download?ticket=nope',
    });
    expect(reply.statusCode).toBe(404);
    expect(reply.json()).toMatchObject({ status: 'nok', error: { message_key: 'not_found' } });
  });
});

describe('attendee erase', () => {
  it('refuses another organisation’s owner and changes nothing', async () => {
    const fingerprint = async () =>
      JSON.stringify(
        await sql(
          `select (select count(*) from attendees where uid = $1) a, (select count(*) from leads) l,
                  (select count(*) from outbox) o, (select count(*) from face_selfies) s,
                  (select count(*) from photos) p, (select count(*) from privacy_requests) r`,
          [uid],
        ),
      );
    const before = await fingerprint();
    for (const call of [endpoints.eraseAttendee, endpoints.exportAttendee]) {
      const reply = await t.call(call, { attendee_uid: uid }, adminB);
      expect(reply.statusCode).toBe(404);
      expect(reply.body).toMatchObject({
        status: 'nok',
        error: { message_key: 'invalid_attendee_id' },
      });
    }
    expect(await fingerprint()).toBe(before);
    expect(await exists(keys.selfie)).toBe(true);
  });

  it('deletes their photos, selfie, face vector, leads and messages; keeps orders under a placeholder', async () => {
    const attendeeId = await attendeeIdOf(uid);
    const result = await t.ok(endpoints.eraseAttendee, { attendee_uid: uid }, adminA);
    expect(result.placeholder_uid).toMatch(/^ERASED_[0-9A-F]{16}$/);
    expect(result.deleted_photos).toBe(1);
    expect(result.detached_photos).toBe(2);

    // Rows.
    expect(await sql('select * from attendees where uid = $1', [uid])).toEqual([]);
    const [kept] = await sql(
      'select uid, email, private_id, locked_at from attendees where id = $1',
      [attendeeId],
    );
    expect(kept).toMatchObject({ uid: result.placeholder_uid, email: null, private_id: null });
    expect(kept!.locked_at).not.toBeNull();
    expect(await sql('select * from face_selfies where attendee_id = $1', [attendeeId])).toEqual(
      [],
    );
    expect(await sql('select * from photo_faces where event_id = $1', [event.id])).toEqual([]);
    expect(await sql('select * from leads where lower(email) = $1', [EMAIL])).toEqual([]);
    expect(await sql("select * from leads where email = 'other@example.com'")).toHaveLength(1);
    expect(await sql("select * from outbox where recipient in ($1, '15550100')", [EMAIL])).toEqual(
      [],
    );
    expect(await sql("select * from outbox where recipient = 'other@example.com'")).toHaveLength(1);
    expect(await sql('select * from attendee_photos where attendee_id = $1', [attendeeId])).toEqual(
      [],
    );
    expect(
      await sql('select * from attendee_profile_photos where attendee_id = $1', [attendeeId]),
    ).toEqual([]);
    expect(await sql('select * from photos where attendee_uid = $1', [uid])).toEqual([]);
    // Their own photo is gone (with an audit entry); the attached and the shared ones stay.
    const photoKeys = (
      await sql('select storage_key from photos where event_id = $1', [event.id])
    ).map((r) => r.storage_key);
    expect(photoKeys.sort()).toEqual([keys.attached, keys.shared, keys.stranger].sort());
    expect(
      await sql("select action, reason from photo_audit where action = 'privacy_erase'"),
    ).toEqual([{ action: 'privacy_erase', reason: null }]);
    // Orders and payments stay, pointing at the placeholder.
    const orders = await sql(
      `select o.amount, a.uid, p.public_id from orders o join attendees a on a.id = o.attendee_id
       join payments p on p.order_id = o.id`,
    );
    expect(orders).toEqual([{ amount: 1500, uid: result.placeholder_uid, public_id: 'pay_test1' }]);

    // Storage: the selfie, the profile photo and their own photo's files are gone.
    expect(await exists(keys.selfie)).toBe(false);
    expect(await exists(keys.profile)).toBe(false);
    expect(await exists(keys.own)).toBe(false);
    expect(await exists(keys.attached)).toBe(true);
    expect(await exists(keys.shared)).toBe(true);
    expect(await sql('select * from storage_deletions')).toEqual([]);

    // The privacy log: who, when, which id, counts; nothing else about the person.
    const log = await sql(
      "select actor_user_id, attendee_uid, counts, created_at from privacy_requests where action = 'erase'",
    );
    expect(log).toHaveLength(1);
    expect(log[0]).toMatchObject({
      attendee_uid: uid,
      counts: expect.objectContaining({ leads: 1, messages: 2, deleted_photos: 1 }) as unknown,
    });
    expect(JSON.stringify(log)).not.toContain(EMAIL);
    expect(JSON.stringify(log)).not.toContain('Gina');
  });

  it('keeps a storage delete that failed owed, and the job deletes it later', async () => {
    const list = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      adminA,
    );
    const other = list.attendees[0]!.uid;
    const photo = await storedPhoto('flaky', other);
    const storage = t.app.container.storage;
    const spy = vi.spyOn(storage, 'deletePrefix').mockRejectedValue(new Error('storage is down'));
    try {
      const result = await t.ok(endpoints.eraseAttendee, { attendee_uid: other }, adminA);
      expect(result.deleted_photos).toBe(1);
    } finally {
      spy.mockRestore();
    }
    // The rows are erased; the files are owed, not forgotten.
    expect(await sql('select * from photos where id = $1', [photo.id])).toEqual([]);
    expect(await exists(photo.storageKey)).toBe(true);
    const owed = await sql('select prefix, attempts from storage_deletions order by id');
    expect(owed.length).toBe(4);
    expect(owed.every((row) => Number(row.attempts) >= 1)).toBe(true);
    // Job `storage.delete-pending` (scheduled, and sent after the failure) deletes them.
    await t.app.container.services.storageDeletions.run();
    expect(await exists(photo.storageKey)).toBe(false);
    expect(await sql('select * from storage_deletions')).toEqual([]);
    const sent = await sql(
      "select count(*)::int as n from pgboss.job where name = 'storage.delete-pending'",
    );
    expect(Number(sent[0]!.n)).toBeGreaterThan(0);
  });

  it('only detaches the photos uploaded with their id when the event’s rule says detach', async () => {
    const keeping = await createEvent(t, world.adminA, {
      full_name: 'Keeps Photos',
      opts: { description: 'Keeps its photos', erasePhotos: 'detach' },
    });
    const list = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [keeping.id], is_prepaid: 0 },
      adminA,
    );
    const guest = list.attendees[0]!.uid;
    const photo = await insertReadyPhoto(t, keeping, guest);
    await t.app.container.storage.put(photo.storageKey, Buffer.from('kept'), 'image/jpeg');
    const result = await t.ok(endpoints.eraseAttendee, { attendee_uid: guest }, adminA);
    expect(result).toMatchObject({ deleted_photos: 0, detached_photos: 1 });
    expect(await sql('select attendee_uid from photos where id = $1', [photo.id])).toEqual([
      { attendee_uid: null },
    ]);
    expect(await exists(photo.storageKey)).toBe(true);
    expect(await sql('select * from attendees where uid = $1', [guest])).toEqual([]);
  });

  it('answers a second erasure with a clear error, and an old export ticket with not found', async () => {
    const again = await t.call(endpoints.eraseAttendee, { attendee_uid: uid }, adminA);
    expect(again.statusCode).toBe(404);
    expect(again.body).toMatchObject({
      status: 'nok',
      error: { message_key: 'invalid_attendee_id' },
    });
    const exported = await t.call(endpoints.exportAttendee, { attendee_uid: uid }, adminA);
    expect(exported.body).toMatchObject({
      status: 'nok',
      error: { message_key: 'invalid_attendee_id' },
    });
    expect(
      await sql("select * from privacy_requests where action = 'erase' and attendee_uid = $1", [
        uid,
      ]),
    ).toHaveLength(1);
  });
});

describe('privacy log', () => {
  it('lists exports and erasures read-only: super users all, admins their organisation, owners none', async () => {
    const superAuth = await apiKeyAuth(t, world.superUser);
    const all = await t.ok(endpoints.privacyRequestList, {}, superAuth);
    const [count] = await sql('select count(*)::int as n from privacy_requests');
    expect(all.requests).toHaveLength(Number(count!.n));
    const erased = all.requests.find((r) => r.action === 'erase' && r.attendee_uid === uid)!;
    const [actor] = await sql(
      `select u.email from users u join privacy_requests p on p.actor_user_id = u.id
        where p.id = $1`,
      [erased.id],
    );
    expect(erased).toMatchObject({
      organisation_id: world.orgA.id,
      organisation_name: 'Alpha Events',
      actor_email: actor!.email,
    });
    expect(erased.counts).toMatchObject({ leads: 1, deleted_photos: 1 });
    // Newest first.
    const ids = all.requests.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const own = await t.ok(endpoints.privacyRequestList, {}, adminA);
    expect(own.requests.length).toBeGreaterThan(0);
    expect(own.requests.every((r) => r.organisation_id === world.orgA.id)).toBe(true);
    expect((await t.ok(endpoints.privacyRequestList, {}, adminB)).requests).toEqual([]);
    expect(
      errorOf(
        await t.call(endpoints.privacyRequestList, { organisation_id: world.orgA.id }, adminB),
      ),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    const owner = await apiKeyAuth(t, world.ownerA);
    expect(errorOf(await t.call(endpoints.privacyRequestList, {}, owner))).toMatchObject({
      status: 403,
      message_key: 'forbidden',
    });
    expect(
      (await t.ok(endpoints.privacyRequestList, { organisation_id: world.orgB.id }, superAuth))
        .requests,
    ).toEqual([]);
    // A page ends where the next begins.
    const older = await t.ok(
      endpoints.privacyRequestList,
      { before_id: all.requests[0]!.id },
      superAuth,
    );
    expect(older.requests.map((r) => r.id)).toEqual(all.requests.slice(1).map((r) => r.id));
  });
});
