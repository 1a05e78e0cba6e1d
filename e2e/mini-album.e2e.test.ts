import { rm } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { startSmtpPeer } from '../apps/server/test/helpers/smtp-peer.ts';
import {
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { launchBrowser, type RunningBrowser } from './support/browser.ts';
import { startServer, type RunningServer } from './support/server.ts';

const JOURNEY_TIMEOUT = 150_000;

let server: RunningServer | undefined;
let browser: RunningBrowser | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>> | undefined;
const folders: string[] = [];

afterEach(async () => {
  await browser?.close();
  await server?.stop();
  await smtp?.close();
  await Promise.all(folders.splice(0).map((f) => rm(f, { recursive: true, force: true })));
  browser = undefined;
  server = undefined;
  smtp = undefined;
});

const photoNames = (page: Page) =>
  page
    .locator('[data-photo-name]')
    .evaluateAll((els) => els.map((el) => el.getAttribute('data-photo-name') ?? '').sort());

describe('mini-album links in Chromium (albums §5, §7.2)', () => {
  it(
    'a guest chooses two photos in the public album and sends them; the e-mail arrives over SMTP with a link that opens exactly those photos',
    async () => {
      smtp = await startSmtpPeer();
      server = await startServer({ env: { ...albumServerEnv, SMTP_URL: smtp.url } });
      const { url } = server;
      const event = await setUpAlbumEvent(url);
      const folder = await photoFolder({
        'red.jpg': '#c0392b',
        'green.jpg': '#27ae60',
        'blue.jpg': '#2980b9',
      });
      folders.push(folder);
      await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 3);
      browser = await launchBrowser();
      const { page } = browser;
      try {
        await page.goto(`${url}/?pId=${encodeURIComponent(event.publicKey)}`);
        await expect.poll(() => photoNames(page)).toHaveLength(3);
        await page.getByRole('button', { name: 'Send photos' }).click();
        await page.locator('[data-photo-name="red.jpg"]').click();
        await page.locator('[data-photo-name="blue.jpg"]').click();
        await page.getByText('2 photos chosen').waitFor();
        await page.getByLabel('Recipient’s name').fill('Ann Lee');
        // A bad address is refused with the catalogue's words and nothing is sent.
        await page.getByLabel('E-mail addresses').fill('not-an-address');
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByText('The photos were not sent: Enter a valid e-mail address').waitFor();
        await page.getByLabel('E-mail addresses').fill('friend@example.com');
        await page.getByRole('button', { name: 'Send', exact: true }).click();
        await page.getByText('Sent to friend@example.com.').waitFor();

        const mail = await smtp.waitFor((m) => m.to.includes('friend@example.com'), 30_000);
        expect(smtp.messages.filter((m) => m.to.includes('friend@example.com'))).toHaveLength(1);
        const link = /https?:\/\/[^\s"'<>]+\?mId=[A-Za-z0-9_-]+/.exec(mail.text)?.[0];
        expect(link).toBeDefined();

        await page.goto(link!);
        await expect
          .poll(() => page.locator('.albums-root').getAttribute('data-page-kind'))
          .toBe('mini-album');
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'red.jpg']);
      } catch (error) {
        if (error instanceof Error) error.message += `\n--- server ---\n${server.output()}`;
        throw error;
      }
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
