import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import sharp from 'sharp';
import { endpoints } from '@flashbulb/shared';
import { VideoEngine } from '../apps/server/src/repositories/photos/video-engine.ts';
import { startThrowawayCluster, type ThrowawayCluster } from '../scripts/pg-cluster.mjs';
import {
  albumServerEnv,
  api,
  type AlbumEvent,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { lookShot, withFailureContext } from './support/journey.ts';
import { startServer, type RunningServer } from './support/server.ts';

const JOURNEY_TIMEOUT = 240_000;
/** A phone and a big screen: the sizes guests and walls use. */
const PHONE = { width: 390, height: 844 };
const WALL = { width: 1280, height: 720 };

/**
 * Screenshots of the 360° page, kept with FLASHBULB_E2E_SHOTS (docs/screenshots/ keeps a copy of
 * these).
 */
const PANORAMA_SHOTS = [
  { name: '390x844', width: 390, height: 844 },
  { name: '1440x900', width: 1440, height: 900 },
] as const;

type Engine = 'pglite' | 'postgres';

/** One server per engine (and one PostgreSQL cluster), started by the first test that needs it. */
const servers = new Map<Engine, Promise<{ server: RunningServer; event: AlbumEvent }>>();
let cluster: ThrowawayCluster | undefined;
let browser: RunningBrowser | undefined;
const folders: string[] = [];

const serverOn = (engine: Engine) => {
  let started = servers.get(engine);
  if (!started) {
    started = (async () => {
      let env: Record<string, string> = albumServerEnv;
      if (engine === 'postgres') {
        cluster = await startThrowawayCluster();
        env = { ...albumServerEnv, DATABASE_URL: cluster.url };
      }
      const server = await startServer({ env });
      return { server, event: await setUpAlbumEvent(server.url) };
    })();
    servers.set(engine, started);
  }
  return started;
};

const browserOnce = async () =>
  (browser ??= await launchBrowser(['--autoplay-policy=no-user-gesture-required']));

afterAll(async () => {
  await browser?.close();
  for (const started of servers.values()) await (await started.catch(() => null))?.server.stop();
  await cluster?.stop();
  await Promise.all(folders.map((f) => rm(f, { recursive: true, force: true })));
});

/** Waits until the first `<video>` in `scope` has played past `seconds`; answers its time. */
const playsPast = async (page: Page, scope: Locator, seconds: number): Promise<number> => {
  const video = scope.locator('video').first();
  await video.waitFor({ timeout: 30_000 });
  const handle = await video.elementHandle();
  await page.waitForFunction(
    ({ el, past }) => el instanceof HTMLVideoElement && el.currentTime > past && !el.error,
    { el: handle, past: seconds },
    { timeout: 30_000 },
  );
  return video.evaluate((el) => (el as HTMLVideoElement).currentTime);
};

const xmp360 =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:GPano="http://ns.google.com/photos/1.0/panorama/" GPano:ProjectionType="equirectangular"/>' +
  '</rdf:RDF></x:xmpmeta>';

/**
 * A 2:1 equirectangular panorama a 360° camera could send: the hue turns with the longitude and a
 * grid of lines marks every 30°, so every direction looks different.
 */
const panoramaJpeg = async (): Promise<Buffer> => {
  const width = 2048;
  const height = 1024;
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const hue = (x / width) * 6;
      const f = hue - Math.floor(hue);
      const shade = 0.45 + 0.5 * (1 - y / height);
      const rgb = [
        [1, f, 0],
        [1 - f, 1, 0],
        [0, 1, f],
        [0, 1 - f, 1],
        [f, 0, 1],
        [1, 0, 1 - f],
      ][Math.floor(hue) % 6]!;
      const line = x % (width / 12) < 6 || y % (height / 6) < 6;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) pixels[i + c] = line ? 20 : Math.round(rgb[c]! * shade * 255);
    }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg({ quality: 85 })
    .withXmp(xmp360)
    .toBuffer();
};

/** How many of two same-sized PNG screenshots' pixels differ (by more than a little). */
const pixelsChanged = async (before: Buffer, after: Buffer): Promise<number> => {
  const [a, b] = await Promise.all(
    [before, after].map((png) => sharp(png).removeAlpha().raw().toBuffer()),
  );
  let changed = 0;
  for (let i = 0; i < a!.length; i += 3)
    if (
      Math.abs(a![i]! - b![i]!) +
        Math.abs(a![i + 1]! - b![i + 1]!) +
        Math.abs(a![i + 2]! - b![i + 2]!) >
      30
    )
      changed++;
  return changed;
};

/**
 * The journey that plays a booth's clip, on one engine: the grid, the viewer, the slide show and
 * the kiosk each play it (`currentTime` advances).
 */
