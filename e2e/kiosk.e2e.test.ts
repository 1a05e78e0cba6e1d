import { createServer, type Server, type Socket, connect } from 'node:net';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { defaultEventOpts, endpoints, kioskCardText, type BodyOf } from '@flashbulb/shared';
import {
  albumServerEnv,
  ALL_MY_PHOTOS_BUTTON,
  api,
  eventRowOf,
  photoFolder,
  robotUpload,
  setUpAlbumEvent,
  uploadAndListPhotos,
} from './support/albums.ts';
import { fakeCameraArgs, writeY4m } from './support/fake-camera.ts';
import { journeyResources, lookShot, photoNames } from './support/journey.ts';
import { decodeQrPng } from './support/qr.ts';
import { freePort, startServer, type RunningServer } from './support/server.ts';

const JOURNEY_TIMEOUT = 240_000;
const journey = journeyResources();
/** Polls wait long enough for a loaded machine; they end as soon as the page gets there. */
const WAIT = { timeout: 20_000 };

/** An event with photos; guest A has red and green, guest B grey. Cards carry the private id. */
/**
 * One server for the file, behind a relay: closing the relay is the server going away for the
 * kiosk. The server's public address is the relay's, as a kiosk on site reaches it (grants,
 * storage), so the pages open on the relay too.
 */
let server: RunningServer;
let relayPort = 0;
let upstream: URL;
const sockets = new Set<Socket>();
let relay: Server | null = null;
const openRelay = () =>
  new Promise<void>((resolve) => {
    relay = createServer((client) => {
      const peer = connect(Number(upstream.port), upstream.hostname);
      sockets.add(client).add(peer);
      client.pipe(peer).pipe(client);
      const drop = () => {
        client.destroy();
        peer.destroy();
        sockets.delete(client);
        sockets.delete(peer);
      };
      client.on('error', drop).on('close', drop);
      peer.on('error', drop).on('close', drop);
    }).listen(relayPort, '127.0.0.1', () => resolve());
  });
const closeRelay = () =>
  new Promise<void>((resolve) => {
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    if (!relay) return resolve();
    relay.close(() => resolve());
    relay = null;
  });

beforeAll(async () => {
  relayPort = await freePort();
  server = await startServer({
    env: { ...albumServerEnv, FLASHBULB_PUBLIC_URL: `http://127.0.0.1:${relayPort}` },
  });
  upstream = new URL(server.url);
  await openRelay();
}, JOURNEY_TIMEOUT);

afterAll(async () => {
  await closeRelay();
  await server?.stop();
});

/** Failures carry the page's state and the shared server's output. */
const withServerLog = (run: () => Promise<void>) => journey.withServerLog(run, server);

