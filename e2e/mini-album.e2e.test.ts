import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { endpoints } from '@flashbulb/shared';
import { describe, expect, it } from 'vitest';
import { startSmtpPeer } from '../apps/server/test/helpers/smtp-peer.ts';
import {
  api,
  albumServerEnv,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { journeyResources, photoNames } from './support/journey.ts';

// The mini-album, then an instant link's page before and after its upload.
const JOURNEY_TIMEOUT = 240_000;
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
      const uploaded = await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 3);
      // The robot client prints each file's instant link before sending its bytes.
      const printed = [...uploaded.matchAll(/^link (\S+): (\S+) \(code ([A-Z0-9]{6})\)$/gm)];
      expect(printed.map((m) => m[1]).sort()).toEqual(['blue.jpg', 'green.jpg', 'red.jpg']);
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

        // Instant links: a booth asks for the grant, shows the link's QR code, then uploads. The
        // page opened from it before any byte is sent says "developing", and fills in by itself.
        const grant = await api(url, endpoints.photoUploadAccess, {
          key_type: 'robot',
          key_value: event.robotKey,
          event_name: event.code,
          file_name: 'yellow.jpg',
          content_type: 'image/jpeg',
        });
        expect(grant.instant_url).toBe(`${url}/?instant=${event.code}-${grant.instant_code}`);
        await page.setViewportSize({ width: 390, height: 844 });
        await page.goto(grant.instant_url!);
        await page.getByRole('heading', { name: 'Your photo is developing…' }).waitFor();
        await page.getByText(`Code ${grant.instant_code!}`).waitFor();
        // A mark on the window: a reload would lose it.
        await page.evaluate(() => {
          (window as unknown as { instantMark: number }).instantMark = 1;
        });
        // Opt-in screenshots for docs/screenshots (FLASHBULB_SCREENSHOT_DIR).
        const shots = process.env.FLASHBULB_SCREENSHOT_DIR;
        if (shots)
          await page.screenshot({ path: path.join(shots, 'instant-developing-390x844.png') });

        const bytes = await readFile(
          path.join(
            journey.keepFolder(await photoFolder({ 'yellow.jpg': '#f1c40f' })),
            'yellow.jpg',
          ),
        );
        const form = new FormData();
        for (const [field, value] of Object.entries(grant.fields)) form.append(field, value);
        form.append(
          'file',
          new Blob([new Uint8Array(bytes)], { type: 'image/jpeg' }),
          'yellow.jpg',
        );
        expect((await fetch(grant.url, { method: 'POST', body: form })).ok).toBe(true);
        await api(url, endpoints.photoUploadComplete, {
          key_type: 'robot',
          key_value: event.robotKey,
          key: grant.key,
        });
        const picture = page.getByRole('img', { name: 'Your photo' });
        await picture.waitFor({ timeout: 30_000 });
        await expect
          .poll(() => picture.evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
        expect(
          await page.evaluate(() => (window as unknown as { instantMark?: number }).instantMark),
        ).toBe(1);
        if (shots) await page.screenshot({ path: path.join(shots, 'instant-ready-390x844.png') });

        // A link the robot client printed opens its photo, already there.
        await page.goto(printed.find((m) => m[1] === 'green.jpg')![2]!);
        await page.getByRole('img', { name: 'Your photo' }).waitFor();

        // A mistyped link is a real 404, still the guest's page; typing the code from the
        // booth's screen (as people type it) opens the photo in place.
        const wrong = await page.goto(`${url}/?instant=${event.code}-ZZZZZZ`);
        expect(wrong?.status()).toBe(404);
        await page.getByRole('heading', { name: 'Photo not found' }).waitFor();
        await page.getByLabel('Photo code').fill('nope');
        await page.getByRole('button', { name: 'Open my photo' }).click();
        await page.getByText('That isn’t a photo code', { exact: false }).waitFor();
        if (shots)
          await page.screenshot({ path: path.join(shots, 'instant-not-found-390x844.png') });
        const typed = grant.instant_code!.toLowerCase();
        await page.getByLabel('Photo code').fill(`${typed.slice(0, 3)} ${typed.slice(3)}`);
        await page.getByRole('button', { name: 'Open my photo' }).click();
        await page.getByRole('img', { name: 'Your photo' }).waitFor();
        expect(new URL(page.url()).searchParams.get('instant')).toBe(
          `${event.code}-${grant.instant_code}`,
        );
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );
});
