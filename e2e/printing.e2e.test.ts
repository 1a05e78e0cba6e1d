import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { endpoints } from '@flashbulb/shared';
import {
  accessTokenOf,
  createEventWithRobot,
  ownerClient,
  signInWithMfaSetup,
} from './support/console.ts';
import { cliInThisProcess } from './support/cli.ts';
import { journeyResources } from './support/journey.ts';

/**
 * Printing in Chromium: the template editor makes a 2-placeholder 4×6 template by
 * dragging and resizing placeholders on the sheet; the event prints on it; two photos selected in
 * the console album are printed 2 times; the print desk shows the sheet printed; the embedded file
 * printer holds two 1800×1200 sheets with one photo in each half.
 */

const ADMIN_EMAIL = 'admin@example.com';
const ADMIN_PASSWORD = 'copper-meadow-signal-17';
const RED = { r: 220, g: 30, b: 30 };
const BLUE = { r: 30, g: 40, b: 210 };

const journey = journeyResources();

/** Drags with the mouse from one point to another in small steps (pointer events, as a hand). */
const drag = async (page: Page, from: [number, number], to: [number, number]) => {
  await page.mouse.move(...from);
  await page.mouse.down();
  await page.mouse.move(...to, { steps: 8 });
  await page.mouse.up();
};

const colourAt = async (sheet: Buffer, left: number, top: number) => {
  const { data } = await sharp(sheet)
    .extract({ left, top, width: 200, height: 200 })
    .resize(1, 1, { fit: 'fill' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { r: data[0]!, g: data[1]!, b: data[2]! };
};
const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }) =>
  Math.abs(a.r - b.r) < 30 && Math.abs(a.g - b.g) < 30 && Math.abs(a.b - b.b) < 30;

