import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import type { OutboxRow } from '../../src/repositories/messaging/outbox.repository.ts';
import { renderMail, renderSms } from '../../src/services/messaging/template-render.ts';
import { as, createEvent, createEventWorld, type EventWorld } from '../helpers/events.ts';
import { insertReadyPhoto, makeJpeg } from '../helpers/photos.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { startTwilioDouble, TWILIO_SID, TWILIO_TOKEN } from '../helpers/twilio-double.ts';

/**
 * Notifications by topic: product facts → the event's topic templates → the
 * outbox → real SMTP (in-process server) and the Twilio double; once per recipient and fact;
 * unsubscribe (link page, one-click POST) honoured; user text escaped.
 */

const PUBLIC_URL = 'https://photos.example';
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let twilio: Awaited<ReturnType<typeof startTwilioDouble>>;
let t: TestApp;
let world: EventWorld;
let event: FlashbulbEvent;

const TOPICS = [
  'photo_ready',
  'album_unlocked',
  'print_ready',
  'payment_receipt',
  'attendee_reminder',
] as const;
const channelId = (i: number, kind: 'e' | 's') => `${kind}${String(i).padStart(9, '0')}`;

/** One e-mail and one SMS channel per topic, their texts naming the topic. */
const notificationData = () => ({
  channels: TOPICS.flatMap((key, i) => [
    {
      id: channelId(i, 'e'),
      name: `${key} mail`,
      type: 'email' as const,
      subject: `[${key}] for {user_name}`,
      body: `Hello {user_name},\n${key}: see {url}\n<script>window.__xss=1</script>`,
    },
    {
      id: channelId(i, 's'),
      name: `${key} sms`,
      type: 'sms' as const,
      message: `${key} {user_name} {url}`,
    },
  ]),
  topics: TOPICS.map((key, i) => ({
    id: `topic-${i}`,
    key,
    emailChannel: {
      id: channelId(i, 'e'),
      name: `${key} mail`,
      type: 'email' as const,
      subject: '',
      body: '',
    },
    smsChannel: { id: channelId(i, 's'), name: `${key} sms`, type: 'sms' as const, message: '' },
  })),
  smsSettings: { from: '+15005550006' },
});

const outboxRows = async (): Promise<OutboxRow[]> =>
  (await t.app.container.repositories.outbox.list(500)).reverse();
const topicRows = async (topic: string) =>
  (await outboxRows()).filter((r) => r.kind === `topic.${topic}`);
const deliverAll = async (rows: OutboxRow[]) => {
  for (const row of rows) await t.app.container.services.outbox.deliver(row.id);
};

const newAttendee = async (email: string) => {
  const generated = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email },
    as(world.adminA),
  );
  const uid = generated.attendees[0]!.uid;
  const [row] = (await t.database.executeSql('select id from attendees where uid = $1', [uid]))
    .rows as { id: number }[];
  return { uid, id: row!.id };
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  twilio = await startTwilioDouble();
  t = await createTestApp(
    {
      SMTP_URL: smtp.url,
      FLASHBULB_SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: TWILIO_SID,
      TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
      TWILIO_FROM: '+15005550006',
      TWILIO_API_BASE: twilio.url,
      FLASHBULB_PUBLIC_URL: PUBLIC_URL,
    },
    // No worker: each test runs the delivery attempts itself, as the deliver jobs would.
    { worker: false },
  );
  world = await createEventWorld(t);
  event = await createEvent(t, world.adminA, {
    full_name: 'Gala <b>2026</b>',
    notification_data: notificationData(),
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
  await twilio.close();
});
beforeEach(() => {
  smtp.messages.length = 0;
  twilio.reset();
});

