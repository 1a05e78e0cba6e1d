import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * After a sale: the receipt e-mail travels through the outbox and the
 * mail worker over real SMTP; and a refund stops the signed original URLs handed out before it
 * within their lifetime (media URLs live 1 to 2 hours, ADR 0006).
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let admin: { authorization: string };
let paid: FlashbulbEvent;
let organisationId: number;
let owner: Awaited<ReturnType<typeof createEventWorld>>['adminA'];

const PAID_OPTS = {
  description: 'Paid',
  unitPrice: 3.5,
  pricingButtons: [
    {
      buttonText: 'Album & more',
      priceFormula: '{Final_Amount} + 1',
      digitals: true,
      prints: false,
      partialUnlockTags: false,
      printsPool: '',
    },
  ],
};

const newGuest = async (email: string, event: FlashbulbEvent = paid) => {
  const uid = (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email },
      admin,
    )
  ).attendees[0]!.uid;
  const photo = await insertReadyPhoto(t, event, uid);
  // The original's bytes, so the media route can serve it.
  await t.app.container.storage.put(photo.storageKey, Buffer.from('original bytes'), 'image/jpeg');
  return uid;
};

const buy = async (uid: string, event: FlashbulbEvent = paid) => {
  const created = await t.ok(endpoints.createQrPayment, {
    key_type: 'private',
    key_value: event.private_api_key,
    display: event.display_token,
    attendee_uid: uid,
    pricing_button_index: 0,
  });
  const result = await t.ok(endpoints.testProviderPay, {
    payment_id: created.payment_id,
    card_number: '4242 4242 4242 4242',
  });
  expect(result.status).toBe('paid');
  return created;
};

