import { crc32 } from 'node:zlib';
import { ALBUM_DOWNLOAD_MAIL_THRESHOLD, endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { startSmtpPeer } from '../helpers/smtp-peer.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let smtp: Awaited<ReturnType<typeof startSmtpPeer>>;
let free: FlashbulbEvent;
let noDownloads: FlashbulbEvent;
let paid: FlashbulbEvent;
let webOnly: FlashbulbEvent;
let big: FlashbulbEvent;
let admin: { authorization: string };
let otherAdmin: { authorization: string };
const photos: Record<string, { id: number; fileName: string | null }> = {};

/** Reads a zip by its central directory, checking each entry's CRC-32 against its bytes. */
const unzip = (zip: Buffer): Map<string, string> => {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  expect(eocd).toBeGreaterThan(-1);
  const count = zip.readUInt16LE(eocd + 10);
  let at = zip.readUInt32LE(eocd + 16);
  const files = new Map<string, string>();
  for (let i = 0; i < count; i += 1) {
    expect(zip.readUInt32LE(at)).toBe(0x02014b50);
    const crc = zip.readUInt32LE(at + 16);
    const size = zip.readUInt32LE(at + 24);
    const nameLength = zip.readUInt16LE(at + 28);
    const extra = zip.readUInt16LE(at + 30);
    const offset = zip.readUInt32LE(at + 42);
    const name = zip.subarray(at + 46, at + 46 + nameLength).toString('utf8');
    expect(zip.readUInt32LE(offset)).toBe(0x04034b50);
    const start = offset + 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28);
    const body = zip.subarray(start, start + size);
    expect(crc32(body)).toBe(crc);
    files.set(name, body.toString('utf8'));
    at += 46 + nameLength + extra;
  }
  return files;
};

/** A ready photo with distinct original and preview bytes, so the zip shows which one it took. */
const photo = async (label: string, event: FlashbulbEvent, attendee: string | null = null) => {
  const row = await insertReadyPhoto(t, event, attendee);
  const storage = t.app.container.storage;
  await storage.put(row.storageKey, Buffer.from(`original ${label}`), 'image/jpeg');
  const preview = row.storageKey.replace(/original\.jpg$/, 'preview.jpg');
  await storage.put(preview, Buffer.from(`preview ${label}`), 'image/jpeg');
  photos[label] = { id: row.id, fileName: row.fileName };
};

const key = (type: 'public' | 'private' | 'event_owner', event: FlashbulbEvent) => ({
  key_type: type,
  key_value: {
    public: event.public_api_key,
    private: event.private_api_key,
    event_owner: event.owner_api_key,
  }[type],
});

const download = async (url: string) => {
  const reply = await t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
  return reply;
};

const zipOf = async (body: Record<string, unknown>) => {
  const created = await t.ok(endpoints.createAlbumDownload, body as never);
  expect(created.mailed).toBe(0);
  const reply = await download(created.url!);
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toBe('application/zip');
  const files = unzip(reply.rawPayload);
  // The page's progress: the exact length and the number of files, before the first byte.
  expect(Number(reply.headers['content-length'])).toBe(reply.rawPayload.length);
  expect(Number(reply.headers['x-total-entries'])).toBe(files.size);
  return { created, reply, files };
};

beforeAll(async () => {
  smtp = await startSmtpPeer();
  t = await createTestApp({ SMTP_URL: smtp.url });
  const world = await createEventWorld(t);
  admin = { authorization: world.adminA.authorization };
  otherAdmin = { authorization: world.adminB.authorization };
  free = await createEvent(t, world.adminA, { full_name: 'Summer Gala', is_free: 1 });
  noDownloads = await createEvent(t, world.adminA, {
    full_name: 'Quiet Gala',
    is_free: 1,
    opts: { description: 'x', guestDownloadEnabled: 0 },
  });
  paid = await createEvent(t, world.adminA, { full_name: 'Paid Gala', is_free: 0 });
  webOnly = await createEvent(t, world.adminA, {
    full_name: 'Web Gala',
    is_free: 1,
    opts: { description: 'x', guestDownloadWebOnly: 1 },
  });
  big = await createEvent(t, world.adminA, { full_name: 'Big <Gala>', is_free: 1 });
  await photo('a', free);
  await photo('b', free);
  await photo('hidden', free);
  await t.app.container.repositories.photos.update(photos.hidden!.id, { isVisible: 0 });
  await photo('quiet', noDownloads);
  await photo('paid', paid);
  await photo('web', webOnly);
  await photo('big', big);
}, 120_000);
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

