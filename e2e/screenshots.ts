/**
 * npm run screenshots — regenerates docs/screenshots/: the album, viewer, slide show and kiosk
 * pages (and the album's choose-and-download mode) of a branded showcase event in Chromium at 390×844 (phone), 1440×900 (laptop) and
 * 1080×1920 (portrait kiosk / screen), plus the kiosk at 1920×1080.
 *
 * Builds the web app, starts the real server with its own data folder, uploads the showcase
 * photos through the robot client, then opens each page like a guest.
 *
 *   npm run screenshots
 *   npm run screenshots -- --no-build     (reuse apps/web/dist)
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { albumServerEnv } from './support/albums.ts';
import { launchBrowser } from './support/browser.ts';
import { guestPages, setUpShowcase } from './support/guest-showcase.ts';
import { repoRoot } from './support/paths.ts';
import { startServer } from './support/server.ts';

const { values } = parseArgs({ options: { 'no-build': { type: 'boolean', default: false } } });
const OUT = path.join(repoRoot, 'docs/screenshots');
const SIZES = [
  { name: '390x844', width: 390, height: 844 },
  { name: '1440x900', width: 1440, height: 900 },
  { name: '1080x1920', width: 1080, height: 1920 },
] as const;

/** Every <img> in the page has loaded (or failed) and the web font is ready. */
const settled = (page: Page) =>
  page.waitForFunction(
    () =>
      document.fonts.status === 'loaded' &&
      Array.from(document.images).every((img) => img.complete),
    undefined,
    { timeout: 30_000 },
  );

const main = async () => {
  if (!values['no-build'])
    execFileSync('npm', ['run', 'build', '-w', '@flashbulb/web'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
  await mkdir(OUT, { recursive: true });
  const server = await startServer({ env: albumServerEnv });
  const browser = await launchBrowser();
  try {
    const { event, folder } = await setUpShowcase(server.url);
    await rm(folder, { recursive: true, force: true });
    const pages = guestPages(server.url, event);
    const page = browser.page;
    const shoot = async (name: string) => {
      await settled(page);
      // Let entrance fades finish (cross-fade 1.2 s, rows 0.35 s).
      await page.waitForTimeout(1500);
      await page.screenshot({ path: path.join(OUT, `${name}.png`) });
      console.log(`docs/screenshots/${name}.png`);
    };

    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });

      await page.goto(pages.album);
      await page.locator('.albums-tile-open img').first().waitFor();
      await shoot(`album-${size.name}`);

      // Choosing photos: "Download n photos" and the send form beside "Download all".
      await page.getByRole('button', { name: 'Send photos' }).click();
      await page.locator('.albums-tile-open').nth(0).click();
      await page.locator('.albums-tile-open').nth(2).click();
      const downloadChosen = page.getByRole('button', { name: 'Download 2 photos' });
      await downloadChosen.waitFor();
      // Choosing scrolled the grid: show the chosen tiles' actions (download, send form).
      await downloadChosen.evaluate((el) => el.scrollIntoView({ block: 'start' }));
      await page.evaluate(() => window.scrollBy(0, -120));
      await shoot(`album-choose-${size.name}`);
      await page.getByRole('button', { name: 'Cancel sending' }).click();

      await page.locator('.albums-tile-open').first().click();
      await page.getByRole('dialog').locator('img').first().waitFor();
      await shoot(`viewer-${size.name}`);

      await page.goto(pages.slideshow);
      await page.locator('img[data-photo-id]').waitFor();
      await page.locator('.albums-slideshow-qr img').waitFor();
      await shoot(`slideshow-${size.name}`);

      await page.goto(pages.kiosk);
      await page.locator('.albums-tile-open img').first().waitFor();
      await shoot(`kiosk-${size.name}`);
    }
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.goto(pages.kiosk);
    await page.locator('.albums-tile-open img').first().waitFor();
    await shoot('kiosk-1920x1080');
    if (browser.problems.length > 0) throw new Error(browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
  }
};

await main();
