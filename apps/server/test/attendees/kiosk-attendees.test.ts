import { defaultEventOpts, endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** The kiosk's attendee calls: update-by-kiosk's album link mail and card grouping. */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let admin: { authorization: string };
/** The world's admin, calling with the file's API key (its session expires when a test moves the clock). */
let adminByKey: Parameters<typeof createEvent>[1];
let adminB: { authorization: string };
let gala: FlashbulbEvent;
let other: FlashbulbEvent;
let evil: FlashbulbEvent;

const TEMPLATE =
  '<p>Hi {user_name}!</p><p><a href="{image_url}">Your album</a></p><script>alert(1)</script>';
const kioskOf = (e: FlashbulbEvent) => ({
  key_type: 'private' as const,
  key_value: e.private_api_key,
  // The organiser's kiosk: the private key with the event's display token.
  display: e.display_token,
});
const generate = async (e: FlashbulbEvent, count = 1, auth = admin) =>
  (
    await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: count, event_id_array: [e.id], is_prepaid: 0 },
      auth,
    )
  ).attendees;
const albumUids = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    })
  ).photos
    .map((p) => p.uid)
    .sort();

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  adminByKey = { ...world.adminA, ...admin };
  adminB = await apiKeyAuth(t, world.adminB);
  gala = await createEvent(t, world.adminA, {
    full_name: 'Kiosk Gala',
    email_subject: 'Your {user_name} photos',
    email_from_name: 'Gala Team',
    email_body_template: TEMPLATE,
  });
  other = await createEvent(t, world.adminB, { full_name: 'Other Org' });
  evil = await createEvent(t, world.adminA, { full_name: 'A </script><b>x</b>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('attendee/update-by-kiosk', () => {
  it('without a key changes nothing and sends nothing', async () => {
    const [a] = await generate(gala);
    const refused = await t.call(endpoints.updateAttendeeByKiosk, {
      attendee_uid: a!.uid,
      email_address: 'thief@example.com',
    });
    expect(errorOf(refused)).toMatchObject({ status: 401, message_key: 'invalid_key' });
    const wrong = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kioskOf(other),
      attendee_uid: a!.uid,
      email_address: 'thief@example.com',
    });
    expect(errorOf(wrong).message_key).toBe('invalid_attendee_id');
    const list = await t.ok(endpoints.attendeeList, { event_id: gala.id }, admin);
    expect(list.attendees.find((x) => x.uid === a!.uid)?.email).toBeNull();
    const outbox = await t.database.executeSql(
      `select count(*)::int as n from outbox where recipient = 'thief@example.com'`,
      [],
    );
    expect(Number(outbox.rows[0]!.n)).toBe(0);
    // Nothing queued (above) and nothing delivered to that address.
    expect(smtp.messages.some((m) => m.to.includes('thief@example.com'))).toBe(false);
  });

  it('with the kiosk key delivers the album link over SMTP with the event template', async () => {
    const [a] = await generate(gala);
    const to = 'ann+<b>@example.com';
    // An address with markup is not valid: refused with a key, nothing sent.
    const bad = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kioskOf(gala),
      attendee_uid: a!.uid,
      email_address: to,
    });
    expect(errorOf(bad).message_key).toBe('email_invalid');
    const result = await t.ok(endpoints.updateAttendeeByKiosk, {
      ...kioskOf(gala),
      attendee_uid: a!.display_uid,
      email_address: 'ann.lee@example.com',
    });
    expect(result).toEqual({ attendee_uid: a!.uid, email: 'ann.lee@example.com' });
    const mail = await smtp.waitFor((m) => m.to.includes('ann.lee@example.com'));
    expect(mail.text).toContain('Subject: Your ann.lee photos');
    // The name reads as written past its zero-width spaces (raw 8-bit SMTP text: read as latin1).
    expect(mail.text.replace(/\u200B|=E2=80=8B|\u00e2\u0080\u008b/g, '')).toContain('Hi ann.lee!');
    // The owner's template is sanitised like every mail template: no script reaches the HTML.
    expect(mail.text.slice(mail.text.indexOf('Content-Type: text/html'))).not.toMatch(/<script/i);
    // The album link of exactly this attendee (display form, dashes URL-safe).
    expect(mail.text).toContain(`?attId=${a!.display_uid}">`);
    // Unverified event address: the platform sends.
    expect(mail.from).not.toBe(gala.email_from_address);
    // The 7bit plain part (raw: the helper's quoted-printable decoding would garble it).
    expect(mail.raw.split('Content-Type: text/html')[0]).toContain(
      encodeURIComponent(a!.display_uid),
    );
    await t.app.container.repositories.events.markFromAddressVerified(
      gala.id,
      gala.email_from_address,
    );
    await t.ok(endpoints.updateAttendeeByKiosk, {
      ...kioskOf(gala),
      attendee_uid: a!.uid,
      email_address: 'bo@example.com',
    });
    const second = await smtp.waitFor((m) => m.to.includes('bo@example.com'));
    expect(second.from).toBe(gala.email_from_address);
    expect(second.text).toContain('Gala Team');
  });
  it('a retried call with the same client request id mails the album link once', async () => {
    const [a] = await generate(gala);
    const to = 'retry.guest@example.com';
    const call = (id: string) =>
      t.ok(endpoints.updateAttendeeByKiosk, {
        ...kioskOf(gala),
        attendee_uid: a!.uid,
        email_address: to,
        client_request_id: id,
      });
    const queued = async () =>
      Number(
        (
          await t.database.executeSql(
            `select count(*)::int as n from outbox where recipient = $1 and kind = 'attendee_album_link'`,
            [to],
          )
        ).rows[0]!.n,
      );
    const id = 'kiosk-action-0001';
    // The kiosk reloaded after the server answered: the same action again, same answer, no mail.
    const first = await call(id);
    const again = await call(id);
    expect(again).toEqual(first);
    expect(await queued()).toBe(1);
    await smtp.waitFor((m) => m.to.includes(to));
    // A new request (the guest pressed the button again) is a new mail.
    await call('kiosk-action-0002');
    expect(await queued()).toBe(2);
    // A malformed id is refused with a key and sends nothing.
    const bad = await t.call(endpoints.updateAttendeeByKiosk, {
      ...kioskOf(gala),
      attendee_uid: a!.uid,
      email_address: to,
      client_request_id: 'x',
    });
    expect(errorOf(bad)).toMatchObject({ status: 400, message_key: 'invalid_value' });
    expect(await queued()).toBe(2);
  });
});

