/**
 * npm run screenshots — regenerates docs/screenshots/: the album, viewer, slide show and kiosk
 * pages (and the album's choose-and-download mode) of a branded showcase event in Chromium at 390×844 (phone), 1440×900 (laptop) and
 * 1080×1920 (portrait kiosk / screen), plus the kiosk at 1920×1080.
 *
 * Builds the web app, starts the real server with its own data folder, uploads the showcase
 * photos through the robot client, then opens each page like a guest.
 *
 * Also the kiosk's Square card reader screen (waiting for the card, declined, paid) at
 * 1080×1920 and 390×844, against the Square double standing in for Square.
 *
 *   npm run screenshots
 *   npm run screenshots -- --no-build     (reuse apps/web/dist)
 *   npm run screenshots -- --only square  (the Square reader screen only)
 *   npm run screenshots -- --only kiosk   (the kiosk's own screen: attract, session, staff PIN,
 *                                          "Still there?"; 1080×1920 and 1920×1080)
 */
import { execFileSync } from 'node:child_process';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { defaultEventOpts, endpoints, kioskCardText, kioskEntryUrl } from '@flashbulb/shared';
import {
  SQUARE_TOKEN,
  startSquareDouble,
} from '../apps/server/test/doubles/square/square-double.ts';
import {
  albumServerEnv,
  ALL_MY_PHOTOS_BUTTON,
  api,
  eventRowOf,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { launchBrowser } from './support/browser.ts';
import { guestPages, setUpShowcase } from './support/guest-showcase.ts';
import { repoRoot } from './support/paths.ts';
import { startServer } from './support/server.ts';

const { values } = parseArgs({
  options: {
    'no-build': { type: 'boolean', default: false },
    only: { type: 'string' },
  },
});
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

/** Shoots the page into docs/screenshots/<name>.png once images and fonts have settled. */
const shootInto = async (page: Page, name: string) => {
  await settled(page);
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
  console.log(`docs/screenshots/${name}.png`);
};

/**
 * The kiosk's Square reader screen (`sqDeviceId` in the kiosk link): a paid event selling on a
 * reader paired against the Square double; one attendee per size (paying unlocks the album).
 */
const squareReaderShots = async () => {
  const square = await startSquareDouble();
  const server = await startServer({ env: { ...albumServerEnv, SQUARE_API_BASE: square.url } });
  const browser = await launchBrowser();
  try {
    const event = await setUpAlbumEvent(server.url, {
      full_name: 'Harbour Lights Gala',
      is_free: 0,
      square_access_token: SQUARE_TOKEN,
      opts: {
        ...defaultEventOpts(),
        description: 'Square reader kiosk',
        unitPrice: 4.5,
        pricingButtons: [ALL_MY_PHOTOS_BUTTON],
      },
    });
    const folder = await photoFolder({
      'harbour.jpg': '#1f4e79',
      'lanterns.jpg': '#c0392b',
      'dance.jpg': '#8e44ad',
    });
    await robotUpload(server.url, event, folder);
    await rm(folder, { recursive: true, force: true });
    await waitForPublicPhotos(server.url, event, 3);
    const photos = await api(server.url, endpoints.publicPhotoList, {
      key_type: 'event_owner',
      key_value: event.ownerKey,
      max_size: 100,
    });
    const eventId = (await eventRowOf(server.url, event)).id;
    const code = await api(
      server.url,
      endpoints.squareCreateDeviceCode,
      { access_token: SQUARE_TOKEN, name: 'Front desk', location_id: 'L8RX2V9DSQ1M3' },
      event.token,
    );
    const deviceId = square.pair(code.device_code!.code);
    const page = browser.page;
    for (const size of [
      { name: '1080x1920', width: 1080, height: 1920 },
      { name: '390x844', width: 390, height: 844 },
    ]) {
      const [attendee] = (
        await api(
          server.url,
          endpoints.generateAttendeeList,
          { attendee_count: 1, event_id_array: [eventId] },
          event.token,
        )
      ).attendees;
      await api(
        server.url,
        endpoints.ownerAttachPhotos,
        {
          event_id: eventId,
          attendee_uid: attendee!.uid,
          photo_uid_array: photos.photos.map((p) => p.uid),
        },
        event.token,
      );
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(
        `${server.url}/?kType=evSB4&kioskMode=true&attId=${attendee!.uid}&pvId=${event.privateKey}&display=${encodeURIComponent(event.displayToken)}&sqDeviceId=${encodeURIComponent(deviceId)}`,
      );
      const region = page.getByRole('region', { name: 'Pay by card on the reader' });
      const sell = region.getByRole('button', { name: /by card$/ });
      const latest = () => [...square.checkouts.keys()].at(-1)!;

      await sell.click();
      await region.getByRole('status').waitFor();
      await region.scrollIntoViewIfNeeded();
      await shootInto(page, `kiosk-square-waiting-${size.name}`);

      // The card is declined and the buyer gives up on the reader: Square cancels the checkout.
      square.decline(latest());
      await region.getByRole('alert').waitFor();
      await shootInto(page, `kiosk-square-declined-${size.name}`);

      await sell.click();
      await region.getByRole('status').waitFor();
      square.complete(latest());
      // "Paid" shows until the album reloads unlocked (then the checkout goes away).
      await page.waitForFunction(
        () =>
          document.body.innerText.includes('Paid. Your photos are opening.') ||
          !document.querySelector('.albums-square'),
        undefined,
        { timeout: 30_000 },
      );
      await shootInto(page, `kiosk-square-paid-${size.name}`);
    }
    if (browser.problems.length > 0) throw new Error(browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
    await square.close();
  }
};

/**
 * The kiosk as a guest meets it on its own screen (1080×1920 and 1920×1080): the attract screen
 * (the event's logo and name), the guest's album after a card scan, "Still there?" before an idle
 * session ends, and the staff PIN that opens the staff controls.
 */
const kioskScreenShots = async () => {
  const server = await startServer({ env: albumServerEnv });
  const browser = await launchBrowser();
  try {
    const { event, folder } = await setUpShowcase(server.url, 12, { kiosk_staff_pin: '2468' });
    await rm(folder, { recursive: true, force: true });
    const photos = await api(server.url, endpoints.publicPhotoList, {
      key_type: 'public',
      key_value: event.publicKey,
      max_size: 100,
    });
    const eventId = (await eventRowOf(server.url, event)).id;
    const { attendees } = await api(
      server.url,
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [eventId] },
      event.token,
    );
    const guest = attendees[0]!;
    await api(
      server.url,
      endpoints.ownerAttachPhotos,
      {
        event_id: eventId,
        attendee_uid: guest.uid,
        photo_uid_array: photos.photos.map((p) => p.uid),
      },
      event.token,
    );
    const entry = (timeoutMs: number | null) =>
      kioskEntryUrl(server.url, {
        mode: 'evSB2',
        privateKey: event.privateKey,
        pricingModel: null,
        kioskPreviewSize: null,
        miniAlbumPreviewSize: null,
        allowKioskPhotoDelete: false,
        pageActiveTimeoutMs: timeoutMs,
        displayToken: event.displayToken,
      });
    const page = browser.page;
    const scanCard = async () => {
      const input = page.getByLabel('Card code');
      await input.fill(kioskCardText(guest.private_id!));
      await input.press('Enter');
      await page.waitForURL((u) => u.searchParams.has('attId'));
      await page.locator('.albums-tile-open img').first().waitFor();
    };
    for (const size of [
      { name: '1080x1920', width: 1080, height: 1920 },
      { name: '1920x1080', width: 1920, height: 1080 },
    ]) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto(entry(null));
      await page.locator('h1').waitFor();
      await shootInto(page, `kiosk-attract-${size.name}`);
      await scanCard();
      await shootInto(page, `kiosk-session-${size.name}`);
      // Staff: five taps in the top-left corner ask for the PIN.
      for (let tap = 0; tap < 5; tap += 1) await page.locator('[data-kiosk-staff-corner]').click();
      await page.getByRole('dialog', { name: 'Staff only' }).waitFor();
      await shootInto(page, `kiosk-staff-pin-${size.name}`);
      // A session of 45 s asks "Still there?" in its last 15.
      await page.goto(entry(45_000));
      await scanCard();
      await page.getByRole('alertdialog', { name: 'Still there?' }).waitFor({ timeout: 60_000 });
      await shootInto(page, `kiosk-still-there-${size.name}`);
      // The public album on a kiosk (kioskMode=true): the same kiosk scale.
      await page.goto(guestPages(server.url, event).kiosk);
      await page.locator('.albums-tile-open img').first().waitFor();
      await shootInto(page, `kiosk-${size.name}`);
    }
    if (browser.problems.length > 0) throw new Error(browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
  }
};

const main = async () => {
  if (!values['no-build'])
    execFileSync('npm', ['run', 'build', '-w', '@flashbulb/web'], {
      cwd: repoRoot,
      stdio: 'inherit',
    });
  await mkdir(OUT, { recursive: true });
  if (values.only === 'square') return squareReaderShots();
  if (values.only === 'kiosk') return kioskScreenShots();
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

      // The kiosk at its own sizes (1080×1920, 1920×1080) is kioskScreenShots'.
      if (size.name !== '1080x1920') {
        await page.goto(pages.kiosk);
        await page.locator('.albums-tile-open img').first().waitFor();
        await shoot(`kiosk-${size.name}`);
      }
    }
    if (browser.problems.length > 0) throw new Error(browser.problems.join('\n'));
  } finally {
    await browser.close();
    await server.stop();
  }
  await squareReaderShots();
  await kioskScreenShots();
};

await main();
