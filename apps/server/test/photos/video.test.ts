import { endpoints, type FlashbulbEvent, type KeyPhoto, type Photo } from '@flashbulb/shared';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import {
  completeUpload,
  fakeMp4,
  makeClip,
  makeJpeg,
  postToStorage,
  testVideoEngine,
  uploadPhoto,
  type UploadAuth,
} from '../helpers/photos.ts';
import { bytesOf, pathOf } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Clips end to end on the server: probe at upload (what is not a clip is refused), a poster and
 * web-playable renditions made by the `video.renditions` job, and who receives which rendition.
 * Every clip is made by the engine for the test.
 */

let t: TestApp;
let admin: { authorization: string };
let robot: UploadAuth;
/** A booth belongs to one event at a time: the free event has its own. */
let booth: UploadAuth;
let free: FlashbulbEvent;
let paid: FlashbulbEvent;
let ann = '';

const engine = testVideoEngine();

const fetchBytes = async (url: string) => {
  const response = await t.app.inject({ method: 'GET', url: pathOf(url) });
  return { status: response.statusCode, body: response.rawPayload, headers: response.headers };
};

const probeBytes = (bytes: Buffer) => engine.withInput(bytes, (file) => engine.probe(file));

/** Polls the owner list until the clip is done (encodes take seconds on a loaded machine). */
const waitForDone = async (eventId: number, photoId: number, withVideo = false): Promise<Photo> => {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const list = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: eventId, max_size: 1000, page_number: 1 },
      admin,
    );
    const photo = list.photos.find((p) => p.id === photoId);
    const done =
      photo &&
      photo.status !== 'processing' &&
      (!withVideo || photo.urls.video || photo.status === 'failed');
    if (photo && done) return photo;
    if (Date.now() > deadline) throw new Error(`photo ${photoId} still processing`);
    await new Promise((r) => setTimeout(r, 200));
  }
};
/** A GIF is ready before its rendition. */
const waitForVideo = (eventId: number, photoId: number) => waitForDone(eventId, photoId, true);

beforeAll(async () => {
  t = await createTestApp();
  const made = await createRobotWorld(t);
  admin = made.admin;
  robot = made.robot;
  const second = await t.ok(
    endpoints.createRobot,
    { organisation_id: made.world.orgA.id, name: 'Booth 2' },
    admin,
  );
  booth = { key_type: 'robot', key_value: second.api_key };
  free = await createEvent(t, made.world.adminA, {
    full_name: 'Free Gala',
    is_free: 1,
    sharing_360_body_template: 'Look around <b>{url}</b>',
    robot_id_array: [second.id],
  });
  paid = await createEvent(t, made.world.adminA, {
    full_name: 'Paid Gala',
    is_free: 0,
    sharing_video_body_template: 'Watch {srcVideo} & smile',
    robot_id_array: [made.robotId],
    photo_watermark: '/default-watermark.png',
    opts: {
      description: 'Paid',
      unitPrice: 2,
      pricingButtons: [
        {
          buttonText: 'Whole album',
          priceFormula: '{Final_Amount}',
          digitals: true,
          prints: false,
          partialUnlockTags: false,
          printsPool: '',
        },
      ],
    },
  });
  const generated = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [paid.id], is_prepaid: 0 },
    admin,
  );
  ann = generated.attendees[0]!.uid;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