describe('attendee/check-and-group-uid-list', () => {
  it('groups several cards into the first one’s album', async () => {
    const [a, b, c] = await generate(gala, 3);
    const pa = await insertReadyPhoto(t, gala, a!.uid);
    const pb = await insertReadyPhoto(t, gala, b!.uid);
    const pc = await insertReadyPhoto(t, gala, c!.uid);
    expect(await albumUids(a!.uid)).toEqual([pa.uid]);
    const grouped = await t.ok(endpoints.checkAndGroupAttendees, {
      ...kioskOf(gala),
      attendee_uid_list: [a!.display_uid, b!.uid, c!.uid],
    });
    expect(grouped).toMatchObject({
      attendee_uid: a!.uid,
      grouped_uids: [b!.uid, c!.uid],
      attached_count: 2,
    });
    expect(await albumUids(a!.uid)).toEqual([pa.uid, pb.uid, pc.uid].sort());
    // The others keep their own albums.
    expect(await albumUids(b!.uid)).toEqual([pb.uid]);
  });

  it('refuses a card older than 3 days and changes nothing', async () => {
    const [old] = await generate(gala);
    const po = await insertReadyPhoto(t, gala, old!.uid);
    t.clock.advance(3 * 24 * 60 * 60_000 + 60_000);
    const [fresh] = await generate(gala);
    const pf = await insertReadyPhoto(t, gala, fresh!.uid);
    const refused = await t.call(endpoints.checkAndGroupAttendees, {
      ...kioskOf(gala),
      attendee_uid_list: [fresh!.uid, old!.uid],
    });
    expect(errorOf(refused)).toMatchObject({ status: 400, message_key: 'attendee_group_too_old' });
    expect(await albumUids(fresh!.uid)).toEqual([pf.uid]);
    expect(await albumUids(old!.uid)).toEqual([po.uid]);
    // Exactly 3 days old is still allowed.
    const [edge] = await generate(gala);
    t.clock.advance(3 * 24 * 60 * 60_000);
    const [now] = await generate(gala);
    expect(
      (
        await t.ok(endpoints.checkAndGroupAttendees, {
          ...kioskOf(gala),
          attendee_uid_list: [now!.uid, edge!.uid],
        })
      ).grouped_uids,
    ).toEqual([edge!.uid]);
  });

  it('refuses one card, unknown cards, other organisations’ cards and a public key', async () => {
    const [a, b] = await generate(gala, 2);
    const [foreign] = await generate(other, 1, adminB);
    const group = (list: string[], key: object = kioskOf(gala)) =>
      t.call(endpoints.checkAndGroupAttendees, { ...key, attendee_uid_list: list });
    expect(errorOf(await group([a!.uid])).message_key).toBe('attendee_group_needs_two');
    expect(errorOf(await group([a!.uid, a!.display_uid])).message_key).toBe(
      'attendee_group_needs_two',
    );
    expect(errorOf(await group([a!.uid, 'ZZZZZZZZ'])).message_key).toBe('invalid_attendee_id');
    expect(errorOf(await group([a!.uid, foreign!.uid])).message_key).toBe('invalid_attendee_id');
    expect(
      errorOf(await group([a!.uid, b!.uid], { key_type: 'public', key_value: gala.public_api_key }))
        .message_key,
    ).toBe('invalid_key');
    expect(errorOf(await group([a!.uid, b!.uid], {})).message_key).toBe('invalid_key');
  });
});

