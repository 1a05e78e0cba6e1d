import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import {
  endpoints,
  GUEST_BOOT_COUNT_LIMIT,
  GUEST_BOOT_ELEMENT_ID,
  type FlashbulbEvent,
} from '@flashbulb/shared';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Album links are sent with their first data (LCP on a slow phone): `guest.html` carries
 * the event and the first photo page exactly as the API answers them for the link's key, in a
 * JSON block no value can break out of, plus preloads of the first tiles' thumbnails — and nothing
 * for a key that may not read the album.
 */

const XSS = [
  '</script><script>window.__xss=1</script>',
  '<!--<script>window.__xss=2</script>',
  '"><img src=x onerror="window.__xss=3">',
  `\u2028\u2029 & ' $& $1`,
].join(' ');
const GUEST_HTML =
  '<!doctype html><html lang="en"><head><meta charset="UTF-8"><title>guest</title></head>' +
  '<body><div id="root"></div></body></html>';

let t: TestApp;
let event: FlashbulbEvent;
let otherEvent: FlashbulbEvent;
let browser: Browser;
const ids: number[] = [];
let hiddenId = 0;
let world: Awaited<ReturnType<typeof createEventWorld>>;

const get = (url: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'GET', url, headers });

const blockOf = (html: string) =>
  new RegExp(
    `<script type="application/json" id="${GUEST_BOOT_ELEMENT_ID}">([\\s\\S]*?)</script>`,
  ).exec(html)?.[1];

beforeAll(async () => {
  const dist = await mkdtemp(path.join(tmpdir(), 'flashbulb-dist-'));
  await mkdir(path.join(dist, 'assets'));
  await writeFile(path.join(dist, 'index.html'), '<!doctype html><title>console</title>');
  await writeFile(path.join(dist, 'guest.html'), GUEST_HTML);
  t = await createTestApp({ FLASHBULB_WEB_DIST: dist }, { worker: false });
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, { full_name: `Gala ${XSS}` });
  otherEvent = await createEvent(t, world.adminA, { full_name: 'Other' });
  const photos = t.app.container.repositories.photos;
  for (let i = 0; i < 5; i += 1) {
    const photo = await insertReadyPhoto(t, event);
    await photos.update(photo.id, { fileName: `${XSS} ${i}.jpg` });
    ids.push(photo.id);
  }
  const hidden = await insertReadyPhoto(t, event);
  await photos.update(hidden.id, { isVisible: 0 });
  hiddenId = hidden.id;
  await insertReadyPhoto(t, otherEvent);
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
});

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

