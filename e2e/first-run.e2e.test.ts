import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyFile, mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signInSettingUpTotp } from './support/console-sign-in.ts';
import { journeyResources, photoNames } from './support/journey.ts';
import { repoRoot } from './support/paths.ts';
import { decodeQrPng } from './support/qr.ts';

const ADMIN_EMAIL = 'first@example.com';
const ADMIN_PASSWORD = 'amber-quay-lantern-73';
const JOURNEY_TIMEOUT = 240_000;

const execFileAsync = promisify(execFile);
/** Set to a folder to keep screenshots of the console screens at 1440x900 and 390x844. */
const SHOTS = process.env.FLASHBULB_SCREENSHOTS_DIR;

/** In-app navigation (no reload, so no session refresh per screen). */
const go = async (page: Page, route: string) => {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, route);
  await page.getByRole('button', { name: 'Sign out' }).waitFor({ state: 'attached' });
};

/**
 * Nothing moving: every transition and animation (a dropdown fading out, a modal sliding in) has
 * finished and every image has loaded, so a screenshot shows the state, not a frame of a change.
 */
const settled = (page: Page) =>
  page.waitForFunction(
    () =>
      document.getAnimations().every((animation) => animation.playState !== 'running') &&
      Array.from(document.images).every((img) => img.complete),
    undefined,
    { timeout: 10_000 },
  );