const originals = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    })
  ).photos.map((p) => p.urls.original);

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  const world = await createEventWorld(t);
  organisationId = world.orgA.id;
  owner = world.adminA;
  admin = await apiKeyAuth(t, world.adminA);
  paid = await createEvent(t, world.adminA, {
    full_name: 'Gala <Night>',
    is_free: 0,
    receipt_email_body:
      '<p>Dear {user_name}, thanks!</p><script>alert(1)</script><p><a href="https://example.com/help">Help</a></p>',
    opts: PAID_OPTS,
  });
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('the receipt e-mail', () => {
  it('arrives over SMTP once the payment is confirmed, with {user_name} filled and the owner’s HTML sanitised', async () => {
    const uid = await newGuest('buyer+1@example.com');
    await buy(uid);
    // (The generate call's address also gets the attendee list: the receipt is found by subject.)
    const isReceipt = (m: { to: string[]; text: string }) =>
      m.to.includes('buyer+1@example.com') && /^Subject: Your receipt/m.test(m.text);
    const mail = await smtp.waitFor(isReceipt);
    expect(mail.text).toMatch(/^Subject: Your receipt: Gala <Night>/m);
    // Placeholder values carry zero-width spaces (raw or quoted-printable) so no client links them.
    expect(mail.text.replace(/\u200B|=E2=80=8B|\u00e2\u0080\u008b/g, '')).toContain(
      'Dear buyer+1@example.com, thanks!',
    );
    // $3.50 × 1 photo + $1, the button's text escaped in the HTML part.
    expect(mail.text).toContain('Album & more: $4.50');
    expect(mail.text).toContain('Album &amp; more: $4.50');
    expect(mail.text).toContain('href="https://example.com/help"');
    // The owner's <script> is text in the HTML part (in the plain part it is harmless text).
    expect(mail.text.slice(mail.text.indexOf('Content-Type: text/html'))).not.toContain('<script');
    expect(mail.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(smtp.messages.filter(isReceipt)).toHaveLength(1);
  });
});

// The euro sign as sent (8-bit) or as quoted-printable bytes read one by one.
const EURO = '(?:€|\u00e2\u0082\u00ac)';

describe('money in the organisation’s currency', () => {
  it('the receipt and the daily report show euros when the organisation sells in EUR', async () => {
    const setCurrency = (code: string) =>
      t.database.executeSql('update organisations set currency = $1 where id = $2', [
        code,
        organisationId,
      ]);
    await setCurrency('EUR');
    try {
      const euro = await createEvent(t, owner, {
        full_name: 'Euro Gala',
        is_free: 0,
        email_for_reports: 'euro.reports@example.com',
        opts: PAID_OPTS,
      });
      const uid = await newGuest('euro.buyer@example.com', euro);
      await buy(uid, euro);
      const receipt = await smtp.waitFor(
        (m) => m.to.includes('euro.buyer@example.com') && /^Subject: Your receipt/m.test(m.text),
      );
      // 3.50 × 1 photo + 1, in euros: neither dollars nor "(EUR)" beside a dollar sign.
      expect(receipt.text).toMatch(new RegExp(`Album & more: ${EURO}4\\.50`));
      expect(receipt.text).not.toMatch(/\$4\.50/);

      // The report the morning after: the event's day (UTC) of the sale.
      const day = new Date(t.clock.now().getTime());
      day.setUTCHours(0, 0, 0, 0);
      await t.app.container.services.eventMail.sendDailyReports(
        new Date(day.getTime() + 86_400_000 + (6 * 60 + 7) * 60_000),
      );
      const report = await smtp.waitFor((m) => m.to.includes('euro.reports@example.com'));
      expect(report.text).toMatch(/^Subject: Daily report/m);
      expect(report.text).toMatch(new RegExp(`Sales: 1 \\(${EURO}4\\.50\\), 1 in all`));
      expect(report.text).not.toContain('$4.50');
    } finally {
      await setCurrency('USD');
    }
  });
});

describe('a purchase from the private album', () => {
  it('mails the buyer’s personal album link with the receipt once paid, the link the paid screen shows', async () => {
    const photo = await insertReadyPhoto(t, paid);
    const key = { key_type: 'private' as const, key_value: paid.private_api_key };
    const created = await t.ok(endpoints.albumPurchaseCreate, {
      ...key,
      pricing_button_index: 0,
      photo_uids: [photo.uid],
      email: 'album.buyer@example.com',
    });
    await t.ok(endpoints.testProviderPay, {
      payment_id: created.payment_id,
      card_number: '4242 4242 4242 4242',
    });
    const status = await t.ok(endpoints.albumPurchaseStatus, {
      ...key,
      payment_id: created.payment_id,
    });
    expect(status.album_url).toContain('/?attId=');
    const mail = await smtp.waitFor((m) => m.to.includes('album.buyer@example.com'));
    expect(mail.text).toMatch(/^Subject: Your receipt: Gala <Night>/m);
    // The link (quoted-printable may break lines: compare without soft breaks).
    expect(mail.text.replace(/=\r?\n/g, '').replace(/=3D/g, '=')).toContain(status.album_url);
  });
});

describe('a refund', () => {
  it('stops the original URLs handed out before it within their lifetime (≤ 2 h); new lists give none', async () => {
    const uid = await newGuest('buyer+2@example.com');
    const sale = await buy(uid);
    const [url] = await originals(uid);
    expect(url).toMatch(/\/media\/photos\/\d+\/original\?/);
    const path = url!.slice(url!.indexOf('/media/'));
    const before = await t.app.inject({ method: 'GET', url: path });
    expect(before.statusCode).toBe(200);
    expect(before.body).toBe('original bytes');

    const refunded = await t.ok(
      endpoints.refundPayment,
      { event_id: paid.id, payment_id: sale.payment_id },
      admin,
    );
    expect(refunded.status).toBe('refunded');
    expect(await originals(uid)).toEqual([null]);
    // Past the longest life a media URL can have (2 × 1 h window), the old URL is refused.
    t.clock.advance(2 * 3600_000 + 1000);
    expect((await t.app.inject({ method: 'GET', url: path })).statusCode).toBe(403);
    expect(await originals(uid)).toEqual([null]);
  });
});
