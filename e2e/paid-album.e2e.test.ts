import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import { defaultEventOpts, endpoints } from '@flashbulb/shared';
import {
  ALBUM_ADMIN,
  albumServerEnv,
  ALL_MY_PHOTOS_BUTTON,
  api,
  eventRowOf,
  photoFolder,
  setUpAlbumEvent,
  uploadAndListPhotos,
} from './support/albums.ts';
import {
  CARD_DECLINED,
  CARD_PAYS,
  PAYPAL_CLIENT_ID,
  PAYPAL_CLIENT_SECRET,
  startPayPalDouble,
  type PayPalDouble,
} from '../apps/server/test/doubles/paypal/paypal-double.ts';
import { signInInBrowser } from './support/console.ts';
import { GUEST_SIZES, journeyResources, photoNames } from './support/journey.ts';

/**
 * Chromium: an attendee opens a paid album (protector-watermarked previews, no
 * original, a forged original URL refused), pays on the "phone" page of the built-in test provider;
 * a declined card unlocks nothing, the test card unlocks the album without a reload and the
 * original downloads, byte for byte what the camera sent. On the same server: a
 * second attendee pays by card in PayPal's card form on the album page (the PayPal double serves
 * the stand-in of PayPal's script); a declined card unlocks nothing, and the album opens only once
 * our server captured the order at PayPal. Then a phone guest on the event's public album buys
 * two photos, pays on the phone itself (no QR code) and comes back to an album of their own with
 * those two originals.
 */

const JOURNEY_TIMEOUT = 330_000;
const journey = journeyResources();

const sha = (bytes: Buffer | Uint8Array) => createHash('sha256').update(bytes).digest('hex');

const world = async (paypal: PayPalDouble) => {
  const { url } = await journey.startServer({
    env: {
      ...albumServerEnv,
      PAYPAL_API_BASE: paypal.url,
      PAYPAL_CLIENT_ID,
      PAYPAL_CLIENT_SECRET,
      PAYPAL_SDK_URL: paypal.sdkUrl,
    },
  });
  const event = await setUpAlbumEvent(url, {
    is_free: 0,
    opts: {
      ...defaultEventOpts(),
      description: 'paid album journey',
      unitPrice: 4.5,
      pricingButtons: [ALL_MY_PHOTOS_BUTTON],
    },
  });
  const folder = journey.keepFolder(
    await photoFolder({ 'red.jpg': '#c0392b', 'blue.jpg': '#2980b9' }),
  );
  const photos = await uploadAndListPhotos(url, event, folder, 2);
  const eventRow = await eventRowOf(url, event);
  const [attendee, cardGuest] = (
    await api(
      url,
      endpoints.generateAttendeeList,
      { attendee_count: 2, event_id_array: [eventRow.id] },
      event.token,
    )
  ).attendees;
  for (const one of [attendee!, cardGuest!])
    await api(
      url,
      endpoints.ownerAttachPhotos,
      {
        event_id: eventRow.id,
        attendee_uid: one.uid,
        photo_uid_array: photos.map((p) => p.uid),
      },
      event.token,
    );
  return { url, event, attendee: attendee!, cardGuest: cardGuest!, folder, owned: photos };
};

/** The attendee's photos as their key sees them. */
const albumOf = async (url: string, uid: string) =>
  (
    await api(url, endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
    })
  ).photos;

/** Starts a phone payment on the album page; answers the checkout link the panel shows. */
const startPayment = async (page: Page): Promise<string> => {
  await page.getByRole('button', { name: 'All my photos — $9.00' }).click();
  // The album offers PayPal's card form first; the guest picks the phone instead.
  await page.getByRole('button', { name: 'Pay with a phone instead' }).click();
  const link = page.getByRole('link', { name: 'Or pay on this device' });
  await link.waitFor();
  await expect.poll(() => page.locator('.albums-paid img').count()).toBe(1); // the QR code
  return (await link.getAttribute('href'))!;
};

