import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import jsQR from 'jsqr';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { csvText } from '../../src/lib/csv.ts';
import type { OutboxRow } from '../../src/repositories/messaging/outbox.repository.ts';
import { as, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { ADMIN_EMAIL } from '../helpers/identity.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { startSmtpPeer, type ReceivedMail } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * The event's own mail: the share (mini-album) mail as real
 * HTML mail — logo, receiver's name, thumbnails, wording for the number of photos, a plain part —
 * looked at in Chromium at 390 and 1440 px; the generated attendee list (CSV, formula-safe, and
 * a printable sheet of kiosk cards whose QR codes scan to the card links); the daily report. Real SMTP.
 * With FLASHBULB_MAIL_SCREENSHOTS=<folder> the mail screenshots are written there.
 */

const PUBLIC_URL = 'https://photos.example';
const LOGO = 'https://cdn.example/gala-logo.png';
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let browser: Browser;
let photoJpeg: Buffer;
let logoPng: Buffer;

const outboxRows = async (kind: string): Promise<OutboxRow[]> =>
  (await t.app.container.repositories.outbox.list(500)).filter((r) => r.kind === kind);
const deliver = async (rows: OutboxRow[]): Promise<void> => {
  for (const row of rows) await t.app.container.services.outbox.deliver(row.id);
};
const htmlPart = (mail: ReceivedMail): string => {
  const start = mail.text.indexOf('<!doctype html>');
  return mail.text.slice(start, mail.text.indexOf('</html>', start) + '</html>'.length);
};
/** The plain part, quoted-printable undone (the helper's decoded text). */
const plainPart = (mail: ReceivedMail): string =>
  mail.text.slice(
    mail.text.indexOf('Content-Type: text/plain'),
    mail.text.indexOf('Content-Type: text/html'),
  );

/** A page that serves every image the mail loads (thumbnails, logo) from here. */
const mailPage = async (width: number): Promise<Page> => {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  await page.route('https://**/*', (route) => {
    const url = route.request().url();
    if (url.endsWith('.png')) return route.fulfill({ contentType: 'image/png', body: logoPng });
    if (url.endsWith('.jpg')) return route.fulfill({ contentType: 'image/jpeg', body: photoJpeg });
    return route.abort();
  });
  return page;
};

/** With FLASHBULB_MAIL_SCREENSHOTS set: the HTML at 390 and 1440 px wide, as PNG files. */
const shoot = async (html: string, name: string): Promise<void> => {
  const folder = process.env.FLASHBULB_MAIL_SCREENSHOTS;
  if (!folder) return;
  mkdirSync(folder, { recursive: true });
  for (const width of [390, 1440]) {
    const page = await mailPage(width);
    await page.setContent(html, { waitUntil: 'load' });
    await page.screenshot({ path: path.join(folder, `${name}-${width}.png`), fullPage: true });
    await page.close();
  }
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp(
    { SMTP_URL: smtp.url, FLASHBULB_PUBLIC_URL: PUBLIC_URL },
    { worker: false },
  );
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, {
    full_name: 'Summer <Gala>',
    logo_full_path: LOGO,
    logo_link: 'https://gala.example',
    email_subject: 'Photos from the gala',
    email_for_reports: 'ops@example.com, boss@example.com',
    opts: { description: 'The summer gala', guestAccentColor: '#0f766e' },
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
  photoJpeg = await sharp({
    create: { width: 400, height: 300, channels: 3, background: '#d97706' },
  })
    .composite([
      {
        input: Buffer.from(
          '<svg width="400" height="300"><circle cx="200" cy="150" r="90" fill="#1e3a8a"/></svg>',
        ),
      },
    ])
    .jpeg()
    .toBuffer();
  logoPng = await sharp(
    Buffer.from(
      '<svg width="240" height="80"><rect width="240" height="80" rx="16" fill="#0f766e"/><text x="120" y="52" font-size="34" text-anchor="middle" fill="#fff" font-family="sans-serif">GALA</text></svg>',
    ),
  )
    .png()
    .toBuffer();
});
afterAll(async () => {
  await browser?.close();
  await t?.close();
  await smtp?.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
});

describe('the share (mini-album) mail as real HTML mail', () => {
  const send = async (photoUids: string[], to: string, name: string) => {
    const result = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      photo_uid_array: photoUids,
      receiver_full_name: name,
      email_to_address_array: [to],
    });
    await deliver((await outboxRows('mini_album_link')).filter((r) => r.status === 'queued'));
    return { url: result.url, mail: await smtp.waitFor((m) => m.to.includes(to)) };
  };

  it('names the receiver, shows the logo and thumbnails, words the count, has a plain part', async () => {
    const photos = [await insertReadyPhoto(t, event), await insertReadyPhoto(t, event)];
    const { url, mail } = await send(
      photos.map((p) => p.uid),
      'ann@example.com',
      'Ann',
    );
    const html = htmlPart(mail);
    expect(mail.text).toMatch(/^Subject: Photos from the gala\r$/m);
    expect(mail.text).toMatch(/^List-Unsubscribe:\s+<https:\/\/photos\.example\/api\/unsubscribe/m);
    // The product's default share text, worded for two photos (not "A photo was shared").
    expect(html).toContain('2 photos from Summer &lt;Gala&gt;');
    expect(html).toContain('<p>Hi Ann,</p>');
    expect(html).toContain('2 photos were shared with you');
    expect(html).not.toContain('A photo was shared');
    expect(html).toContain(`<img src="${LOGO}"`);
    expect(html).toContain('<a href="https://gala.example"');
    expect(html.match(/thumbnail\.jpg/g)).toHaveLength(2);
    expect(html).toContain(`href="${url}"`);
    expect(html).toContain('View 2 photos');
    expect(html).toContain('background:#0f766e');
    const plain = plainPart(mail);
    expect(plain).toContain('Hi Ann,');
    expect(plain).toContain(`View 2 photos: ${url}`);
    expect(plain).toContain('Unsubscribe: https://photos.example/api/unsubscribe');
    expect(plain).not.toMatch(/<p>|<img/);

    // Looked at in Chromium: images load, nothing wider than a phone, the button is a real link.
    const folder = process.env.FLASHBULB_MAIL_SCREENSHOTS;
    if (folder) mkdirSync(folder, { recursive: true });
    for (const width of [390, 1440]) {
      const page = await mailPage(width);
      await page.setContent(html, { waitUntil: 'load' });
      const layout = await page.evaluate<{ scroll: number; broken: number; images: number }>(
        `({ scroll: document.documentElement.scrollWidth,
            images: document.images.length,
            broken: [...document.images].filter((i) => !i.complete || i.naturalWidth === 0).length })`,
      );
      expect(layout).toEqual({ scroll: width, broken: 0, images: 3 });
      const button = page.getByRole('link', { name: 'View 2 photos' });
      expect(await button.getAttribute('href')).toBe(url);
      const box = await button.boundingBox();
      expect(box!.height).toBeGreaterThanOrEqual(44);
      if (folder)
        await page.screenshot({
          path: path.join(folder, `mail-share-${width}.png`),
          fullPage: true,
        });
      await page.close();
    }
  });

  it('one photo reads in the singular; a hostile name stays text', async () => {
    const photo = await insertReadyPhoto(t, event);
    const name = '<img src=x onerror="window.__xss=1">Bo';
    const { mail } = await send([photo.uid], 'bo@example.com', name);
    const html = htmlPart(mail);
    expect(html).toContain('A photo from Summer &lt;Gala&gt;');
    expect(html).toContain('A photo was shared with you');
    expect(html).toContain('View the photo');
    expect(html).not.toContain('1 photos');
    expect(html).toContain('Hi &lt;img src=x onerror=&quot;window.__xss=1&quot;&gt;Bo,');
    const page = await mailPage(390);
    await page.setContent(html, { waitUntil: 'load' });
    expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
    // The logo and the one thumbnail: no image from the name.
    expect(await page.evaluate<number>('document.images.length')).toBe(2);
    await page.close();
    await shoot(html, 'mail-share-one');
  });
});

