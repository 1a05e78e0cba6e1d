import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultEventOpts, endpoints } from '@flashbulb/shared';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  api,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { journeyResources, screenshotSizes } from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
const journey = journeyResources();
/** Screenshots of the page for people to look at (not compared). */
const SHOTS = path.join(tmpdir(), 'flashbulb-e2e-screenshots');

describe('moderation in Chromium', () => {
  it(
    'booth photos wait in the queue, out of the public album, until approved with the keyboard',
    async () => {
      const { url } = await journey.startServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(url, {
        opts: { ...defaultEventOpts(), description: 'moderated', moderationEnabled: 1 },
      });
      const folder = journey.keepFolder(
        await photoFolder({ 'red.jpg': '#c0392b', 'blue.jpg': '#2c3e50', 'green.jpg': '#27ae60' }),
      );
      await robotUpload(url, event, folder);
      const [stored] = await api(
        url,
        endpoints.eventFullData,
        { event_name: event.code },
        event.token,
      );
      // Ready for the operator, nothing for the public key.
      await expect
        .poll(
          async () =>
            (
              await api(url, endpoints.moderationQueue, { event_id: stored!.id }, event.token)
            ).photos.filter((p) => p.status === 'ready').length,
          { timeout: 60_000 },
        )
        .toBe(3);
      const publicList = () =>
        api(url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 10,
          page_number: 1,
        });
      expect((await publicList()).photos).toEqual([]);

      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);
        await page.goto(`${url}/events`);
        await page.getByRole('link', { name: 'Moderation queue of Summer party' }).click();
        const grid = page.getByRole('listbox', { name: 'Photos waiting for moderation' });
        await expect.poll(() => grid.getByRole('option').count()).toBe(3);
        await expect
          .poll(() =>
            grid
              .locator('img')
              .evaluateAll((imgs) =>
                imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0),
              ),
          )
          .toBe(true);
        await mkdir(SHOTS, { recursive: true });
        await screenshotSizes(page, SHOTS, 'moderation-queue', [
          [1440, 900],
          [390, 844],
        ]);

        // Focus the grid, A approves the photo in focus: the public album shows it.
        await page.setViewportSize({ width: 1440, height: 900 });
        await grid.focus();
        await page.keyboard.press('a');
        await expect.poll(() => grid.getByRole('option').count()).toBe(2);
        await waitForPublicPhotos(url, event, 1);
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
