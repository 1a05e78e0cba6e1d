import { createHash } from 'node:crypto';
import { endpoints, type FlashbulbEvent, type Photo } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let world: Awaited<ReturnType<typeof createEventWorld>>;
let admin: { authorization: string };
let event: FlashbulbEvent;
let plainEvent: FlashbulbEvent;
let watermarkEvent: FlashbulbEvent;
let shown: Photo;
let hidden: Photo;
let plainPhoto: Photo;
let watermarked: Photo;

const EVIL = 'Gala <script>alert(1)</script> & "friends"';

const robotFor = async (organisationId: number): Promise<UploadAuth & { id: number }> => {
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: organisationId, name: `Booth ${Math.random()}` },
    admin,
  );
  return { key_type: 'robot', key_value: created.api_key, id: created.id };
};

const upload = async (robot: UploadAuth, e: FlashbulbEvent, seed: number) => {
  const photo = await uploadPhoto(t, robot, e.name, await makeJpeg({ seed }));
  return waitForReady(t, admin.authorization, e.id, photo.id);
};

const get = (url: string) => t.app.inject({ method: 'GET', url });
const meta = (html: string, property: string) =>
  new RegExp(`<meta (?:property|name)="${property}" content="([^"]*)">`).exec(html)?.[1];

beforeAll(async () => {
  t = await createTestApp();
  world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const [r1, r2, r3] = [
    await robotFor(world.orgA.id),
    await robotFor(world.orgA.id),
    await robotFor(world.orgA.id),
  ];
  event = await createEvent(t, world.adminA, {
    robot_id_array: [r1.id],
    // paid: the public sees the protector watermark in place of the preview (ADR 0006)
    is_free: 0,
    opts: { description: 'x', ogpTitle: EVIL, ogpDescription: 'Photos <b>& more</b>' },
  });
  plainEvent = await createEvent(t, world.adminA, {
    full_name: 'Plain & Simple',
    robot_id_array: [r2.id],
    logo_full_path: 'https://cdn.example/plain-logo.png',
    logo_link: 'https://plain.example/',
    opts: { description: 'x', webappShareTitle: 'Share me' },
  });
  watermarkEvent = await createEvent(t, world.adminA, {
    full_name: 'Branded',
    robot_id_array: [r3.id],
    photo_watermark: '/default-watermark.png',
    // free (the default): the public gets the unwatermarked preview, signed (ADR 0006)
    is_free: 1,
  });
  shown = await upload(r1, event, 1);
  hidden = await upload(r1, event, 2);
  await t.ok(endpoints.updatePhoto, { id: hidden.id, is_visible: 0 }, admin);
  plainPhoto = await upload(r2, plainEvent, 3);
  watermarked = await upload(r3, watermarkEvent, 4);
});
afterAll(async () => {
  await t.close();
});

const publicKey = (e: FlashbulbEvent) => ({ key_type: 'public', key_value: e.public_api_key });

