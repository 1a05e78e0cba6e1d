import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { makeJpeg, waitForReady } from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { grantForm, multipartBody } from '../helpers/storage.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * One photo in many attendee albums: an upload naming a list of attendees (a group photo), and the
 * same bytes sent again for another attendee, which attaches the photo that exists instead of
 * dropping the upload as a duplicate. Albums, counts and the `photo_ready` mail of every attendee.
 */

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let admin: { authorization: string };
let event: FlashbulbEvent;

const ownerKey = () => ({ key_type: 'event_owner' as const, key_value: event.owner_api_key });

/** The event mails `photo_ready` to the attendee: the subject names the photo's attendee. */
const notificationData = {
  channels: [
    {
      id: 'mailready1',
      name: 'ready mail',
      type: 'email' as const,
      subject: 'New photo for {user_name}',
      body: 'Hello {user_name}, see {url}',
    },
  ],
  topics: [
    {
      id: 'topic-ready',
      key: 'photo_ready',
      emailChannel: {
        id: 'mailready1',
        name: 'ready mail',
        type: 'email' as const,
        subject: '',
        body: '',
      },
      smsChannel: null,
    },
  ],
  smsSettings: { from: '' },
};

const attendee = async (email: string) => {
  const { attendees } = await t.ok(
    endpoints.generateAttendeeList,
    { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email },
    admin,
  );
  return attendees[0]!;
};

/** Grant (naming these attendees) → storage POST → completion. */
const upload = async (bytes: Buffer, attendeeUid: string | string[]) => {
  const grant = await t.ok(endpoints.photoUploadAccess, {
    ...ownerKey(),
    event_name: event.name,
    file_name: 'group.jpg',
    content_type: 'image/jpeg',
    attendee_uid: attendeeUid,
  });
  const form = multipartBody(
    grantForm(grant.fields, bytes, { filename: 'group.jpg', contentType: 'image/jpeg' }),
  );
  const stored = await t.app.inject({
    method: 'POST',
    url: new URL(grant.url).pathname,
    payload: form.payload,
    headers: form.headers,
  });
  expect(stored.statusCode).toBe(201);
  const photo = await t.ok(endpoints.photoUploadComplete, { ...ownerKey(), key: grant.key });
  return { photo, key: grant.key };
};

const album = async (uid: string) =>
  (
    await t.ok(endpoints.publicPhotoList, {
      key_type: 'attendee',
      key_value: uid,
      max_size: 100,
      page_number: 1,
    })
  ).photos.map((p) => p.uid);
const photoCountOf = async (uid: string) =>
  (await t.ok(endpoints.retrieveAttendee, { key_type: 'attendee', key_value: uid })).photo_count;
const readyMailsTo = async (email: string) =>
  (await t.app.container.repositories.outbox.list(500)).filter(
    (r) => r.kind === 'topic.photo_ready' && r.recipient === email,
  );
/** The photo_ready mail delivered over SMTP (not the generated list's mail to the same address). */
const readyMail = (email: string) =>
  smtp.waitFor((m) => m.to.includes(email) && /^Subject: New photo for /m.test(m.text));
const count = async (query: string, params: unknown[]) =>
  Number(
    ((await t.database.executeSql(query, params)).rows[0] as { n: number | string } | undefined)
      ?.n ?? 0,
  );

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  const world = await createEventWorld(t);
  admin = await apiKeyAuth(t, world.adminA);
  event = await createEvent(t, world.adminA, {
    full_name: 'Group Gala',
    notification_data: notificationData,
  });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