let eventCount = 0;
const world = async (
  opts: Partial<ReturnType<typeof defaultEventOpts>> = {},
  fields: Partial<BodyOf<typeof endpoints.createEvent>> = {},
) => {
  // Set-up and server-side checks go straight to the server (they must work while the kiosk is
  // offline); the kiosk's pages open on the relay.
  const url = server.url;
  eventCount += 1;
  const event = await setUpAlbumEvent(
    url,
    {
      full_name: `Harbour Gala ${eventCount}`,
      kiosk_staff_pin: STAFF_PIN,
      ...fields,
      opts: { ...defaultEventOpts(), description: 'kiosk journeys', ...opts },
    },
    `Kiosk ${eventCount}`,
  );
  const folder = journey.keepFolder(
    await photoFolder({ 'red.jpg': '#c0392b', 'green.jpg': '#27ae60', 'grey.jpg': '#7f8c8d' }),
  );
  const photos = await uploadAndListPhotos(url, event, folder, 3);
  const uid = (name: string) => photos.find((p) => p.file_name === name)!.uid;
  const eventRow = await eventRowOf(url, event);
  const { attendees } = await api(
    url,
    endpoints.generateAttendeeList,
    { attendee_count: 2, event_id_array: [eventRow.id] },
    event.token,
  );
  const [a, b] = attendees as [(typeof attendees)[0], (typeof attendees)[0]];
  const attach = (attendee_uid: string, names: string[]) =>
    api(
      url,
      endpoints.ownerAttachPhotos,
      { event_id: eventRow.id, attendee_uid, photo_uid_array: names.map(uid) },
      event.token,
    );
  await attach(a.uid, ['red.jpg', 'green.jpg']);
  await attach(b.uid, ['grey.jpg']);
  /** What a card's QR holds: an attId link with the printed private id, in groups of four. */
  const card = (privateId: string) =>
    `https://cards.example/?attId=${privateId.slice(0, 4)}-${privateId.slice(4)}`;
  /** The photo names of an attendee's album as the server lists them now. */
  const serverAlbum = async (attendeeUid: string) =>
    (
      await api(url, endpoints.publicPhotoList, {
        key_type: 'attendee',
        key_value: attendeeUid,
        max_size: 100,
      })
    ).photos
      .map((p) => p.file_name)
      .sort();
  /** One group photo uploaded once by the robot for both guests: it is in both albums. */
  const groupPhoto = async () => {
    const group = journey.keepFolder(await photoFolder({ 'group.jpg': '#8e44ad' }));
    const printed = await robotUpload(url, event, group, {}, [a.display_uid, b.display_uid]);
    expect(printed).toContain('1 uploaded, 0 already sent.');
    await expect
      .poll(async () => [await serverAlbum(a.uid), await serverAlbum(b.uid)], WAIT)
      .toEqual([
        ['green.jpg', 'group.jpg', 'red.jpg'],
        ['grey.jpg', 'group.jpg'],
      ]);
  };
  return {
    url: `http://127.0.0.1:${relayPort}`,
    event,
    eventId: eventRow.id,
    title: `Harbour Gala ${eventCount}`,
    a,
    b,
    card,
    serverAlbum,
    groupPhoto,
  };
};

/** The event's staff PIN (a secure field of the event, set in the console's Options tab). */
const STAFF_PIN = '2468';

/** Staff at the kiosk: five taps in the top-left corner, the PIN on the keypad. */
const openStaffControls = async (page: Page) => {
  const corner = page.locator('[data-kiosk-staff-corner]');
  for (let tap = 0; tap < 5; tap += 1) await corner.click();
  const dialog = page.getByRole('dialog', { name: 'Staff only' });
  for (const digit of STAFF_PIN) await dialog.getByRole('button', { name: digit }).click();
  await dialog.getByRole('button', { name: 'Open staff controls' }).click();
  await page.getByRole('region', { name: 'Staff controls' }).waitFor(WAIT);
};

/**
 * Opt-in screenshots for docs/screenshots (FLASHBULB_SCREENSHOT_DIR): the kiosk's print step on
 * both kiosk screens, the print list in view.
 */
