import type { FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TMP_UPLOAD_MAX_AGE_MS } from '../../src/services/photos/upload-sweep.ts';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { completeUpload, makeJpeg, postToStorage, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** Uploads left in tmp/ by crashes and abandoned clients are swept. */

let t: TestApp;
let event: FlashbulbEvent;
let robot: UploadAuth;

beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const { world, robotId, ...keys } = await createRobotWorld(t);
  robot = keys.robot;
  event = await createEvent(t, world.adminA, { robot_id_array: [robotId] });
});
afterAll(async () => {
  await t.close();
});

const storage = () => t.app.container.storage;
const sweep = () => t.app.container.services.uploadSweep.sweep();
const tmpKeys = async (): Promise<string[]> => {
  const keys: string[] = [];
  for await (const object of storage().list('tmp/')) keys.push(object.key);
  return keys.sort();
};

describe('storage.sweep-uploads', () => {
  it('keeps a fresh upload waiting for completion, removes completed leftovers and stale ones', async () => {
    const jpeg = (seed: number) => makeJpeg({ width: 64, height: 48, seed });
    // 1. POSTed, never completed (the client died or retried under a new grant).
    const abandoned = await postToStorage(
      t,
      robot,
      event.name,
      'a.jpg',
      await jpeg(1),
      'image/jpeg',
    );
    expect(abandoned.status).toBe(201);
    // 2. Completed, but the process died before the tmp object was deleted: put it back.
    const done = await postToStorage(t, robot, event.name, 'b.jpg', await jpeg(2), 'image/jpeg');
    expect((await completeUpload(t, robot, done.key)).body.status).toBe('ok');
    await storage().put(done.key, await jpeg(2), 'image/jpeg');
    expect(await tmpKeys()).toEqual([abandoned.key, done.key].sort());

    // Now: the completed leftover goes, the fresh upload may still be completed.
    expect(await sweep()).toEqual({ removed: 1, kept: 1 });
    expect(await tmpKeys()).toEqual([abandoned.key]);
    // Its client can still complete it.
    const completedLater = await completeUpload(t, robot, abandoned.key);
    expect(completedLater.body.status).toBe('ok');
    expect(await tmpKeys()).toEqual([]);

    // An upload older than the limit is removed; the photo rows are untouched.
    const stale = await postToStorage(t, robot, event.name, 'c.jpg', await jpeg(3), 'image/jpeg');
    t.clock.advance(TMP_UPLOAD_MAX_AGE_MS - 60_000);
    expect(await sweep()).toEqual({ removed: 0, kept: 1 });
    t.clock.advance(2 * 60_000);
    expect(await sweep()).toEqual({ removed: 1, kept: 0 });
    expect(await tmpKeys()).toEqual([]);
    expect((await completeUpload(t, robot, stale.key)).body).toMatchObject({
      status: 'nok',
      error: { message_key: 'not_found' },
    });
    const { rows } = await t.database.executeSql(
      'select count(*)::int as n from photos where event_id = $1',
      [event.id],
    );
    expect(rows[0]!.n).toBe(2);
  });

  it('is a scheduled job in the registry', async () => {
    const { jobCatalogue: jobRegistry } = await import('../../src/jobs/catalogue.ts');
    const job = jobRegistry.find((j) => j.name === 'storage.sweep-uploads');
    expect(job?.schedule).toBe('23 * * * *');
  });
});
