import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { defaultEventOpts, endpoints, eventPageLinks } from '@flashbulb/shared';
import {
  albumServerEnv,
  api,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { showcasePhotos, SHOWCASE } from './support/guest-showcase.ts';
import {
  GUEST_SIZES,
  journeyResources,
  lookShotsDir,
  photoNames,
  screenshotSizes,
} from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
/** Screenshots to look at, opt-in (FLASHBULB_SHOTS_DIR, or FLASHBULB_E2E_SHOTS as every journey). */
const SHOTS = process.env.FLASHBULB_SHOTS_DIR || lookShotsDir();
const look = async (page: Page, name: string, fullPage = false) => {
  if (SHOTS) await page.screenshot({ path: path.join(SHOTS, name), fullPage });
};
const journey = journeyResources();

const LOGO = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="64" viewBox="0 0 200 64">' +
    '<circle cx="32" cy="32" r="26" fill="#d9480f"/>' +
    '<text x="66" y="42" font-family="Verdana" font-weight="700" font-size="22" fill="#d9480f">HARBOUR</text></svg>',
)}`;

/** The slide on screen has loaded and its cross-fade is over (screenshots show the photo). */
const slideSettled = (page: Page) =>
  page.waitForFunction(() => {
    const img = document.querySelector<HTMLImageElement>('img[data-photo-id]');
    return (
      !!img &&
      img.complete &&
      img.naturalWidth > 0 &&
      document
        .getAnimations()
        .every(
          (a) =>
            a.effect?.getComputedTiming().iterations === Infinity ||
            a.playState === 'finished' ||
            a.playState === 'idle',
        )
    );
  });

describe('the web-app page in Chromium (albums §2.1)', () => {
  it(
    'a guest opens /?eName=…&token=… on a phone: branded page with its Open Graph tags and the logo linked, then the album behind the lead gate',
    async () => {
      const { url } = await journey.startServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(url, {
        full_name: SHOWCASE.title,
        hash_tag: SHOWCASE.hashTag,
        logo_full_path: LOGO,
        logo_link: SHOWCASE.logoLink,
        collect_leads: 1,
        lead_params: {
          show_company_input_text: 0,
          show_phone_input_text: 0,
          show_agree_checkbox: 1,
          please_read_text: 'The festival may send you its programme.',
          privacy_policy_link: 'https://example.com/privacy',
        },
        opts: {
          ...defaultEventOpts(),
          description: 'Three nights of light on the water.',
          webappShareTitle: 'Your Harbour Lights photos',
          ogpTitle: 'Harbour Lights <photos>',
          ogpDescription: 'Find & keep your festival photos',
          faqText: 'Photos appear a few minutes after they are taken.',
          supportLink: SHOWCASE.supportLink,
          guestAccentColor: SHOWCASE.accent,
        },
      });
      const folder = journey.keepFolder(await showcasePhotos(6));
      await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 6);
      const pageUrl = `${url}/?eName=${event.code}&token=${encodeURIComponent(event.publicKey)}`;

      // The server writes the Open Graph tags into the page (escaped), for link previews.
      const html = await (await fetch(pageUrl)).text();
      expect(html).toContain('<meta property="og:title" content="Harbour Lights &lt;photos&gt;"');
      expect(html).toContain(
        '<meta property="og:description" content="Find &amp; keep your festival photos"',
      );
      // An inline logo is not offered to link previews (they fetch the image).
      expect(html).not.toContain('og:image');

      if (SHOTS) await mkdir(SHOTS, { recursive: true });
      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(pageUrl);
        await page.getByRole('heading', { name: 'Your Harbour Lights photos' }).waitFor();
        const logo = page.getByRole('img', { name: `${SHOWCASE.title} logo` });
        await logo.waitFor();
        expect(await logo.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
        expect(await logo.locator('xpath=..').getAttribute('href')).toBe(SHOWCASE.logoLink);
        await look(page, 'webapp-390x844.png', true);
        await screenshotSizes(page, SHOTS, 'webapp', GUEST_SIZES.slice(1));
        await page.setViewportSize({ width: 390, height: 844 });

        // The event's photos: the lead gate first, the server refuses the list until then.
        await page.getByRole('link', { name: 'See the event’s photos' }).click();
        await page.getByRole('heading', { name: 'Before you see the photos' }).waitFor();
        expect(await photoNames(page)).toEqual([]);
        expect(await page.locator('.albums-count').count()).toBe(0);
        await look(page, 'webapp-lead-gate-390x844.png');
        await page.getByLabel('Your name').fill('Ada Guest');
        await page.getByLabel('E-mail').fill('ada@example.com');
        await page.getByRole('checkbox').check();
        await page.getByRole('button', { name: 'Open the album' }).click();
        await expect.poll(() => photoNames(page)).toHaveLength(6);
        // The album page carries the same logo, linked.
        const albumLogo = page.locator(`a[href="${SHOWCASE.logoLink}"] img`).first();
        await albumLogo.waitFor();
        await page.waitForFunction(() =>
          Array.from(document.querySelectorAll('[data-photo-name] img')).every(
            (img) =>
              (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
          ),
        );
        await look(page, 'webapp-album-390x844.png');

        // Back later in the same browser: the album opens without asking again.
        await page.reload();
        await expect.poll(() => photoNames(page)).toHaveLength(6);
        expect(await page.getByRole('heading', { name: 'Before you see the photos' }).count()).toBe(
          0,
        );

        // The console's screen links carry the event's display token past the lead gate.
        const links = eventPageLinks(url, {
          name: event.code,
          publicKey: event.publicKey,
          privateKey: event.privateKey,
          ownerKey: event.ownerKey,
          displayToken: event.displayToken,
        });
        const { photos } = await api(url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 10,
          display: event.displayToken,
        });
        const shared = photos[0]!;

        // The share-preview page: our photo and album only, whatever imgSrc and url say.
        const previewUrl = `${url}/?${new URLSearchParams({
          url: 'https://evil.example/',
          imgSrc: 'https://evil.example/x.jpg',
          photoId: shared.uid,
          eName: event.code,
        }).toString()}`;
        await page.goto(previewUrl);
        await page.getByRole('heading', { name: 'Harbour Lights <photos>' }).waitFor();
        const sharedImg = page.getByRole('img', { name: 'A photo from Harbour Lights <photos>' });
        await sharedImg.waitFor();
        await page.waitForFunction(() =>
          Array.from(document.querySelectorAll('figure img')).every(
            (img) =>
              (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
          ),
        );
        expect(await sharedImg.getAttribute('src')).not.toContain('evil.example');
        // The button opens the shared photo's own page, never the album (no key rides along).
        expect(await page.getByRole('link', { name: 'Open the photo' }).getAttribute('href')).toBe(
          `${url}/share/${shared.uid}`,
        );
        await screenshotSizes(page, SHOTS, 'share-preview');
        await page.goto(`${url}/?photoId=${shared.uid}&eName=ZZZZ`);
        await page.getByRole('heading', { name: 'This photo is not available' }).waitFor();
        await page.setViewportSize({ width: 390, height: 844 });
        await look(page, 'share-preview-missing-390x844.png');

        // A guest's display=1 on the slide show is refused by the gate (the lead is asked)...
        await page.goto(
          `${url}/?pId=${encodeURIComponent(event.publicKey)}&mode=slideshow&display=1`,
        );
        await page.getByRole('heading', { name: 'Before you see the photos' }).waitFor();
        expect(await page.getByRole('region', { name: 'Slide show' }).count()).toBe(0);
        // ...while the console's slide-show link runs, with the event logo linked.
        await page.setViewportSize({ width: 1440, height: 900 });
        await page.goto(links.slideShow);
        const show = page.getByRole('region', { name: 'Slide show' });
        await show.locator('img[data-photo-id]').waitFor();
        expect(
          await show
            .getByRole('img', { name: `${SHOWCASE.title} logo` })
            .locator('xpath=..')
            .getAttribute('href'),
        ).toBe(SHOWCASE.logoLink);
        await slideSettled(page);
        await look(page, 'slideshow-logo-1440x900.png');

        // The photo-stream site: a live wall whose QR code names the photo on screen; a new
        // photo from the live stream comes first.
        await page.setViewportSize({ width: 1080, height: 1920 });
        await page.goto(links.photoStream);
        const wall = page.getByRole('region', { name: 'Slide show' });
        const qr = wall.locator('[data-qr-url]');
        await wall.getByRole('img', { name: 'QR code of this photo’s link' }).waitFor();
        const shownUid = async () => {
          const id = await wall.locator('img[data-photo-id]').getAttribute('data-photo-id');
          return photos.find((p) => String(p.id) === id)?.uid ?? `id:${id}`;
        };
        expect(await qr.getAttribute('data-qr-url')).toBe(
          `${url}/?photoId=${await shownUid()}&eName=${event.code}`,
        );
        await slideSettled(page);
        await look(page, 'photo-stream-qr-1080x1920.png');
        await page.setViewportSize({ width: 1920, height: 1080 });
        await slideSettled(page);
        await look(page, 'photo-stream-qr-1920x1080.png');
        await robotUpload(url, event, await photoFolder({ 'late-arrival.jpg': '#1c7ed6' }));
        const late = await page.waitForFunction(
          (known) => {
            const img = document.querySelector('[role="region"] img[data-photo-id]');
            const id = img?.getAttribute('data-photo-id');
            return id && !known.includes(id) ? id : null;
          },
          photos.map((p) => String(p.id)),
          { timeout: 60_000 },
        );
        const lateId = Number(await late.jsonValue());
        const { photos: after } = await api(url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 1,
          display: event.displayToken,
        });
        expect(after[0]?.id).toBe(lateId);
        await expect
          .poll(() => qr.getAttribute('data-qr-url'))
          .toBe(`${url}/?photoId=${after[0]!.uid}&eName=${event.code}`);

        // The roamer page: without a key it asks for one, a wrong key opens nothing, and the
        // console's roaming-photographer link (the owner key) sends photos chosen on the phone
        // into the event's album, each with its progress.
        const ownerCount = async () =>
          (
            await api(url, endpoints.publicPhotoList, {
              key_type: 'event_owner',
              key_value: event.ownerKey,
              max_size: 100,
            })
          ).photos.length;
        const before = await ownerCount();
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(`${url}/?roamer`);
        await page.getByLabel('Event key').fill('not-a-key');
        await page.getByRole('button', { name: 'Open the event' }).click();
        await page.getByRole('heading', { name: 'This event key opens no event' }).waitFor();
        await page.goto(links.roamer);
        await page.getByRole('heading', { name: SHOWCASE.title }).waitFor();
        const roamerFolder = await photoFolder({
          'roamer-1.jpg': '#2b8a3e',
          'roamer-2.jpg': '#e67700',
        });
        await page
          .locator('input[type=file]')
          .setInputFiles(['roamer-1.jpg', 'roamer-2.jpg'].map((n) => path.join(roamerFolder, n)));
        await page.getByText('2 of 2 sent').waitFor({ timeout: 60_000 });
        expect(await page.getByText('Sent', { exact: true }).count()).toBe(2);
        await expect.poll(ownerCount).toBe(before + 2);
        await screenshotSizes(page, SHOTS, 'roamer');
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