describe('one photo in many attendee albums', () => {
  it('a group photo uploaded for two attendees is in both albums, and each is told once', async () => {
    const ann = await attendee('ann@example.com');
    const bob = await attendee('bob@example.com');
    const bytes = await makeJpeg({ seed: 4100, width: 64, height: 48 });
    // The list takes ids as printed (dashes, any case).
    const { photo } = await upload(bytes, [ann.uid, bob.display_uid.toLowerCase()]);
    expect(photo.upload_result).toBe('uploaded');
    // The first id is the photo's own attendee.
    expect(photo.attendee_uid).toBe(ann.uid);
    await waitForReady(t, admin.authorization, event.id, photo.id);

    expect(await album(ann.uid)).toEqual([photo.uid]);
    expect(await album(bob.uid)).toEqual([photo.uid]);
    expect(await photoCountOf(ann.uid)).toBe(1);
    expect(await photoCountOf(bob.uid)).toBe(1);
    // The owner's list counts it in both rows.
    const owners = await t.ok(
      endpoints.attendeeList,
      { event_id: event.id, max_size: 100, page_number: 1 },
      admin,
    );
    const counts = Object.fromEntries(owners.attendees.map((a) => [a.uid, a.photo_count]));
    expect(counts[ann.uid]).toBe(1);
    expect(counts[bob.uid]).toBe(1);
    const byPhotos = await t.ok(endpoints.attendeesByPhotos, { photo_uids: [photo.uid] }, admin);
    expect(byPhotos[0]!.attendee_uids.sort()).toEqual([ann.uid, bob.uid].sort());

    // Both are told of their new photo by the event's photo_ready mail, over SMTP.
    await readyMail('ann@example.com');
    await readyMail('bob@example.com');
    expect(await readyMailsTo('ann@example.com')).toHaveLength(1);
    expect(await readyMailsTo('bob@example.com')).toHaveLength(1);
  });

  it('the same bytes sent again for another attendee attach the photo that exists', async () => {
    const ann = await attendee('ann2@example.com');
    const cy = await attendee('cy@example.com');
    const bytes = await makeJpeg({ seed: 4200, width: 64, height: 48 });
    const first = await upload(bytes, ann.uid);
    await waitForReady(t, admin.authorization, event.id, first.photo.id);
    await readyMail('ann2@example.com');
    const photosBefore = await count('select count(*) as n from photos where event_id = $1', [
      event.id,
    ]);

    const again = await upload(bytes, cy.display_uid);
    expect(again.photo.upload_result).toBe('attached');
    expect(again.photo.id).toBe(first.photo.id);
    // No second photo and no second original: the upload's temporary object is gone.
    expect(await count('select count(*) as n from photos where event_id = $1', [event.id])).toBe(
      photosBefore,
    );
    expect(await t.app.container.storage.head(again.key)).toBeNull();
    const originals: string[] = [];
    for await (const object of t.app.container.storage.list('protected/'))
      if (object.key.includes(`uid_${first.photo.uid}_uid/original.`)) originals.push(object.key);
    expect(originals).toHaveLength(1);

    // Cy has it, Ann keeps it; Cy is told once, Ann not again.
    expect(await album(cy.uid)).toEqual([first.photo.uid]);
    expect(await album(ann.uid)).toEqual([first.photo.uid]);
    expect(await photoCountOf(cy.uid)).toBe(1);
    await readyMail('cy@example.com');
    expect(await readyMailsTo('cy@example.com')).toHaveLength(1);
    expect(await readyMailsTo('ann2@example.com')).toHaveLength(1);

    // Once more for Cy: nothing new, nobody told again.
    const third = await upload(bytes, [cy.uid]);
    expect(third.photo.upload_result).toBe('already_uploaded');
    expect(await readyMailsTo('cy@example.com')).toHaveLength(1);
    expect(await photoCountOf(cy.uid)).toBe(1);
  });

  it('refuses a list with one bad id, or too many, and attaches nothing', async () => {
    const dee = await attendee('dee@example.com');
    const attachedBefore = await count('select count(*) as n from attendee_photos', []);
    const grant = (attendee_uid: string[]) =>
      t.call(endpoints.photoUploadAccess, {
        ...ownerKey(),
        event_name: event.name,
        file_name: 'group.jpg',
        content_type: 'image/jpeg',
        attendee_uid,
      });
    expect(errorOf(await grant([dee.uid, 'a/b']))).toMatchObject({
      status: 404,
      message_key: 'invalid_attendee_id',
      field: 'attendee_uid',
    });
    expect(errorOf(await grant([dee.uid, '']))).toMatchObject({
      message_key: 'invalid_attendee_id',
      field: 'attendee_uid',
    });
    const many = Array.from({ length: 21 }, (_, i) => `GUEST${i}`);
    expect(errorOf(await grant(many))).toMatchObject({
      status: 400,
      message_key: 'too_many_attendees',
    });
    expect(await count('select count(*) as n from attendee_photos', [])).toBe(attachedBefore);
    expect(await album(dee.uid)).toEqual([]);
  });
});
