import type { AddressInfo } from 'node:net';
import {
  API_BASE,
  endpoints,
  INSTANT_CODE_ALPHABET,
  INSTANT_STREAM_EVENT,
  INSTANT_STREAM_PATH,
  type FlashbulbEvent,
  type InstantState,
  type Photo,
} from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiKeyAuth,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import {
  completeUpload,
  makeJpeg,
  postToStorage,
  uploadPhoto,
  waitForReady,
  type UploadAuth,
} from '../helpers/photos.ts';
import { openSse, type SseClient } from '../helpers/sse.ts';
import { bytesOf, grantForm, multipartBody, pathOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let otherEvent: FlashbulbEvent;
let robot: UploadAuth & { robotId: number };
let admin: { authorization: string };
let foreignAdmin: { authorization: string };
const photos: Photo[] = [];

const MINUTE = 60_000;

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  // The test clock moves hours and days: API keys, unlike access tokens, do not expire.
  admin = await apiKeyAuth(t, world.adminA);
  foreignAdmin = await apiKeyAuth(t, world.adminB);
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: world.orgA.id, name: 'Booth' },
    admin,
  );
  event = await createEvent(t, world.adminA, { robot_id_array: [created.id] });
  robot = { key_type: 'robot', key_value: created.api_key, robotId: created.id };
  otherEvent = await createEvent(t, world.adminB, { full_name: 'Other' });
  // Six photos, ten minutes apart: IMG_0 is the oldest.
  for (let i = 0; i < 6; i += 1) {
    const photo = await uploadPhoto(
      t,
      robot,
      event.name,
      await makeJpeg({ seed: 10 + i }),
      `IMG_${i}.jpg`,
    );
    photos.push(await waitForReady(t, admin.authorization, event.id, photo.id));
    t.clock.advance(10 * MINUTE);
  }
  await t.ok(
    endpoints.updatePhoto,
    { id: photos[1]!.id, is_visible: 0, category: 'blurry' },
    admin,
  );
});
afterAll(async () => {
  await t.close();
});

const ownerList = (body: Record<string, unknown> = {}) =>
  t.ok(endpoints.ownerPhotoList, { event_id: event.id, ...body }, admin);
const idsOf = (list: { photos: Photo[] }) => list.photos.map((p) => p.file_name);

