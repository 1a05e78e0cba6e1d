import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ATTENDEE_COOKIE, endpoints } from '@flashbulb/shared';
import {
  albumServerEnv,
  api,
  eventRowOf,
  photoFolder,
  setUpAlbumEvent,
  uploadAndListPhotos,
} from './support/albums.ts';
import { journeyResources, photoNames } from './support/journey.ts';

const JOURNEY_TIMEOUT = 180_000;

const journey = journeyResources();

let worlds = 0;

/**
 * On the file's server, an event with four photos from its robot, and one generated attendee who
 * has two of them.
 */
const world = async () => {
  const { url } = await journey.fileServer({ env: albumServerEnv });
  worlds += 1;
  const event = await setUpAlbumEvent(url, {}, `Albums ${worlds}`);
  const folder = journey.keepFolder(
    await photoFolder({
      'red.jpg': '#c0392b',
      'green.jpg': '#27ae60',
      'blue.jpg': '#2980b9',
      'grey.jpg': '#7f8c8d',
    }),
  );
  const photos = await uploadAndListPhotos(url, event, folder, 4);
  const byName = new Map(photos.map((p) => [p.file_name, p]));
  const eventRow = await eventRowOf(url, event);
  const generated = await api(
    url,
    endpoints.generateAttendeeList,
    { attendee_count: 2, event_id_array: [eventRow.id] },
    event.token,
  );
  const [attendee, other] = generated.attendees;
  if (!attendee || !other) throw new Error('no attendees generated');
  await api(
    url,
    endpoints.ownerAttachPhotos,
    {
      event_id: eventRow.id,
      attendee_uid: attendee.uid,
      photo_uid_array: ['red.jpg', 'green.jpg'].map((n) => byName.get(n)!.uid),
    },
    event.token,
  );
  await api(
    url,
    endpoints.ownerAttachPhotos,
    {
      event_id: eventRow.id,
      attendee_uid: other.uid,
      photo_uid_array: [byName.get('grey.jpg')!.uid],
    },
    event.token,
  );
  return { url, event, eventRow, attendee, other, byName };
};

const root = (page: Page) => page.locator('.albums-root');
const pageKind = (page: Page) => root(page).getAttribute('data-page-kind');

const expectKind = async (page: Page, kind: string) => {
  await expect.poll(() => pageKind(page)).toBe(kind);
};