describe('photo/generate-html-file-sharing', () => {
  it('answers the share page URL for a photo the key may see, and for an owner', async () => {
    const result = await t.ok(endpoints.generateShareLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      photo_uid: shown.uid,
    });
    expect(result.url).toBe(`${t.config.publicUrl}/share/${shown.uid}`);
    const owner = await t.ok(endpoints.generateShareLink, { photo_uid: shown.uid }, admin);
    expect(owner.url).toBe(result.url);
  });

  it('refuses hidden photos, other events’ photos, wrong keys and anonymous callers', async () => {
    const hiddenCall = await t.call(endpoints.generateShareLink, {
      ...publicKey(event),
      photo_uid: hidden.uid,
    });
    expect(errorOf(hiddenCall)).toMatchObject({ status: 404, message_key: 'not_found' });
    const foreign = await t.call(endpoints.generateShareLink, {
      ...publicKey(plainEvent),
      photo_uid: shown.uid,
    });
    expect(errorOf(foreign)).toMatchObject({ status: 404, message_key: 'not_found' });
    const wrong = await t.call(endpoints.generateShareLink, {
      key_type: 'public',
      key_value: 'nope',
      photo_uid: shown.uid,
    });
    expect(errorOf(wrong)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    const anonymous = await t.call(endpoints.generateShareLink, { photo_uid: shown.uid });
    expect(errorOf(anonymous)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
  });
});

describe('the share text: the event’s sharing template (owner console §2)', () => {
  it('fills the template of the photo’s kind for the share dialog and the share page, as text', async () => {
    const robot = await robotFor(world.orgA.id);
    const template =
      '{user_name} shares <b>{image_url}</b> via {url} ({width}x{height}) {imageUrl} {srcImg} [{srcVideo}] {unknown}';
    const e = await createEvent(t, world.adminA, {
      full_name: 'Templated',
      robot_id_array: [robot.id],
      sharing_body_template: template,
      sharing_video_body_template: 'Video {srcVideo}',
    });
    const photo = await upload(robot, e, 7);
    const pageUrl = `${t.config.publicUrl}/share/${photo.uid}`;
    /** The text with the public preview URL (signed, so read from the text) in its 3 places. */
    const filled = (text: string, userName: string) => {
      const match =
        /^(.*) shares <b>(\S+)<\/b> via (\S+) \((\d+)x(\d+)\) (\S+) (\S+) \[\] \{unknown\}$/.exec(
          text,
        );
      expect(match, text).not.toBeNull();
      const [, name, image, url, width, height, imageAgain, src] = match!;
      expect(name).toBe(userName);
      expect(url).toBe(pageUrl);
      expect([width, height]).toEqual([String(photo.width), String(photo.height)]);
      expect(image).toContain(`/media/photos/${photo.id}/preview`);
      expect([imageAgain, src]).toEqual([image, image]);
    };

    // A public key: nobody to name.
    const shared = await t.ok(endpoints.generateShareLink, {
      key_type: 'public',
      key_value: e.public_api_key,
      photo_uid: photo.uid,
    });
    expect(shared.url).toBe(pageUrl);
    filled(shared.text, '');
    // An attendee key names the attendee (their address's local part: attendees have no name).
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [e.id], is_prepaid: 0, email: 'Ann.Lee@example.com' },
      admin,
    );
    const attendeeUid = generated.attendees[0]!.uid;
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: e.id, attendee_uid: attendeeUid, photo_uid_array: [photo.uid] },
      admin,
    );
    const byAttendee = await t.ok(endpoints.generateShareLink, {
      key_type: 'attendee',
      key_value: attendeeUid,
      photo_uid: photo.uid,
    });
    filled(byAttendee.text, 'Ann.Lee');
    // The operator's own call answers the text too, naming nobody.
    filled((await t.ok(endpoints.generateShareLink, { photo_uid: photo.uid }, admin)).text, '');

    // The share page shows the same words, escaped, with no link made of them.
    const html = (await get(`/share/${photo.uid}`)).body;
    const body = /<p class="share-body">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? '';
    expect(body).toContain('shares &lt;b&gt;');
    expect(body).toContain(`via ${pageUrl}`);
    expect(body).not.toMatch(/<a |<b>/);

    // The operator changes the template: the next share says what it says now.
    await t.ok(
      endpoints.updateEvent,
      { id: e.id, event_last_updated_date: e.updated_date, sharing_body_template: 'Now: {url}' },
      admin,
    );
    const again = await t.ok(endpoints.generateShareLink, {
      key_type: 'public',
      key_value: e.public_api_key,
      photo_uid: photo.uid,
    });
    expect(again.text).toBe(`Now: ${pageUrl}`);
  });
});

