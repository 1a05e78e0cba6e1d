// Guests' selfies (§6): consent before anything is processed, expiry with the
// test clock (selfie expiration, at the latest the photo retention), the owner's "delete all face
// data" and counts, re-indexing when the confidence setting changes, and attendee association
// ("new photos of you" through the outbox, at most once per attendee per 30 minutes).
// A scripted face engine answers faces by the image's width (real models: faces.test.ts).
import {
  endpoints,
  faceConsentVersion,
  type BodyOf,
  type EventOpts,
  type FlashbulbEvent,
  type Photo,
} from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DetectedFace,
  DetectOptions,
  FaceEngineProvider,
} from '../../src/repositories/faces/engine/face-engine-provider.ts';
import { ASSOCIATION_NOTICE_MINUTES } from '../../src/services/faces/face-selfie.service.ts';
import { apiKeyAuth, createEventWorld, errorOf, validEventBody } from '../helpers/events.ts';
import { makeJpeg, waitForReady } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

class ScriptedFaceEngine implements FaceEngineProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-v1';
  readonly dimensions = 4;
  byWidth = new Map<number, DetectedFace[]>();
  /** Every image the engine was asked about (its width): what was processed. */
  seen: number[] = [];
  init() {
    return Promise.resolve();
  }
  async detect(image: Buffer, options: DetectOptions = {}) {
    const { width = 0 } = await sharp(image).metadata();
    this.seen.push(width);
    return (this.byWidth.get(width) ?? [])
      .filter((f) => f.score >= (options.minScore ?? 0))
      .slice(0, options.maxFaces ?? Infinity);
  }
  close() {
    return Promise.resolve();
  }
}

const face = (embedding: number[], score = 0.99): DetectedFace => ({
  box: { x: 0.2, y: 0.2, width: 0.2, height: 0.3 },
  score,
  embedding: Float32Array.from(embedding),
  pixels: { width: 150, height: 150 },
});
const anna = [0.1, 0.2, 0.3, 0.4];
const ben = [0.9, -0.8, 0.7, -0.6];
const ANNA_PHOTO = 811;
const BEN_PHOTO = 812;
/** Anna, detected with SSD score 0.6: kept at confidence 95 (cut-off 0.5), not at 99 (0.9). */
const ANNA_UNSURE_PHOTO = 813;
const ANNA_SELFIE = 310;

const engine = new ScriptedFaceEngine();
engine.byWidth.set(ANNA_PHOTO, [face(anna)]);
engine.byWidth.set(BEN_PHOTO, [face(ben)]);
engine.byWidth.set(ANNA_UNSURE_PHOTO, [face(anna, 0.6)]);
engine.byWidth.set(ANNA_SELFIE, [face(anna)]);

const TEXT = 'We compare your selfie with the photos of this event and delete it after the event.';
const CONSENT = faceConsentVersion(TEXT);

let t: TestApp;
// API keys: they outlive access tokens while the tests move the clock by days.
let owner: { authorization: string };
let foreignOwner: { authorization: string };
let seed = 100;

const ownerKey = (e: FlashbulbEvent) => ({
  key_type: 'event_owner' as const,
  key_value: e.owner_api_key,
});
const privateKey = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
});
type GuestKey = { key_type: 'private' | 'public' | 'attendee'; key_value: string };

const newEvent = (
  opts: Partial<EventOpts> = {},
  more: Partial<BodyOf<typeof endpoints.createEvent>> = {},
) =>
  t.ok(
    endpoints.createEvent,
    validEventBody({
      enable_facial_recognition: 1,
      opts: { description: 'Faces', faceRecognitionText: TEXT, ...opts },
      ...more,
    }),
    owner,
  );

