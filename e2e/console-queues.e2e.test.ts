// The console's queues in Chromium, on one server: the Outbox page and the Moderation page.
import { describe, expect, it } from 'vitest';
import { defaultEventOpts, endpoints } from '@flashbulb/shared';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  api,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  waitForPublicPhotos,
} from './support/albums.ts';
import { signInInBrowser } from './support/console.ts';
import { journeyResources, lookShot, lookShotsDir, screenshotSizes } from './support/journey.ts';

const JOURNEY_TIMEOUT = 150_000;
const journey = journeyResources();

describe('the console Outbox page in Chromium', () => {
  it(
    'a photo attached to an attendee whose topic has an e-mail channel gives one mail, readable on the Outbox page (no SMTP: held)',
    async () => {
      const { url } = await journey.fileServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(url);
      const [stored] = await api(
        url,
        endpoints.eventFullData,
        { event_name: event.code },
        event.token,
      );
      const channel = {
        id: 'mailchan01',
        name: 'Photo mail',
        type: 'email' as const,
        subject: 'New photo for {user_name}',
        body: 'Hello {user_name}, a new photo: {url}\n<marquee>not html</marquee>',
      };
      await api(
        url,
        endpoints.updateEvent,
        {
          id: stored!.id,
          event_last_updated_date: stored!.updated_date,
          notification_data: {
            channels: [channel],
            topics: [{ id: 't1', key: 'photo_ready', emailChannel: channel, smsChannel: null }],
            smsSettings: { from: '' },
          },
        },
        event.token,
      );
      const folder = journey.keepFolder(await photoFolder({ 'red.jpg': '#c0392b' }));
      await robotUpload(url, event, folder);
      await waitForPublicPhotos(url, event, 1);
      const generated = await api(
        url,
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [stored!.id], email: 'guest@example.com' },
        event.token,
      );
      const photos = await api(
        url,
        endpoints.ownerPhotoList,
        { event_id: stored!.id },
        event.token,
      );
      await api(
        url,
        endpoints.ownerAttachPhotos,
        {
          event_id: stored!.id,
          attendee_uid: generated.attendees[0]!.uid,
          photo_uid_array: photos.photos.map((p) => p.uid),
        },
        event.token,
      );
      // The photo's mail is written by a listener after the attach answers: the page reads the
      // outbox once it has both messages (the attendee list's mail and the photo's).
      await expect
        .poll(
          async () =>
            (await api(url, endpoints.outboxList, { event_id: stored!.id }, event.token)).messages
              .length,
          { timeout: 30_000 },
        )
        .toBe(2);

      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);
        await page.goto(`${url}/events`);
        await page.getByRole('button', { name: 'More actions for Summer party' }).click();
        await page.getByRole('menuitem', { name: 'Messages of Summer party' }).click();
        const table = page.getByRole('table', { name: 'Messages' });
        await table.waitFor();
        const rows = table.getByTestId('outbox-row');
        // The generate call's e-mail also got the attendee list: two messages.
        expect(await rows.count()).toBe(2);
        const photoRows = rows.filter({ hasText: 'photo_ready' });
        expect(await photoRows.count()).toBe(1);
        const cells = await photoRows.first().getByRole('cell').allInnerTexts();
        expect(cells.slice(1, 6)).toEqual([
          'E-mail',
          'photo_ready',
          'guest@example.com',
          'HELD (NO PROVIDER)',
          '0',
        ]);
        await page.setViewportSize({ width: 1440, height: 900 });
        await lookShot(page, 'console-queues/outbox-1440.png');

        await photoRows
          .getByRole('button', { name: 'Read the message to guest@example.com' })
          .click();
        const dialog = page.getByRole('dialog', { name: 'New photo for guest@example.com' });
        const text = await dialog.getByTestId('outbox-text').innerText();
        // The address is a placeholder value: zero-width spaces keep mail clients from linking it.
        expect(text.replace(/\u200B/g, '')).toContain('Hello guest@example.com, a new photo: http');
        expect(text).toContain('<marquee>not html</marquee>');
        expect(text).toContain('Unsubscribe: http');
        await page.setViewportSize({ width: 390, height: 844 });
        await lookShot(page, 'console-queues/outbox-read-390.png');
        await page.keyboard.press('Escape');

        await photoRows
          .getByRole('button', { name: 'Resend the message to guest@example.com' })
          .click();
        await page.getByText('Sent again to guest@example.com').waitFor();
        await expect.poll(() => rows.count()).toBe(3);

        // The console on a phone: nothing wider than 390 px, the header's buttons included (a
        // fixed header does not widen the page, so its right edge is measured too).
        for (const [route, ready] of [
          ['/events', page.getByRole('button', { name: 'New event' })],
          ['/robots', page.getByTestId('robot-activity-row').first()],
          [`/events/${event.code}/outbox`, table],
        ] as const) {
          await page.goto(`${url}${route}`);
          await ready.waitFor();
          expect(
            await page.evaluate(() => document.documentElement.scrollWidth),
          ).toBeLessThanOrEqual(390);
          const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
          expect((signOut?.x ?? 0) + (signOut?.width ?? 0)).toBeLessThanOrEqual(390);
        }
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});

describe('moderation in Chromium', () => {
  it(
    'booth photos wait in the queue, out of the public album, until approved with the keyboard',
    async () => {
      const { url } = await journey.fileServer({ env: albumServerEnv });
      const event = await setUpAlbumEvent(
        url,
        {
          full_name: 'Moderated party',
          opts: { ...defaultEventOpts(), description: 'moderated', moderationEnabled: 1 },
        },
        'Moderation',
      );
      const folder = journey.keepFolder(
        await photoFolder({ 'red.jpg': '#c0392b', 'blue.jpg': '#2c3e50', 'green.jpg': '#27ae60' }),
      );
      await robotUpload(url, event, folder);
      const [stored] = await api(
        url,
        endpoints.eventFullData,
        { event_name: event.code },
        event.token,
      );
      // Ready for the operator, nothing for the public key.
      await expect
        .poll(
          async () =>
            (
              await api(url, endpoints.moderationQueue, { event_id: stored!.id }, event.token)
            ).photos.filter((p) => p.status === 'ready').length,
          { timeout: 60_000 },
        )
        .toBe(3);
      const publicList = () =>
        api(url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 10,
          page_number: 1,
        });
      expect((await publicList()).photos).toEqual([]);

      const browser = await journey.launchBrowser();
      const { page } = browser;
      await journey.withServerLog(async () => {
        await page.goto(`${url}/`);
        await signInInBrowser(page, ALBUM_ADMIN);
        await page.goto(`${url}/events`);
        await page.getByRole('button', { name: 'More actions for Moderated party' }).click();
        await page.getByRole('menuitem', { name: 'Moderation queue of Moderated party' }).click();
        const grid = page.getByRole('listbox', { name: 'Photos waiting for moderation' });
        await expect.poll(() => grid.getByRole('option').count()).toBe(3);
        await expect
          .poll(() =>
            grid
              .locator('img')
              .evaluateAll((imgs) =>
                imgs.every((img) => (img as HTMLImageElement).naturalWidth > 0),
              ),
          )
          .toBe(true);
        await screenshotSizes(page, lookShotsDir(), 'moderation-queue', [
          [1440, 900],
          [390, 844],
        ]);

        // Focus the grid, A approves the photo in focus: the public album shows it.
        await page.setViewportSize({ width: 1440, height: 900 });
        await grid.focus();
        await page.keyboard.press('a');
        await expect.poll(() => grid.getByRole('option').count()).toBe(2);
        await waitForPublicPhotos(url, event, 1);
        expect(browser.problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
