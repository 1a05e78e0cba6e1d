import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { as, createEvent, createEventWorld, errorOf, type EventWorld } from '../helpers/events.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startTwilioDouble, TWILIO_SID, TWILIO_TOKEN } from '../helpers/twilio-double.ts';

/**
 * The web-app page: the event's page by code with server-rendered Open Graph
 * tags (escaped), the guest-facing branding only, and registration that finds or creates the
 * guest's attendee album, mails its link over real SMTP and sends the SMS invite (Twilio double).
 */

const PUBLIC_URL = 'https://photos.example';
const XSS = '"><script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let twilio: Awaited<ReturnType<typeof startTwilioDouble>>;
let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;
let browser: Browser;

const outboxOf = async (kind: string) =>
  (await t.app.container.repositories.outbox.list(500)).filter((r) => r.kind === kind);
const deliver = async (kind: string) => {
  for (const row of await outboxOf(kind)) await t.app.container.services.outbox.deliver(row.id);
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  twilio = await startTwilioDouble();
  const webDist = await mkdtemp(path.join(tmpdir(), 'flashbulb-web-'));
  await mkdir(path.join(webDist, 'assets'));
  await writeFile(
    path.join(webDist, 'index.html'),
    '<!doctype html><html><head><meta charset="UTF-8"><title>Flashbulb</title></head><body><div id="root"></div></body></html>',
  );
  t = await createTestApp(
    {
      SMTP_URL: smtp.url,
      FLASHBULB_SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: twilio.url,
      FLASHBULB_PUBLIC_URL: PUBLIC_URL,
      FLASHBULB_WEB_DIST: webDist,
    },
    { worker: false },
  );
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, {
    full_name: `Gala ${XSS}`,
    logo_link: 'https://gala.example/',
    is_sms_enabled: 1,
    email_subject: 'Your gala photos',
    email_body_template: 'Hello {user_name}, your album: {image_url}',
    opts: {
      description: 'The summer gala',
      ogpTitle: `Gala photos ${XSS}`,
      ogpDescription: `All the photos & more ${XSS}`,
      webappShareTitle: 'Share the gala',
      webappLogoEnabled: 1,
      webappLogoSrc: 'https://cdn.gala.example/logo.png',
      webappBannerTopEnabled: 1,
      webappBannerTopSrc: `share/${world.orgA.id}/webapp-etc/top.png`,
      webappBannerTopLink: 'https://sponsor.example/',
      faqText: 'Q: Where are my photos?\nA: Here.',
      agreementText: 'I agree to the terms.',
      supportLink: 'https://help.gala.example/',
      webappSmsEnabled: 1,
      webappSmsText: 'Hi {userName}, your gala photos: {url}',
      webappSmsAgreement: 'I agree to receive one SMS.',
      emailEnds: ['gala.example', 'gmail.com'],
    },
  });
  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu'],
  });
});
afterAll(async () => {
  await browser.close();
  await t.close();
  await smtp.close();
  await twilio.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
  twilio.reset();
});