describe('clip upload', () => {
  it('probes an mp4, then makes a poster and an H.264/AAC faststart rendition', async () => {
    const clip = await makeClip({ seconds: 2, width: 320, height: 240, audio: true });
    const photo = await uploadPhoto(t, booth, free.name, clip, 'clip.mp4', 'video/mp4');
    expect(photo).toMatchObject({
      media_type: 'video',
      content_type: 'video/mp4',
      status: 'processing',
      width: 320,
      height: 240,
    });
    expect(photo.duration_ms).toBeGreaterThanOrEqual(1900);
    expect(photo.duration_ms).toBeLessThanOrEqual(2200);

    const ready = await waitForDone(free.id, photo.id);
    expect(ready.status).toBe('ready');
    // The poster's pictures, as a photo's.
    const thumb = await fetchBytes(ready.urls.thumbnail!);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(thumb.body).metadata()).width).toBe(320);
    // The playable rendition: protected (a signed media URL), H.264 + AAC, index first.
    expect(ready.urls.video).toMatch(/\/media\/photos\/\d+\/video\?/);
    const video = await fetchBytes(ready.urls.video!);
    expect(video.status).toBe(200);
    expect(video.headers['content-type']).toBe('video/mp4');
    const info = await probeBytes(video.body);
    expect(info).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac', width: 320, height: 240 });
    expect(video.body.indexOf('moov')).toBeLessThan(video.body.indexOf('mdat'));
    // Seeking works: a range answers 206 with those bytes.
    const ranged = await t.app.inject({
      method: 'GET',
      url: pathOf(ready.urls.video),
      headers: { range: 'bytes=0-99' },
    });
    expect(ranged.statusCode).toBe(206);
    expect(ranged.rawPayload.length).toBe(100);
  });

  it('turns a phone’s rotated mov upright and scales a 1440p clip to 1080p', async () => {
    const turned = await makeClip({
      seconds: 1,
      width: 320,
      height: 180,
      format: 'mov',
      rotate: 90,
      audio: false,
    });
    const upright = await uploadPhoto(
      t,
      booth,
      free.name,
      turned,
      'IMG_0001.MOV',
      'video/quicktime',
    );
    expect(upright).toMatchObject({ content_type: 'video/quicktime', width: 180, height: 320 });
    const big = await makeClip({ seconds: 1, width: 2560, height: 1440, audio: false });
    const large = await uploadPhoto(t, booth, free.name, big, 'big.mp4', 'video/mp4');
    for (const [photo, size] of [
      [upright, { width: 180, height: 320 }],
      [large, { width: 1920, height: 1080 }],
    ] as const) {
      const ready = await waitForDone(free.id, photo.id);
      expect(ready.status).toBe('ready');
      const info = await probeBytes((await fetchBytes(ready.urls.video!)).body);
      expect(info).toMatchObject({ ...size, rotation: 0, videoCodec: 'h264', audioCodec: null });
    }
  });

  it('takes a browser’s webm', async () => {
    const webm = await makeClip({ seconds: 1, width: 320, height: 240, format: 'webm' });
    const photo = await uploadPhoto(t, booth, free.name, webm, 'rec.webm', 'video/webm');
    expect(photo.content_type).toBe('video/webm');
    const ready = await waitForDone(free.id, photo.id);
    expect(ready.status).toBe('ready');
    const info = await probeBytes((await fetchBytes(ready.urls.video!)).body);
    expect(info).toMatchObject({ videoCodec: 'h264', audioCodec: 'aac' });
  });

  it('refuses what only looks like a clip with the picture-format key, keeping nothing', async () => {
    const { key, status } = await postToStorage(
      t,
      booth,
      free.name,
      'x.mp4',
      fakeMp4(),
      'video/mp4',
    );
    expect(status).toBe(201);
    const done = await completeUpload(t, booth, key);
    expect(done.body).toMatchObject({
      status: 'nok',
      error: { message_key: 'unsupported_picture_format', field: 'key' },
    });
    expect(await t.app.container.storage.head(key)).toBeNull();
  });

  it('keeps an animated GIF’s motion: a looping MP4 beside its first-frame pictures', async () => {
    const gif = await makeClip({ seconds: 1, width: 160, height: 120, format: 'gif' });
    const photo = await uploadPhoto(t, booth, free.name, gif, 'boomerang.gif', 'image/gif');
    expect(photo.media_type).toBe('image');
    const ready = await waitForVideo(free.id, photo.id);
    expect(ready.status).toBe('ready');
    expect(ready.urls.thumbnail).not.toBeNull();
    expect(ready.duration_ms).toBeGreaterThan(500);
    const info = await probeBytes((await fetchBytes(ready.urls.video!)).body);
    expect(info).toMatchObject({ videoCodec: 'h264', audioCodec: null, width: 160, height: 120 });
    // A still GIF stays a picture only.
    const still = await sharp({
      create: { width: 8, height: 8, channels: 3, background: '#0f0' },
    })
      .gif()
      .toBuffer();
    const stillPhoto = await uploadPhoto(t, booth, free.name, still, 'still.gif', 'image/gif');
    const stillReady = await waitForDone(free.id, stillPhoto.id);
    await new Promise((r) => setTimeout(r, 1000));
    expect(stillReady.urls.video).toBeNull();
    expect(stillReady.duration_ms).toBeNull();
  });
});

