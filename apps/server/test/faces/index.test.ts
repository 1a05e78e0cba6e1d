// Face indexing on photo.ready with a scripted face engine: which faces are kept, when
// a photo is indexed at all, and that face data goes with its photo and its event. The real models
// run in faces.test.ts only.
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DetectedFace,
  DetectOptions,
  FaceEngineProvider,
} from '../../src/repositories/faces/engine/face-engine-provider.ts';
import { FaceVectorSearch } from '../../src/services/faces/face-vectors.ts';
import {
  createEvent,
  createEventWorld,
  errorOf,
  validEventBody,
  type EventWorld,
} from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Answers the scripted faces for every image, filtered the way the real adapter filters. */
class ScriptedFaceEngine implements FaceEngineProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-v1';
  readonly dimensions = 4;
  faces: DetectedFace[] = [];
  /** Faces for images of a given width (selfies, ignored faces); `faces` for the rest. */
  byWidth = new Map<number, DetectedFace[]>();
  calls: DetectOptions[] = [];
  init() {
    return Promise.resolve();
  }
  async detect(image: Buffer, options: DetectOptions = {}) {
    this.calls.push(options);
    const { width } = await sharp(image).metadata();
    const faces = this.byWidth.get(width ?? 0) ?? this.faces;
    return faces
      .filter(
        (f) =>
          f.score >= (options.minScore ?? 0) &&
          f.pixels.width >= (options.minSize ?? 0) &&
          f.pixels.height >= (options.minSize ?? 0),
      )
      .slice(0, options.maxFaces ?? Infinity);
  }
  close() {
    return Promise.resolve();
  }
}

const face = (score: number, size: number, seed: number): DetectedFace => ({
  box: { x: 0.1 * seed, y: 0.2, width: 0.1, height: 0.15 },
  score,
  embedding: Float32Array.from([seed, seed / 2, 0.25, -seed]),
  pixels: { width: size, height: size },
});

// Kept at the default confidence 95 (score ≥ 0.5): a, b. Dropped: c (score), d (too small).
const a = face(0.97, 120, 1);
const b = face(0.6, 60, 2);
const c = face(0.45, 150, 3);
const d = face(0.99, 39, 4);

let t: TestApp;
let world: EventWorld;
const engine = new ScriptedFaceEngine();
let owner: UploadAuth;

beforeAll(async () => {
  t = await createTestApp({}, { faceEngine: engine });
  world = await createEventWorld(t);
  owner = { authorization: world.adminA.authorization };
});
afterAll(async () => {
  await t.close();
});

const services = () => t.app.container.services;
const faceRows = () => t.app.container.repositories.faces;

let seed = 100;
const readyPhoto = async (event: FlashbulbEvent) => {
  const photo = await uploadPhoto(
    t,
    owner,
    event.name,
    await makeJpeg({ width: 800, height: 600, seed: seed++ }),
  );
  await waitForReady(t, world.adminA.authorization, event.id, photo.id);
  return photo;
};