describe('mail in the event’s language', () => {
  it('goes out in the event’s language: product words translated, the operator’s own per-language subject, right to left in Arabic', async () => {
    const spanish = await createEvent(t, world.adminA, {
      full_name: 'Gala de verano',
      email_subject: 'Photos from the gala',
      opts: {
        description: 'La gala',
        guestLanguage: 'es',
        textTranslations: { email_subject: { es: 'Tus fotos de la gala', fr: 'Vos photos' } },
      },
    });
    const photos = [await insertReadyPhoto(t, spanish), await insertReadyPhoto(t, spanish)];
    await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: spanish.public_api_key,
      photo_uid_array: photos.map((p) => p.uid),
      receiver_full_name: 'Ana',
      email_to_address_array: ['ana@example.com'],
    });
    await deliver((await outboxRows('mini_album_link')).filter((r) => r.status === 'queued'));
    const mail = await smtp.waitFor((m) => m.to.includes('ana@example.com'));
    const html = htmlPart(mail);
    expect(mail.text).toMatch(/^Subject: Tus fotos de la gala\r$/m);
    expect(html).toContain('<html lang="es" dir="ltr">');
    expect(html).toContain('2 fotos de Gala de verano');
    expect(html).toContain('<p>Hola, Ana:</p>');
    expect(html).toContain('Han compartido 2 fotos contigo');
    expect(html).toContain('Ver 2 fotos');
    expect(html).toContain('Darse de baja');
    expect(html).not.toMatch(/shared with you|View 2 photos|Unsubscribe</);
    expect(plainPart(mail)).toContain('Darse de baja: https://photos.example/api/unsubscribe');

    const arabic = await createEvent(t, world.adminA, {
      full_name: 'حفل الصيف',
      opts: { description: 'الحفل', guestLanguage: 'ar' },
    });
    const two = [await insertReadyPhoto(t, arabic), await insertReadyPhoto(t, arabic)];
    await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: arabic.public_api_key,
      photo_uid_array: two.map((p) => p.uid),
      receiver_full_name: 'Sara',
      email_to_address_array: ['sara@example.com'],
    });
    await deliver((await outboxRows('mini_album_link')).filter((r) => r.status === 'queued'));
    // The helper reads the decoded part as Latin-1: the mail's UTF-8 read back as such.
    const arMail = Buffer.from(
      htmlPart(await smtp.waitFor((m) => m.to.includes('sara@example.com'))),
      'latin1',
    ).toString('utf8');
    expect(arMail).toContain('<title>صورتك من Flashbulb</title>');
    expect(arMail).toContain('<html lang="ar" dir="rtl">');
    // Two photos: Arabic's dual, no number.
    expect(arMail).toContain('صورتان من حفل الصيف');
    expect(arMail).toContain('اعرض الصورتين');
    await shoot(arMail, 'mail-share-ar');
  });
});