const shootPrintStep = async (page: Page, name: string) => {
  const dir = process.env.FLASHBULB_SCREENSHOT_DIR;
  if (!dir) return;
  const before = page.viewportSize();
  for (const [width, height] of [
    [1080, 1920],
    [1920, 1080],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.locator('[data-kiosk-print-list]').scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
    await page.screenshot({ path: path.join(dir, `${name}-${width}x${height}.png`) });
  }
  if (before) await page.setViewportSize(before);
};

/** Heights of the visible buttons matching a selector (touch targets). */
const buttonHeights = (page: Page, selector: string) =>
  page
    .locator(selector)
    .evaluateAll((els) =>
      els
        .filter((el) => (el as HTMLElement).offsetParent !== null)
        .map((el) => el.getBoundingClientRect().height),
    );

const scan = async (page: Page, text: string) => {
  const input = page.getByLabel('Card code');
  expect(await input.getAttribute('type')).toBe('password');
  await input.fill(text);
  await input.press('Enter');
};

const kind = (page: Page) => page.locator('.albums-root').getAttribute('data-page-kind');

describe('kiosk entry page and kiosk screen in Chromium (albums §2.3, §2.4, §4)', () => {
  it(
    'scan → the guest’s kiosk album → idle → entry page with nothing left; the next guest sees only theirs; a wrong card is refused',
    async () => {
      const { url, event, title, a, b, card, groupPhoto } = await world();
      await groupPhoto();
      const browser = await journey.launchBrowser();
      const { page } = browser;
      await page.setViewportSize({ width: 1080, height: 1920 });
      // The organiser's kiosk link: the private key and the event's display token.
      const entry = `${url}/kiosk/entry?kType=evSB2&pvId=${encodeURIComponent(event.privateKey)}&display=${encodeURIComponent(event.displayToken)}&pricingModel=standard&kioskPreviewSize=800&miniAlbumPreviewSize=300&pageActiveTimeout=8000`;
      await withServerLog(async () => {
        await page.goto(entry);
        // The attract screen: the event's name large, "Tap to find your photos", no key or id.
        expect(await page.locator('h1').textContent()).toBe(title);
        expect(await page.title()).toBe(`${title} · Kiosk`);
        const tap = page.getByRole('button', { name: 'Tap to find your photos' });
        const tapBox = (await tap.boundingBox())!;
        expect(tapBox.height).toBeGreaterThanOrEqual(96);
        const heading = (await page.locator('h1').boundingBox())!;
        // Type sized for the tall screen (not a form with half the screen empty).
        expect(heading.height).toBeGreaterThanOrEqual(64);
        expect(await page.locator('body').innerText()).not.toContain(event.privateKey);
        await lookShot(page, 'kiosk/entry-1080x1920.png');
        // A tap shows the code entry; Back returns to the attract screen.
        await tap.click();
        await page.getByText('Type the code on your card').waitFor(WAIT);
        expect(Math.min(...(await buttonHeights(page, 'form button')))).toBeGreaterThanOrEqual(64);
        await lookShot(page, 'kiosk/entry-typing-1080x1920.png');
        await page.getByRole('button', { name: 'Back' }).click();
        await tap.waitFor(WAIT);

        // A wrong card: the spec's words, and the page stays.
        await scan(page, 'https://cards.example/?attId=ZZZZ-ZZZZ');
        await expect
          .poll(() => page.locator('#message').textContent(), WAIT)
          .toBe('Invalid card code.');
        // The album id is not the card code either.
        await scan(page, `${url}/?attId=${a.display_uid}`);
        await expect
          .poll(() => page.locator('#message').textContent(), WAIT)
          .toBe('Invalid card code.');
        expect(new URL(page.url()).pathname).toBe('/kiosk/entry');

        // Guest A scans: the preselected kiosk album with the kiosk parameters.
        await scan(page, card(a.private_id!));
        await page.waitForURL((u) => u.pathname === '/' && u.searchParams.has('attId'));
        const params = new URL(page.url()).searchParams;
        expect(params.get('kType')).toBe('evSB2');
        expect(params.get('privateId')).toBe(event.privateKey);
        // The display token rides along: the kiosk screen's desk calls carry it.
        expect(params.get('display')).toBe(event.displayToken);
        expect(params.get('attId')).toBe(a.uid);
        expect(params.get('pricingModel')).toBe('standard');
        expect(params.get('kioskPreviewSize')).toBe('800');
        expect(params.get('miniAlbumPreviewSize')).toBe('300');
        await expect.poll(() => kind(page), WAIT).toBe('attendee');
        await expect
          .poll(() => photoNames(page), WAIT)
          .toEqual(['green.jpg', 'group.jpg', 'red.jpg']);
        // Face recognition is off at this event, so the lookup is not offered at all; the swap of
        // 'Look up my images by face' and '< Back to album' is the faces journey's
        // (e2e/faces-kiosk.e2e.test.ts).
        expect(await page.locator('[data-kiosk-actions] button').allTextContents()).toEqual([]);
        await lookShot(page, 'kiosk/album-1080x1920.png');
        // The shared screen names the event, never the card's ids.
        expect(await page.locator('h1').textContent()).toBe(title);
        const onScreen = await page.locator('body').innerText();
        expect(onScreen).not.toContain(a.uid);
        expect(onScreen).not.toContain(a.display_uid);
        // Touch targets of at least 64 px.
        expect(
          Math.min(...(await buttonHeights(page, '.kiosk-bar button'))),
        ).toBeGreaterThanOrEqual(64);
        // No staff control in the guest's view.
        expect(await page.getByLabel('VIP code').count()).toBe(0);
        expect(await page.getByLabel('Employee unlock code').count()).toBe(0);
        // What a guest leaves behind in local storage (§3 keys).
        await page.evaluate(() => {
          localStorage.setItem('eventName', 'guest-a');
          localStorage.setItem('selectedEventId', '7');
          localStorage.setItem('role', '2');
        });

        // Idle: "Still there?" with the seconds left, then "Time's up!" and the attract screen
        // with nothing of guest A left.
        await page.getByRole('alertdialog', { name: 'Still there?' }).waitFor(WAIT);
        await lookShot(page, 'kiosk/still-there-1080x1920.png');
        await page.waitForURL((u) => u.pathname === '/kiosk/entry', { timeout: 30_000 });
        await page.getByRole('button', { name: 'Tap to find your photos' }).waitFor(WAIT);
        expect(await page.evaluate(() => localStorage.length)).toBe(0);
        expect(await page.evaluate(() => sessionStorage.length)).toBe(0);
        expect(await page.content()).not.toContain(a.uid);
        expect(await photoNames(page)).toEqual([]);

        // Guest B types the code printed on their card and sees only their own photos (the
        // group photo too).
        await scan(page, kioskCardText(b.private_id!));
        await page.waitForURL((u) => u.searchParams.get('attId') === b.uid);
        await expect.poll(() => photoNames(page), WAIT).toEqual(['grey.jpg', 'group.jpg']);
        // A phone-sized kiosk (390×844): the same screen in one column.
        await page.setViewportSize({ width: 390, height: 844 });
        await expect
          .poll(
            () =>
              page
                .locator('[data-photo-name] img')
                .evaluateAll((imgs) => imgs.every((img) => (img as HTMLImageElement).complete)),
            WAIT,
          )
          .toBe(true);
        // Nothing of the kiosk bar runs off the narrow screen.
        expect(
          await page.locator('.kiosk-bar').evaluate((bar) => bar.scrollWidth <= bar.clientWidth),
        ).toBe(true);
        await lookShot(page, 'kiosk/album-390x844.png');
        await page.goBack();
        await page.setViewportSize({ width: 1920, height: 1080 });
        await page.goto(
          `${url}/?kType=evSB2&privateId=${encodeURIComponent(event.privateKey)}&display=${encodeURIComponent(event.displayToken)}&attId=${b.uid}&kioskMode=true`,
        );
        await expect.poll(() => photoNames(page), WAIT).toEqual(['grey.jpg', 'group.jpg']);
        await lookShot(page, 'kiosk/album-1920x1080.png');
        await page.goto(entry);
        await lookShot(page, 'kiosk/entry-1920x1080.png');
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'a locked kiosk album of a paid event cannot print until prints are bought; bought on the phone, the print reaches the printer',
    async () => {
      const { url, event, eventId, a, card } = await world(
        { unitPrice: 4.5, pricingButtons: [ALL_MY_PHOTOS_BUTTON] },
        { is_free: 0, is_photo_printer_active: 1, max_print_photos_count: 5 },
      );
      const browser = await journey.launchBrowser();
      const { page, context } = browser;
      await page.setViewportSize({ width: 1080, height: 1920 });
      /** Every sheet the embedded file printer holds (`prints/<pool>/job-<id>-<copy>.jpg`). */
      const printed = async () => {
        const root = path.join(server.dataDir, 'prints');
        const pools = await readdir(root).catch(() => [] as string[]);
        const files = await Promise.all(
          pools.map(async (pool) =>
            (await readdir(path.join(root, pool))).map((file) => `${pool}/${file}`),
          ),
        );
        return files.flat().sort();
      };
      const album = (
        await api(server.url, endpoints.publicPhotoList, {
          key_type: 'attendee',
          key_value: a.uid,
          max_size: 100,
        })
      ).photos;
      let requests = 0;
      /** The kiosk's own print call for red.jpg, made without the page: the server's verdict. */
      const printDirectly = () =>
        api(server.url, endpoints.publicPrintWithQueue, {
          key_type: 'private',
          key_value: event.privateKey,
          display: event.displayToken,
          attUid: a.uid,
          printable_photo_uid_array: [album.find((p) => p.file_name === 'red.jpg')!.uid],
          printing_count: 1,
          client_request_id: `e2e-direct-print-${(requests += 1)}`,
        }).then(
          () => 'printed',
          (error: unknown) => (error as { messageKey?: string }).messageKey,
        );
      const printList = page.getByRole('region', { name: 'Print list' });
      const addToList = async (names: string[]) => {
        for (const name of names)
          await page.getByRole('button', { name: `Print: ${name}` }).click();
      };
      await withServerLog(async () => {
        const before = await printed();
        await page.goto(
          `${url}/kiosk/entry?kType=evSB2&pvId=${encodeURIComponent(event.privateKey)}&display=${encodeURIComponent(event.displayToken)}&pageActiveTimeout=600000`,
        );
        await scan(page, card(a.private_id!));
        await page.waitForURL((u) => u.searchParams.get('attId') === a.uid);
        await expect.poll(() => photoNames(page), WAIT).toEqual(['green.jpg', 'red.jpg']);

        // Digitals only: the print step says prints are not sold here and "Print" stays off.
        await addToList(['red.jpg']);
        await printList.getByText('Prints are sold at the desk.').waitFor(WAIT);
        const printOne = printList.getByRole('button', { name: 'Print 1 photo' });
        // Off in the same render as the offer's words (both read the one allowance).
        expect(await printOne.isDisabled()).toBe(true);
        expect(await printList.getByText('Prints are free at this event.').count()).toBe(0);
        // The server refuses the print itself, whatever the page does.
        expect(await printDirectly()).toBe('prints_not_paid');

        // The operator starts selling prints (a pricing button with `prints`).
        const [full] = await api(
          server.url,
          endpoints.eventFullData,
          { event_name: event.code },
          event.token,
        );
        await api(
          server.url,
          endpoints.updateEvent,
          {
            id: eventId,
            event_last_updated_date: full!.updated_date,
            opts: {
              ...full!.opts,
              pricingButtons: [
                ALL_MY_PHOTOS_BUTTON,
                {
                  buttonText: 'Prints',
                  priceFormula: '{Final_Amount}',
                  digitals: false,
                  prints: true,
                  partialUnlockTags: false,
                  printsPool: '',
                },
              ],
            },
          },
          event.token,
        );
        await page.reload();
        await expect.poll(() => photoNames(page), WAIT).toEqual(['green.jpg', 'red.jpg']);
        await addToList(['red.jpg', 'green.jpg']);
        // Not bought yet: the price, "Buy 2 prints", and still no "Print".
        await printList.getByText('2 prints: $9.00').waitFor(WAIT);
        const printTwo = printList.getByRole('button', { name: 'Print 2 photos' });
        expect(await printTwo.isDisabled()).toBe(true);
        await printList.getByRole('button', { name: 'Buy 2 prints' }).click();
        const qr = printList.getByRole('img', {
          name: 'Scan the code with your phone to pay for your prints.',
        });
        await qr.waitFor(WAIT);
        await printList.scrollIntoViewIfNeeded();
        await lookShot(page, 'kiosk/print-buy-1080x1920.png');
        await shootPrintStep(page, 'kiosk-print-buy');
        expect(await printDirectly()).toBe('prints_not_paid');
        expect(await printed()).toEqual(before);

        // The guest's phone reads the code and pays on the test provider's page.
        const href = decodeQrPng(await qr.screenshot());
        expect(href).toMatch(new RegExp(`^${url}/pay/test/pay_[a-z2-7]{26}`));
        const phone = await context.newPage();
        await phone.setViewportSize({ width: 390, height: 844 });
        await phone.goto(href);
        expect(await phone.getByTestId('checkout-amount').textContent()).toBe('$9.00');
        await phone.getByLabel('Card number').fill('4242 4242 4242 4242');
        await phone.getByRole('button', { name: 'Pay $9.00' }).click();
        await phone.getByRole('status').filter({ hasText: 'Paid' }).waitFor(WAIT);
        await phone.close();

        // The kiosk sees the payment: "Print" spends the two paid prints.
        await printList
          .getByRole('status')
          .filter({ hasText: 'Paid. Press “Print” to print your photos.' })
          .waitFor(WAIT);
        await printList.getByText('You have 2 paid prints left.').waitFor(WAIT);
        await expect.poll(() => printTwo.isEnabled(), WAIT).toBe(true);
        await shootPrintStep(page, 'kiosk-print-paid');
        await printTwo.click();
        await page
          .getByRole('status')
          .filter({ hasText: '2 photos sent to the printer' })
          .waitFor(WAIT);
        // The sheets reach the printer: the embedded file printer holds two new ones.
        await expect
          .poll(async () => (await printed()).length - before.length, { timeout: 30_000 })
          .toBe(2);
        // Spent: no paid print is left for another print.
        expect(await printDirectly()).toBe('prints_not_paid');
      });
      expect(browser.problems).toEqual([]);
    },
    JOURNEY_TIMEOUT,
  );

  it(
    'delete with Keep/Delete; offline the album stays, a delete waits and goes through on recovery',
    async () => {
      const {
        url: kioskUrl,
        event,
        a,
        card,
        serverAlbum,
      } = await world({
        allowKioskPhotoDelete: 1,
      });
      // The relay is open again after this test, whatever happened.
      journey.onClose(async () => {
        if (!relay) await openRelay();
      });
      // The kiosk camera shows a blue card.
      const folder = journey.keepFolder(await mkdtemp(path.join(tmpdir(), 'flashbulb-e2e-kiosk-')));
      const y4m = await writeY4m(
        await sharp({
          create: { width: 640, height: 480, channels: 3, background: '#2f6fde' },
        })
          .jpeg()
          .toBuffer(),
        path.join(folder, 'camera.y4m'),
      );
      const browser = await journey.launchBrowser(fakeCameraArgs(y4m));
      const { page } = browser;
      await page.setViewportSize({ width: 1080, height: 1920 });
      await withServerLog(async () => {
        await page.goto(
          `${kioskUrl}/kiosk/entry?kType=evSB2&pvId=${encodeURIComponent(event.privateKey)}&display=${encodeURIComponent(event.displayToken)}&allowKioskPhotoDelete=true&pageActiveTimeout=600000`,
        );
        await scan(page, card(a.private_id!));
        await page.waitForURL((u) => u.searchParams.get('attId') === a.uid);
        expect(new URL(page.url()).searchParams.get('allowKioskPhotoDelete')).toBe('true');
        await expect.poll(() => photoNames(page), WAIT).toEqual(['green.jpg', 'red.jpg']);

        // Delete (§4, §6) is staff's: not offered until the staff gesture and the PIN.
        expect(await page.getByRole('button', { name: 'Delete: red.jpg' }).count()).toBe(0);
        await openStaffControls(page);
        await lookShot(page, 'kiosk/staff-1080x1920.png');
        // Keep changes nothing; Delete removes the photo here and on the server.
        await page.getByRole('button', { name: 'Delete: red.jpg' }).click();
        await lookShot(page, 'kiosk/delete-confirm-1080x1920.png');
        await page.getByRole('alertdialog').getByRole('button', { name: 'Keep' }).click();
        expect(await serverAlbum(a.uid)).toEqual(['green.jpg', 'red.jpg']);
        await page.getByRole('button', { name: 'Delete: red.jpg' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
        await expect.poll(() => photoNames(page), WAIT).toEqual(['green.jpg']);
        expect(await serverAlbum(a.uid)).toEqual(['green.jpg']);

        // The kiosk camera (§4, §7.1): the live preview, 3-2-1, the picture, 'Add to my album';
        // the photo goes up through the storage grant and arrives in the guest's album.
        await page.getByRole('button', { name: 'Take a photo' }).click();
        const shoot = page.getByRole('button', { name: 'Take the photo' });
        await expect.poll(() => shoot.isEnabled(), WAIT).toBe(true);
        await lookShot(page, 'kiosk/camera-1080x1920.png');
        await shoot.click();
        await page.getByRole('button', { name: 'Add to my album' }).click();
        await expect
          .poll(
            () => page.locator('[data-kiosk-booth-result]').getAttribute('data-kiosk-booth-result'),
            { timeout: 30_000 },
          )
          .toBe('sent');
        await lookShot(page, 'kiosk/camera-sent-1080x1920.png');
        await page.setViewportSize({ width: 390, height: 844 });
        await lookShot(page, 'kiosk/camera-sent-390x844.png');
        await page.setViewportSize({ width: 1080, height: 1920 });
        // 'Use as my profile photo': listed under the camera (a signed picture), with its delete.
        await page.getByRole('button', { name: 'Take another' }).click();
        await expect.poll(() => shoot.isEnabled(), WAIT).toBe(true);
        await shoot.click();
        await page.getByRole('button', { name: 'Use as my profile photo' }).click();
        const profiles = page.getByRole('region', { name: 'Your profile photos' });
        await expect
          .poll(() => profiles.getByRole('img', { name: 'Profile photo 1' }).count(), WAIT)
          .toBe(1);
        await expect
          .poll(
            () =>
              profiles
                .getByRole('img', { name: 'Profile photo 1' })
                .evaluate((img) => (img as HTMLImageElement).naturalWidth),
            WAIT,
          )
          .toBeGreaterThan(0);
        await lookShot(page, 'kiosk/profile-photos-1080x1920.png');
        await page.setViewportSize({ width: 390, height: 844 });
        await lookShot(page, 'kiosk/profile-photos-390x844.png');
        await page.setViewportSize({ width: 1080, height: 1920 });
        await profiles.getByRole('button', { name: 'Delete profile photo 1' }).click();
        await expect.poll(() => profiles.getByRole('img').count(), WAIT).toBe(0);
        // One '< Back to album' on the result screen: the kiosk bar's (none in the camera panel).
        await expect
          .poll(() => page.getByRole('button', { name: '< Back to album' }).count())
          .toBe(1);
        await page
          .locator('[data-kiosk-actions]')
          .getByRole('button', { name: '< Back to album' })
          .click();
        const withCamera = (names: string[]) =>
          names.length === 2 &&
          names.includes('green.jpg') &&
          names.every((name) => /\.jpe?g$/i.test(name));
        await expect
          .poll(async () => withCamera(await photoNames(page)), { timeout: 60_000 })
          .toBe(true);
        expect(withCamera(await serverAlbum(a.uid))).toBe(true);
        const albumNow = await photoNames(page);
        // Every thumbnail on screen has loaded (the kiosk's service worker keeps them).
        const thumbnailsLoaded = () =>
          page
            .locator('[data-photo-name] img')
            .evaluateAll((imgs) =>
              imgs.every(
                (img) =>
                  (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0,
              ),
            );
        await expect.poll(thumbnailsLoaded, WAIT).toBe(true);

        // Back from the camera and then offline: the album stays on screen.
        await closeRelay();
        await expect
          .poll(() => page.locator('[data-kiosk-offline]').count(), { timeout: 30_000 })
          .toBe(1);
        expect(await photoNames(page)).toEqual(albumNow);
        expect(await thumbnailsLoaded()).toBe(true);
        await lookShot(page, 'kiosk/offline-1080x1920.png');

        // Offline, a delete waits in line (the banner counts it) and nothing is lost.
        await page.getByRole('button', { name: 'Delete: green.jpg' }).click();
        await page.getByRole('alertdialog').getByRole('button', { name: 'Delete' }).click();
        await expect
          .poll(() => page.locator('[data-kiosk-pending]').getAttribute('data-kiosk-pending'), WAIT)
          .toBe('1');
        expect(await serverAlbum(a.uid)).toContain('green.jpg');
        expect(await photoNames(page)).toContain('green.jpg');

        await openRelay();
        const cameraPhoto = albumNow.filter((name) => name !== 'green.jpg');
        await expect.poll(() => photoNames(page), { timeout: 30_000 }).toEqual(cameraPhoto);
        expect(await serverAlbum(a.uid)).toEqual(cameraPhoto);
        await expect
          .poll(() => page.locator('[data-kiosk-offline]').count(), { timeout: 30_000 })
          .toBe(0);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