describe('photo list', () => {
  it('lists newest first with paging and a total count', async () => {
    const page1 = await ownerList({ max_size: 4, page_number: 1, show_total_count: 1 });
    expect(idsOf(page1)).toEqual(['IMG_5.jpg', 'IMG_4.jpg', 'IMG_3.jpg', 'IMG_2.jpg']);
    expect(page1.total_count).toBe(6);
    const page2 = await ownerList({ max_size: 4, page_number: 2 });
    expect(idsOf(page2)).toEqual(['IMG_1.jpg', 'IMG_0.jpg']);
    expect(page2.total_count).toBeNull();
  });

  it('pages by cursor (before_id) as well as by page number', async () => {
    const first = await ownerList({ max_size: 2 });
    expect(idsOf(first)).toEqual(['IMG_5.jpg', 'IMG_4.jpg']);
    const next = await ownerList({ max_size: 2, before_id: first.photos.at(-1)!.id });
    expect(idsOf(next)).toEqual(['IMG_3.jpg', 'IMG_2.jpg']);
    const last = await ownerList({ max_size: 10, before_id: next.photos.at(-1)!.id });
    expect(idsOf(last)).toEqual(['IMG_1.jpg', 'IMG_0.jpg']);
  });

  it('applies every filter', async () => {
    expect(idsOf(await ownerList({ is_visible: 0 }))).toEqual(['IMG_1.jpg']);
    expect(idsOf(await ownerList({ is_visible: 1 }))).toHaveLength(5);
    expect(idsOf(await ownerList({ file_name: 'IMG_3' }))).toEqual(['IMG_3.jpg']);
    expect(idsOf(await ownerList({ file_name: '%' }))).toEqual([]);
    // Minute windows: uploaded between 15 and 35 minutes ago (the clock is 60 min after IMG_0,
    // so IMG_3 is 30 and IMG_4 20 minutes old).
    expect(idsOf(await ownerList({ min_time_minutes: 15, max_time_minutes: 35 }))).toEqual([
      'IMG_4.jpg',
      'IMG_3.jpg',
    ]);
    const start = new Date(new Date(photos[2]!.created_date).getTime() - 1000).toISOString();
    const end = new Date(new Date(photos[4]!.created_date).getTime() + 1000).toISOString();
    expect(idsOf(await ownerList({ start_date: start, end_date: end }))).toEqual([
      'IMG_4.jpg',
      'IMG_3.jpg',
      'IMG_2.jpg',
    ]);
    expect(idsOf(await ownerList({ is_original: 1 }))).toHaveLength(6);
    expect(idsOf(await ownerList({ is_original: 0 }))).toEqual([]);
    expect(idsOf(await ownerList({ printed: 1 }))).toEqual([]);
    expect(idsOf(await ownerList({ printable: 1 }))).toHaveLength(6);
    expect(idsOf(await ownerList({ is_kiosk: 1 }))).toEqual([]);
    expect(idsOf(await ownerList({ attendee_uid: 'nobody' }))).toEqual([]);
    expect(idsOf(await ownerList({ image_process_id: 999 }))).toEqual([]);
    const bad = await t.call(
      endpoints.ownerPhotoList,
      { event_id: event.id, start_date: 'yesterday' },
      admin,
    );
    expect(errorOf(bad)).toMatchObject({
      status: 400,
      message_key: 'invalid_value',
      field: 'start_date',
    });
    const tooBig = await t.call(
      endpoints.ownerPhotoList,
      { event_id: event.id, max_size: 5000 },
      admin,
    );
    expect(errorOf(tooBig)).toMatchObject({ status: 400, field: 'max_size' });
  });

  it('shows each key what it may see', async () => {
    const byKey = (key_type: string, key_value: string) =>
      t.call(endpoints.publicPhotoList, {
        key_type,
        key_value,
        max_size: 100,
        page_number: 1,
      });
    const publicList = await byKey('public', event.public_api_key);
    expect(publicList.statusCode).toBe(200);
    const publicNames = idsOf((publicList.body as { result: { photos: Photo[] } }).result);
    expect(publicNames).toHaveLength(5);
    expect(publicNames).not.toContain('IMG_1.jpg'); // hidden photos never reach public links
    expect(
      (publicList.body as { result: { photos: Photo[] } }).result.photos[0]!.urls.original,
    ).toBeNull();
    const privateList = (await byKey('private', event.private_api_key)).body as {
      result: { photos: Photo[] };
    };
    expect(idsOf(privateList.result)).toHaveLength(5);
    // The private key downloads each photo's original object, through its signed URL (ADR 0006);
    // its guest view has no storage path, so the object is found from the owner's view.
    for (const photo of privateList.result.photos) {
      expect(photo).not.toHaveProperty('full_path');
      const owned = photos.find((p) => p.uid === photo.uid)!;
      const served = await t.app.inject({ method: 'GET', url: pathOf(photo.urls.original) });
      expect(served.statusCode).toBe(200);
      const stored = await t.app.container.storage.get(owned.full_path);
      expect(served.rawPayload.equals(await bytesOf(stored!.body))).toBe(true);
    }
    const ownerKey = (await byKey('event_owner', event.owner_api_key)).body as {
      result: { photos: Photo[] };
    };
    expect(idsOf(ownerKey.result)).toHaveLength(6);
    // Another event's key sees its own (empty) event, never this one's photos.
    const other = (await byKey('public', otherEvent.public_api_key)).body as {
      result: { photos: Photo[] };
    };
    expect(other.result.photos).toEqual([]);
    for (const [type, value] of [
      ['public', 'nope'],
      ['private', event.public_api_key],
      ['attendee', 'x'],
    ]) {
      const refused = await byKey(type!, value!);
      expect(errorOf(refused), type).toMatchObject({
        status: 401,
        message_key: 'unauthorized_user',
      });
      expect(JSON.stringify(refused.body)).not.toContain('IMG_');
    }
    // Another organisation's admin cannot list, and learns nothing.
    const foreign = await t.call(endpoints.ownerPhotoList, { event_id: event.id }, foreignAdmin);
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'event_not_found' });
  });

  it('keeps delayed photos out of albums until due, and the public stream to its window', async () => {
    const delayed = await createEvent(
      t,
      { ...world.adminA, ...admin },
      {
        full_name: 'Delayed',
        photo_stream_available_minutes: 60,
        opts: { description: 'd', photoDelayMinutes: 10 },
      },
    );
    const photo = await uploadPhoto(
      t,
      { authorization: admin.authorization },
      delayed.name,
      await makeJpeg({ seed: 77 }),
      'late.jpg',
    );
    await waitForReady(t, admin.authorization, delayed.id, photo.id);
    const publicNames = async () =>
      idsOf(
        (
          (
            await t.call(endpoints.publicPhotoList, {
              key_type: 'public',
              key_value: delayed.public_api_key,
              max_size: 10,
              page_number: 1,
            })
          ).body as { result: { photos: Photo[] } }
        ).result,
      );
    const privateNames = async () =>
      idsOf(
        (
          (
            await t.call(endpoints.publicPhotoList, {
              key_type: 'private',
              key_value: delayed.private_api_key,
              max_size: 10,
              page_number: 1,
            })
          ).body as { result: { photos: Photo[] } }
        ).result,
      );
    expect(await publicNames()).toEqual([]);
    // The operator sees it at once, unless asking for due photos only.
    expect(idsOf(await t.ok(endpoints.ownerPhotoList, { event_id: delayed.id }, admin))).toEqual([
      'late.jpg',
    ]);
    expect(
      idsOf(await t.ok(endpoints.ownerPhotoList, { event_id: delayed.id, get_from_tmp: 0 }, admin)),
    ).toEqual([]);
    t.clock.advance(10 * MINUTE);
    expect(await publicNames()).toEqual(['late.jpg']);
    // After the 60-minute stream window the public stream drops it; the private album keeps it.
    t.clock.advance(51 * MINUTE);
    expect(await publicNames()).toEqual([]);
    expect(await privateNames()).toEqual(['late.jpg']);
  });
});

