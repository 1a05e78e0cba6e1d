import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { endpoints } from '@flashbulb/shared';
import {
  accessTokenOf,
  createEventWithRobot,
  ownerClient,
  signInWithMfaSetup,
} from './support/console.ts';
import { cliInThisProcess } from './support/cli.ts';
import { journeyResources } from './support/journey.ts';

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'violet-harbour-lantern-42';
const JOURNEY_TIMEOUT = 120_000;

const journey = journeyResources();

/** 20 small, distinct JPEGs in `photoDir`: 5 `stage-NN.jpg` and 15 `crowd-NN.jpg`. */
const generatePhotos = async (photoDir: string): Promise<string[]> => {
  const names = [
    ...Array.from({ length: 5 }, (_, i) => `stage-${String(i + 1).padStart(2, '0')}.jpg`),
    ...Array.from({ length: 15 }, (_, i) => `crowd-${String(i + 1).padStart(2, '0')}.jpg`),
  ];
  await Promise.all(
    names.map((name, i) =>
      sharp({
        create: {
          width: 640,
          height: 480,
          channels: 3,
          background: { r: (i * 47) % 256, g: (i * 91) % 256, b: (i * 13) % 256 },
        },
      })
        .jpeg({ quality: 80 })
        .toFile(path.join(photoDir, name)),
    ),
  );
  return names;
};