describe('the generated attendee list', () => {
  it('CSV cells that a spreadsheet would run as formulas stay text', () => {
    expect(csvText([['=1+2', '+x', '-y', '@z', 'a,b', 'say "hi"', 'plain']])).toBe(
      `'=1+2,'+x,'-y,'@z,"a,b","say ""hi""",plain\r\n`,
    );
  });

  it('is mailed once to the generate call’s address with the CSV and a QR sheet that scans', async () => {
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 3, event_id_array: [event.id], is_prepaid: 0, email: 'desk@example.com' },
      as(world.adminA),
    );
    // The generate call queued the mail job; the worker's handler runs it (twice: pg-boss may).
    const [payload] = (await t.app.container.jobs.payloads('attendees.mail-list', 'pending')) as {
      batchId: number;
      email: string;
      eventIds: number[];
    }[];
    expect(payload).toMatchObject({ email: 'desk@example.com', eventIds: [event.id] });
    const eventMail = t.app.container.services.eventMail;
    expect(await eventMail.mailAttendeeList(payload!)).toBe(true);
    expect(await eventMail.mailAttendeeList(payload!)).toBe(false);
    const rows = await outboxRows('attendee_list');
    expect(rows).toHaveLength(1);
    await deliver(rows);
    const mail = await smtp.waitFor((m) => m.to.includes('desk@example.com'));
    expect(mail.text).toMatch(/^Subject: Your 3 attendee cards: Summer <Gala>\r$/m);
    expect(mail.raw).toMatch(/filename=attendees-\d+\.csv/);
    expect(mail.raw).toMatch(/filename=attendee-cards-\d+\.html/);
    await shoot(htmlPart(mail), 'mail-attendee-list');

    // The attachments as stored (the same bytes went over SMTP, base64 or quoted-printable).
    const attachments = (rows[0]!.content as { attachments: { content: string }[] }).attachments;
    const csv = attachments[0]!.content.split('\r\n');
    expect(csv[0]).toBe('Attendee ID,Card code,Album link');
    const cards = generated.attendees;
    for (const card of cards)
      expect(csv).toContain(`${card.display_uid},${card.private_id},${card.album_url}`);
    expect(csv.filter(Boolean)).toHaveLength(4);

    // The sheet, printed by a browser: each card's QR code scans to that card's kiosk link (its
    // private id; attendees/kiosk-cards.test.ts opens the kiosk with them).
    const page = await browser.newPage({ viewport: { width: 800, height: 1100 } });
    await page.setContent(attachments[1]!.content, { waitUntil: 'load' });
    const qrs = page.locator('.card .qr');
    expect(await qrs.count()).toBe(3);
    const scanned: string[] = [];
    for (let i = 0; i < 3; i++) {
      const png = await qrs.nth(i).screenshot();
      const { data, info } = await sharp(png)
        .ensureAlpha()
        .raw()
        .toBuffer({ resolveWithObject: true });
      const code = jsQR(new Uint8ClampedArray(data), info.width, info.height);
      scanned.push(code?.data ?? '');
    }
    expect(scanned.sort()).toEqual(cards.map((c) => `${PUBLIC_URL}/?attId=${c.private_id}`).sort());
    if (process.env.FLASHBULB_MAIL_SCREENSHOTS)
      await page.screenshot({
        path: path.join(process.env.FLASHBULB_MAIL_SCREENSHOTS, 'attendee-cards-sheet.png'),
        fullPage: true,
      });
    expect((await page.locator('.card .code').allInnerTexts()).sort()).toEqual(
      cards.map((c) => c.private_id).sort(),
    );
    await page.close();
  });

  it('queues nothing without an address', async () => {
    const before = await t.app.container.jobs.payloads('attendees.mail-list', 'pending');
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 2, event_id_array: [event.id], is_prepaid: 0 },
      as(world.adminA),
    );
    expect(await t.app.container.jobs.payloads('attendees.mail-list', 'pending')).toHaveLength(
      before.length,
    );
  });
});