describe('photo changes', () => {
  it('updates one or many photos, only within events the user may change', async () => {
    const updated = await t.ok(
      endpoints.updatePhoto,
      { id: photos[2]!.id, category: 'stage' },
      admin,
    );
    expect(updated).toMatchObject({ category: 'stage', is_visible: 1 });
    const many = await t.ok(
      endpoints.updatePhotoList,
      { id_array: [photos[3]!.id, photos[4]!.id], is_visible: 0 },
      admin,
    );
    expect(many.updated).toBe(2);
    expect(idsOf(await ownerList({ is_visible: 0 }))).toEqual([
      'IMG_4.jpg',
      'IMG_3.jpg',
      'IMG_1.jpg',
    ]);
    await t.ok(
      endpoints.updatePhotoList,
      { id_array: [photos[3]!.id, photos[4]!.id], is_visible: 1 },
      admin,
    );
    const foreign = await t.call(
      endpoints.updatePhotoList,
      { id_array: [photos[2]!.id], is_visible: 0 },
      foreignAdmin,
    );
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });
    const mixed = await t.call(
      endpoints.updatePhotoList,
      { id_array: [photos[2]!.id, 999_999], is_visible: 0 },
      admin,
    );
    expect(errorOf(mixed)).toMatchObject({ status: 404, message_key: 'not_found' });
    expect((await ownerList({ is_visible: 0 })).photos.map((p) => p.id)).not.toContain(
      photos[2]!.id,
    );
  });

  it('hides and shows with the event-owner key of a curation link, and nothing else', async () => {
    const owner = { key_type: 'event_owner' as const, key_value: event.owner_api_key };
    const hidden = await t.ok(endpoints.publicUpdatePhotoList, {
      ...owner,
      id_array: [photos[3]!.id],
      is_visible: 0,
    });
    expect(hidden.photos.map((p) => [p.id, p.is_visible])).toEqual([[photos[3]!.id, 0]]);
    const publicNames = async () =>
      idsOf(
        (
          (
            await t.call(endpoints.publicPhotoList, {
              key_type: 'public',
              key_value: event.public_api_key,
              max_size: 100,
              page_number: 1,
            })
          ).body as { result: { photos: Photo[] } }
        ).result,
      );
    expect(await publicNames()).not.toContain('IMG_3.jpg');
    await t.ok(endpoints.publicUpdatePhotoList, {
      ...owner,
      id_array: [photos[3]!.id],
      is_visible: 1,
    });
    expect(await publicNames()).toContain('IMG_3.jpg');
    const byPublicKey = await t.call(endpoints.publicUpdatePhotoList, {
      key_type: 'public',
      key_value: event.public_api_key,
      id_array: [photos[3]!.id],
      is_visible: 0,
    });
    expect(errorOf(byPublicKey)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const otherEventsPhoto = await t.call(endpoints.publicUpdatePhotoList, {
      key_type: 'event_owner',
      key_value: otherEvent.owner_api_key,
      id_array: [photos[3]!.id],
      is_visible: 0,
    });
    expect(errorOf(otherEventsPhoto)).toMatchObject({ status: 404, message_key: 'not_found' });
    expect(await publicNames()).toContain('IMG_3.jpg');
  });

  it('reads the event settings from the album key alone', async () => {
    const [settings] = await t.ok(endpoints.publicEventFullData, {
      key_type: 'public',
      key_value: event.public_api_key,
    });
    expect(settings).toMatchObject({ id: event.id, name: event.name });
    // The public key's read carries no key at all (guest-presenters.test.ts lists its fields).
    expect(settings).not.toHaveProperty('owner_api_key');
    expect(settings).not.toHaveProperty('private_api_key');
    const wrong = await t.call(endpoints.publicEventFullData, {
      key_type: 'public',
      key_value: 'nope',
    });
    expect(errorOf(wrong)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    // A link without its key opens nothing either, with the same answer.
    for (const keyValue of [undefined, '']) {
      const missing = await t.call(endpoints.publicPhotoList, {
        key_type: 'public',
        ...(keyValue === undefined ? {} : { key_value: keyValue }),
        max_size: 10,
      });
      expect(errorOf(missing)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
      expect(JSON.stringify(missing.body)).not.toContain('IMG_');
    }
  });

  it('links an edited copy to its original; the Original filter leaves the copy out', async () => {
    // An event of its own, so the other tests' counts stay as they are.
    const own = await createEvent(t, { ...world.adminA, ...admin }, { full_name: 'Edits' });
    const owner = { key_type: 'event_owner' as const, key_value: own.owner_api_key };
    const original = await uploadPhoto(
      t,
      owner,
      own.name,
      await makeJpeg({ seed: 9100 }),
      'orig.jpg',
    );
    const list = (body: Record<string, unknown> = {}) =>
      t.ok(endpoints.ownerPhotoList, { event_id: own.id, show_total_count: 1, ...body }, admin);
    const upload = async (seed: number, extra: Record<string, unknown>) => {
      const { key } = await postToStorage(
        t,
        owner,
        own.name,
        `edit-${seed}.jpg`,
        await makeJpeg({ seed }),
        'image/jpeg',
      );
      return t.call(endpoints.photoUploadComplete, { ...owner, key, ...extra });
    };
    // A photo of another event, or a missing one, is not an original here; nothing is stored.
    const otherEventsPhoto = await upload(9103, { original_photo_id: photos[1]!.id });
    expect(errorOf(otherEventsPhoto)).toMatchObject({ status: 404, field: 'original_photo_id' });
    const before = (await list()).total_count;
    const foreign = await upload(9101, { original_photo_id: 99_999 });
    expect(errorOf(foreign)).toMatchObject({ status: 404, field: 'original_photo_id' });
    expect((await list()).total_count).toBe(before);

    const copy = await upload(9102, { original_photo_id: original.id });
    expect(copy.statusCode).toBe(200);
    const edited = (
      copy.body as { result: { id: number; is_original: number; original_photo_id: number | null } }
    ).result;
    expect(edited).toMatchObject({ is_original: 0, original_photo_id: original.id });
    expect(idsOf(await list({ is_original: 1 }))).not.toContain('edit-9102.jpg');
    expect(idsOf(await list({ is_original: 0 }))).toEqual(['edit-9102.jpg']);
  });

  it('curates with the event-owner key and reprocesses derivatives', async () => {
    const owner = { key_type: 'event_owner' as const, key_value: event.owner_api_key };
    const curated = await t.ok(endpoints.curationUpdate, {
      ...owner,
      original_photo_id: photos[0]!.id,
      print_requested: 1,
    });
    expect(curated.is_curated).toBe(1);
    expect(idsOf(await ownerList({ is_curated: 1 }))).toEqual(['IMG_0.jpg']);
    const publicKey = await t.call(endpoints.curationUpdate, {
      key_type: 'public',
      key_value: event.public_api_key,
      original_photo_id: photos[0]!.id,
    });
    expect(errorOf(publicKey).status).toBe(404);
    const reprocessed = await t.ok(endpoints.curationReprocess, {
      ...owner,
      photo_id: photos[0]!.id,
    });
    expect(reprocessed.status).toBe('processing');
    expect((await waitForReady(t, admin.authorization, event.id, photos[0]!.id)).status).toBe(
      'ready',
    );
  });

  it('records robot activities', async () => {
    const one = await t.ok(endpoints.createActivity, {
      key_type: 'robot',
      key_value: robot.key_value!,
      robot_id: robot.robotId,
      photo_id: photos[0]!.id,
      activity_name: 'printed',
    });
    expect(one.id).toBeGreaterThan(0);
    const bulk = await t.ok(endpoints.bulkCreateActivity, {
      key_type: 'robot',
      key_value: robot.key_value!,
      robot_id: robot.robotId,
      photo_id_array: [photos[0]!.id, photos[2]!.id],
      activity_name: 'shared',
      type: 'info',
    });
    expect(bulk.created).toBe(2);
    const rows = await t.database.executeSql('select type from activities');
    expect(rows.rows.map((r) => r.type)).toEqual(['info', 'info', 'info']);
    const otherRobot = await t.call(endpoints.createActivity, {
      key_type: 'robot',
      key_value: robot.key_value!,
      robot_id: robot.robotId + 1,
      activity_name: 'x',
    });
    expect(errorOf(otherRobot)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const foreignPhoto = await t.call(endpoints.createActivity, {
      key_type: 'robot',
      key_value: robot.key_value!,
      robot_id: robot.robotId,
      photo_id: 999_999,
      activity_name: 'x',
    });
    expect(errorOf(foreignPhoto)).toMatchObject({ status: 404 });
  });

  it('deletes with a reason kept in the audit log, files included', async () => {
    // Signed URLs live one to two hours and the clock has moved: read them from a fresh list.
    const victim = (await ownerList({ max_size: 100 })).photos.find((p) => p.id === photos[5]!.id)!;
    const preview = pathOf(victim.urls.preview);
    expect((await t.app.inject({ method: 'GET', url: preview })).statusCode).toBe(200);
    const thumbnail = pathOf(victim.urls.thumbnail);
    expect((await t.app.inject({ method: 'GET', url: thumbnail })).statusCode).toBe(200);
    const noReason = await t.call(
      endpoints.deletePhotoList,
      { photo_id_array: [victim.id], delete_reason: '  ' },
      admin,
    );
    expect(errorOf(noReason)).toMatchObject({ status: 400, message_key: 'delete_reason_required' });
    const foreign = await t.call(
      endpoints.deletePhotoList,
      { photo_id_array: [victim.id], delete_reason: 'spam' },
      foreignAdmin,
    );
    expect(errorOf(foreign)).toMatchObject({ status: 404 });
    expect(idsOf(await ownerList())).toContain('IMG_5.jpg');

    const deleted = await t.ok(
      endpoints.deletePhotoList,
      { photo_id_array: [victim.id], delete_reason: 'Guest asked' },
      admin,
    );
    expect(deleted.deleted).toBe(1);
    expect(idsOf(await ownerList())).not.toContain('IMG_5.jpg');
    expect((await t.app.inject({ method: 'GET', url: preview })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: pathOf(victim.urls.original) })).statusCode,
    ).toBe(404);
    // The files went with the row: the public thumbnail and the protected original.
    expect((await t.app.inject({ method: 'GET', url: thumbnail })).statusCode).toBe(404);
    expect(await t.app.container.storage.head(victim.full_path)).toBeNull();
    const audit = await t.app.container.repositories.photos.auditFor(event.id);
    expect(audit[0]).toMatchObject({
      photoUid: victim.uid,
      reason: 'Guest asked',
      action: 'delete',
      fileName: 'IMG_5.jpg',
    });

    const single = await t.ok(endpoints.deletePhoto, { photo_id: photos[4]!.id }, admin);
    expect(single.deleted).toBe(1);
    const counts = await t.ok(endpoints.photoCountInfo, { event_id: event.id }, admin);
    expect(counts).toMatchObject({ total: 4, hidden: 1, processing: 0 });
    // The public twin: the robot's and the event owner's keys read the same counts.
    const robotKey = { key_type: 'robot' as const, key_value: robot.key_value! };
    expect(await t.ok(endpoints.keyPhotoCountInfo, robotKey)).toEqual(counts);
    expect(
      await t.ok(endpoints.keyPhotoCountInfo, {
        key_type: 'event_owner',
        key_value: event.owner_api_key,
      }),
    ).toEqual(counts);
    expect(
      await t.ok(endpoints.keyPhotoCountInfo, { ...robotKey, start_date: '2099-01-01 00:00' }),
    ).toMatchObject({ total: 0 });
    expect(
      errorOf(await t.call(endpoints.keyPhotoCountInfo, { ...robotKey, end_date: 'soon' })),
    ).toMatchObject({ status: 400, message_key: 'invalid_value', field: 'end_date' });
    expect(
      errorOf(
        await t.call(endpoints.keyPhotoCountInfo, {
          key_type: 'public',
          key_value: event.public_api_key,
        }),
      ),
    ).toMatchObject({ status: 401, message_key: 'invalid_key' });
  });
});