describe('GET /?photoId=… (share-preview page, albums §2.1)', () => {
  const preview = (params: Record<string, string>) =>
    get(`/?${new URLSearchParams(params).toString()}`);
  const albumOf = (e: FlashbulbEvent) => `${t.config.publicUrl}/?pId=${e.public_api_key}`;
  const sharePageOf = (uid: string) => `${t.config.publicUrl}/share/${uid}`;
  /** No key of the event, plain or URL-encoded, anywhere in the page. */
  const expectNoKeys = (html: string, e: FlashbulbEvent) => {
    for (const key of [e.public_api_key, e.private_api_key, e.owner_api_key]) {
      expect(html).not.toContain(key);
      expect(html).not.toContain(encodeURIComponent(key));
    }
  };
  const ctaHref = (html: string) => /<a class="cta" href="([^"]*)"/.exec(html)?.[1];

  it('shows the shared photo with the event’s tags, logo and our own image, linked to the photo, never the album', async () => {
    const privateAlbum = `${t.config.publicUrl}/?pvId=${encodeURIComponent(plainEvent.private_api_key)}`;
    const response = await preview({
      url: privateAlbum,
      imgSrc: plainPhoto.urls.thumbnail!,
      photoId: plainPhoto.uid,
      eName: plainEvent.name.toLowerCase(),
    });
    expect(response.statusCode).toBe(200);
    const html = response.body;
    expect(meta(html, 'og:title')).toBe('Share me');
    expect(meta(html, 'og:image')).toBe(plainPhoto.urls.thumbnail);
    expect(meta(html, 'twitter:image')).toBe(plainPhoto.urls.thumbnail);
    expect(html).toContain(`<img src="${plainPhoto.urls.thumbnail}"`);
    // One shared photo opens that photo, not the album (an album link given in `url` is dropped).
    expect(ctaHref(html)).toBe(sharePageOf(plainPhoto.uid));
    expectNoKeys(html, plainEvent);
    expect(
      ctaHref((await preview({ photoId: plainPhoto.uid, url: albumOf(plainEvent) })).body),
    ).toBe(sharePageOf(plainPhoto.uid));
    expect(html).toContain(
      '<a href="https://plain.example/" rel="noopener" target="_blank"><img src="https://cdn.example/plain-logo.png"',
    );
    expect(html).not.toMatch(/<script/i);
    expect(String(response.headers['content-security-policy'])).toContain('https://cdn.example');
  });

  it('never takes another site’s image or link: the photo’s preview and its own page instead', async () => {
    for (const [imgSrc, url] of [
      ['https://evil.example/x.jpg', 'https://evil.example/'],
      [`${plainPhoto.urls.thumbnail}?x=1`, '//evil.example/'],
      ['javascript:alert(1)', 'javascript:alert(1)'],
      [shown.urls.preview ?? 'x', `${t.config.publicUrl}/?pId=${event.public_api_key}`],
      ['x', `${t.config.publicUrl}/?pId=${plainEvent.public_api_key}&url=https://evil.example`],
      ['x', `${t.config.publicUrl}/share/${shown.uid}`],
      ['x', `${t.config.publicUrl}.evil.example/?pId=${plainEvent.public_api_key}`],
    ]) {
      const html = (await preview({ photoId: plainPhoto.uid, imgSrc: imgSrc!, url: url! })).body;
      // The public's own signed preview (ADR 0006: audience g), escaped.
      expect(meta(html, 'og:image')).toMatch(
        new RegExp(`/media/photos/${plainPhoto.id}/preview\\?a=g&amp;e=\\d+&amp;s=`),
      );
      expect(ctaHref(html)).toBe(sharePageOf(plainPhoto.uid));
      expectNoKeys(html, plainEvent);
      expect(html).not.toContain('evil.example');
      expect(html).not.toContain('javascript:');
    }
    // Its own share page is our link too.
    const own = `${t.config.publicUrl}/share/${plainPhoto.uid}`;
    expect(ctaHref((await preview({ photoId: plainPhoto.uid, url: own })).body)).toBe(own);
  });

  it('escapes the event’s texts and keeps a paid event’s watermarked image', async () => {
    const html = (
      await preview({ photoId: shown.uid, imgSrc: shown.urls.thumbnail ?? '', eName: event.name })
    ).body;
    expect(meta(html, 'og:title')).toBe(
      'Gala &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;',
    );
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('/media/');
    const branded = (
      await preview({ photoId: watermarked.uid, imgSrc: watermarked.urls.thumbnail! })
    ).body;
    expect(meta(branded, 'og:image')).toBe(watermarked.urls.photo_watermark);
  });

  it('answers a written guest page, no tags, for incomplete links, hidden photos and other events', async () => {
    const incomplete = await preview({
      imgSrc: plainPhoto.urls.thumbnail!,
      url: albumOf(plainEvent),
    });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.body).toContain('This photo link is incomplete');
    for (const params of <Record<string, string>[]>[
      { photoId: hidden.uid },
      { photoId: String(plainPhoto.id) },
      { photoId: '../etc/passwd' },
      { photoId: plainPhoto.uid, eName: event.name },
      { photoId: `${plainPhoto.uid}<script>` },
    ]) {
      const response = await preview(params);
      expect(response.statusCode).toBe(404);
      expect(response.headers['content-type']).toContain('text/html');
      expect(response.body).toContain('This photo is not available');
      expect(response.body).not.toContain('og:image');
      expect(response.body).not.toMatch(/<script/i);
    }
  });

  it('leaves every other `/` link to the web app', async () => {
    const other = await get(`/?pId=${plainEvent.public_api_key}`);
    expect(other.body).not.toContain('This photo');
    expect(other.body).not.toContain('og:image');
  });
});

