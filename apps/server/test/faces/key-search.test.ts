// The key twin of search by face: kiosk (private key), web app (public key) and
// attendee keys find photos by selfie — only photos their audience may see — and the selfie
// upload grant. A scripted face engine (the real models run in faces.test.ts only) answers faces
// by the image's width.
import { endpoints, faceConsentVersion, type FlashbulbEvent, type Photo } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  DetectedFace,
  DetectOptions,
  FaceEngineProvider,
} from '../../src/repositories/faces/engine/face-engine-provider.ts';
import { isProtectedKey } from '../../src/storage/key-space.ts';
import {
  attendeeAlbumKey,
  createEvent,
  createEventWorld,
  errorOf,
  type EventWorld,
} from '../helpers/events.ts';
import { makeJpeg, waitForReady } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

class ScriptedFaceEngine implements FaceEngineProvider {
  readonly name = 'scripted';
  readonly model = 'scripted-v1';
  readonly dimensions = 4;
  byWidth = new Map<number, DetectedFace[]>();
  init() {
    return Promise.resolve();
  }
  async detect(image: Buffer, options: DetectOptions = {}) {
    const { width } = await sharp(image).metadata();
    return (this.byWidth.get(width ?? 0) ?? []).slice(0, options.maxFaces ?? Infinity);
  }
  close() {
    return Promise.resolve();
  }
}

const face = (embedding: number[], size = 120): DetectedFace => ({
  box: { x: 0.2, y: 0.2, width: 0.2, height: 0.3 },
  score: 0.99,
  embedding: Float32Array.from(embedding),
  pixels: { width: size, height: size },
});
// Two people far apart in descriptor space.
const anna = [0.1, 0.2, 0.3, 0.4];
const ben = [0.9, -0.8, 0.7, -0.6];

// Photo widths → who is in them; selfie widths → what the selfie shows.
const ANNA_PHOTO = 801;
const BEN_PHOTO = 802;
const ANNA_SELFIE = 300;
const TWO_PEOPLE_SELFIE = 301;
const NOBODY_SELFIE = 302;
const ANNA_WITH_PASSER_BY = 303;

let t: TestApp;
let world: EventWorld;
const engine = new ScriptedFaceEngine();
engine.byWidth.set(ANNA_PHOTO, [face(anna)]);
engine.byWidth.set(BEN_PHOTO, [face(ben)]);
engine.byWidth.set(ANNA_SELFIE, [face(anna, 200)]);
engine.byWidth.set(TWO_PEOPLE_SELFIE, [face(anna, 200), face(ben, 150)]);
engine.byWidth.set(ANNA_WITH_PASSER_BY, [face(anna, 200), face(ben, 50)]);

let event: FlashbulbEvent;
let other: FlashbulbEvent;
let annaPhotos: Photo[];
let hiddenAnna: Photo;
let benPhoto: Photo;
let annaAlbumPhoto: Photo;
let seed = 1;

const ownerKey = (e: FlashbulbEvent) => ({
  key_type: 'event_owner' as const,
  key_value: e.owner_api_key,
});
const privateKey = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
});
const publicKey = (e: FlashbulbEvent) => ({
  key_type: 'public' as const,
  key_value: e.public_api_key,
});
const attendeeKey = (uid: string) => ({ key_type: 'attendee' as const, key_value: uid });
/** The consent to the default (empty) face-recognition text every event here starts with. */
const CONSENT = faceConsentVersion('');

const upload = async (e: FlashbulbEvent, width: number, attendeeUid?: string): Promise<Photo> => {
  const grant = await t.ok(endpoints.photoUploadAccess, {
    ...ownerKey(e),
    event_name: e.name,
    file_name: 'photo.jpg',
    content_type: 'image/jpeg',
    ...(attendeeUid ? { attendee_uid: attendeeUid } : {}),
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
  return waitForReady(t, world.adminA.authorization, e.id, photo.id);
};

const waitForScans = async (photoIds: number[]) => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const scans = await Promise.all(
      photoIds.map((id) => t.app.container.repositories.faces.scanOf(id)),
    );
    if (scans.every(Boolean)) return;
    if (Date.now() > deadline) throw new Error('photos never scanned');
    await new Promise((r) => setTimeout(r, 100));
  }
};

