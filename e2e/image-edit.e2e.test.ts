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
const ADMIN_PASSWORD = 'copper-meadow-signal-17';

const journey = journeyResources();

describe('image editor in Chromium', () => {
  it('rotates a photo and saves it as a new version; the original is kept and marked curated', async () => {
    const server = await journey.startServer({
      env: { FLASHBULB_ADMIN_EMAIL: ADMIN_EMAIL, FLASHBULB_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const browser = await journey.launchBrowser();
    const { page } = browser;
    const { url } = server;
    await journey.withServerLog(async () => {
      await signInWithMfaSetup(page, url, ADMIN_EMAIL, ADMIN_PASSWORD);
      const call = ownerClient(url, await accessTokenOf(page));
      const { event, robot } = await createEventWithRobot(call, {
        organisation: 'Editors',
        event: 'Edit Night',
      });
      const photoDir = journey.keepFolder(
        await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-edit-')),
      );
      await sharp({
        create: { width: 640, height: 480, channels: 3, background: { r: 30, g: 120, b: 200 } },
      })
        .jpeg({ quality: 85 })
        .toFile(path.join(photoDir, 'landscape.jpg'));
      await cliInThisProcess(
        ['upload', '--event', event.name, '--key', robot.api_key, '--server', url, photoDir],
        process.env,
      );
      const listAll = () =>
        call(endpoints.ownerPhotoList, { event_id: event.id, max_size: 10, page_number: 1 });
      await expect
        .poll(async () => (await listAll()).photos[0]?.status, { timeout: 30_000 })
        .toBe('ready');
      const original = (await listAll()).photos[0]!;

      await page.goto(`${url}/imageEdit/index.html?event=${event.name}&photo=${original.id}`);
      await page.getByRole('button', { name: 'Rotate 90° (R)' }).click();
      await page.getByText('Rotated 90°, result 480 × 640 px').waitFor();
      await page.getByRole('button', { name: 'Save as new version' }).click();
      await page.getByText('Saved as a new version').waitFor({ timeout: 30_000 });

      await expect.poll(async () => (await listAll()).photos.length, { timeout: 30_000 }).toBe(2);
      await expect
        .poll(async () => (await listAll()).photos.every((p) => p.status === 'ready'), {
          timeout: 30_000,
        })
        .toBe(true);
      const photos = (await listAll()).photos;
      const kept = photos.find((p) => p.id === original.id)!;
      const edited = photos.find((p) => p.id !== original.id)!;
      expect(kept).toMatchObject({ is_curated: 1, width: 640, height: 480 });
      expect([edited.width, edited.height]).toEqual([480, 640]);
    });
    expect(browser.problems).toEqual([]);
  }, 120_000);
});