const upload = async (e: FlashbulbEvent, width: number): Promise<Photo> => {
  const grant = await t.ok(endpoints.photoUploadAccess, {
    ...ownerKey(e),
    event_name: e.name,
    file_name: 'photo.jpg',
    content_type: 'image/jpeg',
  });
  const bytes = await makeJpeg({ seed: (seed += 1), width, height: 600 });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: 'photo.jpg', contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const photo = await t.ok(endpoints.photoUploadComplete, { ...ownerKey(e), key: grant.key });
  return waitForReady(t, owner.authorization, e.id, photo.id);
};

/** Waits until the photo was scanned (with `minScore`, when given). */
/**
 * Waits for a photo's faces to be indexed and for the `faces.index` job to be done: the scan is
 * stored first, then the job attaches the photo to matching albums and sends the notice.
 */
const waitForScan = async (photoId: number, minScore?: number) => {
  const deadline = Date.now() + 30_000;
  const indexing = async () =>
    (await t.app.container.jobs.payloads('faces.index', 'pending')).some(
      (payload) => (payload as { photoId?: number }).photoId === photoId,
    );
  for (;;) {
    const scan = await t.app.container.repositories.faces.scanOf(photoId);
    if (
      scan &&
      (minScore === undefined || Math.abs(scan.minScore - minScore) < 1e-6) &&
      !(await indexing())
    )
      return scan;
    if (Date.now() > deadline) throw new Error(`photo ${photoId} never scanned`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

const uploadSelfie = async (key: GuestKey, width = ANNA_SELFIE, consent = CONSENT) => {
  const grant = await t.ok(endpoints.selfieUploadAccess, {
    ...key,
    content_type: 'image/jpeg',
    face_consent_version: consent,
  });
  const bytes = await makeJpeg({ seed: (seed += 1), width, height: 400 });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: 'selfie.jpg', contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  return grant.key;
};

const search = (key: GuestKey, selfie: string, consent: string | null = CONSENT) =>
  t.call(endpoints.keySearchByFace, {
    ...key,
    photo_url_list: [selfie],
    ...(consent === null ? {} : { face_consent_version: consent }),
  });

const info = (e: FlashbulbEvent) => t.ok(endpoints.faceDataInfo, { event_id: e.id }, owner);
const selfieRow = async (key: string) =>
  (
    await t.database.executeSql(
      'select consent_version, consented_at, attendee_id, associate_until, descriptor from face_selfies where storage_key = $1',
      [key],
    )
  ).rows[0] as
    | {
        consent_version: string;
        consented_at: Date | string;
        attendee_id: number | null;
        associate_until: Date | string | null;
        descriptor: unknown;
      }
    | undefined;
const stored = async (key: string) => (await t.app.container.storage.head(key)) !== null;
const expire = () => t.app.container.services.faceSelfies.expire();

beforeAll(async () => {
  t = await createTestApp({}, { faceEngine: engine });
  const world = await createEventWorld(t);
  owner = await apiKeyAuth(t, world.adminA);
  foreignOwner = await apiKeyAuth(t, world.adminB);
}, 180_000);
afterAll(async () => {
  await t?.close();
});

describe('consent before any selfie is processed', () => {
  it('refuses the selfie grant without the consent or with an older text, and records nothing', async () => {
    const event = await newEvent();
    const missing = await t.call(endpoints.selfieUploadAccess, {
      ...privateKey(event),
      content_type: 'image/jpeg',
    });
    expect(errorOf(missing)).toMatchObject({ status: 400, message_key: 'face_consent_required' });
    const older = await t.call(endpoints.selfieUploadAccess, {
      ...privateKey(event),
      content_type: 'image/jpeg',
      face_consent_version: faceConsentVersion('An older text'),
    });
    expect(errorOf(older)).toMatchObject({ status: 400, message_key: 'face_consent_outdated' });
    expect(await info(event)).toMatchObject({ selfies: 0 });
  });

  it('stores the accepted version and the time with the selfie', async () => {
    const event = await newEvent();
    const key = await uploadSelfie(privateKey(event));
    const row = await selfieRow(key);
    expect(row?.consent_version).toBe(CONSENT);
    expect(new Date(row!.consented_at).getTime()).toBe(t.clock.now().getTime());
    expect(await info(event)).toMatchObject({ selfies: 1 });
  });

  it('searches nothing without consent, with an outdated one, or with a selfie stored without a grant', async () => {
    const event = await newEvent();
    const anna = await upload(event, ANNA_PHOTO);
    await waitForScan(anna.id);
    const key = await uploadSelfie(privateKey(event));
    const before = engine.seen.length;
    expect(errorOf(await search(privateKey(event), key, null))).toMatchObject({
      status: 400,
      message_key: 'face_consent_required',
    });
    // A selfie put in storage some other way carries no consent.
    const smuggled = `selfies/${event.name}/00000000-0000-4000-8000-000000000000.jpg`;
    await t.app.container.storage.put(
      smuggled,
      await makeJpeg({ seed: 7, width: ANNA_SELFIE, height: 400 }),
      'image/jpeg',
    );
    expect(errorOf(await search(privateKey(event), smuggled))).toMatchObject({
      status: 400,
      message_key: 'face_consent_required',
    });
    // The owner rewrites the text: the old consent no longer covers a search.
    const [current] = await t.ok(endpoints.eventFullData, { event_name: event.name }, owner);
    await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current!.updated_date,
        opts: { ...current!.opts, faceRecognitionText: `${TEXT} Revised.` },
      },
      owner,
    );
    expect(errorOf(await search(privateKey(event), key))).toMatchObject({
      status: 400,
      message_key: 'face_consent_outdated',
    });
    // Not one selfie was read by the engine.
    expect(engine.seen.length).toBe(before);
    const accepted = faceConsentVersion(`${TEXT} Revised.`);
    const found = await t.ok(endpoints.keySearchByFace, {
      ...privateKey(event),
      photo_url_list: [key],
      face_consent_version: accepted,
    });
    expect(found.photos.map((p) => p.id)).toEqual([anna.id]);
  });
});

describe('warm cache', () => {
  it("a selfie grant loads the event's descriptors before the search, once each", async () => {
    const event = await newEvent();
    const photos = [await upload(event, ANNA_PHOTO), await upload(event, BEN_PHOTO)];
    for (const photo of photos) await waitForScan(photo.id);
    const faceSearch = t.app.container.services.faceSearch;
    expect(faceSearch.cachedFaces(event.id)).toBe(0);
    // Two grants at once: the copy holds each face once.
    await Promise.all([uploadSelfie(privateKey(event)), uploadSelfie(privateKey(event))]);
    await expect.poll(() => faceSearch.cachedFaces(event.id)).toBe(2);
    // A search afterwards adds nothing twice either.
    const selfie = await uploadSelfie(privateKey(event));
    expect((await search(privateKey(event), selfie)).statusCode).toBe(200);
    expect(faceSearch.cachedFaces(event.id)).toBe(2);
  });
});

describe('retention of selfies (test clock)', () => {
  it("deletes a selfie and its row when the event's selfie expiration passes", async () => {
    const event = await newEvent({ selfieExpirationMinutes: 30 });
    const key = await uploadSelfie(privateKey(event));
    t.clock.advance(29 * 60_000);
    await expire();
    expect(await stored(key)).toBe(true);
    expect(await selfieRow(key)).toBeDefined();
    t.clock.advance(2 * 60_000);
    await expire();
    expect(await stored(key)).toBe(false);
    expect(await selfieRow(key)).toBeUndefined();
    expect(await info(event)).toMatchObject({ selfies: 0, deleted_selfies: 1 });
    expect(errorOf(await search(privateKey(event), key))).toMatchObject({
      message_key: 'face_consent_required',
    });
  });

  it("at the latest with the event's photo retention, and after 30 days when neither is set", async () => {
    // The selfie expiration says 60 days; photos are deleted after 31: the selfie goes then.
    const retained = await newEvent(
      { selfieExpirationMinutes: 60 * 24 * 60 },
      { photo_auto_delete_days: 31 },
    );
    const unset = await newEvent();
    const capped = await uploadSelfie(privateKey(retained));
    const byDefault = await uploadSelfie(privateKey(unset));
    t.clock.advance(30 * 86_400_000 - 60_000);
    await expire();
    expect(await stored(capped)).toBe(true);
    expect(await stored(byDefault)).toBe(true);
    t.clock.advance(2 * 60_000);
    await expire();
    expect(await stored(byDefault)).toBe(false);
    expect(await selfieRow(byDefault)).toBeUndefined();
    expect(await stored(capped)).toBe(true);
    t.clock.advance(86_400_000);
    await expire();
    expect(await stored(capped)).toBe(false);
    expect(await selfieRow(capped)).toBeUndefined();
  });

  it('a shortened selfie expiration applies to selfies already taken', async () => {
    const event = await newEvent({ selfieExpirationMinutes: 600 });
    const key = await uploadSelfie(privateKey(event));
    t.clock.advance(20 * 60_000);
    await expire();
    expect(await stored(key)).toBe(true);
    const [current] = await t.ok(endpoints.eventFullData, { event_name: event.name }, owner);
    await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current!.updated_date,
        opts: { ...current!.opts, selfieExpirationMinutes: 15 },
      },
      owner,
    );
    await expire();
    expect(await stored(key)).toBe(false);
  });
});