/** A selfie uploaded through the grant, as a guest's browser does; answers its key. */
const uploadSelfie = async (
  key: { key_type: 'private' | 'public' | 'attendee'; key_value: string },
  width: number,
): Promise<string> => {
  const grant = await t.ok(endpoints.selfieUploadAccess, {
    ...key,
    content_type: 'image/jpeg',
    face_consent_version: CONSENT,
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

beforeAll(async () => {
  t = await createTestApp({}, { faceEngine: engine });
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
  other = await createEvent(t, world.adminA, { enable_facial_recognition: 1 });
  annaPhotos = [await upload(event, ANNA_PHOTO), await upload(event, ANNA_PHOTO)];
  hiddenAnna = await upload(event, ANNA_PHOTO);
  benPhoto = await upload(event, BEN_PHOTO);
  annaAlbumPhoto = await upload(event, ANNA_PHOTO, 'ANNA01');
  await upload(other, ANNA_PHOTO);
  await waitForScans([...annaPhotos, hiddenAnna, benPhoto, annaAlbumPhoto].map((p) => p.id));
  await t.ok(
    endpoints.updatePhoto,
    { id: hiddenAnna.id, is_visible: 0 },
    { authorization: world.adminA.authorization },
  );
}, 120_000);
afterAll(async () => {
  await t.close();
});

const search = (key: Record<string, string>, photo_url_list: string[]) =>
  t.call(endpoints.keySearchByFace, { ...key, photo_url_list, face_consent_version: CONSENT });

describe('selfie upload grant', () => {
  it("grants a protected object under selfies/<event code>/ of the key's event", async () => {
    const grant = await t.ok(endpoints.selfieUploadAccess, {
      ...privateKey(event),
      content_type: 'image/png',
      face_consent_version: CONSENT,
    });
    expect(grant.key).toMatch(new RegExp(`^selfies/${event.name}/[0-9a-f-]{36}\\.png$`));
    expect(isProtectedKey(grant.key)).toBe(true);
    // Two grants never share a key (one guest's selfie is never another's).
    const again = await t.ok(endpoints.selfieUploadAccess, {
      ...privateKey(event),
      content_type: 'image/png',
      face_consent_version: CONSENT,
    });
    expect(again.key).not.toBe(grant.key);
  });

  it('is refused to event-owner and robot keys, and when face recognition is off', async () => {
    const byOwnerKey = await t.call(endpoints.selfieUploadAccess, {
      ...ownerKey(event),
      content_type: 'image/jpeg',
      face_consent_version: CONSENT,
    });
    expect(errorOf(byOwnerKey)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const off = await createEvent(t, world.adminA, { enable_facial_recognition: 0 });
    const refused = await t.call(endpoints.selfieUploadAccess, {
      ...publicKey(off),
      content_type: 'image/jpeg',
      face_consent_version: CONSENT,
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'face_recognition_off' });
  });
});

describe('face consent by HTTP', () => {
  it("answers the event's text and the version a selfie grant then accepts", async () => {
    const text = 'We compare your selfie with this event’s photos; it is deleted after 7 days.';
    const worded = await createEvent(t, world.adminA, {
      enable_facial_recognition: 1,
      opts: { description: 'Worded', faceRecognitionText: text },
    });
    const consent = await t.ok(endpoints.faceConsent, publicKey(worded));
    expect(consent).toEqual({
      face_consent_version: faceConsentVersion(text),
      face_recognition_text: text,
      face_recognition_enabled: 1,
    });
    // The version as answered opens the grant; the default text's version is outdated here.
    await t.ok(endpoints.selfieUploadAccess, {
      ...privateKey(worded),
      content_type: 'image/jpeg',
      face_consent_version: consent.face_consent_version,
    });
    expect(
      errorOf(
        await t.call(endpoints.selfieUploadAccess, {
          ...privateKey(worded),
          content_type: 'image/jpeg',
          face_consent_version: CONSENT,
        }),
      ),
    ).toMatchObject({ status: 400, message_key: 'face_consent_outdated' });
    expect(await t.ok(endpoints.faceConsent, privateKey(event))).toMatchObject({
      face_consent_version: CONSENT,
      face_recognition_text: '',
    });
    expect(errorOf(await t.call(endpoints.faceConsent, ownerKey(event)))).toMatchObject({
      status: 401,
      message_key: 'invalid_key',
    });
  });
});

describe('search by face with a key', () => {
  it("kiosk: a selfie finds that person's visible photos of the event, nobody else's, best first", async () => {
    const selfie = await uploadSelfie(privateKey(event), ANNA_SELFIE);
    const result = await t.ok(endpoints.keySearchByFace, {
      ...privateKey(event),
      photo_url_list: [selfie],
      face_consent_version: CONSENT,
    });
    const ids = result.photos.map((p) => p.id).sort((x, y) => x - y);
    // Anna's visible photos (the album photo is a photo of the event too); not the hidden one,
    // not Ben's, not the other event's.
    expect(ids).toEqual([...annaPhotos, annaAlbumPhoto].map((p) => p.id).sort((x, y) => x - y));
    expect(result.searched_faces).toBe(1);
    for (const photo of result.photos) {
      expect(photo.similarity).toBeGreaterThanOrEqual(80);
      expect(photo.face_box.width).toBeCloseTo(0.2, 5);
      // The guest view: no owner-only fields.
      expect(photo).not.toHaveProperty('full_path');
    }
  });

  it('web app (public key): the same search, within what the public album shows', async () => {
    const selfie = await uploadSelfie(publicKey(event), ANNA_SELFIE);
    const result = await t.ok(endpoints.keySearchByFace, {
      ...publicKey(event),
      photo_url_list: [selfie],
      face_consent_version: CONSENT,
    });
    expect(result.photos.map((p) => p.id)).not.toContain(hiddenAnna.id);
    expect(result.photos.map((p) => p.id)).not.toContain(benPhoto.id);
    expect(result.photos).toHaveLength(3);
  });

  it("attendee key: the guest's matches across the whole event, marked in or out of the album", async () => {
    // ANNA01 came with a booth's upload: her album key carries her private id.
    const anna = attendeeKey(await attendeeAlbumKey(t, 'ANNA01'));
    const selfie = await uploadSelfie(anna, ANNA_SELFIE);
    const result = await t.ok(endpoints.keySearchByFace, {
      ...anna,
      photo_url_list: [selfie],
      face_consent_version: CONSENT,
    });
    // Every visible photo of her in the event, not only the one in her album; not the hidden
    // one, not Ben's, not the other event's.
    const ids = result.photos.map((p) => p.id).sort((x, y) => x - y);
    expect(ids).toEqual([...annaPhotos, annaAlbumPhoto].map((p) => p.id).sort((x, y) => x - y));
    const inAlbum = Object.fromEntries(
      result.photos.map((p) => [p.id, 'in_album' in p ? p.in_album : undefined]),
    );
    expect(inAlbum[annaAlbumPhoto.id]).toBe(1);
    expect(inAlbum[annaPhotos[0]!.id]).toBe(0);
    // A photo outside the album carries no original, whatever her album opens.
    for (const photo of result.photos)
      if (photo.id !== annaAlbumPhoto.id) expect(photo.urls.original ?? null).toBeNull();
  });

  it('attendee key: found photos are added to the album; a photo the selfie does not find adds nothing', async () => {
    const anna = attendeeKey(await attendeeAlbumKey(t, 'ANNA01'));
    const selfie = await uploadSelfie(anna, ANNA_SELFIE);
    const body = { ...anna, photo_url_list: [selfie], face_consent_version: CONSENT };
    const albumIds = async () =>
      (
        await t.ok(endpoints.publicPhotoList, { ...anna, page_number: 1, max_size: 100 })
      ).photos.map((p) => p.id);
    const before = await albumIds();
    expect(before).toEqual([annaAlbumPhoto.id]);

    // Ben's photo (and the hidden one) are not hers: refused, and nothing is added.
    for (const stranger of [benPhoto, hiddenAnna]) {
      const refused = await t.call(endpoints.attachFoundPhotos, {
        ...body,
        photo_uid_array: [annaPhotos[0]!.uid, stranger.uid],
      });
      expect(errorOf(refused)).toMatchObject({
        message_key: 'not_found',
        field: 'photo_uid_array',
      });
    }
    expect(await albumIds()).toEqual(before);
    // Other keys may not add to an album; a selfie without consent adds nothing.
    const publicRefused = await t.call(endpoints.attachFoundPhotos, {
      ...body,
      ...publicKey(event),
      photo_uid_array: [annaPhotos[0]!.uid],
    });
    expect(errorOf(publicRefused).message_key).toBe('invalid_key');
    const noConsent = await t.call(endpoints.attachFoundPhotos, {
      ...anna,
      photo_url_list: [selfie],
      photo_uid_array: [annaPhotos[0]!.uid],
    });
    expect(errorOf(noConsent).message_key).toBe('face_consent_required');
    expect(await albumIds()).toEqual(before);

    const attached = await t.ok(endpoints.attachFoundPhotos, {
      ...body,
      photo_uid_array: annaPhotos.map((p) => p.uid),
    });
    expect(attached.attached_count).toBe(2);
    expect((await albumIds()).sort((x, y) => x - y)).toEqual(
      [...annaPhotos, annaAlbumPhoto].map((p) => p.id).sort((x, y) => x - y),
    );
    // Again: kept, not doubled.
    await t.ok(endpoints.attachFoundPhotos, { ...body, photo_uid_array: [annaPhotos[0]!.uid] });
    expect(await albumIds()).toHaveLength(3);
  });

  it('a selfie with two people answers several_faces; with nobody face_not_found; a small passer-by does not count', async () => {
    const two = await uploadSelfie(privateKey(event), TWO_PEOPLE_SELFIE);
    expect(errorOf(await search(privateKey(event), [two]))).toMatchObject({
      status: 400,
      message_key: 'several_faces',
    });
    const nobody = await uploadSelfie(privateKey(event), NOBODY_SELFIE);
    expect(errorOf(await search(privateKey(event), [nobody]))).toMatchObject({
      status: 400,
      message_key: 'face_not_found',
    });
    const passerBy = await uploadSelfie(privateKey(event), ANNA_WITH_PASSER_BY);
    const found = await t.ok(endpoints.keySearchByFace, {
      ...privateKey(event),
      photo_url_list: [passerBy],
      face_consent_version: CONSENT,
    });
    expect(found.photos).toHaveLength(3);
  });

  it("accepts the guest media URL of a photo the key was shown, and refuses the owner's and other events' references", async () => {
    const list = await t.ok(endpoints.publicPhotoList, {
      ...privateKey(event),
      max_size: 100,
      page_number: 1,
    });
    const shown = list.photos.find((p) => p.id === annaPhotos[0]!.id)!;
    const url = shown.urls.preview!;
    expect(url).toContain('/media/photos/');
    const result = await t.ok(endpoints.keySearchByFace, {
      ...privateKey(event),
      photo_url_list: [url],
      face_consent_version: CONSENT,
    });
    expect(result.photos).toHaveLength(3);

    const ownerUrl = t.app.container.services.photoUrls.mediaUrl(annaPhotos[0]!.id, 'preview', 'o');
    const hiddenUrl = t.app.container.services.photoUrls.mediaUrl(hiddenAnna.id, 'preview', 'g');
    const tampered = url.replace(/s=[^&]+/, 's=AAAA');
    const selfieOfOther = await uploadSelfie(privateKey(other), ANNA_SELFIE);
    for (const reference of [
      ownerUrl,
      hiddenUrl,
      tampered,
      // the event's protected photo files are the owner's, not a guest's references
      `protected/events/${event.name}/photos/uid_${annaPhotos[0]!.uid}_uid/preview.jpg`,
      selfieOfOther,
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
    ]) {
      expect(errorOf(await search(privateKey(event), [reference])), reference).toMatchObject({
        status: 400,
        message_key: 'invalid_url',
      });
    }
  });

  it("accepts the public thumbnail URL the key was handed, and refuses a hidden photo's or another event's", async () => {
    const list = await t.ok(endpoints.publicPhotoList, {
      ...publicKey(event),
      max_size: 100,
      page_number: 1,
    });
    const shown = list.photos.find((p) => p.id === annaPhotos[0]!.id)!;
    const thumbnail = shown.urls.thumbnail!;
    expect(thumbnail).not.toContain('/media/photos/');
    // The scripted engine answers by width: the thumbnail shows Anna too.
    const thumb = await t.app.inject({ method: 'GET', url: new URL(thumbnail).pathname });
    expect(thumb.statusCode).toBe(200);
    const { width } = await sharp(thumb.rawPayload).metadata();
    engine.byWidth.set(width, [face(anna)]);
    const result = await t.ok(endpoints.keySearchByFace, {
      ...publicKey(event),
      photo_url_list: [thumbnail],
      face_consent_version: CONSENT,
    });
    expect(result.photos.map((p) => p.id).sort()).toEqual(
      [...annaPhotos.map((p) => p.id), annaAlbumPhoto.id].sort(),
    );

    const hiddenThumb = hiddenAnna.urls.thumbnail!;
    const otherList = await t.ok(endpoints.publicPhotoList, {
      ...publicKey(other),
      max_size: 100,
      page_number: 1,
    });
    const otherThumb = otherList.photos[0]!.urls.thumbnail!;
    for (const reference of [
      hiddenThumb,
      otherThumb,
      // a public file of the event that is no photo's variant
      thumbnail.replace(/uid_[^/]+_uid/, 'uid_nobody_uid'),
      thumbnail.replace('/thumbnail', '/../thumbnail'),
    ]) {
      expect(errorOf(await search(publicKey(event), [reference])), reference).toMatchObject({
        status: 400,
        message_key: 'invalid_url',
      });
    }
  });

  it('disableSelfies refuses the search and the grant', async () => {
    const off = await createEvent(t, world.adminA, {
      enable_facial_recognition: 1,
      opts: { description: 'No selfies', disableSelfies: 1 },
    });
    expect(errorOf(await search(privateKey(off), [`selfies/${off.name}/x.jpg`]))).toMatchObject({
      status: 400,
      message_key: 'face_recognition_off',
    });
    expect(
      errorOf(
        await t.call(endpoints.selfieUploadAccess, {
          ...privateKey(off),
          content_type: 'image/jpeg',
          face_consent_version: CONSENT,
        }),
      ),
    ).toMatchObject({ status: 400, message_key: 'face_recognition_off' });
  });
});