/** Waits until the indexing job has scanned the photo. */
const waitForScan = async (photoId: number) => {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const scan = await faceRows().scanOf(photoId);
    if (scan) return scan;
    if (Date.now() > deadline) throw new Error(`photo ${photoId} never scanned`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('face indexing', () => {
  it('indexes a ready photo of an event with face recognition on: faces at or above the confidence and 40×40 px', async () => {
    engine.faces = [a, b, c, d];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const photo = await readyPhoto(event);
    const scan = await waitForScan(photo.id);
    expect(scan).toMatchObject({ eventId: event.id, model: 'scripted-v1', faceCount: 2 });
    // Default confidence 95 is detector score 0.5 (ADR 0007).
    expect(scan.minScore).toBeCloseTo(0.5, 5);
    expect(engine.calls.at(-1)).toMatchObject({ minSize: 40 });
    const rows = await faceRows().facesOfPhoto(photo.id);
    expect(rows).toHaveLength(2);
    const [first, second] = rows;
    expect(first).toMatchObject({ eventId: event.id, widthPx: 120, heightPx: 120 });
    expect(first!.score).toBeCloseTo(0.97, 5);
    expect(first!.boxX).toBeCloseTo(0.1, 5);
    expect(first!.boxHeight).toBeCloseTo(0.15, 5);
    expect(first!.descriptor).toEqual([1, 0.5, 0.25, -1]);
    expect(second!.score).toBeCloseTo(0.6, 5);
    expect(await faceRows().countsForEvent(event.id)).toEqual({ faces: 2, scannedPhotos: 1 });
  });

  it("follows the event's confidence setting: 99 keeps only detector scores ≥ 0.9", async () => {
    engine.faces = [a, b, c, d];
    const event = await createEvent(t, world.adminA, {
      enable_facial_recognition: 1,
      opts: { description: 'Faces at 99', faceRecognitionConfidence: 99 },
    });
    const photo = await readyPhoto(event);
    const scan = await waitForScan(photo.id);
    expect(scan.faceCount).toBe(1);
    const rows = await faceRows().facesOfPhoto(photo.id);
    expect(rows.map((r) => r.widthPx)).toEqual([120]);
  });

  it('does not index photos of an event with face recognition off', async () => {
    engine.faces = [a, b];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 0 });
    const photo = await readyPhoto(event);
    expect(await services().faceIndex.indexPhoto(photo.id)).toEqual({
      status: 'skipped',
      reason: 'disabled',
    });
    expect(await faceRows().scanOf(photo.id)).toBeUndefined();
    expect(await faceRows().facesOfPhoto(photo.id)).toEqual([]);
  });

  it('is idempotent: indexing a scanned photo again stores no second set', async () => {
    engine.faces = [a];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const photo = await readyPhoto(event);
    await waitForScan(photo.id);
    engine.faces = [a, b];
    expect(await services().faceIndex.indexPhoto(photo.id)).toEqual({
      status: 'skipped',
      reason: 'already_indexed',
    });
    expect(await faceRows().facesOfPhoto(photo.id)).toHaveLength(1);
  });

  it("adds the event's forced index tags to every photo it indexes, keeping the photo's own tags", async () => {
    engine.faces = [a];
    const tags = ['vip', 'stage-2'];
    const event = await createEvent(t, world.adminA, {
      enable_facial_recognition: 1,
      opts: { description: 'Forced tags', forcedIndexTags: tags },
    });
    const photo = await readyPhoto(event);
    await waitForScan(photo.id);
    expect((await t.app.container.repositories.photos.findById(photo.id))!.tags).toEqual(tags);
    // A faceless photo is indexed too and carries them as well.
    engine.faces = [];
    const faceless = await readyPhoto(event);
    expect((await waitForScan(faceless.id)).faceCount).toBe(0);
    expect((await t.app.container.repositories.photos.findById(faceless.id))!.tags).toEqual(tags);
    // Indexed again (new model, lost scan): a tag it has is not doubled, its own tags stay.
    await t.database.executeSql(
      `update photos set tags = '["robot-7","vip"]'::jsonb where id = $1`,
      [photo.id],
    );
    await t.database.executeSql('delete from photo_face_scans where photo_id = $1', [photo.id]);
    expect((await services().faceIndex.indexPhoto(photo.id)).status).toBe('indexed');
    expect((await t.app.container.repositories.photos.findById(photo.id))!.tags).toEqual([
      'robot-7',
      'vip',
      'stage-2',
    ]);
    // Face recognition off: nothing is indexed; the photo carries the forced tags from ingest all
    // the same (photos carry the hash tag, forced index tags and robot tags).
    const off = await createEvent(t, world.adminA, {
      enable_facial_recognition: 0,
      opts: { description: 'Forced tags, faces off', forcedIndexTags: tags },
    });
    const untouched = await readyPhoto(off);
    expect(await services().faceIndex.indexPhoto(untouched.id)).toMatchObject({
      status: 'skipped',
    });
    expect((await t.app.container.repositories.photos.findById(untouched.id))!.tags).toEqual(tags);
  });

  it('refuses forced index tags that are not letters, digits, - and _, creating nothing', async () => {
    const before = await t.database.executeSql('select count(*)::int as n from events');
    const response = await t.call(
      endpoints.createEvent,
      validEventBody({ opts: { description: 'Bad tags', forcedIndexTags: ['ok', 'not ok!'] } }),
      { authorization: world.adminA.authorization },
    );
    expect(errorOf(response)).toMatchObject({
      status: 400,
      message_key: 'tags_invalid',
      field: 'opts.forcedIndexTags',
    });
    expect(await t.database.executeSql('select count(*)::int as n from events')).toEqual(before);
  });

  it('records a photo with no face as scanned with zero faces', async () => {
    engine.faces = [];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const photo = await readyPhoto(event);
    expect((await waitForScan(photo.id)).faceCount).toBe(0);
  });

  it('deletes face data with its photo and with its event', async () => {
    engine.faces = [a, b];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const kept = await readyPhoto(event);
    const gone = await readyPhoto(event);
    await waitForScan(kept.id);
    await waitForScan(gone.id);
    await t.ok(endpoints.deletePhoto, { photo_id: gone.id }, owner);
    expect(await faceRows().facesOfPhoto(gone.id)).toEqual([]);
    expect(await faceRows().scanOf(gone.id)).toBeUndefined();
    expect(await faceRows().facesOfPhoto(kept.id)).toHaveLength(2);
    // A job for a photo deleted meanwhile stores nothing.
    expect(await services().faceIndex.indexPhoto(gone.id)).toEqual({
      status: 'skipped',
      reason: 'photo_gone',
    });
    await t.ok(endpoints.deleteEvent, { event_id: event.id }, owner);
    expect(await faceRows().facesOfPhoto(kept.id)).toEqual([]);
    expect(await faceRows().countsForEvent(event.id)).toEqual({ faces: 0, scannedPhotos: 0 });
  });

  it('deletes all face data of an event in one action and turns face recognition off, leaving other events alone', async () => {
    engine.faces = [a, b];
    const one = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const two = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const p1 = await readyPhoto(one);
    const p2 = await readyPhoto(two);
    await waitForScan(p1.id);
    await waitForScan(p2.id);
    const auth = { authorization: world.adminA.authorization };
    expect(await t.ok(endpoints.faceDataInfo, { event_id: one.id }, auth)).toEqual({
      enable_facial_recognition: 1,
      photos: 1,
      indexed_photos: 1,
      faces: 2,
      ignored_faces: 0,
      selfies: 0,
      deleted_faces: 0,
      deleted_selfies: 0,
    });
    expect(await t.ok(endpoints.deleteFaceData, { event_id: one.id }, auth)).toEqual({
      deleted_faces: 2,
      deleted_selfies: 0,
    });
    expect(await t.ok(endpoints.faceDataInfo, { event_id: one.id }, auth)).toEqual({
      enable_facial_recognition: 0,
      photos: 1,
      indexed_photos: 0,
      faces: 0,
      ignored_faces: 0,
      selfies: 0,
      deleted_faces: 2,
      deleted_selfies: 0,
    });
    expect(await faceRows().countsForEvent(two.id)).toEqual({ faces: 2, scannedPhotos: 1 });
    // Nothing is indexed again behind the owner's back: the sweep passes the event by.
    expect(await services().faceIndex.sweep()).not.toContain(one.id);
    // Another organisation's operator reaches neither call.
    const theirs = { authorization: world.adminB.authorization };
    for (const endpoint of [endpoints.faceDataInfo, endpoints.deleteFaceData]) {
      expect(errorOf(await t.call(endpoint, { event_id: two.id }, theirs)).message_key).toBe(
        'event_not_found',
      );
    }
    expect(await faceRows().countsForEvent(two.id)).toEqual({ faces: 2, scannedPhotos: 1 });
  });

  it('backfills the photos of an event whose face recognition is switched on later, with progress, and sweeps up lost ones', async () => {
    engine.faces = [a];
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 0 });
    const photos = [await readyPhoto(event), await readyPhoto(event), await readyPhoto(event)];
    const auth = { authorization: world.adminA.authorization };
    expect(await t.ok(endpoints.faceDataInfo, { event_id: event.id }, auth)).toMatchObject({
      photos: 3,
      indexed_photos: 0,
    });
    expect(await services().faceIndex.sweep()).not.toContain(event.id);
    const [current] = await t.ok(endpoints.eventFullData, { event_name: event.name }, auth);
    await t.ok(
      endpoints.updateEvent,
      {
        id: event.id,
        event_last_updated_date: current!.updated_date,
        enable_facial_recognition: 1,
      },
      auth,
    );
    // event.updated → the faces listener queues the backfill.
    for (const photo of photos) await waitForScan(photo.id);
    expect(await t.ok(endpoints.faceDataInfo, { event_id: event.id }, auth)).toMatchObject({
      enable_facial_recognition: 1,
      photos: 3,
      indexed_photos: 3,
      faces: 3,
    });
    expect(await services().faceIndex.sweep()).not.toContain(event.id);
    // The sweep (every ten minutes) catches photos whose jobs were lost.
    await t.database.executeSql('delete from photo_face_scans where photo_id = $1', [
      photos[1]!.id,
    ]);
    expect(await services().faceIndex.sweep()).toContain(event.id);
    await waitForScan(photos[1]!.id);
  });
});