/** Opt-in screenshots (FLASHBULB_SCREENSHOT_DIR): the pages of the brief at their sizes. */
const shots = process.env.FLASHBULB_SCREENSHOT_DIR;
const shoot = async (page: Page, name: string, sizes: readonly (readonly [number, number])[]) => {
  if (!shots) return;
  const before = page.viewportSize();
  for (const [w, h] of sizes) {
    await page.setViewportSize({ width: w, height: h });
    // Layout transitions started by the resize (the console's navbar) end first; endless
    // animations (the live dot) are not waited for.
    await page.evaluate(() =>
      Promise.all(
        document
          .getAnimations()
          .filter((a) => a.effect?.getComputedTiming().iterations !== Infinity)
          .map((a) => a.finished.catch(() => undefined)),
      ),
    );
    await page.screenshot({ path: path.join(shots, `${name}-${w}x${h}.png`), fullPage: true });
  }
  if (before) await page.setViewportSize(before);
};

/**
 * The phone: opens the checkout link, checks what it charges and pays with a card; answers the
 * page's verdict.
 */
const payOnPhone = async (
  context: BrowserContext,
  href: string,
  card: string,
  shot: string | null = null,
) => {
  const phone = await context.newPage();
  await phone.setViewportSize({ width: 390, height: 844 });
  await phone.goto(href);
  await phone.getByLabel('Card number').waitFor();
  expect(await phone.getByTestId('checkout-amount').textContent()).toBe('$9.00');
  expect(await phone.getByText('All my photos').count()).toBe(1);
  if (shot)
    await shoot(phone, shot, [
      [390, 844],
      [1440, 900],
    ]);
  await phone.getByLabel('Card number').fill(card);
  await phone.getByRole('button', { name: 'Pay $9.00' }).click();
  const verdict = phone.getByRole('status');
  await verdict.waitFor();
  const text = (await verdict.textContent()) ?? '';
  await phone.close();
  return text;
};

