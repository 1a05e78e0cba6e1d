import { endpoints, type FlashbulbEvent, type Photo } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  as,
  createEvent,
  createEventWorld,
  errorOf,
  readEvent,
  type EventWorld,
} from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Settings that name a stored object (watermarks, logo, web-app images, stock images) name only
 * objects in the upload areas of the event's own organisation or event, or a bundled default. A
 * watermark pointing at another tenant's original was read by the derivatives job with full rights
 * and published as the attacker's public watermark file.
 */

let t: TestApp;
let w: EventWorld;
let eventA: FlashbulbEvent;
let eventB: FlashbulbEvent;
let robotB: UploadAuth;
let originalA: Photo;
const lines: string[] = [];

beforeAll(async () => {
  t = await createTestApp(
    { LOG_LEVEL: 'warn' },
    { logStream: { write: (line: string) => void lines.push(line) } },
  );
  w = await createEventWorld(t);
  const robotOfA = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgA.id, name: 'Booth A' },
    as(w.adminA),
  );
  const robotOfB = await t.ok(
    endpoints.createRobot,
    { organisation_id: w.orgB.id, name: 'Booth B' },
    as(w.adminB),
  );
  robotB = { key_type: 'robot', key_value: robotOfB.api_key };
  eventA = await createEvent(t, w.adminA, { full_name: 'Paid A', robot_id_array: [robotOfA.id] });
  eventB = await createEvent(t, w.ownerB, { full_name: 'Thief B', robot_id_array: [robotOfB.id] });
  const uploaded = await uploadPhoto(
    t,
    { key_type: 'robot', key_value: robotOfA.api_key },
    eventA.name,
    await makeJpeg({ seed: 26 }),
  );
  originalA = await waitForReady(t, w.adminA.authorization, eventA.id, uploaded.id);
});
afterAll(async () => {
  await t.close();
});

/** Saves fields of the event (opts merged into the stored ones) as `by`. */
const save = async (
  event: FlashbulbEvent,
  by: { authorization: string },
  body: Record<string, unknown> & { opts?: Record<string, unknown> },
) => {
  const current = await readEvent(t, w.superUser, event.name);
  return t.call(
    endpoints.updateEvent,
    {
      id: event.id,
      event_last_updated_date: current.updated_date,
      ...body,
      ...(body.opts ? { opts: { ...current.opts, ...body.opts } } : {}),
    },
    as(by),
  );
};