describe('exact face search in SQL', () => {
  it('answers the nearest faces of the event within the distance, nearest first, ready photos only', async () => {
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    engine.faces = [face(0.9, 100, 1)];
    const p1 = await readyPhoto(event);
    await waitForScan(p1.id);
    engine.faces = [face(0.9, 100, 1.2)];
    const p2 = await readyPhoto(event);
    await waitForScan(p2.id);
    engine.faces = [face(0.9, 100, 5)];
    const p3 = await readyPhoto(event);
    await waitForScan(p3.id);
    const query = [1, 0.5, 0.25, -1];
    const near = await faceRows().nearest({
      eventId: event.id,
      model: engine.model,
      descriptor: query,
      maxDistance: 1,
      limit: 10,
      visibleOnly: false,
    });
    expect(near.map((m) => m.photoId)).toEqual([p1.id, p2.id]);
    expect(near[0]!.distance).toBeCloseTo(0, 5);
    // |(0.2, 0.1, 0, -0.2)| = 0.3
    expect(near[1]!.distance).toBeCloseTo(0.3, 4);
    // Another model's descriptors are never compared.
    expect(
      await faceRows().nearest({
        eventId: event.id,
        model: 'other-model',
        descriptor: query,
        maxDistance: 10,
        limit: 10,
        visibleOnly: false,
      }),
    ).toEqual([]);
    // Hidden photos leave results for guest searches at once.
    await t.ok(endpoints.updatePhoto, { id: p1.id, is_visible: 0 }, owner);
    const visible = await faceRows().nearest({
      eventId: event.id,
      model: engine.model,
      descriptor: query,
      maxDistance: 1,
      limit: 10,
      visibleOnly: true,
    });
    expect(visible.map((m) => m.photoId)).toEqual([p2.id]);
  });
});