describe('a clip of a paid, watermarked event', () => {
  let clip: Photo;
  beforeAll(async () => {
    const bytes = await makeClip({ seconds: 8, width: 320, height: 240, audio: true });
    const up = await uploadPhoto(t, robot, paid.name, bytes, 'paid.mp4', 'video/mp4');
    clip = await waitForDone(paid.id, up.id);
    expect(clip.status).toBe('ready');
    await t.app.container.repositories.photos.update(clip.id, { attendeeUid: ann });
  }, 90_000);

  const keyOf = (type: string): string =>
    ({
      public: paid.public_api_key,
      private: paid.private_api_key,
      attendee: ann,
      event_owner: paid.owner_api_key,
    })[type]!;

  const readAs = async (keyType: string, keyValue = keyOf(keyType)): Promise<KeyPhoto> => {
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: keyType as 'public',
      key_value: keyValue,
      max_size: 100,
      page_number: 1,
    });
    const photo = list.photos.find((p) => p.id === clip.id);
    if (!photo) throw new Error(`${keyType} does not see the clip`);
    return photo;
  };

  /**
   * The clip as every guest key of the event reads it: the album keys, the organiser's kiosk (a
   * private key with the display token) and a mini-album a guest made of it.
   */
  const guestViews = async (): Promise<[string, KeyPhoto][]> => {
    const views: [string, KeyPhoto][] = [];
    for (const keyType of ['public', 'private', 'attendee'])
      views.push([keyType, await readAs(keyType)]);
    const kiosk = await t.ok(endpoints.publicPhotoList, {
      key_type: 'private',
      key_value: paid.private_api_key,
      display: paid.display_token,
      max_size: 100,
      page_number: 1,
    });
    views.push(['kiosk', kiosk.photos.find((p) => p.id === clip.id)!]);
    const shared = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: paid.public_api_key,
      email_to_address_array: ['friend@example.com'],
      photo_uid_array: [clip.uid],
      receiver_full_name: 'Friend',
    });
    const mini = await t.ok(endpoints.retrieveMiniAlbum, {
      token: new URL(shared.url).searchParams.get('mId')!,
    });
    views.push(['mini-album', mini.photos.find((p) => p.uid === clip.uid) as KeyPhoto]);
    return views;
  };

  it('gives a locked guest (public, private, attendee, kiosk, mini-album) only the short watermarked preview', async () => {
    const rows = await t.app.container.repositories.photos.findByIds([clip.id]);
    const row = rows[0]!;
    const sold = [
      await bytesOf((await t.app.container.storage.get(row.storageKey))!.body),
      await bytesOf((await t.app.container.storage.get(row.derivatives.video!))!.body),
      await bytesOf((await t.app.container.storage.get(row.derivatives.video_watermark!))!.body),
    ];
    const views = await guestViews();
    expect(views.map(([name, photo]) => [name, photo?.uid])).toEqual(
      ['public', 'private', 'attendee', 'kiosk', 'mini-album'].map((name) => [name, clip.uid]),
    );
    for (const [keyType, photo] of views) {
      expect(photo.urls.original, keyType).toBeNull();
      expect(photo.urls.video, keyType).toMatch(/video-protected\.mp4$/);
      for (const url of Object.values(photo.urls)) {
        if (!url) continue;
        const { status, body } = await fetchBytes(url);
        if (status === 200)
          expect(
            sold.some((b) => b.equals(body)),
            `${keyType} ${url}`,
          ).toBe(false);
      }
      const preview = await probeBytes((await fetchBytes(photo.urls.video!)).body);
      // Short: its first seconds only.
      expect(typeof preview !== 'string' && preview.durationMs).toBeLessThanOrEqual(5200);
    }
    // A guest's signed URL turned into the plain rendition or the original is refused.
    const guest = await readAs('private');
    for (const variant of ['video', 'original']) {
      const forged = `${t.config.publicUrl}/media/photos/${clip.id}/${variant}?a=g&e=9999999999&s=x`;
      expect((await fetchBytes(forged)).status).toBe(403);
    }
    expect(guest.urls.preview).toBe(guest.urls.protector_watermark);
  });

  it('shares the public rendition: og:video and the video template with {srcVideo}', async () => {
    const guest = await readAs('public');
    const page = await t.app.inject({ method: 'GET', url: `/share/${clip.uid}` });
    expect(page.statusCode).toBe(200);
    const video = guest.urls.video!;
    expect(page.body).toContain(`<meta property="og:video" content="${video}">`);
    expect(page.body).toContain(`Watch ${video} &amp; smile`);
    expect(page.body).not.toContain('/original');
  });

  it('gives the event-owner key and the signed-in owner the plain rendition, a robot key neither it nor the original', async () => {
    const ownerKey = await readAs('event_owner');
    for (const photo of [ownerKey, clip]) {
      expect(photo.urls.video).toMatch(/\/media\/photos\/\d+\/video\?a=o/);
      expect(photo.urls.original).toMatch(/\/original\?/);
      expect((await fetchBytes(photo.urls.video!)).status).toBe(200);
    }
    // A booth sees its own uploads' status only: what it sold is not its to read back.
    const robotKey = await readAs('robot', robot.key_value);
    expect(robotKey.urls.original).toBeNull();
    expect(robotKey.urls.video).not.toMatch(/\/media\/photos\/\d+\/video\?a=o/);
    expect(robotKey.urls.video).toMatch(/video-protected\.mp4$/);
  });

  it('after the unlock the attendee gets the original and the watermarked full clip', async () => {
    const created = await t.ok(endpoints.createQrPayment, {
      key_type: 'attendee',
      key_value: ann,
      attendee_uid: ann,
      pricing_button_index: 0,
    });
    const paidNow = await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242 4242 4242 4242',
    });
    expect(paidNow.status).toBe('paid');
    const row = (await t.app.container.repositories.photos.findByIds([clip.id]))[0]!;
    const photo = await readAs('attendee');
    expect(photo.urls.original).toMatch(/\/original\?/);
    expect((await fetchBytes(photo.urls.original!)).body.length).toBe(row.sizeBytes);
    // The event watermarks: its guests' full clip is the watermarked rendition, kept in protected
    // space on a paid event (a signed URL, never a public file a locked guest could guess).
    expect(photo.urls.video).toMatch(/\/media\/photos\/\d+\/video_watermark\?a=g&/);
    expect(row.derivatives.video_watermark).toMatch(
      /^protected\/events\/.+\/video-watermark\.mp4$/,
    );
    const full = await probeBytes((await fetchBytes(photo.urls.video!)).body);
    expect(typeof full !== 'string' && full.durationMs).toBeGreaterThan(7000);
    // Others stay locked.
    expect((await readAs('public')).urls.video).toMatch(/video-protected\.mp4$/);
  });
});