describe("the owner's face data", () => {
  it('deletes every face and selfie of the event in one action and shows the counts', async () => {
    const event = await newEvent();
    const photos = [await upload(event, ANNA_PHOTO), await upload(event, BEN_PHOTO)];
    for (const photo of photos) await waitForScan(photo.id);
    const selfies = [await uploadSelfie(privateKey(event)), await uploadSelfie(privateKey(event))];
    expect(await info(event)).toMatchObject({
      enable_facial_recognition: 1,
      faces: 2,
      selfies: 2,
      deleted_faces: 0,
      deleted_selfies: 0,
    });
    // Another organisation's admin reaches nothing and deletes nothing.
    const foreign = await t.call(endpoints.deleteFaceData, { event_id: event.id }, foreignOwner);
    expect(foreign.statusCode).toBeGreaterThanOrEqual(400);
    expect(await info(event)).toMatchObject({ faces: 2, selfies: 2 });

    const gone = await t.ok(endpoints.deleteFaceData, { event_id: event.id }, owner);
    expect(gone).toEqual({ deleted_faces: 2, deleted_selfies: 2 });
    for (const key of selfies) expect(await stored(key)).toBe(false);
    expect(await info(event)).toMatchObject({
      enable_facial_recognition: 0,
      faces: 0,
      indexed_photos: 0,
      selfies: 0,
      deleted_faces: 2,
      deleted_selfies: 2,
    });
  });

  it('indexes the photos again when the confidence setting changes', async () => {
    const event = await newEvent();
    const unsure = await upload(event, ANNA_UNSURE_PHOTO);
    // Confidence 95 → SSD cut-off 0.5: the 0.6 face is kept.
    expect((await waitForScan(unsure.id, 0.5)).faceCount).toBe(1);
    const [current] = await t.ok(endpoints.eventFullData, { event_name: event.name }, owner);
    await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current!.updated_date,
        opts: { ...current!.opts, faceRecognitionConfidence: 99 },
      },
      owner,
    );
    // Confidence 99 → cut-off 0.9: indexed again, the unsure face is gone.
    expect((await waitForScan(unsure.id, 0.9)).faceCount).toBe(0);
    expect(await info(event)).toMatchObject({ faces: 0, indexed_photos: 1 });
  });

  it('the sweep finds an event whose scans were made with another confidence', async () => {
    const event = await newEvent();
    const photo = await upload(event, ANNA_PHOTO);
    await waitForScan(photo.id, 0.5);
    expect(await t.app.container.services.faceIndex.sweep()).not.toContain(event.id);
    await t.database.executeSql(
      `update events set opts = jsonb_set(opts, '{faceRecognitionConfidence}', '99') where id = $1`,
      [event.id],
    );
    expect(await t.app.container.services.faceIndex.sweep()).toContain(event.id);
  });
});

