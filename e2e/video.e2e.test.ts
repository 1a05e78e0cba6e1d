import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { VideoEngine } from '../apps/server/src/repositories/photos/video-engine.ts';
import {
  albumServerEnv,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { repoRoot } from './support/paths.ts';
import { startServer, type RunningServer } from './support/server.ts';

const JOURNEY_TIMEOUT = 240_000;
/** Screenshots for people to look at (not compared): under test-results/, which git ignores. */
const SHOTS = path.join(repoRoot, 'test-results', 'video');
/** A phone and a big screen: the sizes guests and walls use. */
const PHONE = { width: 390, height: 844 };
const WALL = { width: 1280, height: 720 };

let server: RunningServer | undefined;
let browser: RunningBrowser | undefined;
const folders: string[] = [];

afterAll(async () => {
  await browser?.close();
  await server?.stop();
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

describe('video journeys in Chromium', () => {
  it(
    'a booth’s clip plays in the album viewer, the slide show and the kiosk',
    async () => {
      server = await startServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(server.url);
      // A 6-second clip with sound, made by the engine; the robot client sends it like a booth.
      const engine = new VideoEngine(VideoEngine.resolveTools({}));
      const clip = await engine.synthesize({
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

      browser = await launchBrowser(['--autoplay-policy=no-user-gesture-required']);
      const { page } = browser;
      const album = `${server.url}/?pId=${encodeURIComponent(event.publicKey)}`;
      try {
        // The grid: the poster with the clip's length.
        await page.setViewportSize(PHONE);
        await page.goto(album);
        const tile = page.locator('button[data-photo-name="booth-clip.mp4"]');
        await tile.waitFor();
        await expect(tile.locator('.albums-badge--video').textContent()).resolves.toContain('0:06');
        await page.screenshot({ path: path.join(SHOTS, 'grid-390x844.png') });

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
        await page.screenshot({ path: path.join(SHOTS, 'viewer-390x844.png') });

        // The slide show: the clip plays (to its end before the next slide).
        await page.setViewportSize(WALL);
        await page.goto(
          `${album}&mode=slideshow&display=${encodeURIComponent(event.displayToken)}`,
        );
        const show = page.getByRole('region', { name: 'Slide show' });
        expect(await playsPast(page, show, 1)).toBeGreaterThan(1);
        await page.screenshot({ path: path.join(SHOTS, 'slideshow-1280x720.png') });

        // The kiosk: the album on the booth's screen plays it in its viewer.
        await page.setViewportSize(WALL);
        await page.goto(`${album}&kioskMode=true`);
        const kioskTile = page.locator('button[data-photo-name="booth-clip.mp4"]');
        await kioskTile.waitFor();
        await kioskTile.click();
        expect(await playsPast(page, page.getByRole('dialog'), 0.5)).toBeGreaterThan(0.5);
        await page.screenshot({ path: path.join(SHOTS, 'kiosk-1280x720.png') });
        expect(browser.problems).toEqual([]);
      } catch (error) {
        if (error instanceof Error) error.message += `\n--- server output ---\n${server.output()}`;
        throw error;
      }
    },
    JOURNEY_TIMEOUT,
  );
});
