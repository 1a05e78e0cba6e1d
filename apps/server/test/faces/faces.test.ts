// The face tests that run the real models (slow: ~0.5 s per photo on the wasm backend). Keep every
// model-heavy test in this file so the models load once per run.
import { endpoints, faceConsentVersion, type FlashbulbEvent } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FaceApiAdapter } from '../../src/repositories/faces/engine/face-api.adapter.ts';
import { ProviderError } from '../../src/repositories/provider-error.ts';
import {
  DEFAULT_FACE_MATCH_THRESHOLD,
  faceDistance,
  similarityFromDistance,
} from '../../src/services/faces/face-similarity.ts';
import { createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { facePhoto } from '../helpers/faces.ts';
import { uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

// One engine for the file: the models load once.
const engine = new FaceApiAdapter();

beforeAll(async () => {
  await engine.init();
}, 120_000);

describe('face engine (face-api on tfjs-wasm)', () => {
  it('finds every face of a group photo with a box, a score and a 128-d descriptor', async () => {
    const faces = await engine.detect(facePhoto('groups/bbt1.jpg'));
    // bbt1: Raj, Leonard, Howard and Sheldon on the sofa.
    expect(faces).toHaveLength(4);
    for (const face of faces) {
      expect(face.embedding).toBeInstanceOf(Float32Array);
      expect(face.embedding).toHaveLength(engine.dimensions);
      expect(face.score).toBeGreaterThan(0.9);
      expect(face.score).toBeLessThanOrEqual(1);
      for (const v of [
        face.box.x,
        face.box.y,
        face.box.x + face.box.width,
        face.box.y + face.box.height,
      ]) {
        expect(v).toBeGreaterThanOrEqual(0);
        expect(v).toBeLessThanOrEqual(1);
      }
      expect(face.pixels.width).toBeGreaterThan(40);
    }
    // Largest first; the four sit side by side left to right.
    const areas = faces.map((f) => f.pixels.width * f.pixels.height);
    expect([...areas].sort((a, b) => b - a)).toEqual(areas);
    const lefts = faces.map((f) => f.box.x).sort((a, b) => a - b);
    for (let i = 1; i < lefts.length; i++) expect(lefts[i]! - lefts[i - 1]!).toBeGreaterThan(0.1);
  });

  it('finds the face in a tight 150×150 crop (padded before detection)', async () => {
    const faces = await engine.detect(facePhoto('people/stuart/stuart4.png'));
    expect(faces).toHaveLength(1);
    // The box is in the crop's own coordinates, not the padded image's: the face fills the crop.
    expect(faces[0]!.box.width).toBeGreaterThan(0.6);
    expect(faces[0]!.pixels.width).toBeGreaterThan(90);
  });

  it('applies the EXIF orientation: a rotated JPEG tagged upright gives the same face', async () => {
    const upright = facePhoto('people/obama/obama.jpg');
    // Store the pixels turned 90° clockwise with orientation 8 (= "turn 90° back to view").
    const turned = await sharp(upright)
      .rotate(90)
      .jpeg({ quality: 95 })
      .withMetadata({ orientation: 8 })
      .toBuffer();
    const [a] = await engine.detect(upright);
    const [b] = await engine.detect(turned);
    expect(a && b).toBeTruthy();
    expect(Math.abs(a!.box.x - b!.box.x)).toBeLessThan(0.05);
    expect(Math.abs(a!.box.y - b!.box.y)).toBeLessThan(0.05);
    expect(similarityFromDistance(faceDistance(a!.embedding, b!.embedding))).toBeGreaterThan(90);
  });

  it('leaves out faces under the minimum score or size and keeps at most maxFaces', async () => {
    const photo = facePhoto('groups/bbt4.jpg');
    const all = await engine.detect(photo);
    expect(all.length).toBe(6);
    const confident = await engine.detect(photo, { minScore: 0.8 });
    expect(confident.length).toBeLessThan(all.length);
    expect(confident.every((f) => f.score >= 0.8)).toBe(true);
    const big = await engine.detect(photo, { minSize: 100 });
    expect(big.length).toBeGreaterThan(0);
    expect(big.every((f) => f.pixels.width >= 100 && f.pixels.height >= 100)).toBe(true);
    expect(big.length).toBeLessThan(all.length);
    expect(await engine.detect(photo, { maxFaces: 1 })).toHaveLength(1);
  });

  it('says a photo with no face has none, and refuses bytes that are no image (permanent)', async () => {
    const blank = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 40, g: 90, b: 160 } },
    })
      .jpeg()
      .toBuffer();
    expect(await engine.detect(blank)).toEqual([]);
    const error = await engine.detect(Buffer.from('not an image')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect((error as ProviderError).permanent).toBe(true);
  });

  it('matches the same person above the default threshold and another person below it', async () => {
    const [raj1] = await engine.detect(facePhoto('people/raj/raj1.png'));
    const [raj2] = await engine.detect(facePhoto('people/raj/raj2.png'));
    const [howard] = await engine.detect(facePhoto('people/howard/howard1.png'));
    const same = similarityFromDistance(faceDistance(raj1!.embedding, raj2!.embedding));
    const other = similarityFromDistance(faceDistance(raj1!.embedding, howard!.embedding));
    expect(same).toBeGreaterThanOrEqual(DEFAULT_FACE_MATCH_THRESHOLD);
    expect(other).toBeLessThan(DEFAULT_FACE_MATCH_THRESHOLD);
  });
});