describe('album links carry their first data', () => {
  it('sends the event and first page as the API answers them for the key, with preloads', async () => {
    const reply = await get(`/?pId=${event.public_api_key}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.headers['cache-control']).toBe('private, no-cache');
    const block = blockOf(reply.body);
    expect(block).toBeDefined();
    const boot = JSON.parse(block!) as Record<string, unknown>;
    const api = {
      page: await t.ok(endpoints.publicPhotoList, {
        key_type: 'public',
        key_value: event.public_api_key,
        max_size: 100,
        page_number: 1,
        show_total_count: 1,
      }),
      events: await t.ok(endpoints.publicEventFullData, {
        key_type: 'public',
        key_value: event.public_api_key,
      }),
    };
    expect(boot).toMatchObject({ key_type: 'public', key_value: event.public_api_key });
    expect(boot.event_name).toBeNull();
    // Signed media URLs may differ by the second they were made; everything else is the same.
    const unsigned = (value: unknown): unknown =>
      JSON.parse(
        JSON.stringify(value).replace(/([?&](?:exp|expires|sig|signature)=)[^"&]*/gi, '$1'),
      );
    expect(unsigned(boot.first_page)).toEqual(unsigned(api.page));
    expect(boot.event).toEqual(api.events[0]);
    // The public key reads visible photos only, newest first; never another event's.
    const listed = (boot.first_page as { photos: { id: number }[]; total_count: number }).photos;
    expect(listed.map((p) => p.id).sort()).toEqual([...ids].sort());
    expect(listed.map((p) => p.id)).not.toContain(hiddenId);
    expect((boot.first_page as { total_count: number }).total_count).toBe(5);
    // The first row's thumbnails are preloaded with high priority, in list order.
    const preloads = [
      ...reply.body.matchAll(/<link rel="preload" as="image" fetchpriority="high" href="([^"]+)"/g),
    ].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(preloads).toHaveLength(3);
    const thumbnails = (boot.first_page as { photos: { urls: { thumbnail: string } }[] }).photos
      .slice(0, 3)
      .map((p) => p.urls.thumbnail);
    expect(preloads).toEqual(thumbnails);
  });

  it('keeps every value inside the data block: an XSS corpus never runs and reads back intact', async () => {
    const reply = await get(`/?pId=${event.public_api_key}&eName=${event.name}`);
    const block = blockOf(reply.body)!;
    // Nothing in the block can end the element or open a comment.
    expect(block).not.toMatch(/[<>]/);
    expect(reply.body.match(/<script/g)).toHaveLength(1);
    const page = await browser.newPage();
    try {
      await page.setContent(reply.body);
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      const boot = await page.evaluate<{
        event_name: string;
        event: { full_name: string };
        first_page: { photos: { file_name: string }[] };
      }>(`JSON.parse(document.getElementById('${GUEST_BOOT_ELEMENT_ID}').textContent)`);
      expect(boot.event_name).toBe(event.name);
      expect(boot.event.full_name).toBe(`Gala ${XSS}`);
      expect(boot.first_page.photos.map((p) => p.file_name).sort()).toEqual(
        [0, 1, 2, 3, 4].map((i) => `${XSS} ${i}.jpg`),
      );
    } finally {
      await page.close();
    }
  });

  it('sends the private link its own view, compressed when the browser accepts it', async () => {
    const reply = await get(`/?pvId=${event.private_api_key}`, { 'accept-encoding': 'gzip, br' });
    expect(reply.headers['content-encoding']).toBe('br');
    const html = brotliDecompressSync(reply.rawPayload).toString('utf8');
    const boot = JSON.parse(blockOf(html)!) as {
      key_type: string;
      first_page: { photos: unknown[] };
    };
    expect(boot.key_type).toBe('private');
    expect(boot.first_page.photos.length).toBeGreaterThan(0);
  });

  it('inlines nothing for a key that may not read the album, or for other pages', async () => {
    for (const url of [
      '/?pId=not-a-key',
      `/?pId=${event.public_api_key}x`,
      // eName must name the key's event, as the API checks.
      `/?pId=${event.public_api_key}&eName=${otherEvent.name}`,
      // Curation (owner key), attendee and mini-album pages read their data themselves.
      `/?eId=${event.owner_api_key}`,
      '/?attId=ABCD-1234',
      `/?pId=${'x'.repeat(300)}`,
    ]) {
      const reply = await get(url);
      expect(reply.statusCode, url).toBe(200);
      expect(reply.body, url).toContain('<div id="root"></div>');
      expect(reply.body, url).not.toContain(GUEST_BOOT_ELEMENT_ID);
      expect(reply.body, url).not.toContain('rel="preload"');
      expect(reply.headers['cache-control'], url).toBe('no-cache');
    }
  });

  it('inlines nothing for an event that collects leads (the page load carries no lead)', async () => {
    const gated = await createEvent(t, world.adminA, {
      full_name: 'Gated',
      collect_leads: 1,
      lead_params: { show_agree_checkbox: 1, please_read_text: 'Offers from our sponsors.' },
    });
    await insertReadyPhoto(t, gated);
    const reply = await get(`/?pId=${gated.public_api_key}`);
    expect(reply.statusCode).toBe(200);
    expect(reply.body).not.toContain(GUEST_BOOT_ELEMENT_ID);
    expect(reply.body).not.toContain('rel="preload"');
  });

  it('paints the cover and the first row into the page, escaped, with the preloaded images', async () => {
    const reply = await get(`/?pId=${event.public_api_key}`);
    const page = await browser.newPage();
    try {
      await page.setViewportSize({ width: 390, height: 844 });
      await page.setContent(reply.body);
      expect(await page.evaluate('window.__xss')).toBeUndefined();
      // A script string: the server project has no DOM types.
      const paint = await page.evaluate<{
        inert: boolean;
        kind: string | null;
        title: string;
        count: string;
        shown: { src: string; srcset: string; sizes: string; high: string | null }[];
      }>(`(() => {
        const root = document.querySelector('#root > .albums-root');
        const shown = [...document.querySelectorAll('.fb-first-row img')]
          .filter((img) => img.closest('.albums-cell').getBoundingClientRect().width > 0)
          .map((img) => ({
            src: img.getAttribute('src'),
            srcset: img.getAttribute('srcset'),
            sizes: img.getAttribute('sizes'),
            high: img.getAttribute('fetchpriority'),
          }));
        return {
          inert: root.hasAttribute('inert'),
          kind: root.getAttribute('data-page-kind'),
          title: document.querySelector('.albums-cover-title').textContent,
          count: document.querySelector('.albums-count').textContent,
          shown,
        };
      })()`);
      expect(paint).toMatchObject({
        inert: true,
        kind: 'public-album',
        title: `Gala ${XSS}`,
        count: '5 photos',
      });
      // The tiles the page preloaded, with the same srcset and sizes (one download each).
      const preloads = await page.evaluate<{ src: string; srcset: string; sizes: string }[]>(
        `[...document.querySelectorAll('link[rel="preload"][as="image"]')].map((link) => ({
          src: link.getAttribute('href'),
          srcset: link.getAttribute('imagesrcset'),
          sizes: link.getAttribute('imagesizes'),
        }))`,
      );
      expect(paint.shown.length).toBeGreaterThan(0);
      paint.shown.forEach((image, i) => {
        expect(image).toMatchObject({ ...preloads[i], high: i < 3 ? 'high' : null });
      });
    } finally {
      await page.close();
    }
  });

  it('counts a large album only up to the limit on the page, labelled, and exactly on request', async () => {
    // More photos than the page counts: the page must not count them all before its first byte.
    const big = await createEvent(t, world.adminA, { full_name: 'Big' });
    const beyond = GUEST_BOOT_COUNT_LIMIT + 7;
    await t.database.executeSql(
      `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
         width, height, size_bytes, status, is_visible, derivatives, created_at, available_at)
       select 'big' || g, $1, md5('big' || g), 'events/x/photos/uid_big' || g || '_uid/original.jpg',
         'IMG_' || g || '.jpg', 'image/jpeg', 'image', 64, 48, 100, 'ready', 1,
         '{"preview":"p.jpg","thumbnail":"t.jpg"}'::jsonb,
         now() - interval '1 hour' + g * interval '1 second', now() - interval '1 hour'
       from generate_series(1, $2::int) g`,
      [big.id, beyond],
    );
    const reply = await get(`/?pId=${big.public_api_key}&lang=es`);
    const boot = JSON.parse(blockOf(reply.body)!) as {
      first_page: { total_count: number; total_count_capped?: number; photos: unknown[] };
    };
    expect(boot.first_page).toMatchObject({
      total_count: GUEST_BOOT_COUNT_LIMIT,
      total_count_capped: 1,
    });
    expect(boot.first_page.photos).toHaveLength(100);
    // The first paint says "at least", in the page's language.
    expect(reply.body).toContain(
      `<span class="albums-count">${GUEST_BOOT_COUNT_LIMIT}+ fotos</span>`,
    );
    // The exact count is one call away (the page asks it after painting), and a count under the
    // limit is exact and not marked.
    const exact = await t.ok(endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: big.public_api_key,
      max_size: 1,
      page_number: 1,
      show_total_count: 1,
    });
    expect(exact.total_count).toBe(beyond);
    expect(exact.total_count_capped).toBeUndefined();
    const under = await t.ok(endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: big.public_api_key,
      max_size: 1,
      page_number: 1,
      show_total_count: 1,
      count_limit: beyond,
    });
    expect(under).toMatchObject({ total_count: beyond });
    expect(under.total_count_capped).toBeUndefined();
    const small = JSON.parse(blockOf((await get(`/?pId=${event.public_api_key}`)).body)!) as {
      first_page: Record<string, unknown>;
    };
    expect(small.first_page.total_count).toBe(5);
    expect(small.first_page).not.toHaveProperty('total_count_capped');
  });

  it('answers an instant link that names no photo with a real 404: the guest page, translated there', async () => {
    await t.app.container.repositories.instantLinks.tryCreate({
      eventId: event.id,
      code: 'K7M3QX',
      uploadKey: 'instant-page-test',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const known = await get(`/?instant=${event.name}-K7M3QX`);
    expect(known.statusCode).toBe(200);
    expect(known.body).toContain('<div id="root"></div>');
    for (const url of [
      `/?instant=${event.name}-ZZZZZZ`,
      `/?instant=${otherEvent.name}-K7M3QX`,
      '/?instant=no-such-event-K7M3QX',
      '/?instant=%3Cscript%3E',
    ]) {
      const reply = await get(url, { 'accept-language': 'es' });
      expect(reply.statusCode, url).toBe(404);
      // The guest page itself (it says "not found" in the guest's language), never cached.
      expect(reply.headers['content-type'], url).toContain('text/html');
      expect(reply.headers['cache-control'], url).toBe('no-cache');
      expect(reply.body, url).toContain('<div id="root"></div>');
      expect(reply.body, url).toContain('lang="es"');
      expect(reply.body, url).not.toContain('<script>');
    }
  });

  it('paints nothing ahead for slide shows, streams and kiosks (their pages differ)', async () => {
    for (const url of [
      `/?pId=${event.public_api_key}&mode=slideshow`,
      `/?pId=${event.public_api_key}&mode=stream`,
      `/?pId=${event.public_api_key}&kioskMode=true`,
    ]) {
      const reply = await get(url);
      expect(reply.body, url).toContain(GUEST_BOOT_ELEMENT_ID);
      expect(reply.body, url).toContain('<div id="root"></div>');
      expect(reply.body, url).not.toContain('fb-first-row');
    }
    const reply = await get(`/?pvId=${event.private_api_key}`);
    expect(reply.body).toContain('data-page-kind="private-album"');
  });
});