describe('web-app page by event code', () => {
  it('answers the branding and texts for guests, and nothing for an unknown code', async () => {
    const page = await t.ok(endpoints.webappEvent, { event_name: event.name });
    expect(page).toMatchObject({
      name: event.name,
      logo_link: 'https://gala.example/',
      logo: { src: 'https://cdn.gala.example/logo.png', link: '' },
      banner_top: { link: 'https://sponsor.example/' },
      background: null,
      banner_bottom: null,
      og_title: `Gala photos ${XSS}`,
      support_link: 'https://help.gala.example/',
      sms_enabled: true,
      registration_type: 'default',
      // The endings the page's e-mail field offers (opts.emailEnds).
      email_ends: ['gala.example', 'gmail.com'],
    });
    // A storage key becomes its public URL.
    expect(page.banner_top!.src).toMatch(/^https?:\/\/.+webapp-etc\/top\.png$/);
    // No key or secret field of the event reaches the public page.
    const text = JSON.stringify(page);
    expect(text).not.toMatch(/key|secure|email_from/i);

    const unknown = await t.call(endpoints.webappEvent, { event_name: 'ZZZZ' });
    expect(errorOf(unknown)).toMatchObject({ status: 404, message_key: 'event_not_found' });
  });

  it('the HTML shell for /?eName carries the escaped Open Graph tags, and no script runs', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/?eName=${event.name}&token=x` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/text\/html/);
    const html = response.body;
    expect(html).toContain('<title>Share the gala</title>');
    expect(html).toContain(
      '<meta property="og:title" content="Gala photos &quot;&gt;&lt;script&gt;window.__xss=1&lt;/script&gt;',
    );
    expect(html).toContain('property="og:image" content="https://cdn.gala.example/logo.png"');
    expect(html).toContain(
      `property="og:url" content="${PUBLIC_URL}/?eName=${event.name}&amp;token=x"`,
    );
    // Rendered in Chromium: the tags are there with the owner's text as values, nothing ran.
    const page = await browser.newPage();
    await page.setContent(html);
    const og = await page.evaluate<Record<string, unknown>>(`({
      title: document.querySelector('meta[property="og:title"]')?.getAttribute('content'),
      description: document.querySelector('meta[property="og:description"]')?.getAttribute('content'),
      xss: window.__xss ?? null,
      scripts: document.scripts.length,
    })`);
    await page.close();
    expect(og).toEqual({
      title: `Gala photos ${XSS}`,
      description: `All the photos & more ${XSS}`,
      xss: null,
      scripts: 0,
    });

    // Without eName (or with an unknown code) the plain shell is served.
    const plain = await t.app.inject({ method: 'GET', url: '/?eName=ZZZZ' });
    expect(plain.statusCode).toBe(200);
    expect(plain.body).not.toContain('og:title');
  });
});

describe('the web-app page’s settings reach the page', () => {
  it('defaults: the event label shown, photos linked, no chat, the default picture size', async () => {
    const page = await t.ok(endpoints.webappEvent, { event_name: event.name });
    expect(page).toMatchObject({
      accent_color: '',
      show_event_label: true,
      collect_email: true,
      link_photos: true,
      picture_size: 250,
      time_in_time_text: '',
      user_content: { tooltip: '', upload_message: '', process_message: '' },
      support_chat_url: '',
    });
  });

  it('each setting changes what the page is told; a chat key that is not an https link opens nothing', async () => {
    const configured = await createEvent(t, world.adminA, {
      full_name: 'Configured gala',
      opts: {
        description: 'Configured',
        webappRegistrationType: 'byIdFirst',
        disableEventLabel: 1,
        enableEmailCollect: 0,
        disableLinkPhotos: 1,
        pictureSize: 320,
        timeInTimeText: 'Photos arrive about ten minutes after they are taken.',
        userContentTooltip: 'A clear, front-facing selfie works best.',
        userContentUploadMessage: 'Sending your selfie…',
        userContentProcessMessage: 'Looking through the gala’s photos…',
        supportChatKey: 'https://chat.help.example/gala?lang=en',
        guestAccentColor: '#d9480f',
      },
    });
    const page = await t.ok(endpoints.webappEvent, { event_name: configured.name });
    expect(page).toMatchObject({
      accent_color: '#d9480f',
      show_event_label: false,
      collect_email: false,
      link_photos: false,
      picture_size: 320,
      time_in_time_text: 'Photos arrive about ten minutes after they are taken.',
      user_content: {
        tooltip: 'A clear, front-facing selfie works best.',
        upload_message: 'Sending your selfie…',
        process_message: 'Looking through the gala’s photos…',
      },
      support_chat_url: 'https://chat.help.example/gala?lang=en',
    });

    // By card id with e-mail collection on, the page asks for an address again.
    await t.ok(
      endpoints.updateEvent,
      {
        id: configured.id,
        event_last_updated_date: configured.updated_date,
        opts: { ...configured.opts, enableEmailCollect: 1, supportChatKey: 'abc123' },
      },
      as(world.adminA),
    );
    const again = await t.ok(endpoints.webappEvent, { event_name: configured.name });
    expect(again.collect_email).toBe(true);
    // A bare widget id (no https link) gives no launcher.
    expect(again.support_chat_url).toBe('');
  });

  it('an event that does not collect addresses refuses one at registration by card id and keeps nothing', async () => {
    const byId = await createEvent(t, world.adminA, {
      full_name: 'By card',
      opts: { description: 'By card', webappRegistrationType: 'byIdFirst', enableEmailCollect: 0 },
    });
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [byId.id], is_prepaid: 0 },
      as(world.adminA),
    );
    const card = generated.attendees[0]!;
    const refused = await t.call(endpoints.webappRegister, {
      event_name: byId.name,
      attendee_uid: card.display_uid,
      email: 'kept-out@example.com',
    });
    expect(errorOf(refused)).toMatchObject({
      status: 400,
      message_key: 'email_not_collected',
      field: 'email',
    });
    const none = await t.database.executeSql(
      `select count(*)::int as n from attendees where email = 'kept-out@example.com'`,
    );
    expect((none.rows[0] as { n: number }).n).toBe(0);
    expect(await outboxOf('webapp_registration')).toHaveLength(0);
    // Without the address the card opens its album.
    const ok = await t.ok(endpoints.webappRegister, {
      event_name: byId.name,
      attendee_uid: card.display_uid,
    });
    expect(ok.album_url).toBe(card.album_url);
  });
});

describe('registration', () => {
  it('by e-mail creates the guest album once; the link is mailed with the event template over SMTP', async () => {
    const first = await t.ok(endpoints.webappRegister, {
      event_name: event.name,
      email: 'Guest@Example.com',
      name: 'Ann',
    });
    expect(first).toMatchObject({ created: true, emailed: true, sms_sent: false });
    expect(first.album_url).toMatch(new RegExp(`^${PUBLIC_URL}/\\?attId=`));
    await deliver('webapp_registration');
    const mail = await smtp.waitFor((m) =>
      m.to.some((to) => to.toLowerCase() === 'guest@example.com'),
    );
    expect(mail.text).toContain('Subject: Your gala photos');
    expect(mail.text).toContain('Hello Ann, your album:');
    expect(mail.text).toContain(first.album_url.replace(/&/g, '&amp;').split('?')[0]);
    expect(mail.text).toMatch(/List-Unsubscribe:\s+<https:\/\/photos\.example\/api\/unsubscribe/);

    // The same address again: the same album, its link only mailed, never answered.
    const again = await t.ok(endpoints.webappRegister, {
      event_name: event.name,
      email: 'guest@example.com',
    });
    expect(again).toMatchObject({ created: false, album_url: '', attendee_uid: '', emailed: true });
    const rows = await t.database.executeSql(
      `select count(*)::int as n from attendees a join attendee_events ae on ae.attendee_id = a.id
       where ae.event_id = $1 and lower(a.email) = 'guest@example.com'`,
      [event.id],
    );
    expect((rows.rows[0] as { n: number }).n).toBe(1);
  });

  it('by the id on a card (byIdFirst) opens that album; a wrong id is refused', async () => {
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0 },
      as(world.adminA),
    );
    const card = generated.attendees[0]!;
    const byId = await t.ok(endpoints.webappRegister, {
      event_name: event.name,
      attendee_uid: card.display_uid,
    });
    expect(byId).toMatchObject({ created: false, emailed: false, album_url: card.album_url });
    const wrong = await t.call(endpoints.webappRegister, {
      event_name: event.name,
      attendee_uid: 'ZZZZ-ZZZZ',
    });
    expect(errorOf(wrong)).toMatchObject({ status: 404, message_key: 'invalid_attendee_id' });
  });

  it('the SMS invite needs the agreement and goes through Twilio with the web-app text', async () => {
    const refused = await t.call(endpoints.webappRegister, {
      event_name: event.name,
      email: 'sms-guest@example.com',
      phone: '(415) 555-0123',
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'consent_required' });
    // Refused: no album made, nothing queued.
    expect(await outboxOf('webapp_sms_invite')).toHaveLength(0);
    const none = await t.database.executeSql(
      `select count(*)::int as n from attendees where email = 'sms-guest@example.com'`,
    );
    expect((none.rows[0] as { n: number }).n).toBe(0);

    const ok = await t.ok(endpoints.webappRegister, {
      event_name: event.name,
      email: 'sms-guest@example.com',
      name: 'Bea',
      phone: '(415) 555-0123',
      sms_agreement: 1,
    });
    expect(ok.sms_sent).toBe(true);
    await deliver('webapp_sms_invite');
    expect(twilio.received).toHaveLength(1);
    expect(twilio.received[0]!.form.To).toMatch(/4155550123$/);
    expect(twilio.received[0]!.form.Body).toContain(`Hi Bea, your gala photos: ${ok.album_url}`);
  });

  it('bad input answers a clear error and creates nothing', async () => {
    const cases: [Record<string, unknown>, number, string][] = [
      [{ event_name: event.name, email: 'not-an-address' }, 400, 'email_invalid'],
      [{ event_name: event.name }, 400, 'email_invalid'],
      [{ event_name: 'ZZZZ', email: 'x@example.com' }, 404, 'event_not_found'],
      [
        { event_name: event.name, email: 'x@example.com', phone: '12', sms_agreement: 1 },
        400,
        'phone_invalid',
      ],
    ];
    const before = await t.database.executeSql('select count(*)::int as n from attendees');
    for (const [body, status, key] of cases) {
      const response = await t.call(endpoints.webappRegister, body);
      expect(errorOf(response), JSON.stringify(body)).toMatchObject({ status, message_key: key });
    }
    const after = await t.database.executeSql('select count(*)::int as n from attendees');
    expect(after.rows).toEqual(before.rows);
  });
});
