import { endpoints, type BodyOf, type FlashbulbEvent, type Photo } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import {
  completeUpload,
  insertReadyPhoto,
  makeJpeg,
  uploadPhoto,
  waitForReady,
  type UploadAuth,
} from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let t: TestApp;
let admin: { authorization: string };
let event: FlashbulbEvent;
let leadsEvent: FlashbulbEvent;
let noSmsEvent: FlashbulbEvent;
let p1: Photo;
let p2: Photo;
let hiddenPhoto: Photo;
let leadsPhoto: Photo;
let noSmsPhoto: Photo;

const SHARE_TEMPLATE =
  '<p>Hi {user_name}, {sender_name_or_email} shared photos: <a href="{image_url}">{image_url}</a></p>';

const robotFor = async (organisationId: number, name: string) => {
  const created = await t.ok(
    endpoints.createRobot,
    { organisation_id: organisationId, name },
    admin,
  );
  return { auth: { key_type: 'robot', key_value: created.api_key } as UploadAuth, id: created.id };
};
const upload = async (robot: UploadAuth, e: FlashbulbEvent, seed: number) => {
  const photo = await uploadPhoto(t, robot, e.name, await makeJpeg({ seed }));
  return waitForReady(t, admin.authorization, e.id, photo.id);
};

type SendBody = BodyOf<typeof endpoints.sendMiniAlbumLink>;
const send = (e: FlashbulbEvent, body: Partial<SendBody>) =>
  t.call(endpoints.sendMiniAlbumLink, {
    key_type: 'public',
    key_value: e.public_api_key,
    photo_uid_array: [p1.uid],
    receiver_full_name: 'Ann',
    ...body,
  });