describe('attendee and kiosk album pages in Chromium (albums §2.1)', () => {
  it(
    'each row of the page-type table opens its page',
    async () => {
      const { url, event, eventRow, attendee } = await world();
      const browser = await journey.launchBrowser();
      const { page, context } = browser;
      const pv = encodeURIComponent(event.privateKey);
      const pub = encodeURIComponent(event.publicKey);
      const att = encodeURIComponent(attendee.display_uid);
      await journey.withServerLog(async () => {
        // pId: the public album; with kioskMode the kiosk album.
        await page.goto(`${url}/?pId=${pub}`);
        await expectKind(page, 'public-album');
        await expect.poll(() => photoNames(page)).toHaveLength(4);
        await page.goto(`${url}/?pId=${pub}&kioskMode=true`);
        await expectKind(page, 'kiosk-album');
        await expect.poll(() => root(page).getAttribute('class')).toContain('albums-root--kiosk');
        await expect.poll(() => photoNames(page)).toHaveLength(4);

        // pvId without kType: the private album. eId: the curation page.
        await page.goto(`${url}/?pvId=${pv}`);
        await expectKind(page, 'private-album');
        await expect.poll(() => photoNames(page)).toHaveLength(4);
        await page.goto(`${url}/?eId=${encodeURIComponent(event.ownerKey)}`);
        await expectKind(page, 'curation');
        await expect.poll(() => page.getByRole('button', { name: /^Hide: / }).count()).toBe(4);

        // kType=evSB1 needs pvId; with it, the all-photos kiosk.
        await page.goto(`${url}/?kType=evSB1&kioskMode=true`);
        await expectKind(page, 'error');
        await expect
          .poll(() => root(page).textContent())
          .toContain('Query param &pvId is required');
        await page.goto(`${url}/?kType=evSB1&kioskMode=true&pvId=${pv}&attendeeId=${att}`);
        await expectKind(page, 'kiosk-all-photos');
        await expect.poll(() => photoNames(page)).toHaveLength(4);

        // kType=evSB2 / evSB4 need attId; with it, the attendee kiosk page (their photos only).
        await page.goto(`${url}/?kType=evSB2&kioskMode=true`);
        await expectKind(page, 'error');
        await expect
          .poll(() => root(page).textContent())
          .toContain('Query param &attId is required');
        await page.goto(`${url}/?kType=evSB2&kioskMode=true&attId=${att}`);
        await expectKind(page, 'attendee');
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);
        await page.goto(`${url}/?kType=evSB4&kioskMode=true&attId=${att}`);
        await expectKind(page, 'attendee');
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);
        expect(await page.evaluate(() => localStorage.getItem('isShopKiosk'))).toBe('true');
        // Kiosk mode keeps no attendee cookie (a kiosk is shared by every visitor).
        expect((await context.cookies()).some((c) => c.name === ATTENDEE_COOKIE)).toBe(false);

        // kType=evSB3: the QR ride kiosk shows the ride's photos.
        await page.goto(`${url}/?kType=evSB3&kioskMode=true&pvId=${pv}`);
        await expectKind(page, 'kiosk-qr-ride');
        await expect.poll(() => photoNames(page)).toHaveLength(4);

        // attId outside kiosk mode: the attendee album, remembered in a 10-day cookie.
        await page.goto(`${url}/?attId=${att}`);
        await expectKind(page, 'attendee');
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);
        const cookie = (await context.cookies()).find((c) => c.name === ATTENDEE_COOKIE);
        expect(cookie && decodeURIComponent(cookie.value)).toBe(attendee.display_uid);
        const days = ((cookie?.expires ?? 0) * 1000 - Date.now()) / 86_400_000;
        expect(days).toBeGreaterThan(9.9);
        expect(days).toBeLessThanOrEqual(10);

        // attType=evSB2: the attendee album that came from a kiosk.
        await page.goto(`${url}/?attId=${att}&attType=evSB2`);
        await expectKind(page, 'attendee');
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);

        // attOrgId: attendee id and organisation id joined by a dash; another organisation opens nothing.
        await page.goto(`${url}/?attOrgId=${attendee.uid}-${eventRow.organisation_id}`);
        await expectKind(page, 'attendee-legacy');
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);
        await page.goto(`${url}/?attOrgId=${attendee.uid}-${eventRow.organisation_id + 999}`);
        await expectKind(page, 'attendee-legacy');
        // The invalid-link message, not the load error a failing server would also raise.
        await expect
          .poll(() => page.getByRole('alert').allTextContents())
          .toEqual(['This album link is not valid. Ask the organiser for a new one.']);
        expect(await photoNames(page)).toEqual([]);

        // app=ios: app mode on the page the keys choose.
        await page.goto(`${url}/?app=ios&pId=${pub}`);
        await expectKind(page, 'public-album');
        await expect.poll(() => root(page).getAttribute('data-app')).toBe('ios');

        // None of the keys: the console (its sign-in page).
        await page.goto(`${url}/`);
        await expect.poll(() => page.getByLabel('E-mail').count()).toBe(1);
        expect(await root(page).count()).toBe(0);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a rider picks photos at the QR ride kiosk and scans their card; photos added at the all-photos kiosk join them; a hidden photo never shows',
    async () => {
      const { url, event, attendee, other, byName } = await world();
      const browser = await journey.launchBrowser();
      const { page } = browser;
      const pv = encodeURIComponent(event.privateKey);
      // The organiser's kiosk links carry the event's display token: with the private key it makes
      // the kiosk, which alone (of the guest-facing links) adds photos to albums.
      const display = encodeURIComponent(event.displayToken);
      await journey.withServerLog(async () => {
        // The ride kiosk: choose two photos, scan the card (its QR holds the album link).
        await page.goto(`${url}/?kType=evSB3&kioskMode=true&pvId=${pv}&display=${display}`);
        await expect.poll(() => photoNames(page)).toHaveLength(4);
        await page.locator('[data-photo-name="green.jpg"]').click();
        await page.locator('[data-photo-name="blue.jpg"]').focus();
        await page.keyboard.press('Space');
        await expect
          .poll(() => page.locator('[data-photo-name][aria-pressed="true"]').count())
          .toBe(2);
        const scan = page.getByLabel('Scan your card');
        expect(await scan.getAttribute('type')).toBe('password');
        // A card that is no attendee's is refused with the spec's words; nothing is added.
        await scan.fill(`${url}/?attId=ZZZZ-ZZZZ-ZZZZ-ZZZZ`);
        await scan.press('Enter');
        await expect.poll(() => page.getByText('Invalid card code.').count()).toBe(1);
        await scan.fill(`${url}/?attId=${other.display_uid}`);
        await scan.press('Enter');
        await expect
          .poll(() => page.getByText(`Added 2 photos to album ${other.display_uid}`).count())
          .toBe(1);

        // The all-photos kiosk with the first attendee's card: add one more photo to their album.
        await page.goto(
          `${url}/?kType=evSB1&kioskMode=true&pvId=${pv}&display=${display}&attendeeId=${encodeURIComponent(attendee.display_uid)}`,
        );
        await expect.poll(() => photoNames(page)).toHaveLength(4);
        await page.getByRole('button', { name: 'Add to my album: blue.jpg' }).click();
        await expect
          .poll(() => page.getByText(`1 photo added to album ${attendee.display_uid}`).count())
          .toBe(1);

        // The rider's album: the photo uploaded for them plus the two scanned ones.
        await page.goto(`${url}/?attId=${encodeURIComponent(other.display_uid)}`);
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'green.jpg', 'grey.jpg']);
        await page.goto(`${url}/?attId=${encodeURIComponent(attendee.display_uid)}`);
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'green.jpg', 'red.jpg']);

        // The owner hides blue.jpg: neither album shows it any more.
        await api(
          url,
          endpoints.updatePhoto,
          { id: byName.get('blue.jpg')!.id, is_visible: 0 },
          event.token,
        );
        await page.reload();
        await expect.poll(() => photoNames(page)).toEqual(['green.jpg', 'red.jpg']);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