describe('topics delivered once per recipient and fact', () => {
  it('photo_ready: attaching a ready photo queues exactly one mail, delivered over SMTP with List-Unsubscribe', async () => {
    const ann = await newAttendee('ann@example.com');
    const photo = await insertReadyPhoto(t, event);
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: event.id, attendee_uid: ann.uid, photo_uid_array: [photo.uid] },
      as(world.adminA),
    );
    // The same fact again, by the other path (the photo's derivatives finishing): nothing new.
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: event.id });

    const rows = await topicRows('photo_ready');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      channel: 'mail',
      recipient: 'ann@example.com',
      status: 'queued',
    });
    // Attendees have no phone number: the SMS channel has nobody to go to.
    expect((await outboxRows()).filter((r) => r.channel === 'sms')).toHaveLength(0);

    await deliverAll(rows);
    expect(smtp.messages).toHaveLength(1);
    const mail = smtp.messages[0]!;
    expect(mail.to).toEqual(['ann@example.com']);
    expect(mail.text).toMatch(/^Subject: \[photo_ready\] for ann@example\.com\r$/m);
    expect(mail.text).toMatch(
      new RegExp(
        `^List-Unsubscribe:(?:\\r\\n)? <${PUBLIC_URL}/api/unsubscribe\\?token=[^>]+>\\r$`,
        'm',
      ),
    );
    expect(mail.text).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    // The album link is filled in; the template's script is text, not a tag.
    expect(mail.text).toContain(`${PUBLIC_URL}/?attId=`);
    const htmlPart = mail.text.slice(mail.text.indexOf('Content-Type: text/html'));
    expect(htmlPart).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    expect(htmlPart).not.toMatch(/<script/i);
    expect(htmlPart).toContain('Gala &lt;b&gt;2026&lt;/b&gt;');
    expect((await t.app.container.repositories.outbox.findById(rows[0]!.id))?.status).toBe('sent');

    // Attaching it once more (already attached) and re-emitting: still one message.
    await t.app.container.bus.emit('attendee.photos_attached', {
      attendeeId: ann.id,
      photos: [{ photoId: photo.id, eventId: event.id }],
    });
    expect(await topicRows('photo_ready')).toHaveLength(1);
  });

  it('photo_ready: a clip’s notice names it a video with its length and shows its poster, never the clip', async () => {
    const cleo = await newAttendee('cleo@example.com');
    const photo = await insertReadyPhoto(t, event);
    const folder = photo.storageKey.slice(0, photo.storageKey.lastIndexOf('/') + 1);
    await t.app.container.repositories.photos.update(photo.id, {
      mediaType: 'video',
      contentType: 'video/mp4',
      storageKey: `${folder}original.mp4`,
      durationMs: 12_300,
      derivatives: {
        preview: `${folder}preview.jpg`,
        thumbnail: `${folder}thumbnail.jpg`,
        video: `${folder}video.mp4`,
      },
    });
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: event.id, attendee_uid: cleo.uid, photo_uid_array: [photo.uid] },
      as(world.adminA),
    );
    const rows = (await topicRows('photo_ready')).filter((r) => r.recipient === 'cleo@example.com');
    expect(rows).toHaveLength(1);
    await deliverAll(rows);
    const mail = await smtp.waitFor((m) => m.to.includes('cleo@example.com'));
    const split = mail.text.indexOf('Content-Type: text/html');
    const html = Buffer.from(
      mail.text
        .slice(split)
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    const album = `${PUBLIC_URL}/?attId=`;
    expect(mail.text.slice(0, split)).toMatch(
      new RegExp(`Video \\(0:12\\): ${album.replace(/[.?/]/g, '\\$&')}`),
    );
    expect(html).toContain('alt="Video, 0:12"');
    expect(html).toContain('▶ Video · 0:12');
    const images = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!);
    expect(images).toEqual([t.app.container.storage.publicUrl(`${folder}thumbnail.jpg`)]);
  });

  it('photo_ready: a photo uploaded with the attendee field mails that attendee once it is ready, once', async () => {
    const dee = await newAttendee('dee@example.com');
    // The robot's path: a grant naming the attendee, the storage POST, the completion.
    const fileName = 'dee.jpg';
    const grant = await t.ok(
      endpoints.photoUploadAccess,
      {
        event_name: event.name,
        file_name: fileName,
        content_type: 'image/jpeg',
        attendee_uid: dee.uid,
      },
      as(world.adminA),
    );
    const form = multipartBody(
      grantForm(grant.fields, await makeJpeg({ seed: 5 }), {
        filename: fileName,
        contentType: 'image/jpeg',
      }),
    );
    const stored = await t.app.inject({
      method: 'POST',
      url: new URL(grant.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    expect(stored.statusCode).toBe(201);
    const photo = await t.ok(endpoints.photoUploadComplete, { key: grant.key }, as(world.adminA));
    expect(photo.attendee_uid).toBe(dee.uid);
    const forDee = async () =>
      (await topicRows('photo_ready')).filter((r) => r.recipient === 'dee@example.com');
    // Still processing: nobody is told yet.
    expect(await forDee()).toHaveLength(0);
    // Its derivatives are done (this file runs no worker: as the job does, then its signal).
    await t.database.executeSql(`update photos set status = 'ready' where id = $1`, [photo.id]);
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: event.id });
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: event.id });
    const rows = await forDee();
    expect(rows).toHaveLength(1);
    await deliverAll(rows);
    expect(smtp.messages.map((m) => m.to)).toEqual([['dee@example.com']]);
    expect(smtp.messages[0]!.text).toMatch(/^Subject: \[photo_ready\] for dee@example\.com\r$/m);
  });

  it('a photo still processing notifies nobody until it is ready', async () => {
    const bob = await newAttendee('bob@example.com');
    const photo = await insertReadyPhoto(t, event);
    await t.database.executeSql(`update photos set status = 'processing' where id = $1`, [
      photo.id,
    ]);
    await t.ok(
      endpoints.ownerAttachPhotos,
      { event_id: event.id, attendee_uid: bob.uid, photo_uid_array: [photo.uid] },
      as(world.adminA),
    );
    const forBob = async () =>
      (await topicRows('photo_ready')).filter((r) => r.recipient === 'bob@example.com');
    expect(await forBob()).toHaveLength(0);
    await t.database.executeSql(`update photos set status = 'ready' where id = $1`, [photo.id]);
    await t.app.container.bus.emit('photo.ready', { photoId: photo.id, eventId: event.id });
    expect(await forBob()).toHaveLength(1);
  });

  it('album_unlocked, payment_receipt and print_ready follow their facts, once each', async () => {
    const cy = await newAttendee('cy@example.com');
    const bus = t.app.container.bus;
    await bus.emit('attendee.unlocked', { attendeeId: cy.id, eventId: event.id });
    await bus.emit('attendee.unlocked', { attendeeId: cy.id, eventId: event.id });

    const [order] = (
      await t.database.executeSql(
        `insert into orders (event_id, attendee_id, pricing_button_index, button_text, items, amount,
           currency, status, client_request_id)
         values ($1, $2, 0, 'All photos', '"all"', 500, 'USD', 'paid', 'req-1') returning id`,
        [event.id, cy.id],
      )
    ).rows as { id: number }[];
    const [payment] = (
      await t.database.executeSql(
        `insert into payments (public_id, order_id, provider, status, amount, currency, client_request_id)
         values ('pay_n1', $1, 'test', 'paid', 500, 'USD', 'req-1') returning id`,
        [order!.id],
      )
    ).rows as { id: number }[];
    await bus.emit('payment.confirmed', { paymentId: payment!.id, eventId: event.id });
    await bus.emit('payment.confirmed', { paymentId: payment!.id, eventId: event.id });

    const [request] = (
      await t.database.executeSql(
        `insert into print_requests (event_id, attendee_id, photo_uids, copies, source, status)
         values ($1, $2, '[]', 1, 'owner', 'queued') returning id`,
        [event.id, cy.id],
      )
    ).rows as { id: number }[];
    // A request printed on two sheets: two jobs, one message when they finish.
    const jobs = (
      await t.database.executeSql(
        `insert into print_jobs (event_id, pool, photo_ids, copies, state, source, sheet_index, print_request_id)
         values ($1, 'Default', '[]', 1, 'printed', 'unlock', 0, $2),
                ($1, 'Default', '[]', 1, 'printed', 'unlock', 1, $2) returning id`,
        [event.id, request!.id],
      )
    ).rows as { id: number }[];
    for (const job of jobs)
      await bus.emit('print.finished', { printJobId: job.id, eventId: event.id });
    await bus.emit('print.finished', { printJobId: jobs[0]!.id, eventId: event.id });

    for (const topic of ['album_unlocked', 'payment_receipt', 'print_ready']) {
      const rows = (await topicRows(topic)).filter((r) => r.recipient === 'cy@example.com');
      expect(rows, topic).toHaveLength(1);
      await deliverAll(rows);
    }
    expect(smtp.messages.map((m) => /^Subject: \[(\w+)\]/m.exec(m.text)?.[1]).sort()).toEqual([
      'album_unlocked',
      'payment_receipt',
      'print_ready',
    ]);
  });

  it('attendee_reminder: albums expiring within a day at events with reminders on, once per expiry', async () => {
    const dee = await newAttendee('dee@example.com');
    const later = await newAttendee('later@example.com');
    const now = t.clock.now();
    const setExpiry = (id: number, ms: number) =>
      t.database.executeSql('update attendees set expires_at = $2 where id = $1', [
        id,
        new Date(now.getTime() + ms),
      ]);
    await setExpiry(dee.id, 6 * 3_600_000);
    await setExpiry(later.id, 3 * 86_400_000);
    const reminders = async () => topicRows('attendee_reminder');
    const notifications = t.app.container.services.notifications;

    // Reminders are off for the event: nothing.
    await notifications.sendReminders(now);
    expect(await reminders()).toHaveLength(0);

    await t.database.executeSql(
      `update events set opts = jsonb_set(opts, '{enableAttendeeReminder}', '1') where id = $1`,
      [event.id],
    );
    await notifications.sendReminders(now);
    await notifications.sendReminders(now);
    expect((await reminders()).map((r) => r.recipient)).toEqual(['dee@example.com']);

    // Two days on, `later` is within a day of expiry: reminded; dee (expired) not again.
    await notifications.sendReminders(new Date(now.getTime() + 2.5 * 86_400_000));
    expect((await reminders()).map((r) => r.recipient)).toEqual([
      'dee@example.com',
      'later@example.com',
    ]);
    await deliverAll(await reminders());
    expect(smtp.messages.map((m) => m.to[0]).sort()).toEqual([
      'dee@example.com',
      'later@example.com',
    ]);
  });

  it('every topic goes out as SMS through the Twilio double, once, with the opt-out link', async () => {
    const notifications = t.app.container.services.notifications;
    for (const topic of TOPICS) {
      for (let i = 0; i < 2; i++)
        await notifications.notify({
          eventId: event.id,
          topicKey: topic,
          factKey: 'sms-fact-1',
          recipient: { phone: '+1 (212) 555-0199', name: 'Eve' },
          values: { url: `${PUBLIC_URL}/?attId=E1` },
        });
    }
    const sms = (await outboxRows()).filter((r) => r.channel === 'sms');
    expect(sms.map((r) => r.kind).sort()).toEqual(TOPICS.map((k) => `topic.${k}`).sort());
    await deliverAll(sms);
    expect(twilio.received).toHaveLength(TOPICS.length);
    for (const request of twilio.received) {
      expect(request.form.To).toMatch(/2125550199$/);
      expect(request.form.Body).toMatch(
        new RegExp(
          `^\\w+ Eve ${PUBLIC_URL}/\\?attId=E1\\nStop: ${PUBLIC_URL}/api/unsubscribe\\?token=`,
        ),
      );
    }
    expect(new Set(twilio.received.map((r) => r.form.Body?.split(' ')[0]))).toEqual(
      new Set(TOPICS),
    );
  });

  it('a topic without channels, or an unknown topic, sends nothing', async () => {
    const before = (await outboxRows()).length;
    const answer = await t.app.container.services.notifications.notify({
      eventId: event.id,
      topicKey: 'no_such_topic',
      factKey: 'x',
      recipient: { email: 'zed@example.com' },
    });
    expect(answer).toEqual({ mail: 'no_topic', sms: 'no_topic' });
    expect(await outboxRows()).toHaveLength(before);
  });
});