describe('owner search by face: reference photos (SSRF refusal) and its rules', () => {
  let event: FlashbulbEvent;
  let other: FlashbulbEvent;
  let stored: string;
  beforeAll(async () => {
    event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    other = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    stored = `selfies/${event.name}/me.jpg`;
    await t.app.container.storage.put(
      stored,
      await makeJpeg({ width: 300, height: 300 }),
      'image/jpeg',
    );
  });

  const search = (photo_url_list: string[], extra: Record<string, unknown> = {}) =>
    t.call(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list, ...extra },
      { authorization: world.adminA.authorization },
    );

  it("refuses every reference outside this server's storage for the event with invalid_url, fetching nothing", async () => {
    const base = t.app.container.storage.publicUrl(stored);
    const foreign = [
      'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
      'http://localhost:8080/api/v1/flashbulb-owner/event/list',
      'file:///etc/passwd',
      'ftp://example.com/a.jpg',
      'gopher://127.0.0.1:6379/_INFO',
      'https://evil.example/storage/' + stored,
      base.replace('://', '://user:pass@'),
      // Another event's object, as URL and as key.
      t.app.container.storage.publicUrl(`selfies/${other.name}/me.jpg`),
      await t.app.container.storage.signedGetUrl(`selfies/${other.name}/me.jpg`),
      `selfies/${other.name}/me.jpg`,
      // This event's code under a root that holds no reference photos.
      `stock-images/${event.name}/logo.jpg`,
      `tmp/${event.name}/x.jpg`,
      // Another port of the same host.
      base.replace(/:(\d+)\//, (_m, port: string) => `:${Number(port) + 1}/`),
      // Paths that climb out or smuggle a slash.
      `events/${event.name}/../${other.name}/selfies/me.jpg`,
      base.replace('/selfies/', '%2Fselfies%2F'),
      `/${stored}`,
      `//evil.example/${stored}`,
      'javascript:alert(1)',
      'not a url at all',
    ];
    // Reference photos are read with maxFaces 1 (indexing jobs in the background never are).
    const referenceReads = () => engine.calls.filter((c) => c.maxFaces === 1).length;
    const calls = referenceReads();
    for (const reference of foreign) {
      const response = await search([reference]);
      expect(errorOf(response), reference).toMatchObject({
        status: 400,
        message_key: 'invalid_url',
        field: 'photo_url_list',
      });
      // One foreign entry refuses the whole list, even after a good one.
      expect(errorOf(await search([stored, reference])).message_key).toBe('invalid_url');
    }
    expect(referenceReads()).toBe(calls);
  });

  it("accepts its own storage URLs (signed or not, query ignored), bare keys, and a photo's full_path", async () => {
    engine.faces = [face(0.99, 100, 7)];
    const photo = await readyPhoto(event);
    await waitForScan(photo.id);
    expect(photo.full_path.startsWith(`protected/events/${event.name}/`)).toBe(true);
    for (const reference of [
      await t.app.container.storage.signedGetUrl(stored),
      t.app.container.storage.publicUrl(stored),
      `${t.app.container.storage.publicUrl(stored)}?X-Amz-Signature=abc`,
      stored,
      photo.full_path,
    ]) {
      const response = await search([reference]);
      expect(response.body.status, reference).toBe('ok');
    }
  });

  it('answers not_found for a key of the event that holds nothing, face_not_found without a face', async () => {
    engine.faces = [];
    expect(errorOf(await search([`selfies/${event.name}/missing.jpg`]))).toMatchObject({
      status: 404,
      message_key: 'not_found',
    });
    expect(errorOf(await search([stored]))).toMatchObject({
      status: 400,
      message_key: 'face_not_found',
    });
  });

  it('refuses an event with face recognition off, bad thresholds and bad date ranges', async () => {
    const off = await createEvent(t, world.adminA, { enable_facial_recognition: 0 });
    const offKey = `events/${off.name}/selfies/me.jpg`;
    const response = await t.call(
      endpoints.searchByFace,
      { event_id: off.id, photo_url_list: [offKey] },
      { authorization: world.adminA.authorization },
    );
    expect(errorOf(response)).toMatchObject({ status: 400, message_key: 'face_recognition_off' });
    for (const threshold of [-1, 101, 'high']) {
      expect(errorOf(await search([stored], { face_match_threshold: threshold }))).toMatchObject({
        status: 400,
        message_key: 'invalid_value',
      });
    }
    expect(
      errorOf(await search([stored], { start_date: '2026-05-02', end_date: '2026-05-01' })),
    ).toMatchObject({ status: 400, message_key: 'date_range_invalid' });
    expect(errorOf(await search([]))).toMatchObject({ status: 400, message_key: 'invalid_url' });
    expect(errorOf(await search(Array.from({ length: 11 }, () => stored))).message_key).toBe(
      'invalid_url',
    );
  });

  it("answers the event's photos whose faces match, best first, with the threshold and dates applied", async () => {
    engine.faces = [face(0.9, 100, 1)];
    const exact = await readyPhoto(event);
    await waitForScan(exact.id);
    engine.faces = [face(0.9, 100, 1.15)];
    const close = await readyPhoto(event);
    await waitForScan(close.id);
    engine.faces = [face(0.9, 100, 3)];
    const far = await readyPhoto(event);
    await waitForScan(far.id);
    // The reference face is descriptor seed 1: distance 0 to `exact`, 0.225 to `close`.
    engine.faces = [face(0.99, 100, 1)];
    const result = await t.ok(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list: [stored] },
      { authorization: world.adminA.authorization },
    );
    expect(result.photos.map((p) => p.id)).toEqual([exact.id, close.id]);
    expect(result.photos[0]!.similarity).toBe(100);
    expect(result.photos[1]!.similarity).toBeGreaterThan(80);
    expect(result.photos[1]!.similarity).toBeLessThan(100);
    expect(result.photos[0]!.face_box.x).toBeCloseTo(0.1, 5);
    expect(result.photos[0]!.full_path).toContain(exact.uid);
    const strict = await t.ok(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list: [stored], face_match_threshold: 99.5 },
      { authorization: world.adminA.authorization },
    );
    expect(strict.photos.map((p) => p.id)).toEqual([exact.id]);
    const future = await t.ok(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list: [stored], start_date: '2999-01-01' },
      { authorization: world.adminA.authorization },
    );
    expect(future.photos).toEqual([]);
    // Another organisation's operator does not reach the event.
    const theirs = await t.call(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list: [stored] },
      { authorization: world.adminB.authorization },
    );
    expect(errorOf(theirs).message_key).toBe('event_not_found');
  });
});

