import { readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import {
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { guestPages, personalPages, setUpShowcase } from './support/guest-showcase.ts';
import { startServer, type RunningServer } from './support/server.ts';

/**
 * Accessibility of every guest page: axe-core, injected into Chromium through the
 * DevTools protocol (page.evaluate is not subject to the page's CSP), finds no serious or critical
 * violation of WCAG 2.1 A/AA on the album (light and dark), viewer and its panels, slide show,
 * stream, private album, kiosk album and all-photos kiosk, attendee album, mini-album, and the
 * error pages.
 */
const TIMEOUT = 180_000;
const require = createRequire(import.meta.url);

let server: RunningServer;
let browser: RunningBrowser;
let pages: ReturnType<typeof guestPages> & Awaited<ReturnType<typeof personalPages>>;
let axeSource: string;

beforeAll(async () => {
  axeSource = await readFile(require.resolve('axe-core/axe.min.js'), 'utf8');
  server = await startServer({ env: albumServerEnv });
  const { event } = await setUpShowcase(server.url, 8);
  pages = { ...guestPages(server.url, event), ...(await personalPages(server.url, event)) };
  browser = await launchBrowser();
}, TIMEOUT);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

interface Finding {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** Serious and critical axe violations of the page as it is now. */
const violations = async (page: Page): Promise<Finding[]> => {
  await page.evaluate(axeSource);
  const found = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (...args: unknown[]) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    })) as {
      violations: {
        id: string;
        impact: string | null;
        help: string;
        nodes: { target: string[] }[];
      }[];
    };
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      targets: v.nodes.map((n) => n.target.join(' ')),
    }));
  });
  return found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
};

const settle = (page: Page) =>
  page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));

describe('guest pages pass axe-core (no serious or critical violations)', () => {
  it(
    'album (light and dark), viewer with its info and share panels',
    async () => {
      const { page } = browser;
      await page.setViewportSize({ width: 390, height: 844 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(pages.album);
        await page.locator('.albums-tile-open img').first().waitFor();
        await settle(page);
        expect(await violations(page), `album, ${scheme}`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
      await page.locator('.albums-tile-open').first().click();
      await page.getByRole('dialog').waitFor();
      expect(await violations(page), 'viewer').toEqual([]);
      await page.getByRole('button', { name: 'Photo details' }).click();
      expect(await violations(page), 'viewer info').toEqual([]);
      await page.getByRole('button', { name: 'Share', exact: true }).click();
      expect(await violations(page), 'viewer share menu').toEqual([]);
    },
    TIMEOUT,
  );

  it.each([
    ['slide show', 'slideshow', 'img[data-photo-id]'],
    ['stream', 'stream', '.albums-tile-open img'],
    ['private album', 'privateAlbum', '.albums-tile-open img'],
    ['kiosk album', 'kiosk', '.albums-tile-open img'],
    ['all-photos kiosk', 'kioskAllPhotos', '.albums-tile-open img'],
    ['attendee album', 'attendee', '.albums-tile-open img'],
    ['mini-album', 'miniAlbum', '.albums-tile-open img'],
    ['kiosk link without its key', 'kioskMissingKey', '.albums-state'],
    ['invalid album link', 'invalidLink', '.albums-state'],
    ['roamer page', 'roamer', '.roamer-add'],
    ['roamer page asking for its key', 'roamerAskKey', '.roamer-key-form'],
  ] as const)(
    '%s',
    async (_name, key, ready) => {
      const { page } = browser;
      await page.setViewportSize({ width: 1080, height: 1920 });
      await page.goto(pages[key]);
      await page.locator(ready).first().waitFor();
      await settle(page);
      expect(await violations(page)).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    'the Find me consent step of a public album (light and dark): no contrast violation',
    async () => {
      // An event with face recognition on offers "Find me" on its public album.
      const faces = await setUpAlbumEvent(
        server.url,
        { full_name: 'Consent Gala', enable_facial_recognition: 1 },
        'Faces',
      );
      const folder = await photoFolder({ 'one.jpg': '#34495e' });
      await robotUpload(server.url, faces, folder);
      await waitForPublicPhotos(server.url, faces, 1);
      await rm(folder, { recursive: true, force: true });
      const { page } = browser;
      await page.setViewportSize({ width: 390, height: 844 });
      for (const scheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme: scheme });
        await page.goto(`${server.url}/?pId=${encodeURIComponent(faces.publicKey)}`);
        await page.getByRole('button', { name: 'Find me' }).click();
        await page.getByRole('button', { name: 'I agree — take a selfie' }).waitFor();
        await settle(page);
        const found = await violations(page);
        expect(
          found.filter((v) => v.id === 'color-contrast'),
          `consent, ${scheme}`,
        ).toEqual([]);
        expect(found, `consent, ${scheme}`).toEqual([]);
      }
      await page.emulateMedia({ colorScheme: 'light' });
    },
    TIMEOUT,
  );
});