describe('GET /share/<uid>', () => {
  it('serves Open Graph tags from the event’s OGP options, escaped, with a visible image and no script', async () => {
    const response = await get(`/share/${shown.uid}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/html');
    const html = response.body;
    expect(meta(html, 'og:title')).toBe(
      'Gala &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;',
    );
    expect(meta(html, 'og:description')).toBe('Photos &lt;b&gt;&amp; more&lt;/b&gt;');
    // A paid event (is_free 0): the public image is the protector watermark (ADR 0006).
    expect(shown.urls.protector_watermark).toMatch(
      /\/storage\/events\/.+\/protector-watermark-[0-9a-f]{12}\.jpg$/,
    );
    expect(meta(html, 'og:image')).toBe(shown.urls.protector_watermark);
    expect(meta(html, 'og:url')).toBe(`${t.config.publicUrl}/share/${shown.uid}`);
    expect(meta(html, 'og:type')).toBe('website');
    expect(meta(html, 'twitter:card')).toBe('summary_large_image');
    expect(html).toContain(`<img src="${shown.urls.protector_watermark}"`);
    expect(html).not.toContain('/media/');
    // The page's link opens this photo, never the album: no key of the event is on the page.
    expect(html).toContain(`<a href="${shown.urls.protector_watermark}">Open the photo</a>`);
    for (const key of [event.public_api_key, event.private_api_key, event.owner_api_key]) {
      expect(html).not.toContain(key);
      expect(html).not.toContain(encodeURIComponent(key));
    }
    expect(html).not.toMatch(/<script/i);
    const csp = String(response.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).not.toContain('script-src');
    expect(csp).toContain(`img-src 'self' ${new URL(shown.urls.protector_watermark!).origin}`);
  });

  it('falls back to webappShareTitle and the event name', async () => {
    const html = (await get(`/share/${plainPhoto.uid}`)).body;
    expect(meta(html, 'og:title')).toBe('Share me');
    expect(meta(html, 'og:description')).toBe('Plain &amp; Simple');
  });

  it('uses the photo-watermark variant when the event has one', async () => {
    expect(watermarked.urls.photo_watermark).toMatch(/photo-watermark\.jpg$/);
    const html = (await get(`/share/${watermarked.uid}`)).body;
    expect(meta(html, 'og:image')).toBe(watermarked.urls.photo_watermark);
  });

  it('answers a 404 page for hidden, unknown and deleted photos', async () => {
    for (const uid of [hidden.uid, 'abc123', '..%2Fetc']) {
      const response = await get(`/share/${uid}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).not.toContain('og:image');
    }
    await t.ok(endpoints.deletePhoto, { photo_id: plainPhoto.id, delete_reason: 'test' }, admin);
    expect((await get(`/share/${plainPhoto.uid}`)).statusCode).toBe(404);
  });
});