describe('the album e-mail (email_body_template)', () => {
  it('renders the event subject and template with {user_name} and {image_url}, escaped, once per key', async () => {
    await t.database.executeSql(
      `update events set email_subject = 'Your <Gala> photos',
         email_body_template = 'Dear {user_name}, open {image_url} <img src=x onerror=alert(1)>'
       where id = $1`,
      [event.id],
    );
    const row = (await t.app.container.repositories.events.findById(event.id))!.row;
    const albumMail = t.app.container.services.albumMail;
    const url = `${PUBLIC_URL}/?attId=AAAA-BBBB`;
    for (let i = 0; i < 2; i++)
      await albumMail.send(row, { email: 'ida@example.com', name: 'Ida <i>' }, url, {
        onceKey: 'kiosk-1',
      });
    const rows = (await outboxRows()).filter((r) => r.kind === 'album_link');
    expect(rows).toHaveLength(1);
    await deliverAll(rows);
    const mail = smtp.messages[0]!;
    expect(mail.text).toMatch(/^Subject: Your <Gala> photos\r$/m);
    const htmlPart = mail.text.slice(mail.text.indexOf('Content-Type: text/html'));
    expect(htmlPart).toContain(`Dear Ida &lt;i&gt;, open <a href="${url}">${url}</a>`);
    expect(htmlPart).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(htmlPart).not.toMatch(/<img/);
  });
});

