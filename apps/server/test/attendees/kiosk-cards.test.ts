import type { AddressInfo } from 'node:net';
import { endpoints, type Attendee, type FlashbulbEvent } from '@flashbulb/shared';
import jsQR from 'jsqr';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PNG } from 'pngjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, attendeeAlbumKey, createEvent, createEventWorld } from '../helpers/events.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The kiosk cards as printed (albums §2.3): the generated list's card sheet is opened in
 * Chromium, each card's QR read with a decoder and its printed code read off the card, and each
 * of them opens the kiosk — by the check-card call and by typing it into the kiosk entry page,
 * which then goes to that guest's album.
 */

let t: TestApp;
let base: string;
let admin: { authorization: string };
let event: FlashbulbEvent;
let browser: Browser;
let cards: Attendee[];
/** What the sheet's cards carry: the QR's text and the printed code, in sheet order. */
let printed: { qr: string; code: string }[];

const kiosk = () => ({
  key_type: 'private' as const,
  key_value: event.private_api_key,
  display: event.display_token,
});
const entryUrl = () =>
  `${base}/kiosk/entry?kType=evSB2&pvId=${encodeURIComponent(event.private_api_key)}&display=${encodeURIComponent(event.display_token)}`;

/** Types (or a keyboard-wedge scanner sends) a card into the entry page; answers the page. */
const scanAtEntry = async (text: string): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width: 1080, height: 1920 } });
  await page.goto(entryUrl());
  const input = page.getByLabel('Card code');
  await input.fill(text);
  await input.press('Enter');
  return page;
};

beforeAll(async () => {
  // No worker: the list's mail job is run below, as its handler would.
  t = await createTestApp({}, { worker: false });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, { full_name: 'Card Gala' });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });

  // The generated list, mailed with its card sheet (the job's handler runs it here).
  cards = (
    await t.ok(
      endpoints.generateAttendeeList,
      {
        attendee_count: 2,
        event_id_array: [event.id],
        is_prepaid: 0,
        email: 'desk@example.com',
        // The site the cards and albums point at.
        url_prefix: base,
      },
      admin,
    )
  ).attendees;
  const [payload] = (await t.app.container.jobs.payloads('attendees.mail-list', 'pending')) as {
    batchId: number;
    email: string;
    eventIds: number[];
  }[];
  expect(await t.app.container.services.eventMail.mailAttendeeList(payload!)).toBe(true);
  const [row] = (await t.app.container.repositories.outbox.list(50)).filter(
    (r) => r.kind === 'attendee_list',
  );
  const sheet = (row!.content as { attachments: { filename: string; content: string }[] })
    .attachments[1]!;
  expect(sheet.filename).toMatch(/^attendee-cards-\d+\.html$/);

  // The sheet as a browser prints it: each card's QR read from pixels, its code as drawn.
  const page = await browser.newPage({ viewport: { width: 800, height: 1100 } });
  await page.setContent(sheet.content, { waitUntil: 'load' });
  const cells = page.locator('.card');
  printed = [];
  for (let i = 0; i < (await cells.count()); i++) {
    const png = PNG.sync.read(await cells.nth(i).locator('.qr').screenshot());
    const qr = jsQR(new Uint8ClampedArray(png.data), png.width, png.height);
    printed.push({ qr: qr?.data ?? '', code: await cells.nth(i).locator('.code').innerText() });
  }
  await page.close();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await t.close();
});

describe('a printed kiosk card opens the kiosk', () => {
  it('shows the private id and encodes an attId link with it (no album id on the card)', () => {
    expect(printed).toHaveLength(2);
    expect(printed.map((p) => p.code).sort()).toEqual(cards.map((c) => c.private_id).sort());
    for (const { qr, code } of printed) {
      expect(qr).toBe(`${base}/?attId=${code}`);
      const card = cards.find((c) => c.private_id === code)!;
      // The album id (a key to the album) is neither printed nor in the QR.
      expect(qr).not.toContain(card.uid);
    }
  });

  it('the check-card call takes the QR’s text and the printed code, each for its own guest', async () => {
    for (const { qr, code } of printed) {
      const uid = cards.find((c) => c.private_id === code)!.uid;
      for (const scanned of [qr, code, code.toLowerCase()])
        expect(await t.ok(endpoints.checkKioskCard, { ...kiosk(), card_code: scanned })).toEqual({
          valid: true,
          attendee_uid: uid,
        });
    }
  });

  it('the entry page opens the guest’s kiosk album for the code typed from the card or its QR', async () => {
    for (const { qr, code } of printed) {
      const uid = cards.find((c) => c.private_id === code)!.uid;
      for (const scanned of [code, qr]) {
        const page = await scanAtEntry(scanned);
        await page.waitForURL((u) => u.searchParams.get('attId') === uid, { timeout: 20_000 });
        expect(new URL(page.url()).searchParams.get('privateId')).toBe(event.private_api_key);
        await page.close();
      }
    }
    // A real mismatch still says the spec's words: the album link of a card is not its code.
    const page = await scanAtEntry(cards[0]!.album_url);
    await expect
      .poll(() => page.locator('#message').textContent(), { timeout: 20_000 })
      .toBe('Invalid card code.');
    expect(new URL(page.url()).pathname).toBe('/kiosk/entry');
    await page.close();
  });

  it('a booth-chosen attendee’s album link (id~private id) opens the kiosk by its private id', async () => {
    // A wristband id arrives with a photo: the attendee is made with a private id of its own.
    const record = (await t.app.container.repositories.events.findById(event.id))!;
    await t.app.container.services.attendees.claimUploadedId(record, 'BIB9');
    const key = await attendeeAlbumKey(t, 'BIB9');
    expect(key).toMatch(/^BIB9~[A-Z0-9]{8}$/);
    expect(
      await t.ok(endpoints.checkKioskCard, {
        ...kiosk(),
        card_code: `${base}/?attId=${encodeURIComponent(key)}`,
      }),
    ).toEqual({ valid: true, attendee_uid: key });
    // The wristband number alone is no card code.
    expect(
      (await t.ok(endpoints.checkKioskCard, { ...kiosk(), card_code: `${base}/?attId=BIB9` }))
        .valid,
    ).toBe(false);
  });
});
