import { crc32 } from 'node:zlib';
import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createEventWorld, errorOf } from '../helpers/events.ts';
import { insertReadyPhoto } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let free: FlashbulbEvent;
let noDownloads: FlashbulbEvent;
let paid: FlashbulbEvent;
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
  const reply = await download(created.url);
  expect(reply.statusCode).toBe(200);
  expect(reply.headers['content-type']).toBe('application/zip');
  return { created, reply, files: unzip(reply.rawPayload) };
};

beforeAll(async () => {
  t = await createTestApp();
  const world = await createEventWorld(t);
  free = await createEvent(t, world.adminA, { full_name: 'Summer Gala', is_free: 1 });
  noDownloads = await createEvent(t, world.adminA, {
    full_name: 'Quiet Gala',
    is_free: 1,
    opts: { description: 'x', guestDownloadEnabled: 0 },
  });
  paid = await createEvent(t, world.adminA, { full_name: 'Paid Gala', is_free: 0 });
  await photo('a', free);
  await photo('b', free);
  await photo('hidden', free);
  await t.app.container.repositories.photos.update(photos.hidden!.id, { isVisible: 0 });
  await photo('quiet', noDownloads);
  await photo('paid', paid);
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('album download (zip)', () => {
  it('gives a free event’s public album the shown pictures of a selection, in one zip', async () => {
    const { created, reply, files } = await zipOf({
      ...key('public', free),
      photo_id_array: [photos.a!.id, photos.b!.id],
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
    const { created, files } = await zipOf({ ...key('public', free) });
    expect(created.photo_count).toBe(2);
    expect([...files.values()].sort()).toEqual(['preview a', 'preview b']);
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
    expect([...mixed.files.values()]).toEqual(['preview a']);
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
    const forged = await download(created.url.replace(/ticket=v1\.[^.]+/, 'ticket=v1.AAAA'));
    expect(errorOf({ statusCode: forged.statusCode, body: forged.json() })).toMatchObject({
      status: 404,
      message_key: 'not_found',
    });
    // Hidden after the ticket was made: the zip no longer holds it.
    await t.app.container.repositories.photos.update(photos.b!.id, { isVisible: 0 });
    const after = await download(created.url);
    expect(unzip(after.rawPayload).size).toBe(0);
    await t.app.container.repositories.photos.update(photos.b!.id, { isVisible: 1 });
    t.clock.advance(301_000);
    const expired = await download(created.url);
    expect(expired.statusCode).toBe(404);
  });
});
