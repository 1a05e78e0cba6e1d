import { endpoints, type FlashbulbEvent, type PricingButton } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createRobotWorld, type EventWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Insight (docs/domains/operations.md "Insight"): a test performs what guests and operators do —
 * a booth uploads, guests view, download, share, leave leads, get mails (one bounces), pay, the
 * owner refunds one payment and prints — all through the real routes, and the dashboard of the
 * event and of its organisation count exactly that; nothing personal is stored for a view.
 */

let t: TestApp;
let world: EventWorld;
let admin: { authorization: string };
let event: FlashbulbEvent;
let other: FlashbulbEvent;
let robot: { key_type: 'robot'; key_value: string };
let robotId: number;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;

const button = (patch: Partial<PricingButton>): PricingButton => ({
  buttonText: 'Album',
  priceFormula: '{Final_Amount}',
  digitals: true,
  prints: false,
  partialUnlockTags: false,
  printsPool: '',
  ...patch,
});

const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`still waiting: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

beforeAll(async () => {
  // A recipient the mail server refuses for good: the outbox marks it failed (a bounce).
  smtp = await startSmtpPeer({
    refuse: (to) => (to.startsWith('gone@') ? { code: 550, text: 'no such user' } : null),
  });
  t = await createTestApp({ SMTP_URL: smtp.url });
  const robots = await createRobotWorld(t);
  world = robots.world;
  admin = robots.admin;
  robot = robots.robot;
  robotId = robots.robotId;
  event = await createEvent(t, world.adminA, {
    full_name: 'Insight Gala',
    robot_id_array: [robotId],
    collect_leads: 1,
    is_free: 0,
    is_photo_printer_active: 1,
    max_print_copies_count: 3,
    time_zone: 'Europe/Berlin',
    opts: {
      description: 'Paid',
      unitPrice: 5,
      eventMultiplier: 1,
      attendeeIdRegex: '^[A-Z0-9]+$',
      pricingButtons: [button({ buttonText: 'Whole album' })],
    },
  });
  other = await createEvent(t, world.adminA, { full_name: 'Quiet Party' });
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

const insight = () => t.ok(endpoints.eventInsight, { event_id: event.id }, admin);

describe('insight dashboard', () => {
  it('a new event shows zeros, an empty timeline and no booths', async () => {
    const fresh = await t.ok(endpoints.eventInsight, { event_id: other.id }, admin);
    expect(Object.values(fresh.totals).every((n) => n === 0)).toBe(true);
    expect(fresh.timeline).toEqual([]);
    expect(fresh.booths).toEqual([]);
    expect(fresh.shares_by_channel).toEqual([]);
    expect(fresh.currency).toBe('USD');
    expect(fresh.event).toMatchObject({ id: other.id, name: other.name });
  });

  it('counts what guests and operators did through the routes, on the event and its organisation', async () => {
    // The booth sends two photos.
    const photos = [];
    for (const colour of [10, 200]) {
      const bytes = await makeJpeg({ width: 80, height: 60, seed: colour });
      const sent = await uploadPhoto(t, robot, event.name, bytes, `booth-${colour}.jpg`);
      photos.push(await waitForReady(t, admin.authorization, event.id, sent.id));
    }
    const [first, second] = photos as [(typeof photos)[0], (typeof photos)[0]];
    const publicKey = { key_type: 'public' as const, key_value: event.public_api_key };

    // Three views from two browsers (same address), one of them twice.
    const view = (userAgent: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1${endpoints.insightTrack.path}`,
        headers: { 'user-agent': userAgent, 'content-type': 'application/json' },
        payload: { ...publicKey, kind: 'view' },
      });
    for (const agent of ['Phone A', 'Phone A', 'Phone B'])
      expect((await view(agent)).statusCode).toBe(200);
    // Two downloads of a booth photo, one zip.
    await t.ok(endpoints.insightTrack, { ...publicKey, kind: 'download', photo_uid: first.uid });
    await t.ok(endpoints.insightTrack, { ...publicKey, kind: 'download', photo_uid: second.uid });
    await t.ok(endpoints.insightTrack, { ...publicKey, kind: 'download' });
    // Shares: two on Facebook, one on WhatsApp.
    for (const network of ['facebook', 'facebook', 'whatsapp'] as const)
      await t.ok(endpoints.trackShare, { ...publicKey, photo_uid: first.uid, network });
    // Two leads.
    for (const email of ['ana@example.com', 'bo@example.com'])
      await t.ok(endpoints.leadSubmit, { ...publicKey, full_name: 'Guest', email });
    // A mini-album mailed to two guests: one delivered, one bounced.
    await t.ok(
      endpoints.sendMiniAlbumLink,
      {
        event_id: event.id,
        email_to_address_array: ['friend@example.com', 'gone@example.com'],
        photo_uid_array: [first.uid],
        receiver_consent: 1,
      },
      admin,
    );
    // Two payments of an attendee's album ($10.00 each: 2 photos × $5); one is refunded.
    const attendee = (
      await t.ok(
        endpoints.generateAttendeeList,
        { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
        admin,
      )
    ).attendees[0]!.uid;
    const pay = async (photoUid: string) => {
      const started = await t.ok(endpoints.createQrPayment, {
        key_type: 'attendee',
        key_value: attendee,
        attendee_uid: attendee,
        pricing_button_index: 0,
        photo_uids: [photoUid],
      });
      const paid = await t.ok(endpoints.testProviderPay, {
        payment_id: started.payment_id,
        card_number: '4242424242424242',
      });
      expect(paid.status).toBe('paid');
      return started.payment_id;
    };
    await t.ok(endpoints.attachPhotosByKey, {
      key_type: 'event_owner',
      key_value: event.owner_api_key,
      attendee_uid: attendee,
      photo_uid_array: [first.uid, second.uid],
    });
    await pay(first.uid);
    const refunded = await pay(second.uid);
    await t.ok(endpoints.refundPayment, { event_id: event.id, payment_id: refunded }, admin);
    // Two copies of one sheet printed.
    const printed = await t.ok(
      endpoints.printWithQueue,
      { event_id: event.id, printable_photo_uid_array: [first.uid], printing_count: 2 },
      admin,
    );

    const seen = await waitFor(insight, (i) => {
      const { totals } = i;
      return totals.prints === 2 && totals.mails_delivered + totals.mails_bounced >= 2;
    });
    expect(printed.copies).toBe(2);
    expect(seen.totals).toEqual({
      photos: 2,
      views: 3,
      unique_visitors: 2,
      downloads: 3,
      shares: 3,
      leads: 2,
      mails_delivered: 1,
      mails_bounced: 1,
      sms_delivered: 0,
      sms_bounced: 0,
      prints: 2,
      orders_paid: 2,
      revenue: 1000,
      refunds: 500,
      face_searches: 0,
    });
    expect(seen.shares_by_channel).toEqual([
      { channel: 'facebook', count: 2 },
      { channel: 'whatsapp', count: 1 },
    ]);
    // Per booth: the prints and the money of its photos too (both payments were for booth photos,
    // refunded one included, as in the totals), and the refunded one's amount as its refunds.
    expect(seen.booths).toEqual([
      {
        robot_id: robotId,
        name: 'Booth',
        photos: 2,
        downloads: 2,
        shares: 3,
        prints: 2,
        revenue: 1000,
        refunds: 500,
      },
    ]);
    // The timeline adds up to the totals, in the event's local hours (Berlin).
    const sum = (series: 'views' | 'downloads' | 'photos' | 'shares' | 'leads' | 'prints') =>
      seen.timeline.reduce((total, point) => total + point[series], 0);
    expect(seen.timeline_unit).toBe('hour');
    expect([sum('photos'), sum('views'), sum('downloads'), sum('shares'), sum('leads')]).toEqual([
      2, 3, 3, 3, 2,
    ]);
    expect(sum('prints')).toBe(2);
    const berlinHour = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      hour: '2-digit',
      hourCycle: 'h23',
    }).format(t.clock.now());
    expect(seen.timeline.some((p) => p.at.endsWith(`${berlinHour}:00`) && p.views > 0)).toBe(true);

    // Nothing personal: the view rows keep a 16-character hash, no address or browser.
    const { rows } = await t.database.executeSql(
      `select visitor from insight_hits where event_id = $1 and kind = 'view'`,
      [event.id],
    );
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => /^[0-9a-f]{16}$/.test(String(r.visitor)))).toBe(true);

    // The organisation adds up its events, one row each; its other event is all zeros.
    const organisation = await t.ok(
      endpoints.organisationInsight,
      { organisation_id: world.orgA.id },
      admin,
    );
    expect(organisation.totals).toEqual(seen.totals);
    expect(organisation.events.map((e) => [e.event_id, e.views, e.revenue])).toEqual(
      expect.arrayContaining([
        [event.id, 3, 1000],
        [other.id, 0, 0],
      ]),
    );
    // Organisation B sees none of it.
    const adminB = await apiKeyAuth(t, world.adminB);
    const theirs = await t.ok(endpoints.organisationInsight, {}, adminB);
    expect(theirs.totals.views).toBe(0);
  });

  it('refuses a bad track call without counting', async () => {
    const before = (await insight()).totals;
    const wrongKind = await t.call(endpoints.insightTrack, {
      key_type: 'public',
      key_value: event.public_api_key,
      kind: 'print',
    });
    expect(wrongKind.statusCode).toBe(400);
    const wrongKey = await t.call(endpoints.insightTrack, {
      key_type: 'public',
      key_value: 'nope',
      kind: 'view',
    });
    expect(wrongKey.statusCode).toBeGreaterThanOrEqual(400);
    expect(wrongKey.statusCode).toBeLessThan(500);
    expect((await insight()).totals).toEqual(before);
  });
});
