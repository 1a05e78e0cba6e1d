import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { defaultEventOpts } from '@flashbulb/shared';
import {
  albumServerEnv,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { showcasePhotos, SHOWCASE } from './support/guest-showcase.ts';
import { journeyResources, photoNames } from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
const SHOTS = process.env.FLASHBULB_SHOTS_DIR ?? path.join(tmpdir(), 'flashbulb-e2e-screenshots');
const journey = journeyResources();

const LOGO = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="64" viewBox="0 0 200 64">' +
    '<circle cx="32" cy="32" r="26" fill="#d9480f"/>' +
    '<text x="66" y="42" font-family="Verdana" font-weight="700" font-size="22" fill="#d9480f">HARBOUR</text></svg>',
)}`;

describe('the web-app page in Chromium (issue 15 item 4, albums §2.1)', () => {
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

      await mkdir(SHOTS, { recursive: true });
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
        await page.screenshot({ path: path.join(SHOTS, 'webapp-390x844.png'), fullPage: true });
        for (const [w, h] of [
          [1440, 900],
          [1080, 1920],
        ] as const) {
          await page.setViewportSize({ width: w, height: h });
          await page.screenshot({ path: path.join(SHOTS, `webapp-${w}x${h}.png`) });
        }
        await page.setViewportSize({ width: 390, height: 844 });

        // The event's photos: the lead gate first, the server refuses the list until then.
        await page.getByRole('link', { name: 'See the event’s photos' }).click();
        await page.getByRole('heading', { name: 'Before you see the photos' }).waitFor();
        expect(await photoNames(page)).toEqual([]);
        expect(await page.locator('.albums-count').count()).toBe(0);
        await page.screenshot({ path: path.join(SHOTS, 'webapp-lead-gate-390x844.png') });
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
        await page.screenshot({ path: path.join(SHOTS, 'webapp-album-390x844.png') });

        // Back later in the same browser: the album opens without asking again.
        await page.reload();
        await expect.poll(() => photoNames(page)).toHaveLength(6);
        expect(await page.getByRole('heading', { name: 'Before you see the photos' }).count()).toBe(
          0,
        );
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