describe('attendee/check-card (kiosk entry page)', () => {
  it('accepts the private id printed on the card, from an attId link with dashes', async () => {
    const [a] = await generate(gala);
    const pid = a!.private_id!;
    const scanned = `https://kiosk.example/?attId=${pid.slice(0, 4)}-${pid.slice(4)}`;
    expect(await t.ok(endpoints.checkKioskCard, { ...kioskOf(gala), card_code: scanned })).toEqual({
      valid: true,
      attendee_uid: a!.uid,
    });
    // A bare code in lower case is the same card.
    expect(
      (await t.ok(endpoints.checkKioskCard, { ...kioskOf(gala), card_code: pid.toLowerCase() }))
        .valid,
    ).toBe(true);
  });

  it('refuses the album id, another organisation’s kiosk, a locked card and nonsense', async () => {
    const [a] = await generate(gala);
    const check = async (card_code: string, key: object = kioskOf(gala)) =>
      t.ok(endpoints.checkKioskCard, { ...key, card_code } as never);
    const invalid = { valid: false, attendee_uid: null };
    // The album id is not the card code.
    expect(await check(`?attId=${a!.display_uid}`)).toEqual(invalid);
    expect(await check(a!.private_id!, kioskOf(other))).toEqual(invalid);
    expect(await check('=')).toEqual(invalid);
    expect(await check('<script>')).toEqual(invalid);
    await t.ok(
      endpoints.lockAttendee,
      { event_id: gala.id, attendee_uid: a!.uid, is_locked: 1 },
      admin,
    );
    expect(await check(a!.private_id!)).toEqual(invalid);
    const noKey = await t.call(endpoints.checkKioskCard, { card_code: a!.private_id! });
    expect(errorOf(noKey).message_key).toBe('invalid_key');
  });
});