describe('console album journey in Chromium', () => {
  it(
    'the robot client uploads 20 photos; the album shows them, a hash filter narrows them, one is hidden and one deleted with a reason; a console upload is resized to 2000 px',
    async () => {
      const server = await journey.startServer({
        env: { FLASHBULB_ADMIN_EMAIL: ADMIN_EMAIL, FLASHBULB_ADMIN_PASSWORD: ADMIN_PASSWORD },
      });
      const browser = await journey.launchBrowser();
      const { page } = browser;
      const { url } = server;

      await journey.withServerLog(async () => {
        await signInWithMfaSetup(page, url, ADMIN_EMAIL, ADMIN_PASSWORD);
        const call = ownerClient(url, await accessTokenOf(page));

        // Set-up through the API: organisation, event, a robot assigned to the event.
        const { event, robot } = await createEventWithRobot(call, {
          organisation: 'Album Journeys',
          event: 'Harbour Festival',
        });

        // The robot client uploads the photos, exactly as a booth would (its commands in this
        // process: the process around them is apps/server/test/platform/cli.test.ts's).
        const photoDir = journey.keepFolder(
          await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-photos-')),
        );
        await generatePhotos(photoDir);
        const stdout = await cliInThisProcess(
          ['upload', '--event', event.name, '--key', robot.api_key, '--server', url, photoDir],
          process.env,
        );
        expect(stdout).toContain('20 uploaded, 0 already sent.');

        // The console album shows all 20, with their thumbnails once processed.
        await page.goto(`${url}/events/${event.name}/album`);
        await page.getByRole('heading', { name: 'Album of Harbour Festival' }).waitFor();
        await expect
          .poll(() => page.getByTestId('album-count-total').textContent(), { timeout: 30_000 })
          .toBe('20 photos');
        const grid = page.getByRole('list', { name: 'Photos' });
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(20);
        await expect
          .poll(() => grid.locator('img[alt$=".jpg"]').count(), { timeout: 45_000 })
          .toBe(20);
        // The thumbnail really loads (polled: the image may still be arriving on a busy machine).
        await expect
          .poll(
            () =>
              grid
                .locator('img[alt="stage-01.jpg"]')
                .evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0),
            { timeout: 30_000 },
          )
          .toBe(true);

        // A hash filter narrows them: typed in the bar, it lands in the URL; a reload keeps it.
        await page.getByLabel('File name contains').fill('stage');
        await page.getByLabel('File name contains').press('Enter');
        await expect.poll(() => new URL(page.url()).hash).toBe('#fn=stage');
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(5);
        await expect
          .poll(() => page.getByTestId('album-count-matching').textContent())
          .toBe('5 match the filter');
        await page.reload();
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(5);
        expect(await grid.locator('img[alt^="crowd-"]').count()).toBe(0);
        await page.getByRole('button', { name: 'Clear filter' }).click();
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(20);

        // Hide one: it stays in place, marked hidden; the v=0 filter shows it alone.
        await page.getByRole('button', { name: 'Hide crowd-03.jpg' }).click();
        const hiddenTile = grid.getByRole('listitem').filter({
          has: page.locator('img[alt="crowd-03.jpg"]'),
        });
        await hiddenTile.getByText('Hidden').waitFor();
        await page.getByRole('button', { name: 'Show crowd-03.jpg' }).waitFor();
        await page.goto(`${url}/events/${event.name}/album#v=0`);
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(1);
        expect(await grid.locator('img').getAttribute('alt')).toBe('crowd-03.jpg');
        expect(
          await page
            .getByRole('radiogroup', { name: 'Visible' })
            .getByRole('radio', { name: 'No' })
            .isChecked(),
        ).toBe(true);
        await page.getByRole('button', { name: 'Clear filter' }).click();
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(20);

        // Delete one with a reason: gone from the grid, and the count drops.
        await page.getByRole('checkbox', { name: 'Select crowd-07.jpg' }).check();
        await page.getByRole('button', { name: 'Delete…' }).click();
        const dialog = page.getByRole('dialog', { name: 'Delete 1 photo' });
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await dialog.getByText('Please give a reason for deleting').waitFor();
        await dialog.getByLabel('Reason').fill('Out of focus');
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await dialog.waitFor({ state: 'hidden' });
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(19);
        expect(await grid.locator('img[alt="crowd-07.jpg"]').count()).toBe(0);
        await expect
          .poll(() => page.getByTestId('album-count-total').textContent())
          .toBe('19 photos');

        // The server agrees: 19 photos, one of them hidden.
        const list = await call(endpoints.ownerPhotoList, {
          event_id: event.id,
          max_size: 100,
          page_number: 1,
          show_total_count: 1,
        });
        expect(list.total_count).toBe(19);
        expect(list.photos.filter((p) => p.is_visible === 0).map((p) => p.file_name)).toEqual([
          'crowd-03.jpg',
        ]);

        // Upload from the console: a 3000×2000 JPEG is resized in the browser to fit 2000×2000,
        // sent under a random base-36 name with its progress, and appears in the grid.
        const big = path.join(photoDir, 'Big Stage.JPG');
        await sharp({
          create: { width: 3000, height: 2000, channels: 3, background: { r: 200, g: 40, b: 90 } },
        })
          .jpeg({ quality: 90 })
          .toFile(big);
        await page.getByRole('button', { name: 'Upload photos' }).click();
        const panel = page.getByRole('region', { name: 'Upload photos' });
        await panel.getByLabel('Choose files').setInputFiles(big);
        await panel.getByText('1 of 1 uploaded').waitFor({ timeout: 30_000 });
        expect(
          await panel
            .getByRole('progressbar', { name: 'Upload progress of Big Stage.JPG' })
            .getAttribute('aria-valuenow'),
        ).toBe('100');
        await expect
          .poll(() => page.getByTestId('album-count-total').textContent(), { timeout: 30_000 })
          .toBe('20 photos');
        await expect.poll(() => grid.getByRole('listitem').count()).toBe(20);
        const uploaded = (
          await call(endpoints.ownerPhotoList, { event_id: event.id, max_size: 1, page_number: 1 })
        ).photos[0]!;
        // Console uploads keep the file's own name (sanitised: spaces become underscores).
        expect(uploaded.file_name).toBe('Big_Stage.JPG');
        await expect
          .poll(
            async () =>
              (
                await call(endpoints.ownerPhotoList, {
                  event_id: event.id,
                  max_size: 1,
                  page_number: 1,
                })
              ).photos[0]?.status,
            { timeout: 30_000 },
          )
          .toBe('ready');
        const ready = (
          await call(endpoints.ownerPhotoList, { event_id: event.id, max_size: 1, page_number: 1 })
        ).photos[0]!;
        expect([ready.width, ready.height]).toEqual([2000, 1333]);
        await grid.locator(`img[alt="${uploaded.file_name}"]`).waitFor({ timeout: 30_000 });

        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
