import { describe, expect, it } from 'vitest';
import { startSmtpPeer } from '../apps/server/test/helpers/smtp-peer.ts';
import {
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { journeyResources, photoNames } from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
const journey = journeyResources();

describe('mini-album links in Chromium (albums §5, §7.2)', () => {
  it(
    'a guest chooses two photos in the public album and sends them; the e-mail arrives over SMTP with a link that opens exactly those photos',
    async () => {
      const smtp = await startSmtpPeer();
      journey.onClose(smtp.close);
      const { url } = await journey.startServer({
        env: { ...albumServerEnv, SMTP_URL: smtp.url },
      });
      const event = await setUpAlbumEvent(url);
      const folder = journey.keepFolder(
        await photoFolder({
          'red.jpg': '#c0392b',
          'green.jpg': '#27ae60',
          'blue.jpg': '#2980b9',
        }),
      );
      await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 3);
      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
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
        // The link points at this server's public address.
        expect(link?.startsWith(`${url}/`)).toBe(true);

        await page.goto(link!);
        await expect
          .poll(() => page.locator('.albums-root').getAttribute('data-page-kind'))
          .toBe('mini-album');
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'red.jpg']);
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