describe('GET /kiosk/entry', () => {
  const get = (query: string) => t.app.inject({ method: 'GET', url: `/kiosk/entry?${query}` });
  const settingsOf = (html: string) =>
    JSON.parse(
      /<script type="application\/json" id="kiosk-settings">(.*?)<\/script>/s.exec(html)![1]!,
    ) as {
      checkUrl: string;
      redirect: string;
      placeholder: string;
      key: string;
    };

  it('renders the scanner page of the kiosk’s event with the evSB2 redirect parameters', async () => {
    const page = await get(
      `kType=evSB2&pvId=${gala.private_api_key}&pricingModel=gold&kioskPreviewSize=800&miniAlbumPreviewSize=300`,
    );
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'nonce-");
    expect(page.body).toContain('type="password"');
    expect(page.body).toContain('Kiosk Gala');
    const s = settingsOf(page.body);
    expect(s.checkUrl).toBe('/api/v1/attendee/check-card');
    const url = new URL(s.redirect.replace(s.placeholder, 'ABCD1234'), 'http://x.example');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      kType: 'evSB2',
      privateId: gala.private_api_key,
      attId: 'ABCD1234',
      pricingModel: 'gold',
      kioskPreviewSize: '800',
      miniAlbumPreviewSize: '300',
      kioskMode: 'true',
    });
  });

  it('all-photos mode carries pvId and attendeeId; the download is a standalone file on the public URL', async () => {
    const page = await get(`kType=evSB1&pvId=${gala.private_api_key}&download=1`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-disposition']).toMatch(
      /^attachment; filename="kiosk-.*-evSB1\.html"$/,
    );
    const s = settingsOf(page.body);
    expect(s.checkUrl).toMatch(/^https?:\/\/[^/]+\/api\/v1\/attendee\/check-card$/);
    const url = new URL(s.redirect.replace(s.placeholder, 'ABCD1234'));
    expect(url.searchParams.get('kType')).toBe('evSB1');
    expect(url.searchParams.get('pvId')).toBe(gala.private_api_key);
    expect(url.searchParams.get('attendeeId')).toBe('ABCD1234');
    expect(url.searchParams.has('attId')).toBe(false);
    // The file talks to the API from file://: the check answers any origin, preflight included.
    const preflight = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/attendee/check-card',
      headers: { origin: 'null', 'access-control-request-method': 'POST' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers['access-control-allow-origin']).toBe('*');
  });

  it('refuses a link without a valid private key, or with another key type', async () => {
    expect((await get('kType=evSB2')).statusCode).toBe(404);
    expect((await get(`kType=evSB2&pvId=nope`)).statusCode).toBe(404);
    expect((await get(`kType=evSB2&pvId=${gala.public_api_key}`)).statusCode).toBe(404);
    expect((await get(`kType=evSB3&pvId=${gala.private_api_key}`)).statusCode).toBe(404);
  });

  it('is the kiosk’s attract screen: the event’s logo and name, “Tap to find your photos”, no key or id on show', async () => {
    const branded = await createEvent(t, adminByKey, {
      full_name: 'Harbour Lights',
      logo_full_path: 'https://cdn.example/harbour/logo.png',
      opts: { ...defaultEventOpts(), description: 'Kiosk', guestAccentColor: '#c2410c' },
    });
    const page = await get(`kType=evSB2&pvId=${branded.private_api_key}`);
    expect(page.statusCode).toBe(200);
    const html = page.body;
    expect(/<title>([^<]*)<\/title>/.exec(html)?.[1]).toBe('Harbour Lights · Kiosk');
    expect(/<h1>([^<]*)<\/h1>/.exec(html)?.[1]).toBe('Harbour Lights');
    expect(html).toContain(
      '<img class="logo" src="https://cdn.example/harbour/logo.png" alt="Harbour Lights logo">',
    );
    // The logo's host may be loaded; nothing else new.
    expect(page.headers['content-security-policy']).toContain(
      "img-src 'self' data: https://cdn.example;",
    );
    expect(html).toContain('<main id="kiosk-main" class="attract">');
    expect(html).toContain('<button type="button" id="tap">Tap to find your photos</button>');
    expect(html).toContain('or scan your card');
    // The event's accent on the big button (readable text on it).
    expect(html).toContain('--accent:#c2410c;--on-accent:#ffffff');
    // The scanner's input is there from the start (a card scan needs no tap).
    expect(html).toMatch(/<input id="card"[^>]*type="password"[^>]*autofocus/);
    // Nothing on show but the event: the private key only in the page's settings, and in the
    // language switcher's links, which are the page's own address (the key in it) with `lang`.
    const langs = /<nav class="langs"[\s\S]*?<\/nav>/.exec(html)?.[0] ?? '';
    expect(langs).toContain('lang=es');
    const main = /<main[\s\S]*?<\/main>/.exec(html)![0].replace(langs, '');
    expect(main).not.toContain(branded.private_api_key);
    expect(
      main
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ).toBe(
      'Harbour Lights Tap to find your photos or scan your card Type the code on your card Open my album Scan with camera Back',
    );

    // A logo that is not an image address is left out (no broken image on the kiosk).
    const plain = await get(`kType=evSB2&pvId=${gala.private_api_key}`);
    expect(plain.body).not.toContain('class="logo"');
    expect(plain.headers['content-security-policy']).toContain("img-src 'self' data:;");
  });

  it('escapes the event name in the page', async () => {
    const page = await get(`pvId=${evil.private_api_key}`);
    expect(page.body).not.toContain('<b>x</b>');
    expect(page.body).toContain('&lt;b&gt;x&lt;/b&gt;');
  });
});