describe('the Outbox page calls', () => {
  it('lists the event’s messages with topic, status, attempts and provider answer; resend makes a new one', async () => {
    const listed = await t.ok(endpoints.outboxList, { event_id: event.id }, as(world.adminA));
    expect(listed.topic_keys).toEqual([...TOPICS]);
    const photoMail = listed.messages.find(
      (m) => m.topic === 'photo_ready' && m.recipient === 'ann@example.com',
    );
    expect(photoMail).toMatchObject({
      channel: 'mail',
      kind: 'topic.photo_ready',
      status: 'sent',
      attempts: 1,
      provider: 'smtp',
      last_error: null,
      subject: '[photo_ready] for ann@example.com',
    });
    // The value reads as written; zero-width spaces keep mail clients from linking it.
    expect(photoMail!.text).not.toContain('ann@example.com,');
    expect(photoMail!.text.replace(/\u200B/g, '')).toContain('Hello ann@example.com');
    // Newest first; filters by channel.
    const ids = listed.messages.map((m) => m.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const sms = await t.ok(
      endpoints.outboxList,
      { event_id: event.id, channel: 'sms' },
      as(world.adminA),
    );
    expect(sms.messages.length).toBeGreaterThan(0);
    expect(sms.messages.every((m) => m.channel === 'sms')).toBe(true);

    const resent = await t.ok(
      endpoints.outboxResend,
      { event_id: event.id, message_id: photoMail!.id },
      as(world.adminA),
    );
    expect(resent.message).toMatchObject({
      recipient: 'ann@example.com',
      status: 'queued',
      attempts: 0,
      subject: photoMail!.subject,
    });
    expect(resent.message.id).toBeGreaterThan(photoMail!.id);
    await t.app.container.services.outbox.deliver(resent.message.id);
    expect(smtp.messages.map((m) => m.to[0])).toEqual(['ann@example.com']);

    // Another organisation's admin sees no such event; a message of another event is not found.
    const other = await t.call(endpoints.outboxList, { event_id: event.id }, as(world.adminB));
    expect(other.statusCode).toBe(404);
    const otherEvent = await createEvent(t, world.adminA, { full_name: 'Other' });
    const wrong = await t.call(
      endpoints.outboxResend,
      { event_id: otherEvent.id, message_id: photoMail!.id },
      as(world.adminA),
    );
    expect(wrong.statusCode).toBe(404);
  });
});

describe('unsubscribe', () => {
  const unsubscribeUrlOf = (row: OutboxRow) => {
    const headers = (row.content as { headers?: Record<string, string> }).headers ?? {};
    const url = /^<(.+)>$/.exec(headers['List-Unsubscribe'] ?? '')?.[1];
    expect(url).toBeDefined();
    return new URL(url!);
  };

  it('the link page asks first; a one-click POST stops marketing topics but not receipts', async () => {
    const notifications = t.app.container.services.notifications;
    const notify = (topicKey: string, factKey: string) =>
      notifications.notify({
        eventId: event.id,
        topicKey,
        factKey,
        recipient: { email: 'Fay@Example.com' },
      });
    await notify('album_unlocked', 'u-1');
    const [first] = (await topicRows('album_unlocked')).filter(
      (r) => r.recipient === 'Fay@Example.com',
    );
    const link = unsubscribeUrlOf(first!);
    expect(link.origin + link.pathname).toBe(`${PUBLIC_URL}/api/unsubscribe`);

    // Opening the link (a mail scanner does) changes nothing.
    const page = await t.app.inject({ method: 'GET', url: `${link.pathname}${link.search}` });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Gala &lt;b&gt;2026&lt;/b&gt;');
    expect(page.body).toContain('<form method="post"');
    expect(await notify('album_unlocked', 'u-2')).toMatchObject({ mail: 'queued' });

    // RFC 8058 one-click: a form POST to the header's URL.
    const click = await t.app.inject({
      method: 'POST',
      url: `${link.pathname}${link.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(click.statusCode).toBe(200);
    expect(click.body).toContain('You are unsubscribed');

    // The address in any case: no further marketing messages from this event.
    expect(await notify('album_unlocked', 'u-3')).toMatchObject({ mail: 'unsubscribed' });
    expect(
      await notifications.notify({
        eventId: event.id,
        topicKey: 'photo_ready',
        factKey: 'p-9',
        recipient: { email: 'fay@example.com' },
      }),
    ).toMatchObject({ mail: 'unsubscribed' });
    // A receipt is part of a purchase: still sent.
    expect(await notify('payment_receipt', 'pay-9')).toMatchObject({ mail: 'queued' });
    // A second unsubscribe is fine.
    const again = await t.app.inject({ method: 'POST', url: `${link.pathname}${link.search}` });
    expect(again.statusCode).toBe(200);
  });

  it('a tampered or foreign token is refused with a page and records nothing', async () => {
    const notifications = t.app.container.services.notifications;
    const token = notifications.unsubscribeToken(event.id, 'mail', 'gus@example.com');
    const [eventPart, channel, , mac] = token.split('.');
    const forged = `${eventPart}.${channel}.${Buffer.from('hal@example.com').toString('base64url')}.${mac}`;
    for (const bad of [forged, 'nonsense', `${token}x`, '']) {
      const reply = await t.app.inject({
        method: 'POST',
        url: `/api/unsubscribe?token=${encodeURIComponent(bad)}`,
      });
      expect(reply.statusCode, bad).toBe(400);
      expect(reply.body).toContain('not valid');
    }
    const { rows } = await t.database.executeSql(
      `select recipient from unsubscribes where recipient in ('gus@example.com', 'hal@example.com')`,
      [],
    );
    expect(rows).toHaveLength(0);
  });
});

describe('escaping: an XSS corpus in every template field never executes (Chromium)', () => {
  const CORPUS = [
    '<script>window.__xss=1</script>',
    '<img src=x onerror="window.__xss=1">',
    '"><svg onload=window.__xss=1>',
    '\'><iframe srcdoc="<script>parent.__xss=1</script>">',
    'javascript:window.__xss=1',
    'https://ok.example/"><script>window.__xss=1</script>',
    '<a href="javascript:window.__xss=1">x</a>',
    '{user_name}<style>body{display:none}</style>',
  ];
  let browser: Browser;
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser.close();
  });

  it('subject, body, user name, link values and the event title render as text', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
    for (const payload of CORPUS) {
      const mail = renderMail(
        `${payload} {user_name}`,
        `Hi {user_name}\n${payload}\n{url}\n{image_url}`,
        { user_name: payload, url: payload, image_url: `https://x.example/?q=${payload}` },
        { eventTitle: payload, unsubscribeUrl: `https://photos.example/u?t=${payload}` },
      );
      await page.setContent(mail.html, { waitUntil: 'load' });
      expect(await page.evaluate<unknown>('window.__xss'), payload).toBeUndefined();
      // No element but the frame's own: document, layout tables, the title mark, br, a, p.
      // (Expressions as strings: the server project's types have no DOM.)
      const tags = await page.evaluate<string[]>(
        "[...new Set([...document.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()))]",
      );
      expect(
        tags.filter(
          (tag) =>
            ![
              ...['html', 'head', 'meta', 'title', 'body', 'table', 'tbody', 'tr', 'td'],
              ...['span', 'div', 'br', 'a', 'p'],
            ].includes(tag),
        ),
        payload,
      ).toEqual([]);
      // Every link is http(s).
      const hrefs = await page.evaluate<string[]>('[...document.links].map((a) => a.protocol)');
      expect(
        hrefs.every((p) => p === 'https:' || p === 'http:'),
        payload,
      ).toBe(true);
      // The text shows the payload as written.
      expect(await page.evaluate<string>('document.body.innerText')).toContain(
        payload.slice(0, 12),
      );
      expect(mail.subject).not.toMatch(/[\r\n]/);
    }
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('an HTML template (the product default) keeps its formatting; values and other tags stay text', async () => {
    const mail = renderMail(
      'Hi',
      '<p>Hi {user_name},</p><p>your photo is ready: <a href="{image_url}">{image_url}</a></p><script>window.__xss=1</script><a href="{url}">bad</a>',
      {
        user_name: '<b>Ann</b>',
        image_url: 'https://photos.example/?attId=A1',
        url: 'javascript:window.__xss=1',
      },
      { eventTitle: 'E', unsubscribeUrl: null },
    );
    expect(mail.html).toContain(
      '<p>Hi &lt;b&gt;Ann&lt;/b&gt;,</p><p>your photo is ready: <a href="https://photos.example/?attId=A1">https://photos.example/?attId=A1</a></p>',
    );
    expect(mail.html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;<a>bad</a>');
    expect(mail.text).toBe(
      'Hi <b>Ann</b>,\nyour photo is ready: https://photos.example/?attId=A1\n<script>window.__xss=1</script>bad',
    );
    const page = await browser.newPage();
    await page.setContent(mail.html, { waitUntil: 'load' });
    expect(await page.evaluate<unknown>('window.__xss')).toBeUndefined();
    expect(await page.evaluate<string[]>('[...document.links].map((a) => a.href)')).toEqual([
      'https://photos.example/?attId=A1',
    ]);
    await page.close();
  });

  it('a subject cannot inject headers; an SMS keeps its opt-out link whatever the length', () => {
    const mail = renderMail(
      'Hi\r\nBcc: evil@example.com',
      'x',
      {},
      {
        eventTitle: 'E',
        unsubscribeUrl: null,
      },
    );
    expect(mail.subject).toBe('Hi Bcc: evil@example.com');
    const sms = renderSms('x'.repeat(5000), {}, 'https://photos.example/api/unsubscribe?token=t');
    expect(sms.length).toBeLessThanOrEqual(1600);
    expect(sms.endsWith('\nStop: https://photos.example/api/unsubscribe?token=t')).toBe(true);
  });
});