describe('index-ignore faces (staff) in search results', () => {
  it('leaves out photo faces that are an ignored face, keeps the guests in the same photo, and brings them back when the ignored face is deleted', async () => {
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const guest = face(0.99, 100, 1);
    const staff = face(0.99, 100, 5);
    engine.faces = [guest, face(0.99, 100, 5.05)];
    const both = await readyPhoto(event);
    await waitForScan(both.id);
    engine.faces = [face(0.99, 100, 4.95)];
    const staffOnly = await readyPhoto(event);
    await waitForScan(staffOnly.id);
    engine.faces = [face(0.99, 100, 1.05)];
    const guestOnly = await readyPhoto(event);
    await waitForScan(guestOnly.id);

    // A selfie of each (told apart by width), and the staff member's ignore-face image.
    engine.byWidth.set(300, [staff]);
    engine.byWidth.set(310, [guest]);
    engine.byWidth.set(320, [face(0.99, 100, 5.02)]);
    const put = async (key: string, width: number) => {
      await t.app.container.storage.put(key, await makeJpeg({ width, height: 300 }), 'image/jpeg');
      return key;
    };
    const staffSelfie = await put(`selfies/${event.name}/staff.jpg`, 300);
    const guestSelfie = await put(`selfies/${event.name}/guest.jpg`, 310);
    const ignoreImage = await put(`faces/${event.name}/ignore/staff.jpg`, 320);
    const search = async (reference: string) =>
      (
        await t.ok(
          endpoints.searchByFace,
          { event_id: event.id, photo_url_list: [reference], face_match_threshold: 50 },
          { authorization: world.adminA.authorization },
        )
      ).photos
        .map((p) => p.id)
        .sort();

    expect(await search(staffSelfie)).toEqual([both.id, staffOnly.id].sort());
    const ignored = await t.ok(
      endpoints.createIgnoredFace,
      { event_id: event.id, full_path: await t.app.container.storage.signedGetUrl(ignoreImage) },
      { authorization: world.adminA.authorization },
    );
    // An ignored face outside this event's storage is never read and ignores nothing.
    await t.ok(
      endpoints.createIgnoredFace,
      { event_id: event.id, full_path: 'http://169.254.169.254/latest/meta-data/' },
      { authorization: world.adminA.authorization },
    );
    // Even with a low threshold, the staff member's faces are in no result.
    expect(await search(staffSelfie)).toEqual([]);
    // A guest photographed with the staff member still finds that photo.
    expect(await search(guestSelfie)).toEqual([both.id, guestOnly.id].sort());
    const rows = await faceRows().ignoredFaces(event.id);
    expect(rows.map((r) => [r.model, r.descriptor === null])).toEqual([
      [engine.model, false],
      [engine.model, true],
    ]);

    await t.ok(
      endpoints.deleteIgnoredFaces,
      { event_id: event.id, ids: [ignored.id] },
      { authorization: world.adminA.authorization },
    );
    expect(await search(staffSelfie)).toEqual([both.id, staffOnly.id].sort());
    engine.byWidth.clear();
  });
});

