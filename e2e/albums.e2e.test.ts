import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { defaultEventOpts } from '@flashbulb/shared';
import {
  albumServerEnv,
  ALBUM_ADMIN,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
  type AlbumEvent,
} from './support/albums.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { screenshotSizes, withFailureContext } from './support/journey.ts';
import { signInInBrowser } from './support/console.ts';
import { repoRoot } from './support/paths.ts';
import { startServer, type RunningServer } from './support/server.ts';

const JOURNEY_TIMEOUT = 120_000;
/** Real photos (the shared test data beside the checkout, as the faces journeys use it). */
const FACES_TESTDATA =
  process.env.FLASHBULB_FACES_TESTDATA ?? path.resolve(repoRoot, '../shared/testdata/faces');
const TILE = /^[a-z]+\.jpg, \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/;

// One server for the file: each journey makes its own organisation and event on it.
let server: RunningServer | undefined;
let browser: RunningBrowser | undefined;
const folders: string[] = [];
let events = 0;

beforeAll(async () => {
  server = await startServer({ env: albumServerEnv });
});

afterEach(async () => {
  await browser?.close();
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
  browser = undefined;
});

afterAll(async () => {
  await server?.stop();
});

const withServerLog = (run: () => Promise<void>) =>
  withFailureContext(run, () => ({ server, browser }));

/** The file's server with a new event whose robot has uploaded three photos. */
const eventWithPhotos = async (
  settings: Parameters<typeof setUpAlbumEvent>[1] = {},
): Promise<{ url: string; event: AlbumEvent }> => {
  if (!server) throw new Error('the server did not start');
  events += 1;
  const event = await setUpAlbumEvent(server.url, settings, `Albums ${events}`);
  const folder = await photoFolder({
    'red.jpg': '#c0392b',
    'green.jpg': '#27ae60',
    'blue.jpg': '#2980b9',
  });
  folders.push(folder);
  await robotUpload(server.url, event, folder);
  await waitForPublicPhotos(server.url, event, 3);
  return { url: server.url, event };
};

const tiles = (page: Page) => page.getByRole('button', { name: TILE });

/** The names in a zip, read from its central directory. */
const zipNames = (zip: Buffer): string[] => {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.subarray(at + 46, at + 46 + nameLength).toString('utf8'));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names;
};
const viewerLabel = (page: Page) => page.getByRole('dialog').getAttribute('aria-label');

/** A one-finger touch on the viewer, as a phone would send it. */
const swipe = (page: Page, dx: number, dy: number, ms: number) =>
  page.evaluate(
    async ({ dx, dy, ms }) => {
      const stage = document.querySelector('[data-testid="viewer-stage"]');
      if (!stage) throw new Error('no viewer');
      const touch = (x: number, y: number) =>
        new Touch({ identifier: 1, target: stage, clientX: x, clientY: y });
      const start = touch(300, 300);
      stage.dispatchEvent(
        new TouchEvent('touchstart', { touches: [start], changedTouches: [start], bubbles: true }),
      );
      await new Promise((resolve) => setTimeout(resolve, ms));
      const end = touch(300 + dx, 300 + dy);
      stage.dispatchEvent(
        new TouchEvent('touchend', { touches: [], changedTouches: [end], bubbles: true }),
      );
    },
    { dx, dy, ms },
  );