describe('a paid attendee album in Chromium', () => {
  it(
    'watermarked and locked until the test card pays; declined unlocks nothing; then the original downloads',
    async () => {
      const paypal = await startPayPalDouble();
      journey.onClose(() => paypal.close());
      const { url, event, attendee, cardGuest, folder, owned } = await world(paypal);
      const { page, context, problems } = await journey.launchBrowser();
      await journey.withServerLog(async () => {
        await page.goto(`${url}/?attId=${encodeURIComponent(attendee.display_uid)}`);
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'red.jpg']);
        await page.getByRole('region', { name: 'Get your photos' }).waitFor();
        // Opt-in look at the pay panel (FLASHBULB_SCREENSHOT_DIR): the three sizes of the brief.
        await shoot(page, 'paid-panel', GUEST_SIZES);
        if (shots) {
          // The shop kiosk's checkout with the photo choice and the desk form (same attendee).
          const kiosk = await context.newPage();
          await kiosk.setViewportSize({ width: 1080, height: 1920 });
          await kiosk.goto(
            `${url}/?kType=evSB4&kioskMode=true&attId=${attendee.uid}&pvId=${event.privateKey}&display=${encodeURIComponent(event.displayToken)}`,
          );
          await kiosk.getByRole('button', { name: 'Choose photos' }).click();
          await kiosk.locator('[data-photo-name="red.jpg"]').click();
          await kiosk.getByRole('button', { name: 'All my photos — $4.50' }).waitFor();
          await shoot(kiosk, 'kiosk-checkout', [
            [1080, 1920],
            [1440, 900],
          ]);
          await kiosk.close();
        }

        // Locked: no original, previews are the protector watermark, a forged original refused.
        const locked = await albumOf(url, attendee.uid);
        for (const photo of locked) {
          expect(photo.urls.original).toBeNull();
          expect(photo.urls.preview).toBe(photo.urls.protector_watermark);
        }
        // The public watermark's storage path turned into the original's, and a media URL for the
        // original with a made-up signature: both refused.
        const watermark = locked[0]!.urls.protector_watermark!;
        const guesses = [
          watermark.replace(/protector-watermark-[0-9a-f]{12}\.jpg$/, 'original.jpg'),
          watermark.replace(/protector-watermark-[0-9a-f]{12}\.jpg$/, 'preview.jpg'),
          `${url}/media/photos/${locked[0]!.id}/original?a=g&e=9999999999&s=forged`,
        ];
        expect(guesses[0]).toMatch(/original\.jpg$/);
        for (const guess of guesses) {
          const status = await page.evaluate(async (u) => (await fetch(u)).status, guess);
          expect([403, 404], guess).toContain(status);
        }
        await page.locator('[data-photo-name="red.jpg"]').click();
        await page.getByRole('dialog').waitFor();
        expect(await page.getByRole('link', { name: 'Download original' }).count()).toBe(0);
        // The viewer shows the protected preview (not the thumbnail), loaded.
        const shown = page.getByRole('dialog').locator('img[src*="protector-watermark"]').first();
        await expect
          .poll(() => shown.evaluate((img) => (img as HTMLImageElement).naturalWidth))
          .toBeGreaterThan(0);
        await shoot(page, 'viewer-locked', [[390, 844]]);
        // That preview: at most 1200 px on its long side, the mark tiled over the whole picture
        // (every quarter of the plain red photo carries some of it), not one corner mark.
        const previewBytes = Buffer.from(
          await page.evaluate(
            async (u) => Array.from(new Uint8Array(await (await fetch(u)).arrayBuffer())),
            (await shown.getAttribute('src'))!,
          ),
        );
        const meta = await sharp(previewBytes).metadata();
        expect(Math.max(meta.width, meta.height)).toBeLessThanOrEqual(1200);
        for (const [left, top] of [
          [0, 0],
          [1, 0],
          [0, 1],
          [1, 1],
        ] as const) {
          const half = { width: Math.floor(meta.width / 2), height: Math.floor(meta.height / 2) };
          const { channels } = await sharp(previewBytes)
            .extract({ left: left * half.width, top: top * half.height, ...half })
            .stats();
          // A plain JPEG quarter varies by a unit or two; the mark's strokes by far more.
          expect(
            Math.max(...channels.map((c) => c.stdev)),
            `quarter ${left},${top}`,
          ).toBeGreaterThan(8);
        }
        await page.getByRole('button', { name: 'Close' }).click();

        // A declined card: nothing unlocks, the panel says so and offers the buttons again.
        const declinedHref = await startPayment(page);
        // The checkout page knows its way back to this album.
        expect(declinedHref).toMatch(
          new RegExp(`^${url}/pay/test/pay_[a-z2-7]{26}\\?return=%2F%3FattId%3D`),
        );
        expect(
          await payOnPhone(context, declinedHref, '4000 0000 0000 0002', 'test-checkout'),
        ).toContain('declined');
        // The end says so and leads back to the album's buttons.
        await page.getByRole('status').filter({ hasText: 'The card was declined' }).waitFor();
        await page.getByRole('button', { name: 'Back to the album' }).click();
        expect((await albumOf(url, attendee.uid)).every((p) => p.urls.original === null)).toBe(
          true,
        );

        // The test card pays: the album page unlocks by itself (no reload).
        const marker = await page.evaluate(() => {
          (window as unknown as { notReloaded: boolean }).notReloaded = true;
          return true;
        });
        expect(marker).toBe(true);
        const href = await startPayment(page);
        expect(href).not.toBe(declinedHref);
        expect(await payOnPhone(context, href, '4242 4242 4242 4242')).toContain('Paid');
        await page.getByRole('region', { name: 'Get your photos' }).waitFor({ state: 'detached' });
        expect(
          await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded),
        ).toBe(true);

        await page.locator('[data-photo-name="red.jpg"]').click();
        const download = page.getByRole('link', { name: 'Download original' });
        await download.waitFor();
        const originalUrl = (await download.getAttribute('href'))!;
        const bytes = await page.evaluate(async (u) => {
          const response = await fetch(u);
          return {
            status: response.status,
            body: Array.from(new Uint8Array(await response.arrayBuffer())),
          };
        }, originalUrl);
        expect(bytes.status).toBe(200);
        const sent = await readFile(path.join(folder, 'red.jpg'));
        expect(sha(Uint8Array.from(bytes.body))).toBe(sha(sent));
        // The unwatermarked preview now, too.
        const open = await albumOf(url, attendee.uid);
        expect(open.map((p) => p.id).sort()).toEqual(owned.map((p) => p.id).sort());
        for (const photo of open)
          expect(photo.urls.preview).not.toBe(photo.urls.protector_watermark);

        // PayPal's card form on the second guest's album page.
        const loadsBefore = paypal.sdkLoads.length;
        await page.goto(`${url}/?attId=${encodeURIComponent(cardGuest.display_uid)}`);
        await expect.poll(() => photoNames(page)).toEqual(['blue.jpg', 'red.jpg']);
        const sdkScripts = () => page.locator('script[src*="/sdk/js"]').count();
        expect(await sdkScripts()).toBe(0); // loaded only once the guest chose to pay
        await page.getByRole('button', { name: 'All my photos — $9.00' }).click();
        await page.getByRole('heading', { name: 'Pay $9.00 by card' }).waitFor();
        await page.getByRole('button', { name: 'Debit or Credit Card' }).click();
        expect(await sdkScripts()).toBe(1);
        expect(paypal.sdkLoads).toHaveLength(loadsBefore + 1);
        expect(new URL(paypal.sdkLoads.at(-1)!, paypal.url).searchParams.get('client-id')).toBe(
          PAYPAL_CLIENT_ID,
        );
        const card = page.getByRole('form', { name: 'Card details' });
        await shoot(page, 'paypal-card', GUEST_SIZES);
        const payByCard = async (number: string) => {
          await card.getByLabel('Card number').fill(number);
          await card.getByLabel('Expires').fill('12/30');
          await card.getByLabel('Security code').fill('123');
          await card.getByRole('button', { name: 'Pay Now' }).click();
        };
        const captures = () => paypal.received.filter((r) => r.path.endsWith('/capture')).length;
        await payByCard(CARD_DECLINED);
        await page.getByRole('alert').filter({ hasText: 'Your card was declined' }).waitFor();
        expect(captures()).toBe(1);
        expect((await albumOf(url, cardGuest.uid)).every((p) => p.urls.original === null)).toBe(
          true,
        );
        await payByCard(CARD_PAYS);
        await page.getByRole('region', { name: 'Get your photos' }).waitFor({ state: 'detached' });
        expect(captures()).toBe(2);
        expect((await albumOf(url, cardGuest.uid)).every((p) => p.urls.original !== null)).toBe(
          true,
        );

        // The operator's Orders page: per guest the declined and the paid order.
        await signInInBrowser(page, ALBUM_ADMIN);
        await page.goto(`${url}/events/${event.code}/orders`);
        const total = page.getByTestId('orders-total');
        await total.waitFor();
        expect(await total.textContent()).toBe('Paid: $18.00 in 2 orders');
        const rows = page.getByRole('table', { name: 'Orders' }).locator('tbody tr');
        expect(await rows.count()).toBe(4);
        // Badges are upper case on screen.
        const texts = (await rows.allInnerTexts()).map((text) => text.toLowerCase());
        expect(texts.filter((text) => text.includes('paid'))).toHaveLength(2);
        expect(texts.filter((text) => text.includes('failed'))).toHaveLength(2);
        await shoot(page, 'orders', [
          [1440, 900],
          [390, 844],
        ]);

        // On a phone the Refund button of the test provider's paid payment is whole on the screen
        // (not cut off by its card or the table's scroll box), and refunds from there.
        await page.setViewportSize({ width: 390, height: 844 });
        const testPayment = page
          .getByRole('table', { name: 'Orders' })
          .locator('tbody tr')
          .filter({ has: page.getByText('test', { exact: true }) })
          .filter({ has: page.getByRole('button', { name: /^Refund payment / }) });
        await expect.poll(() => testPayment.count()).toBe(1);
        const refundButton = testPayment.getByRole('button', { name: /^Refund payment / });
        await refundButton.scrollIntoViewIfNeeded();
        const box = (await refundButton.boundingBox())!;
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(390);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.y + box.height).toBeLessThanOrEqual(844);
        // What is drawn at its left and right edges is the button itself (nothing covers it), and
        // it stays inside its cell (it does not run out of the order's card).
        expect(
          await refundButton.evaluate((button) => {
            const r = button.getBoundingClientRect();
            const cell = button.closest('td')!.getBoundingClientRect();
            const y = r.top + r.height / 2;
            return (
              r.left >= cell.left &&
              r.right <= cell.right &&
              [r.left + 2, r.right - 2].every((x) =>
                button.contains(document.elementFromPoint(x, y)),
              )
            );
          }),
        ).toBe(true);
        const paymentId = (await refundButton.getAttribute('aria-label'))!.replace(
          'Refund payment ',
          '',
        );
        await refundButton.click();
        const confirm = page.getByRole('dialog', { name: 'Refund' });
        await confirm.getByText(/^Refund \$9\.00 \(payment /).waitFor();
        await confirm.getByRole('button', { name: 'Refund' }).click();
        await confirm.waitFor({ state: 'detached' });
        const refunded = page
          .getByRole('table', { name: 'Orders' })
          .locator('tbody tr')
          .filter({ hasText: paymentId });
        await refunded.getByText('Refunded').first().waitFor();
        expect(await refunded.getByRole('button', { name: /^Refund payment / }).count()).toBe(0);
        await expect.poll(() => total.textContent()).toBe('Paid: $9.00 in 1 order');
        await page.setViewportSize({ width: 1280, height: 900 });

        // A phone on the public album of the paid event: two photos, paid on the phone itself.
        const phone = await context.newPage();
        await phone.setViewportSize({ width: 390, height: 844 });
        await phone.goto(`${url}/?pId=${encodeURIComponent(event.publicKey)}`);
        await expect.poll(() => photoNames(phone)).toEqual(['blue.jpg', 'red.jpg']);
        const buy = phone.getByRole('region', { name: 'Buy photos' });
        await buy.getByRole('button', { name: 'Choose photos' }).click();
        await phone.locator('[data-photo-name="red.jpg"]').click();
        await phone.locator('[data-photo-name="blue.jpg"]').click();
        const buyTwo = buy.getByRole('button', { name: 'All my photos — $9.00' });
        await buyTwo.waitFor();
        await shoot(phone, 'phone-checkout-choose', [[390, 844]]);
        expect(await phone.locator('.albums-paid img').count()).toBe(0); // no QR on a phone
        await buyTwo.click();
        // PayPal's card form is offered first (as on the attendee album); the guest takes the
        // provider's checkout page on the phone itself instead.
        await buy.getByRole('heading', { name: 'Pay $9.00 by card' }).waitFor();
        await buy.getByRole('button', { name: 'Pay $9.00' }).click();
        // The checkout page on the phone itself, with the way back.
        await phone.waitForURL(/\/pay\/test\/pay_[a-z2-7]{26}\?return=/);
        await phone.getByLabel('Card number').waitFor();
        expect(await phone.getByTestId('checkout-amount').textContent()).toBe('$9.00');
        await shoot(phone, 'phone-checkout-pay', [[390, 844]]);
        await phone.getByLabel('Card number').fill('4242 4242 4242 4242');
        await phone.getByRole('button', { name: 'Pay $9.00' }).click();
        await phone.getByRole('status').filter({ hasText: 'Paid' }).waitFor();
        await phone.getByRole('link', { name: 'Back to the album' }).click();
        // Back on the album: the payment it started is paid, the buyer's album is named.
        const openMine = phone.getByRole('link', { name: 'Open my album' });
        await openMine.waitFor();
        await shoot(phone, 'phone-checkout-paid', [[390, 844]]);
        const mine = new URL((await openMine.getAttribute('href'))!).searchParams.get('attId')!;
        await openMine.click();
        await expect.poll(() => photoNames(phone)).toEqual(['blue.jpg', 'red.jpg']);
        const bought = await albumOf(url, mine);
        expect(bought.map((p) => p.id).sort()).toEqual(owned.map((p) => p.id).sort());
        for (const photo of bought) expect(photo.urls.original).not.toBeNull();
        await phone.locator('[data-photo-name="blue.jpg"]').click();
        const blueOriginal = phone.getByRole('link', { name: 'Download original' });
        await blueOriginal.waitFor();
        const blueBytes = await phone.evaluate(
          async (u) => {
            const response = await fetch(u);
            return Array.from(new Uint8Array(await response.arrayBuffer()));
          },
          (await blueOriginal.getAttribute('href'))!,
        );
        expect(sha(Uint8Array.from(blueBytes))).toBe(
          sha(await readFile(path.join(folder, 'blue.jpg'))),
        );
        // The public album itself stays locked.
        const publicList = await api(url, endpoints.publicPhotoList, {
          key_type: 'public',
          key_value: event.publicKey,
          max_size: 100,
        });
        expect(publicList.photos.every((p) => p.urls.original === null)).toBe(true);
        await phone.close();
        expect(problems).toEqual([]);
      });
    },
    JOURNEY_TIMEOUT,
  );
});