describe('GET /share/viewer (360 viewer)', () => {
  it('shows our own storage URL of a visible photo, with the watermark and close button when asked', async () => {
    const url = encodeURIComponent(shown.urls.protector_watermark!);
    const plain = await get(`/share/viewer?url=${url}`);
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toContain(`<img id="pano-img" src="${shown.urls.protector_watermark}"`);
    expect(plain.body).not.toContain('class="wm');
    expect(plain.body).not.toContain('class="close"');
    const full = await get(`/share/viewer?url=${url}&closeable=true&wm=111`);
    expect(full.body).toContain('class="wm');
    expect(full.body).toContain('class="close"');
    // Closing goes to the photo's own page, not to the album (no key of the event on the page).
    expect(full.body).toContain(`class="close" href="${t.config.publicUrl}/share/${shown.uid}"`);
    expect(full.body).not.toContain(event.public_api_key);
    expect(full.body).not.toContain(encodeURIComponent(event.public_api_key));
    // One script, the viewer's own, allowed by its hash: nothing else runs on the page.
    expect(full.body.match(/<script/gi)).toHaveLength(1);
    const csp = String(full.headers['content-security-policy']);
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    const script = /<script>([\s\S]*?)<\/script>/.exec(full.body)![1]!;
    expect(csp).toContain(`'sha256-${createHash('sha256').update(script).digest('base64')}'`);
    // wm other than 111: no watermark
    expect((await get(`/share/viewer?url=${url}&wm=1`)).body).not.toContain('class="wm');
  });

  it('shows the public’s signed preview of a free event’s photo', async () => {
    const list = await t.ok(endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: watermarkEvent.public_api_key,
      max_size: 10,
      page_number: 1,
    });
    const preview = list.photos.find((p) => p.uid === watermarked.uid)!.urls.preview!;
    expect(preview).toMatch(/\/media\/photos\/\d+\/preview\?a=g&/);
    const page = await get(`/share/viewer?url=${encodeURIComponent(preview)}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`<img id="pano-img" src="${preview.replace(/&/g, '&amp;')}"`);
  });

  it('refuses other sites, hidden photos, originals and a paid event’s unwatermarked preview', async () => {
    const refused = [
      'https://evil.example/photo.jpg',
      `${shown.urls.protector_watermark!.replace(/^http:\/\/[^/]+/, 'https://evil.example')}`,
      hidden.urls.protector_watermark!,
      hidden.urls.preview!,
      // the owner's signed URLs of a paid event's protected files
      shown.urls.preview!,
      shown.urls.original!,
      // a tampered signature
      shown.urls.preview!.replace(/s=.$/, 's=x'),
      `${t.config.publicUrl}/storage/${shown.full_path}`,
      `${t.config.publicUrl}/storage/${shown.full_path.replace(/original\.jpg$/, 'preview.jpg')}`,
      'javascript:alert(1)',
    ];
    for (const url of refused) {
      const response = await get(`/share/viewer?url=${encodeURIComponent(url)}`);
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain(url);
    }
    expect((await get('/share/viewer')).statusCode).toBe(404);
  });
});

describe('photo/share/track', () => {
  it('records the Facebook share as FacebookShare', async () => {
    const result = await t.ok(endpoints.trackShare, {
      key_type: 'public',
      key_value: event.public_api_key,
      photo_uid: shown.uid,
      network: 'facebook',
    });
    expect(result.activity_name).toBe('FacebookShare');
    const shares = await t.app.container.repositories.albums.sharesOf(event.id);
    expect(shares).toEqual([
      expect.objectContaining({ id: result.id, photoId: shown.id, activityName: 'FacebookShare' }),
    ]);
  });

  it('refuses hidden photos and wrong keys and records nothing', async () => {
    const before = (await t.app.container.repositories.albums.sharesOf(event.id)).length;
    const hiddenCall = await t.call(endpoints.trackShare, {
      ...publicKey(event),
      photo_uid: hidden.uid,
      network: 'facebook',
    });
    expect(errorOf(hiddenCall)).toMatchObject({ status: 404, message_key: 'not_found' });
    const wrong = await t.call(endpoints.trackShare, {
      key_type: 'public',
      key_value: 'nope',
      photo_uid: shown.uid,
      network: 'facebook',
    });
    expect(errorOf(wrong)).toMatchObject({ status: 401, message_key: 'unauthorized_user' });
    expect(await t.app.container.repositories.albums.sharesOf(event.id)).toHaveLength(before);
  });
});