describe('attendee association', () => {
  const TOPIC_DATA = {
    channels: [
      {
        id: 'e000000001',
        name: 'new photos',
        type: 'email' as const,
        subject: 'New photos of you',
        body: 'New photos of you: {url}',
      },
      { id: 's000000001', name: 'new photos sms', type: 'sms' as const, message: 'New: {url}' },
    ],
    topics: [
      {
        id: 'topic-1',
        key: 'photo_ready',
        emailChannel: {
          id: 'e000000001',
          name: 'new photos',
          type: 'email' as const,
          subject: '',
          body: '',
        },
        smsChannel: {
          id: 's000000001',
          name: 'new photos sms',
          type: 'sms' as const,
          message: '',
        },
      },
    ],
  };

  it("attaches new photos of the selfie's person to the attendee's album and says so at most once per 30 minutes", async () => {
    const event = await newEvent(
      { selfieAssociationMinutes: 120 },
      { notification_data: TOPIC_DATA },
    );
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email: 'anna@example.com' },
      owner,
    );
    const uid = generated.attendees[0]!.uid;
    const attendee = { key_type: 'attendee' as const, key_value: uid };
    const selfie = await uploadSelfie(attendee);
    expect((await selfieRow(selfie))?.attendee_id).not.toBeNull();
    // The first search describes the selfie; from then on it keeps matching.
    expect((await search(attendee, selfie)).statusCode).toBe(200);
    expect((await selfieRow(selfie))?.descriptor).not.toBeNull();

    const messages = async () =>
      (await t.app.container.repositories.outbox.list(500)).filter(
        (r) => r.kind === 'topic.photo_ready' && r.recipient === 'anna@example.com',
      );
    const album = async () =>
      (
        await t.ok(endpoints.publicPhotoList, { ...attendee, max_size: 100, page_number: 1 })
      ).photos.map((p) => p.id);

    const first = [await upload(event, ANNA_PHOTO), await upload(event, ANNA_PHOTO)];
    const benPhoto = await upload(event, BEN_PHOTO);
    for (const photo of [...first, benPhoto]) await waitForScan(photo.id);
    expect((await album()).sort()).toEqual(first.map((p) => p.id).sort());
    // Two photos within 30 minutes: one message.
    expect(await messages()).toHaveLength(1);

    t.clock.advance((ASSOCIATION_NOTICE_MINUTES + 1) * 60_000);
    const later = await upload(event, ANNA_PHOTO);
    await waitForScan(later.id);
    expect(await album()).toContain(later.id);
    expect(await messages()).toHaveLength(2);

    // Past the association time: new photos are left alone.
    t.clock.advance(120 * 60_000);
    const after = await upload(event, ANNA_PHOTO);
    await waitForScan(after.id);
    expect(await album()).not.toContain(after.id);
    expect(await messages()).toHaveLength(2);
  });

  it('a selfie taken without an attendee key, or at an event without association time, attaches nothing', async () => {
    const event = await newEvent();
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      owner,
    );
    const attendee = { key_type: 'attendee' as const, key_value: generated.attendees[0]!.uid };
    const selfie = await uploadSelfie(attendee);
    expect((await selfieRow(selfie))?.associate_until).toBeNull();
    expect((await search(attendee, selfie)).statusCode).toBe(200);
    // Without an association time the selfie keeps no face data.
    expect((await selfieRow(selfie))?.descriptor).toBeNull();
    const photo = await upload(event, ANNA_PHOTO);
    await waitForScan(photo.id);
    const list = await t.ok(endpoints.publicPhotoList, {
      ...attendee,
      max_size: 100,
      page_number: 1,
    });
    expect(list.photos).toHaveLength(0);
  });
});