describe('instant links', () => {
  let instantEvent: FlashbulbEvent;
  let owner: UploadAuth;
  let base: string;
  const streams: SseClient[] = [];
  const grantFor = (fileName = 'booth.jpg') =>
    t.ok(endpoints.photoUploadAccess, {
      ...owner,
      event_name: instantEvent.name,
      file_name: fileName,
      content_type: 'image/jpeg',
    });
  const instantOf = (url: string) => new URL(url).searchParams.get('instant') ?? '';
  const stateEvents = (client: SseClient) =>
    client.messages
      .filter((m) => m.event === INSTANT_STREAM_EVENT)
      .map((m) => JSON.parse(m.data) as InstantState);

  beforeAll(async () => {
    instantEvent = await createEvent(
      t,
      { ...world.adminA, ...admin },
      { full_name: 'Instant <b>' },
    );
    owner = { key_type: 'event_owner', key_value: instantEvent.owner_api_key };
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    for (const s of streams) s.close();
  });
  const openInstant = async (instant: string) => {
    const client = await openSse(
      `${base}${API_BASE}${INSTANT_STREAM_PATH}?instant=${encodeURIComponent(instant)}`,
    );
    streams.push(client);
    return client;
  };

  it('the grant carries the guest URL and a short code; the page develops, then fills in live', async () => {
    const grant = await grantFor();
    expect(grant.instant_code).toMatch(new RegExp(`^[${INSTANT_CODE_ALPHABET}]{6}$`));
    expect(grant.instant_url).toBe(
      `${t.config.publicUrl}/?instant=${instantEvent.name}-${grant.instant_code}`,
    );
    // Codes are drawn, not counted: the next grant's is another.
    expect((await grantFor()).instant_code).not.toBe(grant.instant_code);

    const instant = instantOf(grant.instant_url!);
    // Before the photo exists the page learns that it is developing, and nothing else.
    const before = await t.ok(endpoints.retrieveInstantPhoto, { instant });
    expect(before).toEqual({
      state: 'developing',
      code: grant.instant_code,
      event: null,
      photo: null,
    });
    const live = await openInstant(instant.toLowerCase());
    expect(live.contentType).toContain('text/event-stream');
    await live.waitFor((m) => m.event === INSTANT_STREAM_EVENT, 5000);
    expect(stateEvents(live)[0]!.state).toBe('developing');

    const form = multipartBody(
      grantForm(grant.fields, await makeJpeg({ seed: 71 }), {
        filename: 'booth.jpg',
        contentType: 'image/jpeg',
      }),
    );
    const posted = await t.app.inject({
      method: 'POST',
      url: new URL(grant.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    expect(posted.statusCode).toBe(201);
    const done = await completeUpload(t, owner, grant.key);
    expect(done.statusCode).toBe(200);
    const photo = (done.body as { result: Photo }).result;

    const ready = await live.waitFor(
      (m) =>
        m.event === INSTANT_STREAM_EVENT && (JSON.parse(m.data) as InstantState).state === 'ready',
      20_000,
    );
    const state = JSON.parse(ready.data) as InstantState;
    expect(state.photo?.uid).toBe(photo.uid);
    expect(state.photo?.urls.preview).toBeTruthy();
    // The guest's view of a photo: no storage path, robot or attendee.
    expect(state.photo).not.toHaveProperty('full_path');
    expect(state.event).toMatchObject({ name: instantEvent.name, full_name: 'Instant <b>' });
    expect(await t.ok(endpoints.retrieveInstantPhoto, { instant })).toMatchObject({
      state: 'ready',
      photo: { uid: photo.uid },
    });
  });

  it('an unknown or malformed code is not found, for the call and the stream alike', async () => {
    for (const instant of [
      `${instantEvent.name}-ZZZZZZ`,
      'ZZZZ-ABCDEF',
      'nonsense',
      `${instantEvent.name}-0O1IL0`,
    ])
      expect(errorOf(await t.call(endpoints.retrieveInstantPhoto, { instant }))).toMatchObject({
        status: 404,
        message_key: 'not_found',
      });
    const stream = await openInstant(`${instantEvent.name}-ZZZZZZ`);
    expect(stream.status).toBe(404);
  });

  it('a refused upload says so at once; an upload that never comes fails when the grant ends', async () => {
    const refused = await grantFor('broken.jpg');
    const instant = instantOf(refused.instant_url!);
    const live = await openInstant(instant);
    await live.waitFor((m) => m.event === INSTANT_STREAM_EVENT, 5000);
    const form = multipartBody(
      grantForm(refused.fields, Buffer.from('not a picture at all'), {
        filename: 'broken.jpg',
        contentType: 'image/jpeg',
      }),
    );
    await t.app.inject({
      method: 'POST',
      url: new URL(refused.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    expect(errorOf(await completeUpload(t, owner, refused.key))).toMatchObject({
      message_key: 'unsupported_picture_format',
    });
    await live.waitFor(
      (m) =>
        m.event === INSTANT_STREAM_EVENT && (JSON.parse(m.data) as InstantState).state === 'failed',
      5000,
    );
    expect(await t.ok(endpoints.retrieveInstantPhoto, { instant })).toEqual({
      state: 'failed',
      code: refused.instant_code,
      event: null,
      photo: null,
    });

    const never = await grantFor('never.jpg');
    const waiting = instantOf(never.instant_url!);
    expect((await t.ok(endpoints.retrieveInstantPhoto, { instant: waiting })).state).toBe(
      'developing',
    );
    t.clock.set(Date.parse(never.expires_date) + 1000);
    expect((await t.ok(endpoints.retrieveInstantPhoto, { instant: waiting })).state).toBe('failed');
  });
});

describe('retention', () => {
  it('archives originals after instant_archive_days and deletes after photo_auto_delete_days, idempotently', async () => {
    const kept = await createEvent(
      t,
      { ...world.adminA, ...admin },
      { full_name: 'Retained', instant_archive_days: 2, photo_auto_delete_days: 30 },
    );
    const photo = await uploadPhoto(
      t,
      { authorization: admin.authorization },
      kept.name,
      await makeJpeg({ seed: 501 }),
      'old.jpg',
    );
    await waitForReady(t, admin.authorization, kept.id, photo.id);
    const service = t.app.container.services.photoRetention;

    t.clock.advance(1 * 86_400_000);
    expect(await service.runRetention()).toMatchObject({ archived: 0 });
    t.clock.advance(1 * 86_400_000 + MINUTE);
    expect((await service.runRetention()).archived).toBe(1);
    expect((await service.runRetention()).archived).toBe(0);
    const [archived] = (await t.ok(endpoints.ownerPhotoList, { event_id: kept.id }, admin)).photos;
    expect(archived!.full_path).toBe(`archive/${photo.full_path}`);
    expect(archived!.full_path).toMatch(/^archive\/protected\/events\//);
    const { storage } = t.app.container;
    expect(await storage.head(photo.full_path)).toBeNull();
    expect(await storage.head(archived!.full_path)).not.toBeNull();
    // The archive is protected: no public URL reads it (ADR 0006) …
    const unsigned = await t.app.inject({
      method: 'GET',
      url: pathOf(storage.publicUrl(archived!.full_path)),
    });
    expect(unsigned.statusCode).toBe(403);
    // … the owner's signed URL does, and so does the one issued before the move (it names the
    // photo, not the key) while it lasts.
    const served = await t.app.inject({ method: 'GET', url: pathOf(archived!.urls.original) });
    expect(served.statusCode).toBe(200);
    expect(
      served.rawPayload.equals(await bytesOf((await storage.get(archived!.full_path))!.body)),
    ).toBe(true);
    // Albums keep working from the derivatives.
    expect(
      (await t.app.inject({ method: 'GET', url: pathOf(archived!.urls.preview) })).statusCode,
    ).toBe(200);

    t.clock.advance(28 * 86_400_000);
    expect((await service.runRetention()).deleted).toBe(1);
    expect((await t.ok(endpoints.ownerPhotoList, { event_id: kept.id }, admin)).photos).toEqual([]);
    expect(await storage.head(archived!.full_path)).toBeNull();
    // A fresh owner URL of the deleted photo finds nothing.
    const fresh = t.app.container.services.photoUrls.mediaUrl(archived!.id, 'original', 'o');
    expect((await t.app.inject({ method: 'GET', url: pathOf(fresh) })).statusCode).toBe(404);
    expect((await t.app.container.repositories.photos.auditFor(kept.id))[0]).toMatchObject({
      action: 'auto_delete',
    });
    expect((await service.runRetention()).deleted).toBe(0);
  });
});