const clipJourney = (engine: Engine) => async () => {
  const { server, event } = await serverOn(engine);
  // A 6-second clip with sound, made by the engine; the robot client sends it like a booth.
  const engine_ = new VideoEngine(VideoEngine.resolveTools({}));
  const clip = await engine_.synthesize({
    seconds: 6,
    width: 640,
    height: 360,
    format: 'mp4',
    audio: true,
  });
  const folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-video-'));
  folders.push(folder);
  await writeFile(path.join(folder, 'booth-clip.mp4'), clip);
  await robotUpload(server.url, event, folder);
  await waitForPublicPhotos(server.url, event, 1);

  const running = await browserOnce();
  const { page } = running;
  const album = `${server.url}/?pId=${encodeURIComponent(event.publicKey)}`;
  const shot = (name: string) => `video/${engine}-${name}.png`;
  await withFailureContext(
    async () => {
      // The grid: the poster with the clip's length.
      await page.setViewportSize(PHONE);
      await page.goto(album);
      const tile = page.locator('button[data-photo-name="booth-clip.mp4"]');
      await tile.waitFor();
      await expect(tile.locator('.albums-badge--video').textContent()).resolves.toContain('0:06');
      await lookShot(page, shot('grid-390x844'));

      // The viewer: a short clip plays on its own, muted, looping, with controls.
      await tile.click();
      const dialog = page.getByRole('dialog');
      const viewerTime = await playsPast(page, dialog, 0.5);
      expect(viewerTime).toBeGreaterThan(0.5);
      const state = await dialog.locator('video').evaluate((el) => ({
        muted: (el as HTMLVideoElement).muted,
        loop: (el as HTMLVideoElement).loop,
        controls: (el as HTMLVideoElement).controls,
      }));
      expect(state).toEqual({ muted: true, loop: true, controls: true });
      await lookShot(page, shot('viewer-390x844'));

      // The slide show: the clip plays (to its end before the next slide).
      await page.setViewportSize(WALL);
      await page.goto(`${album}&mode=slideshow&display=${encodeURIComponent(event.displayToken)}`);
      const show = page.getByRole('region', { name: 'Slide show' });
      expect(await playsPast(page, show, 1)).toBeGreaterThan(1);
      await lookShot(page, shot('slideshow-1280x720'));

      // The kiosk: the album on the booth's screen plays it in its viewer.
      await page.setViewportSize(WALL);
      await page.goto(`${album}&kioskMode=true`);
      const kioskTile = page.locator('button[data-photo-name="booth-clip.mp4"]');
      await kioskTile.waitFor();
      await kioskTile.click();
      expect(await playsPast(page, page.getByRole('dialog'), 0.5)).toBeGreaterThan(0.5);
      await lookShot(page, shot('kiosk-1280x720'));
      expect(running.problems).toEqual([]);
    },
    () => ({ server, browser: running }),
  );
};

describe('video journeys in Chromium', () => {
  it(
    'a booth’s clip plays in the album viewer, the slide show and the kiosk (PGlite)',
    clipJourney('pglite'),
    JOURNEY_TIMEOUT,
  );

  it(
    'a booth’s clip plays in the album viewer, the slide show and the kiosk (PostgreSQL)',
    clipJourney('postgres'),
    JOURNEY_TIMEOUT,
  );

  it(
    'a 360° photo opens from the album viewer on its own page, which turns when dragged',
    async () => {
      const { server, event } = await serverOn('pglite');
      const folder = await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-360-'));
      folders.push(folder);
      await writeFile(path.join(folder, 'sphere.jpg'), await panoramaJpeg());
      await robotUpload(server.url, event, folder);
      // Ready once the public list shows it (derivatives come from a background job).
      const deadline = Date.now() + 60_000;
      for (;;) {
        const { photos } = await api(server.url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 100,
          display: event.displayToken,
        });
        const sphere = photos.find((p) => p.file_name === 'sphere.jpg');
        if (sphere) {
          expect(sphere.is_360).toBe(1);
          break;
        }
        if (Date.now() > deadline) throw new Error('the 360° photo never became ready');
        await new Promise((resolve) => setTimeout(resolve, 250));
      }

      const running = await browserOnce();
      const { page } = running;
      await withFailureContext(
        async () => {
          // The album viewer links the 360° page; it opens with the close button.
          await page.setViewportSize(PHONE);
          await page.goto(`${server.url}/?pId=${encodeURIComponent(event.publicKey)}`);
          const tile = page.locator('button[data-photo-name="sphere.jpg"]');
          await tile.waitFor();
          await tile.click();
          await page.getByTestId('viewer-360').click();
          await page.waitForURL(/\/share\/viewer\?url=/);
          await page.locator('#pano-root[data-view="sphere"]').waitFor({ timeout: 30_000 });
          await expect(page.locator('a.close').count()).resolves.toBe(1);

          // A drag to the left turns the view: most of the screen shows another part of the sphere.
          const canvas = page.locator('#pano-canvas');
          const drag = async (dx: number, dy: number) => {
            const box = (await canvas.boundingBox())!;
            const x = box.x + box.width / 2;
            const y = box.y + box.height / 2;
            await page.mouse.move(x, y);
            await page.mouse.down();
            await page.mouse.move(x + dx / 2, y + dy / 2, { steps: 4 });
            await page.mouse.move(x + dx, y + dy, { steps: 4 });
            await page.mouse.up();
          };
          const view = () => canvas.screenshot();
          const before = await view();
          await drag(-150, 0);
          await page.waitForFunction(
            () => new Promise((r) => requestAnimationFrame(() => r(true))),
          );
          const after = await view();
          const area = (await canvas.boundingBox())!;
          expect(await pixelsChanged(before, after)).toBeGreaterThan(
            area.width * area.height * 0.2,
          );
          // Dragging back brings the first view back.
          await drag(150, 0);
          await page.waitForFunction(
            () => new Promise((r) => requestAnimationFrame(() => r(true))),
          );
          expect(await pixelsChanged(before, await view())).toBeLessThan(
            area.width * area.height * 0.02,
          );

          for (const size of PANORAMA_SHOTS) {
            await page.setViewportSize(size);
            await page.waitForFunction(
              () => new Promise((r) => requestAnimationFrame(() => r(true))),
            );
            await lookShot(page, `video/viewer-360-${size.name}.png`);
          }
          expect(running.problems).toEqual([]);
        },
        () => ({ server, browser: running }),
      );
    },
    JOURNEY_TIMEOUT,
  );
});