describe('warm-up at server start', () => {
  it('loads the engine and the descriptors of the events most recently indexed, not of events whose face recognition is off', async () => {
    engine.faces = [a, b];
    const off = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    await waitForScan((await readyPhoto(off)).id);
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    await waitForScan((await readyPhoto(event)).id);
    await waitForScan((await readyPhoto(event)).id);
    await t.database.executeSql('update events set enable_facial_recognition = 0 where id = $1', [
      off.id,
    ]);
    const search = services().faceSearch;
    // Nothing searched yet in this event: its copy is empty until warmed.
    expect(search.cachedFaces(event.id)).toBe(0);
    const warmed = await search.warmAtStart();
    expect(warmed.events[0]).toBe(event.id);
    expect(warmed.events).not.toContain(off.id);
    expect(search.cachedFaces(event.id)).toBe(4);
    expect(search.cachedFaces(off.id)).toBe(0);
  });
});

describe('in-memory exact search (FaceVectorSearch)', () => {
  it('answers exactly what the SQL search answers, as faces are added, photos hidden and deleted', async () => {
    const event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    let now = 0;
    const vectors = new FaceVectorSearch(faceRows(), () => now);
    const query = [1, 0.5, 0.25, -1];
    const both = async (visibleOnly: boolean) => {
      const input = {
        eventId: event.id,
        model: engine.model,
        descriptor: query,
        maxDistance: 2,
        limit: 10,
        visibleOnly,
      };
      const sql = await faceRows().nearest(input);
      const memory = await vectors.nearest(input);
      expect(memory.map((m) => [m.faceId, m.photoId])).toEqual(
        sql.map((m) => [m.faceId, m.photoId]),
      );
      memory.forEach((m, i) => expect(m.distance).toBeCloseTo(sql[i]!.distance, 4));
      return memory;
    };
    expect(await both(false)).toEqual([]);
    const photos = [];
    for (const seed of [1, 1.3, 1.6, 9]) {
      engine.faces = [face(0.9, 100, seed), face(0.9, 100, seed + 0.1)];
      const photo = await readyPhoto(event);
      await waitForScan(photo.id);
      photos.push(photo);
      // Each search after an addition sees the new faces.
      await both(false);
    }
    expect((await both(false)).length).toBe(6);
    await t.ok(endpoints.updatePhoto, { id: photos[0]!.id, is_visible: 0 }, owner);
    expect((await both(true)).length).toBe(4);
    await t.ok(endpoints.deletePhoto, { photo_id: photos[1]!.id }, owner);
    expect((await both(false)).map((m) => m.photoId)).not.toContain(photos[1]!.id);
    // Re-indexing replaces a photo's faces (new ids): the old ones are never answered.
    await faceRows().replacePhotoFaces(
      { id: photos[2]!.id, eventId: event.id },
      { model: engine.model, minScore: 0.5, scannedAt: new Date() },
      [face(0.9, 100, 1.01)],
    );
    await both(false);
    // 4 photos × 2 faces, then 1 re-indexed face: 9 in the copy, 5 in the table.
    expect(vectors.size(event.id)).toBe(9);
    // Over 10 % of the copy is gone: the next check (after a minute) reloads it whole.
    now += 61_000;
    await both(false);
    expect(vectors.size(event.id)).toBe(5);
    // photos[0]: two faces; photos[2]: its one re-indexed face; photos[3] is far away.
    expect((await both(false)).map((m) => m.photoId).sort()).toEqual(
      [photos[0]!.id, photos[0]!.id, photos[2]!.id].sort(),
    );
  });
});