const screenshots = async (page: Page, dir: string) => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const [name, route] of [
      ['overview', '/'],
      ['events', '/events'],
      ['organisations', '/organisations'],
      ['robots', '/robots'],
      ['users', '/users'],
      ['api-keys', '/api-keys'],
    ] as const) {
      await go(page, route);
      await page.waitForLoadState('networkidle');
      await page.screenshot({
        path: path.join(dir, `console-${name}-${width}.png`),
        fullPage: true,
      });
    }
    await go(page, '/events');
    await page.getByRole('button', { name: 'Share Pier Party' }).click();
    // Each card carries its QR code: all of the first card is on the screen without scrolling.
    const guestCard = page.getByTestId('share-card-guestAlbum');
    await guestCard.getByTestId('share-qr').waitFor();
    await page.waitForLoadState('networkidle');
    await settled(page);
    await page.screenshot({ path: path.join(dir, `console-share-${width}x${height}.png`) });
    await page.keyboard.press('Escape');
    await guestCard.waitFor({ state: 'detached' });
    await go(page, '/events');
    await page.getByRole('button', { name: 'Edit Pier Party', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit event Pier Party' }).waitFor();
    await page.screenshot({ path: path.join(dir, `console-editor-${width}.png`) });
    await page.keyboard.press('Escape');
    await page
      .getByRole('dialog', { name: 'Edit event Pier Party' })
      .waitFor({ state: 'detached' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};
const journey = journeyResources();

/** The dashboard's tiles of these figures, as shown ("Views1"). */
const tileTexts = (page: Page, names: readonly string[]) =>
  Promise.all(
    names.map((name) =>
      page
        .getByTestId('insight-tile')
        .filter({ hasText: new RegExp(`^${name}\\d`) })
        .textContent(),
    ),
  );

/** The event's dashboard (with the journey's view and download) at 1440x900 and 390x844. */
const dashboardScreenshots = async (page: Page, dir: string) => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.getByTestId('insight-dashboard').waitFor();
    await page.waitForLoadState('networkidle');
    // The charts draw once their box is measured: wait for their lines before shooting.
    await page.locator('.recharts-surface').first().waitFor();
    await settled(page);
    await page.screenshot({ path: path.join(dir, `insight-event-${width}x${height}.png`) });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/** Real photos for the robot (../shared/testdata beside the checkout), else made ones. */
const TESTDATA = path.resolve(repoRoot, '../shared/testdata/faces/groups');
const REAL_PHOTOS = ['bbt1.jpg', 'two_people.jpg'];

/** The four steps of "New event", each at 1440x900 and 390x844 (left without creating). */
const wizardScreenshots = async (page: Page, dir: string, logo: string) => {
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await go(page, '/events');
    await page.getByRole('button', { name: 'New event' }).click();
    const wizard = page.getByRole('dialog', { name: 'New event' });
    const organisation = wizard.getByRole('textbox', { name: 'Organisation' });
    if ((await organisation.count()) > 0 && !(await organisation.inputValue())) {
      await organisation.click();
      await page.getByRole('option', { name: 'Harbour Events' }).click();
    }
    await wizard.getByRole('textbox', { name: 'Title', exact: true }).fill('Harbour Lights');
    await wizard.getByRole('textbox', { name: 'Description', exact: true }).fill('Boats at night');
    const shot = async (step: string) => {
      await page.waitForLoadState('networkidle');
      await settled(page);
      await page.screenshot({ path: path.join(dir, `wizard-${step}-${width}x${height}.png`) });
    };
    await shot('1-name');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('checkbox', { name: 'Show a logo' }).check();
    await wizard.getByLabel('Upload Logo image').setInputFiles(logo);
    await wizard.getByTestId('album-header-preview').locator('img[src*="/etc/new-"]').waitFor();
    await wizard.getByRole('textbox', { name: /^Accent colour/ }).fill('#0ca678');
    await wizard.getByTestId('preview-title').click();
    await page.locator('.mantine-ColorInput-dropdown').waitFor({ state: 'detached' });
    await shot('2-look');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('textbox', { name: 'From address' }).fill('photos@harbour.example');
    await shot('3-delivery');
    await wizard.getByRole('button', { name: 'Next' }).click();
    await wizard.getByRole('textbox', { name: 'New robot name' }).fill('Harbour booth');
    await shot('4-booths');
    await page.keyboard.press('Escape');
    await wizard.waitFor({ state: 'detached' });
  }
  await page.setViewportSize({ width: 1280, height: 900 });
};

/**
 * from an empty install to a shared album with nothing but the console and the robot
 * client — no API call, no database access, no CLI set-up. The robot key is read off the screen
 * that shows it once, the album link off the event's Share panel.
 */
describe('first run in Chromium', () => {
  it(
    'first administrator → organisation → event → robot → robot client upload → album on a phone',
    async () => {
      const server = await journey.startServer();
      const { page, problems } = await journey.launchBrowser();
      const photos = journey.keepFolder(
        await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-first-run-')),
      );
      const assets = journey.keepFolder(
        await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-first-run-logo-')),
      );
      const logo = path.join(assets, 'logo.png');
      await sharp({
        create: { width: 240, height: 80, channels: 4, background: '#1c7ed6' },
      })
        .png()
        .toFile(logo);
      for (const [i, name] of ['pier-01.jpg', 'pier-02.jpg'].entries()) {
        const real = path.join(TESTDATA, REAL_PHOTOS[i] ?? '');
        if (existsSync(real)) {
          await copyFile(real, path.join(photos, name));
          continue;
        }
        await sharp({
          create: {
            width: 640,
            height: 480,
            channels: 3,
            background: { r: 40 + i * 90, g: 120, b: 200 },
          },
        })
          .jpeg()
          .toFile(path.join(photos, name));
      }

      await journey.withServerLog(async () => {
        // ---- the first administrator, from the empty install's own form ----
        await page.goto(server.url);
        const form = page.getByRole('form', { name: 'Create the first administrator' });
        await form.getByLabel('E-mail').fill(ADMIN_EMAIL);
        await form.getByLabel('Password', { exact: true }).fill(ADMIN_PASSWORD);
        await form.getByLabel('Confirm password').fill(ADMIN_PASSWORD);
        await form.getByRole('button', { name: 'Create administrator' }).click();
        await page.getByRole('button', { name: 'Sign in' }).waitFor();
        await signInSettingUpTotp(page, ADMIN_EMAIL, ADMIN_PASSWORD);
        await page.getByText('Getting started').waitFor();

        // ---- organisation ----
        await page.getByRole('link', { name: 'Organisations' }).click();
        await page.getByLabel('New organisation name').fill('Harbour Events');
        await page.getByRole('button', { name: 'Create organisation' }).click();
        await page.getByTestId('organisation-created').waitFor();

        // ---- the event in four steps, with a booth (a robot) made from it ----
        await page.getByRole('link', { name: 'Events' }).click();
        await page.getByRole('button', { name: 'New event' }).click();
        const wizard = page.getByRole('dialog', { name: 'New event' });
        const organisation = wizard.getByRole('textbox', { name: 'Organisation' });
        if ((await organisation.count()) > 0 && !(await organisation.inputValue())) {
          await organisation.click();
          await page.getByRole('option', { name: 'Harbour Events' }).click();
        }
        const next = () => wizard.getByRole('button', { name: 'Next' }).click();
        // A step's problem is shown on it and keeps it open.
        await next();
        await wizard.getByText('Please enter the event title').waitFor();
        await wizard.getByRole('textbox', { name: 'Title', exact: true }).fill('Pier Party');
        await wizard.getByRole('textbox', { name: 'Description', exact: true }).fill('Lights');
        await next();
        // The look: a logo uploaded (not typed) shows in the album preview.
        await wizard.getByRole('checkbox', { name: 'Show a logo' }).check();
        await wizard.getByLabel('Upload Logo image').setInputFiles(logo);
        await wizard.getByTestId('album-header-preview').locator('img[src*="/etc/new-"]').waitFor();
        await next();
        await wizard.getByRole('textbox', { name: 'From address' }).fill('photos@pier.example');
        await next();
        await wizard.getByRole('textbox', { name: 'New robot name' }).fill('Pier booth');
        await wizard.getByRole('button', { name: 'Create event' }).click();
        const finished = wizard.getByTestId('wizard-finished');
        await finished.waitFor();
        // The key is shown once, inside the exact command, --server included.
        const command = (await finished.getByTestId('upload-command').textContent())?.trim() ?? '';
        expect(command).toMatch(
          new RegExp(
            `^npm run cli -- upload --server ${server.url.replace(/\/$/, '')} --event [A-Z0-9]{4} --key fbr_\\S+ <folder>$`,
          ),
        );
        const args = command.split(' ').slice(command.split(' ').indexOf('--') + 1);
        const code = args[args.indexOf('--event') + 1] ?? '';
        await finished.getByRole('button', { name: 'Done' }).click();
        await wizard.waitFor({ state: 'detached' });
        const row = page
          .getByTestId('event-row')
          .filter({ has: page.getByRole('cell', { name: 'Pier Party', exact: true }) });
        await row.waitFor();

        // ---- the printed command, run as printed (the folder filled in) ----
        const { stdout } = await execFileAsync(
          process.execPath,
          [
            '--import',
            'tsx',
            'apps/server/src/cli/main.ts',
            ...args.map((arg) => (arg === '<folder>' ? photos : arg)),
          ],
          { cwd: repoRoot },
        );
        expect(stdout).toContain('2 uploaded, 0 already sent.');

        // ---- a wrong key: the robot client explains it instead of answering `invalid_key` ----
        const wrongKey = await execFileAsync(
          process.execPath,
          [
            '--import',
            'tsx',
            'apps/server/src/cli/main.ts',
            ...args.map((arg, i) =>
              arg === '<folder>' ? photos : args[i - 1] === '--key' ? 'fbr_not-a-robot-key' : arg,
            ),
          ],
          { cwd: repoRoot },
        ).then(
          () => ({ code: 0, output: '' }),
          (error: { code?: number; stdout?: string; stderr?: string }) => ({
            code: error.code ?? 0,
            output: `${error.stdout ?? ''}${error.stderr ?? ''}`,
          }),
        );
        expect(wrongKey.code).toBe(1);
        expect(wrongKey.output).toContain(
          'This robot key is unknown: no robot has it. Copy the key shown when the robot was created',
        );
        expect(wrongKey.output).toContain('0 uploaded, 0 already sent.');

        // ---- the photos in the console album ----
        await go(page, `/events/${code}/album`);
        for (const name of ['pier-01.jpg', 'pier-02.jpg'])
          await page.getByRole('img', { name }).first().waitFor({ timeout: 60_000 });

        // ---- the dashboard: the two photos in, from the booth, nobody reached yet ----
        await go(page, `/events/${code}/insight`);
        await page.getByTestId('insight-dashboard').waitFor();
        expect(await tileTexts(page, ['Photos in', 'Views', 'Downloads'])).toEqual([
          'Photos in2',
          'Views0',
          'Downloads0',
        ]);
        const boothRow = page
          .getByRole('table', { name: 'Booths' })
          .getByRole('row')
          .filter({ hasText: 'Pier booth' });
        expect(await boothRow.getByRole('cell').allTextContents()).toEqual([
          'Pier booth',
          '2',
          '0',
          '0',
          '0',
          // revenue, refunds, net revenue
          '$0.00',
          '$0.00',
          '$0.00',
        ]);

        // ---- a colleague invited from the Users screen (the temporary password goes by mail) ----
        await page.getByRole('link', { name: 'Users' }).click();
        await page.getByLabel('E-mail').fill('owner@pier.example');
        await page.getByRole('button', { name: 'Invite user' }).click();
        await page.getByTestId('user-invited').waitFor();
        await page.getByTestId('user-row').filter({ hasText: 'owner@pier.example' }).waitFor();
        if (SHOTS) {
          await screenshots(page, SHOTS);
          await wizardScreenshots(page, SHOTS, logo);
        }

        // ---- the album link from the event's Share panel, opened on a phone ----
        await page.getByRole('link', { name: 'Events' }).click();
        await row.waitFor();
        await page.getByRole('button', { name: 'Share Pier Party' }).click();
        const albumUrl =
          (await page
            .getByTestId('share-card-guestAlbum')
            .getByTestId('share-url')
            .textContent()) ?? '';
        expect(albumUrl.startsWith(`${server.url}/?pId=`)).toBe(true);
        // The card's QR: on the screen without scrolling (laptop and phone), read by a camera as
        // the card's link; downloaded as a 1000 px PNG and as an SVG that read the same.
        const card = page.getByTestId('share-card-guestAlbum');
        for (const [width, height] of [
          [1280, 900],
          [390, 844],
        ] as const) {
          await page.setViewportSize({ width, height });
          const qr = card.getByTestId('share-qr');
          await qr.waitFor();
          const box = await qr.boundingBox();
          expect(box).not.toBeNull();
          expect(box!.x).toBeGreaterThanOrEqual(0);
          expect(box!.y).toBeGreaterThanOrEqual(0);
          expect(box!.x + box!.width).toBeLessThanOrEqual(width);
          expect(box!.y + box!.height).toBeLessThanOrEqual(height);
        }
        await page.setViewportSize({ width: 1280, height: 900 });
        expect(decodeQrPng(await card.getByTestId('share-qr').screenshot({ scale: 'css' }))).toBe(
          albumUrl,
        );
        const [pngDownload] = await Promise.all([
          page.waitForEvent('download'),
          card.getByRole('button', { name: /as PNG \(1000 px\)$/ }).click(),
        ]);
        const png = await readFile(await pngDownload.path());
        expect(await sharp(png).metadata()).toMatchObject({
          format: 'png',
          width: 1000,
          height: 1000,
        });
        expect(decodeQrPng(png)).toBe(albumUrl);
        const [svgDownload] = await Promise.all([
          page.waitForEvent('download'),
          card.getByRole('button', { name: /as SVG$/ }).click(),
        ]);
        expect(svgDownload.suggestedFilename()).toMatch(/-qr\.svg$/);
        const svg = await readFile(await svgDownload.path());
        expect(svg.toString('utf8')).toMatch(/^<svg /);
        expect(decodeQrPng(await sharp(svg, { density: 300 }).png().toBuffer())).toBe(albumUrl);
        await page.keyboard.press('Escape');
        await page.setViewportSize({ width: 390, height: 844 });
        // Opened once (no reload: the dashboard must say one view); both photos are ready, as the
        // console album showed them.
        await page.goto(albumUrl);
        await expect
          .poll(() => photoNames(page), { timeout: 30_000 })
          .toEqual(['pier-01.jpg', 'pier-02.jpg']);
        // Nothing wider than the phone.
        expect(
          await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth),
        ).toBe(true);
        // One download from the viewer.
        await page.locator('.albums-tile-open').first().click();
        await page.getByRole('dialog').waitFor();
        await page
          .getByRole('button', { name: 'Download photo' })
          .or(page.getByRole('link', { name: 'Download original' }))
          .first()
          .click();

        // ---- the dashboard within seconds: one view, one download ----
        await page.setViewportSize({ width: 1280, height: 900 });
        await page.goto(`${server.url}/events/${code}/insight`);
        await expect
          .poll(
            async () => {
              await page.reload();
              await page.getByTestId('insight-dashboard').waitFor();
              return tileTexts(page, ['Photos in', 'Views', 'Downloads']);
            },
            { timeout: 10_000 },
          )
          .toEqual(['Photos in2', 'Views1', 'Downloads1']);
        if (SHOTS) await dashboardScreenshots(page, SHOTS);
        expect(problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