describe('the daily report to email_for_reports', () => {
  it('sends yesterday’s photos and attendees to each address, once per day', async () => {
    // Today at 06:07 UTC (the schedule); two photos yesterday, one today (not in yesterday's).
    const started = t.clock.now().getTime();
    // The clock goes back where it was: sessions signed in earlier would otherwise expire (or
    // not) by the hour of day the suite runs at.
    onTestFinished(() => t.clock.set(started));
    const now = new Date(started);
    now.setUTCHours(6, 7, 0, 0);
    t.clock.set(now.getTime() - 86_400_000 + 3_600_000);
    const other = await createEvent(t, world.adminA, {
      full_name: 'Report',
      email_for_reports: 'ops@example.com',
    });
    await insertReadyPhoto(t, other);
    await insertReadyPhoto(t, other);
    t.clock.set(now.getTime() - 60_000);
    await insertReadyPhoto(t, other);
    t.clock.set(now.getTime());

    const eventMail = t.app.container.services.eventMail;
    await eventMail.sendDailyReports(now);
    expect(await eventMail.sendDailyReports(now)).toBe(0);
    const reports = (await outboxRows('daily_report')).filter((r) => r.eventId === other.id);
    expect(reports.map((r) => r.recipient)).toEqual(['ops@example.com']);
    await deliver(reports);
    const mail = await smtp.waitFor((m) => m.to.includes('ops@example.com'));
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString().slice(0, 10);
    expect(mail.text).toContain(`Subject: Daily report ${yesterday}: Report`);
    const plain = plainPart(mail);
    expect(plain).toContain('Photos: 2 new, 2 in all');
    expect(plain).toContain('Attendees: 0 new, 0 in all');
    expect(plain).toContain('Sales: 0 ($0.00), 0 in all');
    await shoot(htmlPart(mail), 'mail-daily-report');
    // The first event's two addresses each get theirs.
    const gala = (await outboxRows('daily_report')).filter((r) => r.eventId === event.id);
    expect(gala.map((r) => r.recipient).sort()).toEqual(['boss@example.com', 'ops@example.com']);
  });
});

