import type { FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { completeUpload, makeJpeg, postToStorage, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/**
 * Two processes completing the same upload at the same moment (a robot that retried while its
 * first call was still running, two API processes behind a proxy): exactly one of them enqueues
 * the photo's derivatives. A second `photo.derivatives` job for a photo whose first job already
 * runs is queued beside it (the queue keeps one waiting and one running per photo).
 */

let t: TestApp;
let event: FlashbulbEvent;
let robot: UploadAuth;
const enqueued = new Map<number, number>();

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const { world, robotId, ...keys } = await createRobotWorld(t);
  robot = keys.robot;
  event = await createEvent(t, world.adminA, { robot_id_array: [robotId] });
  // Every `photo.uploaded` is one `photo.derivatives` send (photo.listeners.ts).
  t.app.container.bus.on('photo.uploaded', 'test: count derivative enqueues', ({ photoId }) => {
    enqueued.set(photoId, (enqueued.get(photoId) ?? 0) + 1);
  });
});
afterAll(async () => {
  await t.close();
});

describe('completing one upload twice at once', () => {
  it('enqueues the derivatives exactly once per photo, every time', async () => {
    const tries = 8;
    for (let i = 0; i < tries; i += 1) {
      const bytes = await makeJpeg({ width: 64, height: 48, seed: 100 + i });
      const { key, status } = await postToStorage(
        t,
        robot,
        event.name,
        `r${i}.jpg`,
        bytes,
        'image/jpeg',
      );
      expect(status).toBe(201);
      const [a, b] = await Promise.all([
        completeUpload(t, robot, key),
        completeUpload(t, robot, key),
      ]);
      expect(a.body.status).toBe('ok');
      expect(b.body.status).toBe('ok');
      if (a.body.status === 'ok' && b.body.status === 'ok')
        expect(a.body.result.uid).toBe(b.body.result.uid);
    }
    const { rows } = await t.database.executeSql(
      'select id from photos where event_id = $1 order by id',
      [event.id],
    );
    expect(rows).toHaveLength(tries);
    for (const row of rows as { id: number }[]) expect(enqueued.get(row.id)).toBe(1);
  });

  it('enqueues them again when a retry finds the photo stored but never enqueued', async () => {
    // The process died between storing the photo and enqueueing: the client's retry enqueues.
    const bytes = await makeJpeg({ width: 64, height: 48, seed: 300 });
    const { key } = await postToStorage(t, robot, event.name, 'crash.jpg', bytes, 'image/jpeg');
    expect((await completeUpload(t, robot, key)).body.status).toBe('ok');
    const { rows } = await t.database.executeSql(
      "select id from photos where event_id = $1 and file_name = 'crash.jpg'",
      [event.id],
    );
    const id = (rows[0] as { id: number }).id;
    const before = enqueued.get(id) ?? 0;
    // As if the process had died after storing the photo, before its enqueue was claimed.
    await t.database.executeSql('update photos set derivatives_queued_at = null where id = $1', [
      id,
    ]);
    const retry = await completeUpload(t, robot, key);
    expect(retry.body.status).toBe('ok');
    expect(enqueued.get(id)).toBe(before + 1);
    // A further retry of a photo already enqueued sends nothing more.
    await completeUpload(t, robot, key);
    expect(enqueued.get(id)).toBe(before + 1);
  });

  it('takes over an old claim whose job is nowhere (a crash between the claim and the send)', async () => {
    const bytes = await makeJpeg({ width: 64, height: 48, seed: 400 });
    const { key } = await postToStorage(t, robot, event.name, 'late.jpg', bytes, 'image/jpeg');
    expect((await completeUpload(t, robot, key)).body.status).toBe('ok');
    const { rows } = await t.database.executeSql(
      "select id from photos where event_id = $1 and file_name = 'late.jpg'",
      [event.id],
    );
    const id = (rows[0] as { id: number }).id;
    expect(enqueued.get(id)).toBe(1);
    // Claimed a minute ago: with its job still queued, a retry sends nothing.
    const claimedAt = new Date(t.clock.now().getTime() - 60_000);
    await t.database.executeSql('update photos set derivatives_queued_at = $2 where id = $1', [
      id,
      claimedAt,
    ]);
    await completeUpload(t, robot, key);
    expect(enqueued.get(id)).toBe(1);
    // The job never made it (the process died after the claim): the retry enqueues, once.
    await t.database.executeSql(
      "delete from pgboss.job where name = 'photo.derivatives' and (data->>'photoId')::int = $1",
      [id],
    );
    await t.database.executeSql('update photos set derivatives_queued_at = $2 where id = $1', [
      id,
      claimedAt,
    ]);
    await completeUpload(t, robot, key);
    expect(enqueued.get(id)).toBe(2);
    await completeUpload(t, robot, key);
    expect(enqueued.get(id)).toBe(2);
  });
});
