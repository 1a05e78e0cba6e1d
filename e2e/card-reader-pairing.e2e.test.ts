import { describe, expect, it } from 'vitest';
import {
  SQUARE_TOKEN,
  startSquareDouble,
} from '../apps/server/test/doubles/square/square-double.ts';
import { ALBUM_ADMIN, albumServerEnv, setUpAlbumEvent } from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { journeyResources, lookShot } from './support/journey.ts';

const JOURNEY_TIMEOUT = 120_000;
const journey = journeyResources();
/** Screenshots of the popup for people to look at (not compared). */

describe('card reader pairing in the console (Chromium, Square double)', () => {
  it(
    'token → Square’s own refusal → locations → name and location required → code → still unpaired → paired, with the reversed token, device id and kiosk link',
    async () => {
      const square = await startSquareDouble();
      journey.onClose(() => square.close());
      const { url } = await journey.startServer({
        env: { ...albumServerEnv, SQUARE_API_BASE: square.url },
      });
      // Readers belong to an organisation (the super user's first).
      await setUpAlbumEvent(url);
      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);
        await page.goto(`${url}/payments`);
        const add = page.getByRole('button', { name: 'Add a card reader' });
        await add.click();
        const dialog = page.getByRole('dialog', { name: 'Pair a card reader' });
        await dialog.waitFor();
        // The add button stays disabled while a reader is being added.
        expect(await add.isDisabled()).toBe(true);

        // A token Square refuses: Square's own words, not ours.
        await dialog.getByLabel('Square access token').fill('EAAA-not-a-token');
        await dialog.getByRole('button', { name: 'Find locations' }).click();
        await expect
          .poll(() => dialog.getByTestId('pairing-error').innerText())
          .toBe('This request could not be authorized.');

        await dialog.getByLabel('Square access token').fill(SQUARE_TOKEN);
        await dialog.getByRole('button', { name: 'Find locations' }).click();
        const create = dialog.getByRole('button', { name: 'Create the sign-in code' });
        await create.waitFor();
        // Neither a name nor a location: our keys, and Square is not asked.
        const asked = square.received.length;
        await create.click();
        await dialog.getByText('Please enter the card reader’s name').waitFor();
        await dialog.getByLabel('Reader name').fill('Front desk <b>reader</b>');
        await create.click();
        await dialog.getByText('Please choose the Square location').waitFor();
        expect(square.received.length).toBe(asked);

        await dialog.getByLabel('Location').click();
        await page.getByRole('option', { name: 'Photo Booth Tent' }).click();
        await create.click();
        const code = await dialog.getByTestId('device-code').innerText();
        expect(code).toMatch(/^[0-9A-F]{6}$/);
        expect(square.received.at(-1)).toMatchObject({
          path: '/v2/devices/codes',
          body: {
            device_code: {
              name: 'Front desk <b>reader</b>',
              location_id: 'LZ4QP7Y0W2K5B',
              product_type: 'TERMINAL_API',
            },
          },
        });
        await page.setViewportSize({ width: 1440, height: 900 });
        await lookShot(page, 'card-reader-pairing/pairing-code-1440.png');

        await dialog.getByRole('button', { name: 'Check pairing' }).click();
        await dialog.getByTestId('still-unpaired').waitFor();

        const deviceId = square.pair(code);
        await dialog.getByRole('button', { name: 'Check pairing' }).click();
        await dialog.getByTestId('paired').waitFor();
        expect(await dialog.getByTestId('device-id').innerText()).toBe(deviceId);
        expect(await dialog.getByTestId('reversed-token').innerText()).toBe(
          [...SQUARE_TOKEN].reverse().join(''),
        );
        expect(await dialog.getByTestId('kiosk-link').innerText()).toContain(
          `sqDeviceId=${encodeURIComponent(deviceId)}`,
        );
        await dialog.getByText('Flashbulb does not save these values.', { exact: false }).waitFor();
        // The reader's name is text, never markup.
        expect(await dialog.locator('b').count()).toBe(0);
        await page.setViewportSize({ width: 390, height: 844 });
        await lookShot(page, 'card-reader-pairing/pairing-paired-390.png');

        await dialog.getByRole('button', { name: 'Done' }).click();
        await dialog.waitFor({ state: 'hidden' });
        expect(await add.isDisabled()).toBe(false);
        // The reader is stored for the organisation: listed as paired, with its kiosk link, and
        // still there after a reload (the list comes from the server).
        await page.reload();
        const row = page.getByTestId('reader-row');
        await row.waitFor();
        expect(await row.count()).toBe(1);
        const cells = await row.getByRole('cell').allInnerTexts();
        expect(cells.slice(0, 3)).toEqual([
          'Front desk <b>reader</b>',
          'Photo Booth Tent',
          'PAIRED',
        ]);
        expect(await row.getByTestId('reader-device-id').innerText()).toBe(deviceId);
        expect(await row.getByTestId('reader-kiosk-link').innerText()).toContain(
          `sqDeviceId=${encodeURIComponent(deviceId)}`,
        );
        expect(await row.locator('b').count()).toBe(0);
        // The token went to Square and nowhere else: not in the page's storage or address.
        const stored = await page.evaluate(() =>
          JSON.stringify({ ...localStorage, ...sessionStorage }),
        );
        expect(stored).not.toContain(SQUARE_TOKEN);
        expect(page.url()).not.toContain(SQUARE_TOKEN);
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