describe("the daily report in the event's time zone", () => {
  it("counts the event's own day before now, not the UTC day", async () => {
    const started = t.clock.now().getTime();
    onTestFinished(() => t.clock.set(started));
    // 06:07 UTC is 20:07 the same day at UTC+14: "yesterday" there ran from 10:00 UTC two days
    // ago to 10:00 UTC yesterday.
    const now = new Date(started);
    now.setUTCHours(6, 7, 0, 0);
    const yesterday = now.getTime() - 86_400_000;
    t.clock.set(yesterday - 3 * 3_600_000);
    const island = await createEvent(t, world.adminA, {
      full_name: 'Island',
      time_zone: 'Pacific/Kiritimati',
      email_for_reports: 'island@example.com',
    });
    await insertReadyPhoto(t, island);
    // 11:07 UTC yesterday is already today on the island: not in its report.
    t.clock.set(yesterday + 5 * 3_600_000);
    await insertReadyPhoto(t, island);
    t.clock.set(now.getTime());
    await t.app.container.services.eventMail.sendDailyReports(now);
    const reports = (await outboxRows('daily_report')).filter((r) => r.eventId === island.id);
    expect(reports).toHaveLength(1);
    await deliver(reports);
    const mail = await smtp.waitFor((m) => m.to.includes('island@example.com'));
    const day = new Date(yesterday).toISOString().slice(0, 10);
    expect(mail.text).toContain(`Subject: Daily report ${day}: Island`);
    const plain = plainPart(mail);
    expect(plain).toContain('Photos: 1 new, 1 in all');
    expect(plain).toContain('(Pacific/Kiritimati)');
  });
});

describe('the Outbox page’s messages of no event', () => {
  it('lists a password reset (no event) to super users only, readable and resendable', async () => {
    await t.ok(endpoints.forgotPassword, { username: ADMIN_EMAIL });
    const photo = await insertReadyPhoto(t, event);
    await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      photo_uid_array: [photo.uid],
      receiver_full_name: 'Cy',
      email_to_address_array: ['cy@example.com'],
    });
    // The request queued the auth.password-reset job (this app runs no worker): run its work.
    expect(await t.app.container.jobs.payloads('auth.password-reset', 'pending')).toEqual([
      { username: ADMIN_EMAIL },
    ]);
    await t.app.container.services.passwordReset.sendResetCode(ADMIN_EMAIL);
    const listed = await t.ok(endpoints.outboxList, {}, as(world.superUser));
    const invitation = listed.messages.find((m) => m.kind === 'password_reset');
    expect(invitation).toBeDefined();
    expect(invitation!.text.length).toBeGreaterThan(0);
    // Nothing of an event is among them.
    expect(listed.messages.some((m) => m.kind === 'mini_album_link')).toBe(false);
    const resent = await t.ok(
      endpoints.outboxResend,
      { message_id: invitation!.id },
      as(world.superUser),
    );
    expect(resent.message).toMatchObject({
      recipient: invitation!.recipient,
      kind: 'password_reset',
    });
    // An event's message is not reached without its event; admins and owners are refused.
    const eventMessage = (await outboxRows('mini_album_link'))[0]!;
    const wrong = await t.call(
      endpoints.outboxResend,
      { message_id: eventMessage.id },
      as(world.superUser),
    );
    expect(wrong.statusCode).toBe(404);
    for (const who of [world.adminA, world.ownerA]) {
      const refused = await t.call(endpoints.outboxList, {}, as(who));
      expect(refused.statusCode).toBe(403);
      expect((refused.body as { error: { message_key: string } }).error.message_key).toBe(
        'forbidden',
      );
    }
  });
});