describe('360° photos', () => {
  const xmp = (projection: string) =>
    `<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="${projection}"/></rdf:RDF></x:xmpmeta>`;

  const panorama = async (width: number, height: number, projection: string | null) => {
    const image = sharp({
      create: { width, height, channels: 3, background: '#38c' },
    }).jpeg();
    return (projection ? image.withXmp(xmp(projection)) : image).toBuffer();
  };

  it('recognises a 2:1 equirectangular photo from its XMP, or the uploader’s mark', async () => {
    const sphere = await uploadPhoto(
      t,
      booth,
      free.name,
      await panorama(800, 400, 'equirectangular'),
    );
    expect(sphere.is_360).toBe(1);
    await waitForDone(free.id, sphere.id);
    const flat = await uploadPhoto(t, booth, free.name, await panorama(800, 400, null));
    expect(flat.is_360).toBe(0);
    const wrongShape = await uploadPhoto(
      t,
      booth,
      free.name,
      await panorama(600, 400, 'equirectangular'),
    );
    expect(wrongShape.is_360).toBe(0);
    const { key } = await postToStorage(
      t,
      booth,
      free.name,
      'marked.jpg',
      await makeJpeg({ seed: 360 }),
      'image/jpeg',
    );
    // The share page fills the 360 template with the viewer's link (escaped) and links it.
    const page = await t.app.inject({ method: 'GET', url: `/share/${sphere.uid}` });
    expect(page.body).toMatch(
      /Look around &lt;b&gt;http:[^<]*\/share\/viewer\?url=[^<]*&lt;\/b&gt;/,
    );
    expect(page.body).toContain('class="share-360"');
    const marked = await t.call(endpoints.photoUploadComplete, { ...booth, key, is_360: 1 });
    expect(marked.body).toMatchObject({ status: 'ok', result: { is_360: 1 } });
  });
});