describe('album download (zip)', () => {
  it('gives a free event’s public album the web size of a selection when asked, in one zip', async () => {
    const { created, reply, files } = await zipOf({
      ...key('public', free),
      photo_id_array: [photos.a!.id, photos.b!.id],
      size: 'web',
    });
    expect(created.photo_count).toBe(2);
    // The ticket is sealed: the key never appears in the address.
    expect(created.url).not.toContain(free.public_api_key);
    expect(reply.headers['content-disposition']).toContain('filename="Summer Gala.zip"');
    expect([...files.values()].sort()).toEqual(['preview a', 'preview b']);
    expect([...files.keys()].sort()).toEqual([photos.a!.fileName, photos.b!.fileName].sort());
  });

  it('gives originals to the private key of a free event and to the event owner key', async () => {
    const privately = await zipOf({ ...key('private', free), photo_id_array: [photos.a!.id] });
    expect([...privately.files.values()]).toEqual(['original a']);
    const owner = await zipOf({ ...key('event_owner', paid), photo_id_array: [photos.paid!.id] });
    expect([...owner.files.values()]).toEqual(['original paid']);
  });

  it('zips the whole album without a list: visible photos only', async () => {
    const { created, files } = await zipOf({ ...key('public', free), size: 'web' });
    expect(created.photo_count).toBe(2);
    expect([...files.values()].sort()).toEqual(['preview a', 'preview b']);
  });

  it('gives guests of a free event without watermark the originals, under their own names', async () => {
    // Two photos shot with the same name: the second in the album (older) becomes `name (2).jpg`.
    await t.app.container.repositories.photos.update(photos.b!.id, { fileName: 'DSC_0001.JPG' });
    await t.app.container.repositories.photos.update(photos.a!.id, { fileName: 'dsc_0001.jpg' });
    try {
      const { files } = await zipOf({ ...key('public', free) });
      expect(Object.fromEntries(files)).toEqual({
        'DSC_0001.JPG': 'original b',
        'dsc_0001 (2).jpg': 'original a',
      });
      const web = await zipOf({ ...key('public', free), size: 'web' });
      expect([...web.files.keys()]).toEqual(['DSC_0001.jpg', 'dsc_0001 (2).jpg']);
    } finally {
      await t.app.container.repositories.photos.update(photos.a!.id, {
        fileName: photos.a!.fileName ?? undefined,
      });
      await t.app.container.repositories.photos.update(photos.b!.id, {
        fileName: photos.b!.fileName ?? undefined,
      });
    }
  });

  it('keeps guests to the web size when the operator limits them to it', async () => {
    const refused = errorOf(
      await t.call(endpoints.createAlbumDownload, { ...key('public', webOnly), size: 'original' }),
    );
    expect(refused).toMatchObject({
      status: 403,
      message_key: 'download_not_allowed',
      field: 'size',
    });
    const guest = await zipOf({ ...key('public', webOnly) });
    expect([...guest.files.values()]).toEqual(['preview web']);
    // The setting is about guests: the event owner key still takes originals.
    const owner = await zipOf({ ...key('event_owner', webOnly), size: 'original' });
    expect([...owner.files.values()]).toEqual(['original web']);
  });

  it('builds a whole album above the threshold in a job and mails its link', async () => {
    // 501 more photos of the same shot (one stored file): 502 in the album.
    await t.database.executeSql(
      `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
         width, height, size_bytes, status, created_at, available_at, derivatives)
       select 'bulk' || g, event_id, 'bulk' || g, storage_key, file_name, content_type, media_type,
         width, height, size_bytes, status, created_at - make_interval(secs => g), available_at,
         derivatives
       from photos, generate_series(1, ${ALBUM_DOWNLOAD_MAIL_THRESHOLD + 1}) g where id = $1`,
      [photos.big!.id],
    );
    const needsMail = errorOf(
      await t.call(endpoints.createAlbumDownload, { ...key('public', big) }),
    );
    expect(needsMail).toMatchObject({ status: 400, message_key: 'email_required', field: 'email' });
    const created = await t.ok(endpoints.createAlbumDownload, {
      ...key('public', big),
      email: 'guest@example.com',
    });
    expect(created).toMatchObject({ url: null, mailed: 1, photo_count: 502 });
    expect(typeof created.status_token).toBe('string');
    const statusOf = (body: Record<string, unknown>) => t.call(endpoints.albumDownloadStatus, body);
    // The page asks until the job has stored the zip, then shows the link the mail carries.
    let ready: { ready: number; url: string | null } = { ready: 0, url: null };
    await expect
      .poll(
        async () => {
          ready = await t.ok(endpoints.albumDownloadStatus, {
            ...key('public', big),
            status_token: created.status_token!,
          });
          return ready.ready;
        },
        { timeout: 60_000, interval: 200 },
      )
      .toBe(1);
    expect(ready.url).toMatch(/\/storage\/protected\/downloads\//);
    expect(unzip((await download(ready.url!)).rawPayload).size).toBe(502);
    // Another event's key, a forged token: nothing is told.
    for (const body of [
      { ...key('public', free), status_token: created.status_token },
      { ...key('public', big), status_token: 'v1.AAAA' },
    ])
      expect(errorOf(await statusOf(body))).toMatchObject({
        status: 404,
        message_key: 'not_found',
      });
    const mail = await smtp.waitFor((m) => m.to.includes('guest@example.com'), 60_000);
    // The console album's Download of the same album: the job too, mailed to the operator.
    const owners = await t.ok(endpoints.ownerAlbumDownload, { event_id: big.id }, admin);
    expect(owners).toMatchObject({ url: null, mailed: 1, photo_count: 502 });
    const ownerMail = await smtp.waitFor((m) => m.to.includes('admin-a@example.com'), 60_000);
    expect(ownerMail.text).toMatch(/\/storage\/protected\/downloads\//);
    // The event's name is the operator's text: escaped in the HTML part.
    expect(mail.text).toContain('Big &lt;Gala&gt;');
    const link = /https?:\/\/\S+\/storage\/protected\/downloads\/[^\s"<>]+/.exec(mail.text)?.[0];
    expect(link).toBeDefined();
    const reply = await download(link!.replace(/&amp;/g, '&'));
    expect(reply.statusCode).toBe(200);
    const files = unzip(reply.rawPayload);
    expect(files.size).toBe(502);
    const name = photos.big!.fileName!;
    const stem = name.replace(/\.jpg$/, '');
    expect(files.get(name)).toBe('original big');
    expect(files.get(`${stem} (502).jpg`)).toBe('original big');
  });

  it('gives an operator the console album’s zip: originals of what its filters show', async () => {
    const ownerZip = async (body: Record<string, unknown>) => {
      const created = await t.ok(endpoints.ownerAlbumDownload, body as never, admin);
      expect(created.mailed).toBe(0);
      // The ticket is sealed: no user id or filter readable in the address.
      expect(created.url).toMatch(/\?ticket=v1\./);
      const reply = await download(created.url!);
      expect(reply.statusCode).toBe(200);
      return { created, files: unzip(reply.rawPayload) };
    };
    // The whole album, hidden photos too (the console shows them), as shot.
    const all = await ownerZip({ event_id: free.id });
    expect([...all.files.values()].sort()).toEqual(['original a', 'original b', 'original hidden']);
    expect(all.created.photo_count).toBe(3);
    // The album filtered to hidden photos (hash `v=0`): only those.
    const hidden = await ownerZip({ event_id: free.id, is_visible: 0 });
    expect([...hidden.files.values()]).toEqual(['original hidden']);
    // By file name (hash `fn=`).
    const named = await ownerZip({
      event_id: free.id,
      file_name: photos.a!.fileName!.slice(0, 12),
    });
    expect([...named.files.values()]).toContain('original a');
    // Another organisation's operator, and a filter matching nothing.
    expect(
      errorOf(await t.call(endpoints.ownerAlbumDownload, { event_id: free.id }, otherAdmin)),
    ).toMatchObject({ message_key: 'event_not_found' });
    expect(
      errorOf(
        await t.call(
          endpoints.ownerAlbumDownload,
          { event_id: free.id, file_name: 'nothing-like-it' },
          admin,
        ),
      ),
    ).toMatchObject({ status: 404, message_key: 'not_found' });
    // A key is no operator: the call needs a signed-in user.
    expect((await t.call(endpoints.ownerAlbumDownload, { event_id: free.id })).statusCode).toBe(
      401,
    );
  });

  it('refuses a paid event’s guests, downloads turned off, hidden and other events’ photos', async () => {
    const refused = async (body: Record<string, unknown>) =>
      errorOf(await t.call(endpoints.createAlbumDownload, body));
    const notAllowed = { status: 403, message_key: 'download_not_allowed' };
    expect(
      await refused({ ...key('public', paid), photo_id_array: [photos.paid!.id] }),
    ).toMatchObject(notAllowed);
    expect(await refused({ ...key('private', paid) })).toMatchObject(notAllowed);
    expect(
      await refused({ ...key('public', noDownloads), photo_id_array: [photos.quiet!.id] }),
    ).toMatchObject(notAllowed);
    expect(
      await refused({ ...key('public', free), photo_id_array: [photos.hidden!.id] }),
    ).toMatchObject(notAllowed);
    expect(
      await refused({ ...key('public', free), photo_id_array: [photos.paid!.id] }),
    ).toMatchObject(notAllowed);
    // Turned off for guests: the private key still takes originals.
    const quiet = await zipOf({ ...key('private', noDownloads) });
    expect([...quiet.files.values()]).toEqual(['original quiet']);
    // A selection mixing allowed and other photos holds only the allowed ones.
    const mixed = await zipOf({
      ...key('public', free),
      photo_id_array: [photos.a!.id, photos.hidden!.id, photos.paid!.id],
    });
    expect([...mixed.files.values()]).toEqual(['original a']);
    expect(await refused({ ...key('public', free), photo_id_array: [] })).toMatchObject({
      status: 400,
      message_key: 'invalid_value',
    });
    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    expect(await refused({ ...key('public', free), photo_id_array: many })).toMatchObject({
      status: 400,
      message_key: 'too_many_photos',
    });
    expect(
      await refused({ key_type: 'public', key_value: 'wrong', photo_id_array: [photos.a!.id] }),
    ).toMatchObject({ status: 401 });
  });

  it('checks the ticket again when the zip is fetched: forged, expired, photo hidden since', async () => {
    const created = await t.ok(endpoints.createAlbumDownload, {
      ...key('public', free),
      photo_id_array: [photos.b!.id],
    });
    const forged = await download(created.url!.replace(/ticket=v1\.[^.]+/, 'ticket=v1.AAAA'));
    expect(errorOf({ statusCode: forged.statusCode, body: forged.json() })).toMatchObject({
      status: 404,
      message_key: 'not_found',
    });
    // Hidden after the ticket was made: the zip no longer holds it.
    await t.app.container.repositories.photos.update(photos.b!.id, { isVisible: 0 });
    const after = await download(created.url!);
    expect(unzip(after.rawPayload).size).toBe(0);
    await t.app.container.repositories.photos.update(photos.b!.id, { isVisible: 1 });
    t.clock.advance(301_000);
    const expired = await download(created.url!);
    expect(expired.statusCode).toBe(404);
  });
});