const stored = async () => {
  const { rows } = await t.database.executeSql('select count(*)::int as n from mini_albums', []);
  return {
    albums: Number(rows[0]?.n),
    mails: (await t.app.container.repositories.outbox.list(1000, 'mail')).length,
    sms: (await t.app.container.repositories.outbox.list(1000, 'sms')).length,
  };
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  const r1 = await robotFor(world.orgA.id, 'One');
  const r2 = await robotFor(world.orgA.id, 'Two');
  const r3 = await robotFor(world.orgA.id, 'Three');
  event = await createEvent(t, world.adminA, {
    full_name: 'Summer Gala',
    robot_id_array: [r1.id],
    email_subject: 'Your photos from the gala',
    email_from_name: 'Gala Team',
    email_body_template_share: SHARE_TEMPLATE,
    is_sms_enabled: 1,
    sms_body_template: 'Hi {user_name}, your photos: {image_url}',
  });
  leadsEvent = await createEvent(t, world.adminA, {
    full_name: 'Leads',
    robot_id_array: [r2.id],
    collect_leads: 1,
  });
  noSmsEvent = await createEvent(t, world.adminA, { full_name: 'No SMS', robot_id_array: [r3.id] });
  p1 = await upload(r1.auth, event, 1);
  p2 = await upload(r1.auth, event, 2);
  hiddenPhoto = await upload(r1.auth, event, 3);
  await t.ok(endpoints.updatePhoto, { id: hiddenPhoto.id, is_visible: 0 }, admin);
  leadsPhoto = await upload(r2.auth, leadsEvent, 4);
  noSmsPhoto = await upload(r3.auth, noSmsEvent, 5);
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('event/mini-album/send-link', () => {
  it('e-mails the link over SMTP with the event’s template, escaped, and queues the SMS', async () => {
    const response = await send(event, {
      email_to_address_array: ['guest@example.com'],
      photo_uid_array: [p2.uid, p1.uid],
      receiver_full_name: 'Ann <b>&',
      sms_number: '(212) 555-0199',
    });
    expect(response.body.status).toBe('ok');
    if (response.body.status !== 'ok') return;
    const { url, emailed_addresses, sms_count } = response.body.result;
    expect(url).toMatch(new RegExp(`^${t.config.publicUrl}/\\?mId=[A-Za-z0-9_-]{32}$`));
    expect(emailed_addresses).toEqual(['guest@example.com']);
    expect(sms_count).toBe(1);

    const mail = await smtp.waitFor((m) => m.to.includes('guest@example.com'));
    expect(mail.text).toContain('Subject: Your photos from the gala');
    expect(mail.text).toContain(`<a href="${url}">${url}</a>`);
    expect(mail.text).toContain('Hi Ann &lt;b&gt;&amp;, Gala Team shared photos');
    // Escaped in the HTML part; the plain part shows the name as written.
    const html = mail.text.slice(mail.text.indexOf('Content-Type: text/html'));
    expect(html).not.toContain('Hi Ann <b>&,');
    expect(mail.text.slice(0, mail.text.indexOf('Content-Type: text/html'))).toContain(
      'Hi Ann <b>&, Gala Team shared photos',
    );
    // The event's from address is not verified: the platform sender.
    expect(mail.from).toBe('no-reply@flashbulb.local');

    const [sms] = await t.app.container.repositories.outbox.list(1, 'sms');
    expect(sms).toMatchObject({
      channel: 'sms',
      eventId: event.id,
      recipient: '2125550199',
      status: 'outbox',
      content: { body: `Hi Ann <b>&, your photos: ${url}` },
      kind: 'mini_album_link',
    });

    const token = new URL(url).searchParams.get('mId')!;
    const album = await t.ok(endpoints.retrieveMiniAlbum, { token });
    expect(album.event).toMatchObject({ id: event.id, name: event.name, full_name: 'Summer Gala' });
    expect(album.photos.map((p) => p.uid)).toEqual([p2.uid, p1.uid]);
    expect(album.photos[0]?.urls.original).toBeNull();
  });

  it('names a clip a video: its poster in the mail (never the clip), its share page linked, in the mail over SMTP and the SMS', async () => {
    const row = await insertReadyPhoto(t, event);
    const folder = row.storageKey.slice(0, row.storageKey.lastIndexOf('/') + 1);
    await t.app.container.repositories.photos.update(row.id, {
      mediaType: 'video',
      contentType: 'video/mp4',
      storageKey: `${folder}original.mp4`,
      durationMs: 6400,
      derivatives: {
        preview: `${folder}preview.jpg`,
        thumbnail: `${folder}thumbnail.jpg`,
        video: `${folder}video.mp4`,
      },
    });
    const response = await send(event, {
      photo_uid_array: [row.uid],
      email_to_address_array: ['clip@example.com'],
      receiver_full_name: 'Cleo',
      sms_number: '(212) 555-0142',
    });
    expect(response.body.status).toBe('ok');
    const sharePage = `${t.config.publicUrl}/share/${row.uid}`;

    const mail = await smtp.waitFor((m) => m.to.includes('clip@example.com'));
    const split = mail.text.indexOf('Content-Type: text/html');
    const text = mail.text.slice(0, split);
    // Quoted-printable decoded (soft line breaks, =XX bytes as UTF-8).
    const html = Buffer.from(
      mail.text
        .slice(split)
        .replace(/=\r?\n/g, '')
        .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))),
      'latin1',
    ).toString('utf8');
    // Said to be a video, with its length, in both parts; the clip's own page is linked.
    expect(text).toContain(`Video (0:06): ${sharePage}`);
    expect(html).toContain('A video from Summer Gala');
    expect(html).toContain('Watch the video');
    expect(html).toContain(`<a href="${sharePage}"><img src="`);
    expect(html).toContain('alt="Video, 0:06"');
    expect(html).toContain('▶ Video · 0:06');
    // The picture is the poster's thumbnail: never the clip or its original.
    const images = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]!);
    expect(images).toContain(t.app.container.storage.publicUrl(`${folder}thumbnail.jpg`));
    expect(images.some((src) => /\.mp4|original/.test(src))).toBe(false);

    const sms = (await t.app.container.repositories.outbox.list(50, 'sms')).find(
      (m) => m.recipient === '2125550142',
    );
    expect(String(sms?.content.body)).toContain(`Video (0:06): ${sharePage}`);
  });

  it('sends a photo before it is ready by its instant code, mail and SMS at once; the album shows it developing, then the photo', async () => {
    const owner: UploadAuth = { key_type: 'event_owner', key_value: event.owner_api_key };
    const grant = await t.ok(endpoints.photoUploadAccess, {
      key_type: 'event_owner',
      key_value: event.owner_api_key,
      event_name: event.name,
      file_name: 'booth.jpg',
      content_type: 'image/jpeg',
    });
    // An unknown code, or one of another event, sends nothing.
    const before = await stored();
    for (const codes of [['ZZZZZZ'], [grant.instant_code!, 'ZZZZZZ']])
      expect(
        errorOf(
          await send(event, {
            email_to_address_array: ['early@example.com'],
            photo_uid_array: [],
            instant_code_array: codes,
          }),
        ),
      ).toMatchObject({ status: 404, message_key: 'not_found', field: 'instant_code_array' });
    expect(
      errorOf(
        await send(noSmsEvent, {
          email_to_address_array: ['early@example.com'],
          photo_uid_array: [],
          instant_code_array: [grant.instant_code!],
        }),
      ),
    ).toMatchObject({ status: 404, field: 'instant_code_array' });
    expect(await stored()).toEqual(before);

    const sent = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      email_to_address_array: ['early@example.com'],
      sms_number: '(212) 555-0142',
      photo_uid_array: [],
      instant_code_array: [grant.instant_code!.toLowerCase()],
      receiver_full_name: 'Early',
    });
    expect(sent).toMatchObject({ emailed_addresses: ['early@example.com'], sms_count: 1 });
    const mail = await smtp.waitFor((m) => m.to.includes('early@example.com'));
    expect(mail.text).toContain(sent.url);
    const token = new URL(sent.url).searchParams.get('mId')!;
    expect(await t.ok(endpoints.retrieveMiniAlbum, { token })).toMatchObject({
      photos: [],
      developing: [{ code: grant.instant_code, url: grant.instant_url }],
    });

    // The booth uploads after the message went out.
    const form = multipartBody(
      grantForm(grant.fields, await makeJpeg({ seed: 78 }), {
        filename: 'booth.jpg',
        contentType: 'image/jpeg',
      }),
    );
    const posted = await t.app.inject({
      method: 'POST',
      url: new URL(grant.url).pathname,
      payload: form.payload,
      headers: form.headers,
    });
    expect(posted.statusCode).toBe(201);
    const done = await completeUpload(t, owner, grant.key);
    const photo = (done.body as { result: Photo }).result;
    await waitForReady(t, admin.authorization, event.id, photo.id);
    const album = await t.ok(endpoints.retrieveMiniAlbum, { token });
    expect(album.photos.map((p) => p.uid)).toEqual([photo.uid]);
    expect(album.developing).toEqual([]);
  });

  it('sends from the event’s address once it is verified', async () => {
    await t.app.container.repositories.events.markFromAddressVerified(
      event.id,
      event.email_from_address,
    );
    await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'private',
      key_value: event.private_api_key,
      email_to_address_array: ['verified@example.com'],
      photo_uid_array: [p1.uid],
      receiver_full_name: 'Bo',
    });
    const mail = await smtp.waitFor((m) => m.to.includes('verified@example.com'));
    expect(mail.from).toBe(event.email_from_address);
  });

  it('skips a bad entry of a several-address list (albums §5 literally) and reports it', async () => {
    const response = await send(event, {
      email_to_address_array: ['list1@example.com, not-an-email', 'list2@example.com'],
    });
    expect(response.body.status).toBe('ok');
    if (response.body.status !== 'ok') return;
    expect(response.body.result.emailed_addresses).toEqual([
      'list1@example.com',
      'list2@example.com',
    ]);
    expect(response.body.result.rejected_addresses).toEqual(['not-an-email']);
    expect(response.body.result.sms_count).toBe(0);
    await smtp.waitFor((m) => m.to.includes('list2@example.com'));
  });

  it('works on the owner path with event_id', async () => {
    const result = await t.ok(
      endpoints.sendMiniAlbumLink,
      {
        event_id: event.id,
        email_to_address_array: ['owner-sent@example.com'],
        photo_uid_array: [p1.uid],
        receiver_full_name: 'Cy',
      },
      admin,
    );
    expect(result.url).toContain('?mId=');
  });

  it('sends with consent where the event collects leads', async () => {
    const result = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: leadsEvent.public_api_key,
      email_to_address_array: ['lead@example.com'],
      photo_uid_array: [leadsPhoto.uid],
      receiver_full_name: 'Dee',
      receiver_consent: 1,
    });
    expect(result.emailed_addresses).toEqual(['lead@example.com']);
  });

  const refusals: [string, () => Promise<{ statusCode: number; body: unknown }>, object][] = [
    [
      'a single invalid address',
      () => send(event, { email_to_address_array: ['not-an-email'] }),
      { status: 400, message_key: 'email_invalid', field: 'email_to_address_array' },
    ],
    [
      'no e-mail and no phone',
      () => send(event, { email_to_address_array: [] }),
      { status: 400, message_key: 'recipient_required' },
    ],
    [
      'only invalid addresses in a list and no phone',
      () => send(event, { email_to_address_array: ['x, y'] }),
      { status: 400, message_key: 'recipient_required' },
    ],
    [
      'an invalid SMS number',
      () => send(event, { email_to_address_array: ['a@example.com'], sms_number: '12-34' }),
      { status: 400, message_key: 'phone_invalid', field: 'sms_number' },
    ],
    [
      'an invalid contact phone',
      () =>
        send(event, { email_to_address_array: ['a@example.com'], contact_phone_number: 'call me' }),
      { status: 400, message_key: 'phone_invalid', field: 'contact_phone_number' },
    ],
    [
      'no photos',
      () => send(event, { email_to_address_array: ['a@example.com'], photo_uid_array: [] }),
      { status: 400, message_key: 'photos_required', field: 'photo_uid_array' },
    ],
    [
      'a hidden photo',
      () =>
        send(event, {
          email_to_address_array: ['a@example.com'],
          photo_uid_array: [hiddenPhoto.uid],
        }),
      { status: 404, message_key: 'not_found', field: 'photo_uid_array' },
    ],
    [
      'another event’s photo',
      () =>
        send(event, {
          email_to_address_array: ['a@example.com'],
          photo_uid_array: [p1.uid, noSmsPhoto.uid],
        }),
      { status: 404, message_key: 'not_found', field: 'photo_uid_array' },
    ],
    [
      'no consent where the event collects leads',
      () =>
        send(leadsEvent, {
          email_to_address_array: ['a@example.com'],
          photo_uid_array: [leadsPhoto.uid],
          receiver_consent: 0,
        }),
      { status: 400, message_key: 'consent_required', field: 'receiver_consent' },
    ],
    [
      'SMS only, on an event without SMS',
      () =>
        send(noSmsEvent, {
          sms_number: '212-555-0199',
          photo_uid_array: [noSmsPhoto.uid],
        }),
      { status: 400, message_key: 'sms_not_enabled', field: 'sms_number' },
    ],
    [
      'a wrong key',
      () =>
        t.call(endpoints.sendMiniAlbumLink, {
          key_type: 'public',
          key_value: 'nope',
          email_to_address_array: ['a@example.com'],
          photo_uid_array: [p1.uid],
        }),
      { status: 401, message_key: 'unauthorized_user' },
    ],
    [
      'neither key nor owner',
      () =>
        t.call(endpoints.sendMiniAlbumLink, {
          email_to_address_array: ['a@example.com'],
          photo_uid_array: [p1.uid],
        }),
      { status: 401, message_key: 'unauthorized_user' },
    ],
  ];
  it.each(refusals)('refuses %s and stores and sends nothing', async (_name, call, expected) => {
    // Earlier sends are delivered by a job: let them arrive before counting.
    await expect
      .poll(
        async () =>
          (await t.app.container.repositories.outbox.list(1000, 'mail')).filter(
            (m) => m.status === 'queued' || m.status === 'sending',
          ).length,
        { timeout: 15_000 },
      )
      .toBe(0);
    const before = await stored();
    const mailsBefore = smtp.messages.length;
    const response = await call();
    expect(errorOf(response)).toMatchObject(expected);
    expect(await stored()).toEqual(before);
    await new Promise((r) => setTimeout(r, 300));
    expect(smtp.messages.length).toBe(mailsBefore);
  });
});

describe('mini-album/retrieve', () => {
  it('answers not_found for an unknown token', async () => {
    const response = await t.call(endpoints.retrieveMiniAlbum, { token: 'nope' });
    expect(errorOf(response)).toMatchObject({ status: 404, message_key: 'not_found' });
  });

  it('leaves out a photo hidden after the album was made', async () => {
    const result = await t.ok(endpoints.sendMiniAlbumLink, {
      key_type: 'public',
      key_value: event.public_api_key,
      email_to_address_array: ['later@example.com'],
      photo_uid_array: [p1.uid, p2.uid],
      receiver_full_name: 'Ed',
    });
    await t.ok(endpoints.updatePhoto, { id: p2.id, is_visible: 0 }, admin);
    const token = new URL(result.url).searchParams.get('mId')!;
    const album = await t.ok(endpoints.retrieveMiniAlbum, { token });
    expect(album.photos.map((p) => p.uid)).toEqual([p1.uid]);
    await t.ok(endpoints.updatePhoto, { id: p2.id, is_visible: 1 }, admin);
  });
});