describe('printing in Chromium', () => {
  it('a 2-placeholder 4×6 made in the template editor prints 2 photos per sheet; the print desk shows it printed', async () => {
    const server = await journey.startServer({
      env: { FLASHBULB_ADMIN_EMAIL: ADMIN_EMAIL, FLASHBULB_ADMIN_PASSWORD: ADMIN_PASSWORD },
    });
    const browser = await journey.launchBrowser();
    const { page } = browser;
    const { url } = server;
    const shots = process.env.FLASHBULB_SCREENSHOT_DIR;
    await journey.withServerLog(async () => {
      await page.setViewportSize({ width: 1440, height: 900 });
      await signInWithMfaSetup(page, url, ADMIN_EMAIL, ADMIN_PASSWORD);
      const call = ownerClient(url, await accessTokenOf(page));
      const { organisation, event, robot } = await createEventWithRobot(call, {
        organisation: 'Print Studio',
        event: 'Print Night',
      });

      // ---- the template editor: two placeholders side by side on a 6×4 sheet, by mouse
      await page.goto(`${url}/templates/`);
      await page.getByRole('heading', { name: 'New print template' }).waitFor();
      await page.getByLabel('Name').fill('Two up');
      await page.getByRole('textbox', { name: 'Organisation' }).click();
      await page.getByRole('option', { name: organisation.name }).click();
      await page.getByText('Printed at 1800 × 1200 pixels').waitFor();
      const sheet = page.getByRole('img', { name: /^Sheet 6 × 4 in/ });
      const box = (await sheet.boundingBox())!;
      // Placeholder 1 fills the sheet: its corner handle goes to the middle of the bottom edge.
      const handle1 = (await page.getByLabel('Resize placeholder 1').boundingBox())!;
      const corner1: [number, number] = [
        handle1.x + handle1.width / 2,
        handle1.y + handle1.height / 2,
      ];
      await drag(page, corner1, [corner1[0] - box.width / 2, corner1[1]]);
      await page.getByRole('button', { name: 'Add', exact: true }).click();
      await page.getByText('Placeholders (2)').waitFor();
      // Placeholder 2 (a third of the sheet at 34 %): to the top of the right half, then grown to
      // the sheet's edges (the editor keeps it inside the sheet).
      const p2 = (await page.getByLabel('Placeholder 2', { exact: true }).boundingBox())!;
      const grab: [number, number] = [p2.x + p2.width / 2, p2.y + p2.height / 2];
      await drag(page, grab, [grab[0] + box.width * 0.16, grab[1] - box.height]);
      const handle2 = (await page.getByLabel('Resize placeholder 2').boundingBox())!;
      const corner2: [number, number] = [
        handle2.x + handle2.width / 2,
        handle2.y + handle2.height / 2,
      ];
      await drag(page, corner2, [corner2[0] + box.width, corner2[1] + box.height]);
      if (shots) await page.screenshot({ path: path.join(shots, 'template-editor-1440x900.png') });
      await page.getByRole('button', { name: 'Save template' }).click();
      await page.getByText('Template saved.').waitFor();
      const tid = Number(new URL(page.url()).searchParams.get('tid'));
      expect(tid).toBeGreaterThan(0);
      const saved = await call(endpoints.pptRetrieve, { id: tid });
      expect(saved.placeholder_counts).toBe(2);
      const [left, right] = saved.layout.placeholders;
      expect(left!.x).toBe(0);
      expect(left!.width).toBeCloseTo(0.5, 2);
      expect(right!.x).toBeCloseTo(0.5, 2);
      expect(right!.x + right!.width).toBeCloseTo(1, 4);
      expect([right!.y, right!.height]).toEqual([0, 1]);

      // ---- the event prints on it
      const fresh = await call(endpoints.eventFullData, { event_name: event.name });
      await call(endpoints.updateEvent, {
        id: event.id,
        is_photo_printer_active: 1,
        max_print_copies_count: 3,
        ppt_id_array: [tid],
        event_last_updated_date: fresh[0]!.updated_date,
      });

      // ---- two photos from the booth robot
      const photoDir = journey.keepFolder(
        await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-print-')),
      );
      for (const [name, colour] of [
        ['red.jpg', RED],
        ['blue.jpg', BLUE],
      ] as const)
        await sharp({ create: { width: 1200, height: 800, channels: 3, background: colour } })
          .jpeg({ quality: 90 })
          .toFile(path.join(photoDir, name));
      await cliInThisProcess(
        ['upload', '--event', event.name, '--key', robot.api_key, '--server', url, photoDir],
        process.env,
      );
      await expect
        .poll(
          async () =>
            (
              await call(endpoints.ownerPhotoList, {
                event_id: event.id,
                max_size: 10,
                page_number: 1,
              })
            ).photos.filter((p) => p.status === 'ready').length,
          { timeout: 30_000 },
        )
        .toBe(2);

      // ---- the console album: select both, print 2 copies
      await page.goto(`${url}/events/${event.name}/album`);
      await page.getByRole('heading', { name: 'Album of Print Night' }).waitFor();
      await page.getByRole('checkbox', { name: 'Select red.jpg' }).check();
      await page.getByRole('checkbox', { name: 'Select blue.jpg' }).check();
      await page.getByRole('button', { name: 'Print…' }).click();
      const dialog = page.getByRole('dialog', { name: 'Print 2 photos' });
      await dialog.getByLabel('Copies').fill('2');
      await dialog.getByRole('button', { name: 'Print', exact: true }).click();
      await dialog.getByText('1 sheet queued on Default (2 copies each).').waitFor();
      await dialog.getByRole('link', { name: 'Open the print desk' }).click();

      // ---- the print desk shows the sheet printed
      await page.getByRole('heading', { name: 'Print desk' }).waitFor();
      const row = page.locator('[data-testid^="print-job-"]');
      await expect.poll(() => row.count(), { timeout: 30_000 }).toBe(1);
      await expect
        .poll(() => row.getByTestId('job-state').textContent(), { timeout: 30_000 })
        .toBe('printed');
      await expect.poll(() => row.locator('img').count()).toBe(2);
      await expect.poll(() => row.locator('td').nth(3).textContent()).toBe('2');
      if (shots) await page.screenshot({ path: path.join(shots, 'print-desk-1440x900.png') });

      // ---- the file printer: the sheet twice, a photo in each half
      const jobId = Number((await row.getAttribute('data-testid'))!.replace('print-job-', ''));
      const folder = path.join(server.dataDir, 'prints', 'Default');
      expect((await readdir(folder)).sort()).toEqual([`job-${jobId}-1.jpg`, `job-${jobId}-2.jpg`]);
      for (const file of await readdir(folder)) {
        const bytes = await readFile(path.join(folder, file));
        expect(await sharp(bytes).metadata()).toMatchObject({ width: 1800, height: 1200 });
        const halves = [await colourAt(bytes, 350, 500), await colourAt(bytes, 1250, 500)];
        expect(halves.some((c) => near(c, RED))).toBe(true);
        expect(halves.some((c) => near(c, BLUE))).toBe(true);
      }
      const photos = await call(endpoints.ownerPhotoList, {
        event_id: event.id,
        max_size: 10,
        page_number: 1,
      });
      expect(photos.photos.map((p) => p.printed)).toEqual([1, 1]);
    });
    expect(browser.problems).toEqual([]);
  }, 120_000);
});