describe('album journeys in Chromium', () => {
  it(
    'a guest opens the public album from its link, browses, opens a photo, swipes and uses the keys; the private link downloads the original',
    async () => {
      const { url, event } = await eventWithPhotos();
      browser = await launchBrowser();
      const { page } = browser;
      const scripts: string[] = [];
      const calls: string[] = [];
      page.on('request', (request) => {
        if (request.resourceType() === 'script') scripts.push(request.url());
        // API calls, with whether they asked from a date on (the stream's catch-up).
        if (request.url().includes('/api/'))
          calls.push(
            `${new URL(request.url()).pathname}${request.postData()?.includes('"start_date"') ? ' since' : ''}`,
          );
      });
      // Compressed bytes of every script the first load fetches, as they cross the network.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      const scriptBytes = new Map<string, number | null>();
      cdp.on('Network.responseReceived', (e) => {
        if (e.type === 'Script') scriptBytes.set(e.requestId, null);
      });
      cdp.on('Network.loadingFinished', (e) => {
        if (scriptBytes.has(e.requestId)) scriptBytes.set(e.requestId, e.encodedDataLength);
      });
      await withServerLog(async () => {
        const albumUrl = `${url}/?pId=${encodeURIComponent(event.publicKey)}`;
        await page.goto(albumUrl);
        await expect.poll(() => tiles(page).count()).toBe(3);
        // The budget: the album's first load stays under 150 KB of compressed JS.
        await expect.poll(() => [...scriptBytes.values()].every((b) => b !== null)).toBe(true);
        const firstLoad = [...scriptBytes.values()].reduce<number>((a, b) => a + (b ?? 0), 0);
        expect(firstLoad).toBeGreaterThan(50 * 1024);
        expect(firstLoad).toBeLessThan(150 * 1024);
        await cdp.detach();
        // Album links load the guest build (guest.html), never the console or Mantine.
        expect(scripts.some((s) => /\/assets\/guest-/.test(s))).toBe(true);
        expect(scripts.filter((s) => /console|mantine/.test(s))).toEqual([]);
        // The event and first photo page came with the page: not asked for again (the
        // live stream's catch-up asks only for photos from the newest shown on).
        expect(
          calls.filter((c) => /photo\/list|event\/full-data/.test(c) && !c.endsWith(' since')),
        ).toEqual([]);
        // Thumbnails really load (derivative URLs served by storage).
        await expect
          .poll(() =>
            tiles(page)
              .first()
              .locator('img')
              .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
          )
          .toBe(true);

        // The server's first paint (cover, first row) puts every box where the page then puts
        // it: the same page with its scripts refused, against the page as it runs.
        const boxes = () =>
          page.evaluate(() => {
            const box = (el: Element | null) => {
              const r = el?.getBoundingClientRect();
              return r ? [r.x, r.y, r.width, r.height].map(Math.round) : null;
            };
            const row =
              document.querySelector('.fb-first-row') ?? document.querySelector('.albums-row');
            return {
              cover: box(document.querySelector('.albums-cover')),
              cells: Array.from(row?.querySelectorAll('.albums-cell') ?? [])
                .map(box)
                .filter((b) => b !== null && b[2]! > 0),
            };
          });
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(albumUrl);
        await expect.poll(() => tiles(page).count()).toBe(3);
        await page.evaluate(() => document.fonts.ready);
        const running = await boxes();
        await page.route('**/assets/*.js', (route) => route.abort());
        await page.goto(albumUrl);
        await page.locator('.fb-first-row img').first().waitFor();
        await page.evaluate(() => document.fonts.ready);
        const painted = await boxes();
        await page.unroute('**/assets/*.js');
        await page.setViewportSize({ width: 1280, height: 720 });
        expect(painted.cells.length).toBeGreaterThan(0);
        expect(painted.cover).toEqual(running.cover);
        expect(painted.cells).toHaveLength(running.cells.length);
        painted.cells.forEach((cell, i) =>
          cell!.forEach((v, j) =>
            expect(Math.abs(v - running.cells[i]![j]!)).toBeLessThanOrEqual(1),
          ),
        );
        await page.goto(albumUrl);
        await expect.poll(() => tiles(page).count()).toBe(3);

        // Keyboard in the grid: arrow to the second photo, Enter opens it.
        await tiles(page).first().focus();
        await page.keyboard.press('ArrowRight');
        await page.keyboard.press('Enter');
        await expect.poll(() => viewerLabel(page)).toBe('Photo 2 of 3');
        await page.keyboard.press('ArrowLeft');
        await expect.poll(() => viewerLabel(page)).toBe('Photo 1 of 3');

        // Swipe left → next; a quick vertical flick does nothing; a slow one closes.
        await swipe(page, -120, 5, 50);
        await expect.poll(() => viewerLabel(page)).toBe('Photo 2 of 3');
        await page.keyboard.press('ArrowRight');
        await expect.poll(() => viewerLabel(page)).toBe('Photo 3 of 3');
        await expect
          .poll(() => page.getByRole('link', { name: 'Download original' }).count())
          .toBe(0);
        await swipe(page, 5, 120, 400);
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);

        // The private link offers the original, and it downloads.
        await page.goto(`${url}/?pvId=${encodeURIComponent(event.privateKey)}`);
        await expect.poll(() => tiles(page).count()).toBe(3);
        await tiles(page).first().click();
        const link = page.getByRole('link', { name: 'Download original' });
        await link.waitFor();
        const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
        expect(download.suggestedFilename()).toMatch(/^(red|green|blue)\.jpg$/);
        await page.keyboard.press('Escape');
        await expect.poll(() => page.getByRole('dialog').count()).toBe(0);
      });
      expect(browser.problems).toEqual([]);
      // The preloaded first thumbnails are the files the tiles used (Chromium warns otherwise).
      expect(browser.consoleErrors.filter((m) => /preload/i.test(m))).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a guest hearts photos; the favourites survive a reload and download as one zip',
    async () => {
      const { url, event } = await eventWithPhotos({ is_free: 1 });
      browser = await launchBrowser();
      const { page } = browser;
      await withServerLog(async () => {
        await page.goto(`${url}/?pId=${encodeURIComponent(event.publicKey)}`);
        await expect.poll(() => tiles(page).count()).toBe(3);
        await page.getByRole('button', { name: 'Favourite red.jpg' }).click();
        await page.getByRole('button', { name: 'Favourite blue.jpg' }).click();

        await page.reload();
        await expect.poll(() => tiles(page).count()).toBe(3);
        const pressed = (name: string) =>
          page.getByRole('button', { name: `Favourite ${name}` }).getAttribute('aria-pressed');
        expect(await pressed('red.jpg')).toBe('true');
        expect(await pressed('green.jpg')).toBe('false');
        await page.getByRole('button', { name: 'My favourites (2)' }).click();
        await expect.poll(() => tiles(page).count()).toBe(2);

        await page.getByRole('button', { name: 'Download 2 favourites' }).click();
        await page.getByRole('radio', { name: 'Original (as taken)' }).waitFor();
        if (process.env.FLASHBULB_E2E_SHOTS)
          await screenshotSizes(page, process.env.FLASHBULB_E2E_SHOTS, 'album-favourites', [
            [390, 844],
            [1440, 900],
          ]);
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          page.getByRole('button', { name: 'Download zip' }).click(),
        ]);
        expect(download.suggestedFilename()).toBe('Summer party.zip');
        const zip = await readFile(await download.path());
        expect(zipNames(zip).sort()).toEqual(['blue.jpg', 'red.jpg']);
        await expect
          .poll(() => page.getByText(/^Downloaded\./).count(), { timeout: 30_000 })
          .toBe(1);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a guest adds their own photo from the phone: picked, sent with its progress, and in the album live',
    async () => {
      const { url, event } = await eventWithPhotos({
        is_free: 1,
        opts: { ...defaultEventOpts(), description: 'album journeys', enablePhotoUpl: 1 },
      });
      browser = await launchBrowser();
      const { page } = browser;
      await withServerLog(async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${url}/?pId=${encodeURIComponent(event.publicKey)}`);
        await expect.poll(() => tiles(page).count()).toBe(3);
        await page.getByRole('button', { name: 'Add your photos' }).click();
        const panel = page.getByRole('region', { name: 'Add your photos' });
        await panel.getByText(/No photos chosen yet/).waitFor();
        if (process.env.FLASHBULB_E2E_SHOTS)
          await screenshotSizes(page, process.env.FLASHBULB_E2E_SHOTS, 'guest-upload-empty', [
            [390, 844],
          ]);
        // A real phone photo (a JPEG of people), as the camera roll hands it over.
        await panel
          .getByLabel('Take or choose photos')
          .setInputFiles(path.join(FACES_TESTDATA, 'groups/two_people.jpg'));
        await panel.getByText(/appear in the album in a moment/).waitFor({ timeout: 30_000 });
        expect(await panel.getByText('Added').count()).toBe(1);
        if (process.env.FLASHBULB_E2E_SHOTS)
          await screenshotSizes(page, process.env.FLASHBULB_E2E_SHOTS, 'guest-upload-added', [
            [390, 844],
          ]);
        // Ready, it reaches the open album through its live stream: no reload.
        const mine = page.getByRole('button', { name: /^two_people\.jpg, / });
        const pill = page.getByRole('button', { name: /new photo/ });
        await expect
          .poll(async () => (await mine.count()) + (await pill.count()), { timeout: 45_000 })
          .toBeGreaterThan(0);
        if ((await mine.count()) === 0) await pill.click();
        await expect.poll(() => mine.count()).toBe(1);
        await page.getByRole('button', { name: 'Done' }).click();
        if (process.env.FLASHBULB_E2E_SHOTS)
          await screenshotSizes(page, process.env.FLASHBULB_E2E_SHOTS, 'guest-upload-album', [
            [390, 844],
          ]);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a guest reads the album in the event’s Spanish, switches to Arabic laid out right to left, and keeps it on reload',
    async () => {
      const { url, event } = await eventWithPhotos({
        full_name: 'Fiesta de verano',
        opts: {
          ...defaultEventOpts(),
          description: 'album journeys',
          supportLink: 'https://help.example/',
          guestLanguage: 'es',
          guestLanguageAuto: 0,
        },
      });
      browser = await launchBrowser();
      const { page } = browser;
      // Opt-in screenshots for docs/screenshots (FLASHBULB_SCREENSHOT_DIR).
      const shots = process.env.FLASHBULB_SCREENSHOT_DIR;
      const count = () => page.locator('.albums-main .albums-count').textContent();
      const html = page.locator('html');
      await withServerLog(async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        const albumUrl = `${url}/?pId=${encodeURIComponent(event.publicKey)}`;
        // The server writes the page in the event's language: its first paint is Spanish.
        const response = await page.goto(albumUrl);
        const served = (await response?.text()) ?? '';
        expect(served).toContain('<html lang="es" dir="ltr" data-fb-lang="es">');
        expect(served).toContain('Compartir álbum');
        await expect.poll(() => tiles(page).count()).toBe(3);
        await expect.poll(count).toBe('3 fotos');
        expect(await html.getAttribute('lang')).toBe('es');
        await page.getByRole('link', { name: '¿Necesitas ayuda?' }).waitFor();
        if (shots) {
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: path.join(shots, 'album-es-390x844.png') });
        }

        // The guest picks Arabic: the page turns right to left and says it in Arabic.
        await page.getByRole('combobox', { name: 'Idioma' }).selectOption('ar');
        await expect.poll(() => html.getAttribute('dir')).toBe('rtl');
        await expect.poll(count).toBe('3 صور');
        await page.getByRole('button', { name: 'مشاركة الألبوم' }).waitFor();
        // Mirrored: the newest photo starts the row at the right; the title sits at the right;
        // nothing runs past the screen.
        // (Tiles are named "name، date" in Arabic: found by their place in the grid.)
        const cells = page.locator('.albums-grid .albums-tile:not(.albums-tile--loading)');
        const boxes = await cells.evaluateAll((els) =>
          els.map((el) => el.getBoundingClientRect().x),
        );
        expect(boxes[0]!).toBeGreaterThan(boxes[1]!);
        const title = await page.locator('.albums-cover-title').boundingBox();
        expect(title!.x + title!.width).toBeGreaterThan(300);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
          390,
        );
        if (shots) {
          await page.evaluate(() => document.fonts.ready);
          await page.screenshot({ path: path.join(shots, 'album-ar-390x844.png') });
        }

        // In the viewer the arrow towards the left goes on, as Arabic reads.
        await cells.first().locator('.albums-tile-open').click();
        await expect.poll(() => viewerLabel(page)).toBe('الصورة 1 من 3');
        await page.keyboard.press('ArrowLeft');
        await expect.poll(() => viewerLabel(page)).toBe('الصورة 2 من 3');
        await page.keyboard.press('Escape');

        // Remembered on the device: the server writes the next visit in Arabic.
        const again = await page.goto(albumUrl);
        expect(await again?.text()).toContain('<html lang="ar" dir="rtl" data-fb-lang="ar">');
        await expect.poll(count).toBe('3 صور');
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'the owner hides a photo on the curation page and the public album no longer shows it',
    async () => {
      const { url, event } = await eventWithPhotos();
      browser = await launchBrowser();
      const { page } = browser;
      await withServerLog(async () => {
        // The owner's console session in this browser (the refresh cookie), as after signing in.
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);

        await page.goto(`${url}/?eId=${encodeURIComponent(event.ownerKey)}`);
        await expect.poll(() => tiles(page).count()).toBe(3);
        await page.getByRole('button', { name: 'Hide: green.jpg' }).click();
        await expect
          .poll(() => page.getByRole('button', { name: 'Show: green.jpg' }).count())
          .toBe(1);

        await page.goto(`${url}/?pId=${encodeURIComponent(event.publicKey)}`);
        await expect.poll(() => tiles(page).count()).toBe(2);
        const names = await tiles(page).evaluateAll((els) =>
          els.map((el) => el.getAttribute('aria-label')?.split(',')[0]),
        );
        expect(names.sort()).toEqual(['blue.jpg', 'red.jpg']);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a kiosk stream shows a photo the robot uploads, without reloading',
    async () => {
      // The event offers its kiosk stream (opts.kioskStreamEnabled; off, the page says so).
      const { url, event } = await eventWithPhotos({
        opts: { ...defaultEventOpts(), description: 'album journeys', kioskStreamEnabled: 1 },
      });
      browser = await launchBrowser();
      const { page } = browser;
      await withServerLog(async () => {
        await page.goto(
          `${url}/?pId=${encodeURIComponent(event.publicKey)}&kioskMode=true&mode=stream`,
        );
        await expect.poll(() => tiles(page).count()).toBe(3);
        // The server's live stream is open (not the 5 s polling fallback).
        await expect.poll(() => page.locator('.albums-live').count()).toBe(1);
        await page.evaluate(() => {
          (window as unknown as { keptAlive: boolean }).keptAlive = true;
        });

        const folder = await photoFolder({ 'yellow.jpg': '#f1c40f' });
        folders.push(folder);
        await robotUpload(url, event, folder);

        await expect.poll(() => tiles(page).count(), { timeout: 30_000 }).toBe(4);
        expect(await tiles(page).first().getAttribute('aria-label')).toMatch(/^yellow\.jpg,/);
        expect(
          await page.evaluate(() => (window as unknown as { keptAlive?: boolean }).keptAlive),
        ).toBe(true);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
