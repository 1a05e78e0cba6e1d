import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { journeyResources, photoNames } from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
const journey = journeyResources();

describe('the console Attendees page in Chromium', () => {
  it(
    'an owner generates ids, downloads them as CSV, locks one album, adds a photo to another from the console album, then exports and erases that attendee',
    async () => {
      const { url } = await journey.startServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(url);
      const folder = journey.keepFolder(
        await photoFolder({ 'red.jpg': '#c0392b', 'blue.jpg': '#2980b9' }),
      );
      await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 2);
      const browser = await journey.launchBrowser();
      const { page } = browser;

      await journey.withServerLog(async () => {
        // The owner's console session in this browser, as after signing in.
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);

        await page.goto(`${url}/events/${event.code}/attendees`);
        await page.getByText('No attendees yet — generate ids for cards or wristbands').waitFor();

        // Generate three ids and save them as CSV.
        await page.getByRole('button', { name: 'Generate attendees' }).click();
        const generate = page.getByRole('dialog', { name: 'Generate attendee ids' });
        await generate.getByLabel('How many').fill('3');
        await generate.getByRole('button', { name: 'Generate', exact: true }).click();
        await generate.getByText('3 attendee ids generated').waitFor();
        const [download] = await Promise.all([
          page.waitForEvent('download'),
          generate.getByRole('button', { name: 'Download CSV' }).click(),
        ]);
        const csv = (await readFile(await download.path(), 'utf8')).trim().split(/\r?\n/);
        expect(csv[0]).toContain('Attendee id');
        expect(csv).toHaveLength(4);
        const ids = csv.slice(1).map((line) => line.split(',')[0]!.replace(/"/g, ''));
        for (const id of ids) expect(id).toMatch(/^([2-9A-HJKMNP-Z]{4}-){3}[2-9A-HJKMNP-Z]{4}$/);
        await generate.getByRole('button', { name: 'Close' }).first().click();
        await generate.waitFor({ state: 'detached' });
        const table = page.getByRole('table', { name: 'Attendees' });
        for (const id of ids) await table.getByText(id, { exact: true }).waitFor();
        const [first, second] = ids as [string, string];

        // Lock the first album: its link then opens nothing but the reason.
        await page.getByRole('button', { name: `Lock the album of ${first}` }).click();
        await page
          .getByRole('dialog', { name: 'Lock this album?' })
          .getByRole('button', { name: 'Lock album' })
          .click();
        await page.getByRole('button', { name: `Reopen the album of ${first}` }).waitFor();
        const firstLink = await page
          .getByRole('link', { name: `Open the album of ${first} in a new tab` })
          .getAttribute('href');
        const secondLink = await page
          .getByRole('link', { name: `Open the album of ${second} in a new tab` })
          .getAttribute('href');
        expect(firstLink).toContain(`attId=${first}`);

        // From the console album: add red.jpg to the second attendee, typed without dashes.
        await page.goto(`${url}/events/${event.code}/album`);
        await page.getByRole('checkbox', { name: 'Select red.jpg' }).check();
        await page.getByRole('button', { name: 'Add to attendee…' }).click();
        const add = page.getByRole('dialog', { name: 'Add 1 photo to an attendee album' });
        await add.getByLabel('Attendee id').fill(second.replace(/-/g, '').toLowerCase());
        await add.getByRole('button', { name: 'Add photos' }).click();
        await page.getByText(`1 photo added to the album of ${second}`).waitFor();

        await page.goto(firstLink!);
        await page.getByText('This album has been locked by the event organiser').waitFor();
        expect(await photoNames(page)).toEqual([]);
        await page.goto(secondLink!);
        await expect.poll(() => photoNames(page)).toEqual(['red.jpg']);

        // A privacy request about the second attendee: export, then erase.
        await page.goto(`${url}/events/${event.code}/attendees`);
        await page.getByRole('button', { name: `Export or erase the data of ${second}` }).click();
        const privacy = page.getByRole('dialog', { name: `Privacy request: ${second}` });
        await privacy.getByRole('button', { name: 'Export data' }).click();
        const [zip] = await Promise.all([
          page.waitForEvent('download'),
          privacy.getByRole('link', { name: 'Download the ZIP' }).click(),
        ]);
        const archive = await readFile(await zip.path());
        expect(archive.subarray(0, 4).toString('hex')).toBe('504b0304');
        for (const name of ['attendee.json', 'photos.csv', 'leads.json', 'orders.csv'])
          expect(archive.includes(Buffer.from(name))).toBe(true);
        expect(archive.includes(Buffer.from('red.jpg'))).toBe(true);
        await privacy.getByRole('button', { name: 'Erase…' }).click();
        await privacy.getByText(`This cannot be undone. Erase ${second}?`).waitFor();
        await privacy.getByRole('button', { name: 'Erase for good' }).click();
        await page
          .getByText(`The data of ${second} was erased (0 photos deleted, 1 detached)`)
          .waitFor();
        await table.getByText(second, { exact: true }).waitFor({ state: 'detached' });
        // The album link opens nothing now; the photo stays in the event.
        await page.goto(secondLink!);
        await expect.poll(() => photoNames(page)).toEqual([]);
        await waitForPublicPhotos(url, event, 2);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