describe('search by face on the shared test photos (real models, exact search in SQL)', () => {
  let t: TestApp;
  let world: EventWorld;
  let event: FlashbulbEvent;
  const photoIds: Record<string, number> = {};
  // Who is in each event photo (testdata/faces/README.md; checked by eye).
  const EVENT_PHOTOS: Record<string, string[]> = {
    'groups/bbt3.jpg': ['sheldon', 'howard', 'penny', 'raj', 'leonard'],
    'groups/bbt5.jpg': ['raj', 'penny', 'sheldon', 'leonard', 'howard'],
    'groups/obama_and_biden.jpg': ['obama', 'biden'],
    'groups/kit_with_rose.jpg': ['kit_harington', 'rose_leslie'],
  };
  // Selfies: photos of one person that are not event photos.
  const SELFIES: Record<string, string> = {
    penny: 'people/penny/penny4.png',
    howard: 'people/howard/howard1.png',
    biden: 'people/biden/biden2.jpg',
    obama: 'people/obama/obama-test1.jpg',
    kit_harington: 'people/kit_harington/john1.jpeg',
    rose_leslie: 'people/rose_leslie/img1.jpg',
    // Nobody in the event photos:
    amy: 'people/amy/amy1.png',
    alex_lacamoire: 'people/alex_lacamoire/img1.jpg',
  };

  beforeAll(async () => {
    t = await createTestApp({}, { faceEngine: engine });
    world = await createEventWorld(t);
    event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
    const owner = { authorization: world.adminA.authorization };
    for (const file of Object.keys(EVENT_PHOTOS)) {
      const contentType = file.endsWith('.png') ? 'image/png' : 'image/jpeg';
      const photo = await uploadPhoto(
        t,
        owner,
        event.name,
        facePhoto(file),
        file.split('/')[1],
        contentType,
      );
      await waitForReady(t, world.adminA.authorization, event.id, photo.id);
      photoIds[file] = photo.id;
    }
    // Indexing runs as a job after ready: wait until every photo is scanned.
    const deadline = Date.now() + 60_000;
    for (const id of Object.values(photoIds)) {
      while (!(await t.app.container.repositories.faces.scanOf(id))) {
        if (Date.now() > deadline) throw new Error(`photo ${id} never indexed`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  const storeSelfie = async (file: string): Promise<string> => {
    const key = `selfies/${event.name}/${file.replaceAll('/', '_')}`;
    await t.app.container.storage.put(key, facePhoto(file), 'image/jpeg');
    return key;
  };

  it('indexed every face of the group photos', async () => {
    for (const [file, people] of Object.entries(EVENT_PHOTOS)) {
      const scan = await t.app.container.repositories.faces.scanOf(photoIds[file]!);
      expect(scan?.faceCount, file).toBeGreaterThanOrEqual(people.length);
    }
  });

  it("finds each person's photos above the threshold and nobody else's", async () => {
    for (const [person, selfie] of Object.entries(SELFIES)) {
      const key = await storeSelfie(selfie);
      const result = await t.ok(
        endpoints.searchByFace,
        {
          event_id: event.id,
          photo_url_list: [await t.app.container.storage.signedGetUrl(key)],
        },
        { authorization: world.adminA.authorization },
      );
      const expected = Object.entries(EVENT_PHOTOS)
        .filter(([, people]) => people.includes(person))
        .map(([file]) => photoIds[file])
        .sort();
      expect(result.searched_faces).toBe(1);
      expect(result.photos.map((p) => p.id).sort(), person).toEqual(expected);
      for (const photo of result.photos) {
        expect(photo.similarity).toBeGreaterThanOrEqual(80);
        expect(photo.similarity).toBeLessThanOrEqual(100);
        expect(photo.face_box.width).toBeGreaterThan(0);
      }
      const similarities = result.photos.map((p) => p.similarity);
      expect([...similarities].sort((a, b) => b - a)).toEqual(similarities);
    }
  });

  // The server side of the kiosk journey (e2e/faces-kiosk.e2e.test.ts), here on PGlite and on
  // PostgreSQL: consent → selfie grant → a camera frame (640×480, the picture letterboxed as the
  // fake camera shows it) uploaded through the grant → search with the kiosk's private key.
  it("kiosk: a camera frame of one person finds that person's photos and nobody else's", async () => {
    const kiosk = { key_type: 'private' as const, key_value: event.private_api_key };
    const consent = faceConsentVersion('');
    for (const [person, selfie] of Object.entries({
      obama: 'people/obama/obama2.jpg',
      biden: 'people/biden/biden2.jpg',
      rose_leslie: 'people/rose_leslie/img1.jpg',
      // Nobody in the event photos.
      alex_lacamoire: 'people/alex_lacamoire/img1.jpg',
    })) {
      const frame = await sharp(facePhoto(selfie))
        .resize(640, 480, { fit: 'contain', background: { r: 40, g: 40, b: 40 } })
        .jpeg({ quality: 90 })
        .toBuffer();
      const grant = await t.ok(endpoints.selfieUploadAccess, {
        ...kiosk,
        content_type: 'image/jpeg',
        face_consent_version: consent,
      });
      const form = multipartBody(
        grantForm(grant.fields, frame, { filename: 'selfie.jpg', contentType: 'image/jpeg' }),
      );
      const stored = await t.app.inject({
        method: 'POST',
        url: new URL(grant.url).pathname,
        payload: form.payload,
        headers: form.headers,
      });
      expect(stored.statusCode).toBe(201);
      const result = await t.ok(endpoints.keySearchByFace, {
        ...kiosk,
        photo_url_list: [grant.key],
        face_consent_version: consent,
      });
      const expected = Object.entries(EVENT_PHOTOS)
        .filter(([, people]) => people.includes(person))
        .map(([file]) => photoIds[file])
        .sort();
      expect(result.photos.map((p) => p.id).sort(), person).toEqual(expected);
    }
  });

  it('answers face_not_found for a reference photo without a face', async () => {
    const blank = await sharp({
      create: { width: 400, height: 300, channels: 3, background: { r: 200, g: 180, b: 90 } },
    })
      .jpeg()
      .toBuffer();
    const key = `selfies/${event.name}/blank.jpg`;
    await t.app.container.storage.put(key, blank, 'image/jpeg');
    const response = await t.call(
      endpoints.searchByFace,
      { event_id: event.id, photo_url_list: [key] },
      { authorization: world.adminA.authorization },
    );
    expect(response.statusCode).toBe(400);
    expect(response.body).toMatchObject({
      status: 'nok',
      error: { message_key: 'face_not_found' },
    });
  });
});