describe('a setting naming a stored object', () => {
  it('is refused at save unless it lies in the event’s own upload areas', async () => {
    const foreign = [
      originalA.full_path,
      `/${originalA.full_path}`,
      `events/${eventA.name}/photos/uid_${originalA.uid}_uid/thumbnail.jpg`,
      `share/${w.orgA.id}/watermarks/theirs.png`,
      `share/${w.orgB.id}/../${w.orgA.id}/watermarks/theirs.png`,
      `stock-images/${eventA.name}/banner.jpg`,
      `archive/${originalA.full_path}`,
      'selfies/x.jpg',
      'https://evil.example/wm.png',
    ];
    for (const field of ['photo_watermark', 'live_view_watermark', 'protector_watermark']) {
      for (const value of foreign) {
        const refused = await save(eventB, w.ownerB, { [field]: value });
        expect(errorOf(refused), `${field} = ${value}`).toMatchObject({
          status: 400,
          message_key: 'storage_reference_invalid',
          field,
        });
      }
    }
    const logo = await save(eventB, w.ownerB, { logo_full_path: originalA.full_path });
    expect(errorOf(logo)).toMatchObject({
      message_key: 'storage_reference_invalid',
      field: 'logo_full_path',
    });
    const banner = await save(eventB, w.ownerB, {
      opts: { webappBannerTopSrc: `share/${w.orgA.id}/webapp-etc/top.png` },
    });
    expect(errorOf(banner)).toMatchObject({
      message_key: 'storage_reference_invalid',
      field: 'opts.webappBannerTopSrc',
    });
    // Nothing changed.
    const stored = await readEvent(t, w.superUser, eventB.name);
    expect([
      stored.photo_watermark,
      stored.live_view_watermark,
      stored.protector_watermark,
    ]).toEqual([null, null, null]);
    expect(stored.logo_full_path).toBeNull();
    // A new event is held to the same rule.
    const created = await t.call(
      endpoints.createEvent,
      {
        full_name: 'New',
        email_from_address: 'photos@gala.example',
        opts: { description: 'd' },
        photo_watermark: originalA.full_path,
      },
      as(w.ownerB),
    );
    expect(errorOf(created)).toMatchObject({
      message_key: 'storage_reference_invalid',
      field: 'photo_watermark',
    });
  });

  it('is accepted in the organisation’s share area, the event’s stock images or as a default', async () => {
    const ok = await save(eventB, w.ownerB, {
      photo_watermark: `share/${w.orgB.id}/watermarks/wm.png`,
      live_view_watermark: '/default-watermark.png',
      protector_watermark: `stock-images/${eventB.name}/wm.png`,
      logo_full_path: 'https://cdn.example/logo.png',
      opts: {
        webappLogoSrc: `share/${w.orgB.id}/webapp-etc/logo.png`,
        webappBannerTopSrc: 'https://cdn.example/top.png',
      },
    });
    expect(ok.body).toMatchObject({ status: 'ok' });
    const stored = await readEvent(t, w.superUser, eventB.name);
    expect(stored.photo_watermark).toBe(`share/${w.orgB.id}/watermarks/wm.png`);
    expect(stored.opts.webappLogoSrc).toBe(`share/${w.orgB.id}/webapp-etc/logo.png`);
  });

  it('takes the public URL the editor’s upload grant answers, in a watermark field a job reads', async () => {
    const grant = await t.ok(
      endpoints.shareBucketUploadAccess,
      { relativeFilePath: `watermarks/${eventB.name}/abc.png` },
      as(w.ownerB),
    );
    expect(grant.key).toBe(`share/${w.orgB.id}/watermarks/${eventB.name}/abc.png`);
    const ok = await save(eventB, w.ownerB, {
      photo_watermark: grant.public_url,
      opts: { webappBackgroundSrc: grant.public_url },
    });
    expect(ok.body).toMatchObject({ status: 'ok' });
    const stored = await readEvent(t, w.superUser, eventB.name);
    expect(stored.photo_watermark).toBe(grant.public_url);
    // Another organisation's grant is refused there.
    const theirs = await t.ok(
      endpoints.shareBucketUploadAccess,
      { relativeFilePath: `watermarks/${eventA.name}/abc.png` },
      as(w.ownerA),
    );
    expect(
      errorOf(await save(eventB, w.ownerB, { live_view_watermark: theirs.public_url })),
    ).toMatchObject({
      message_key: 'storage_reference_invalid',
      field: 'live_view_watermark',
    });
  });

  it('is checked again when a job reads it: another tenant’s original is never read', async () => {
    // A value that got past the save check (an older row, a direct write) reaches the job.
    for (const field of ['photo_watermark', 'protector_watermark'] as const) {
      await t.database.executeSql(`update events set ${field} = $1, is_free = 0 where id = $2`, [
        originalA.full_path,
        eventB.id,
      ]);
    }
    const storage = t.app.container.storage;
    const get = vi.spyOn(storage, 'get');
    const head = vi.spyOn(storage, 'head');
    try {
      lines.length = 0;
      const photo = await uploadPhoto(t, robotB, eventB.name, await makeJpeg({ seed: 27 }));
      const ready = await waitForReady(t, w.adminB.authorization, eventB.id, photo.id);
      expect(ready.status).toBe('ready');
      const read = [...get.mock.calls, ...head.mock.calls].map((call) => call[0]);
      expect(read).toContain(ready.full_path);
      expect(read.filter((key) => key.includes(eventA.name))).toEqual([]);
      expect(lines.join('\n')).toMatch(/storage reference refused/);
    } finally {
      get.mockRestore();
      head.mockRestore();
    }
  });

  it('is checked again by the watermark image process: another tenant’s original is never read', async () => {
    const processes = (await t.ok(endpoints.imageProcessList, {}, as(w.adminB))).image_processes;
    const watermark = processes.find((process) => process.kind === 'watermark')!;
    const event = await createEvent(t, w.ownerB, { full_name: 'Thief B variants' });
    const uploaded = await uploadPhoto(t, as(w.ownerB), event.name, await makeJpeg({ seed: 28 }));
    const ready = await waitForReady(t, w.adminB.authorization, event.id, uploaded.id);
    // The event takes the watermark process after the photo is in (no variant made yet), and a
    // value that got past the save check reaches the process's watermark.
    expect(
      (await save(event, w.ownerB, { image_process_id_array: [watermark.id] })).statusCode,
    ).toBe(200);
    await t.database.executeSql('update events set photo_watermark = $1 where id = $2', [
      originalA.full_path,
      event.id,
    ]);
    const storage = t.app.container.storage;
    const get = vi.spyOn(storage, 'get');
    const head = vi.spyOn(storage, 'head');
    try {
      lines.length = 0;
      const variants = t.app.container.services.photoVariants;
      const result = await variants.run(ready.id, watermark.id);
      expect(result.status).toBe('made');
      const read = [...get.mock.calls, ...head.mock.calls].map((call) => call[0]);
      expect(read.filter((key) => key.includes(eventA.name))).toEqual([]);
      expect(lines.join('\n')).toMatch(/storage reference refused/);
    } finally {
      get.mockRestore();
      head.mockRestore();
    }
  });
});
