import type { FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  TMP_UPLOAD_MAX_AGE_MS,
  UPLOAD_CLAIM_MAX_AGE_MS,
} from '../../src/services/photos/upload-sweep.ts';
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

  it('keeps an old upload a completion is working on, until that claim is stale', async () => {
    const jpeg = await makeJpeg({ width: 64, height: 48, seed: 4 });
    const owned = await postToStorage(t, robot, event.name, 'd.jpg', jpeg, 'image/jpeg');
    const orphan = await postToStorage(t, robot, event.name, 'e.jpg', jpeg, 'image/jpeg');
    t.clock.advance(TMP_UPLOAD_MAX_AGE_MS + 60_000);
    // Another process is completing `owned` right now (a long clip): it claimed the upload.
    const photos = t.app.container.repositories.photos;
    await photos.claimUpload(owned.key, t.clock.now());
    expect(await sweep()).toEqual({ removed: 1, kept: 1 });
    expect(await tmpKeys()).toEqual([owned.key]);
    // That process died: its claim goes stale and the object goes with the next sweep.
    t.clock.advance(UPLOAD_CLAIM_MAX_AGE_MS + 60_000);
    expect(await sweep()).toEqual({ removed: 1, kept: 0 });
    expect(await tmpKeys()).toEqual([]);
    const { rows } = await t.database.executeSql('select count(*)::int as n from upload_claims');
    expect(rows[0]!.n).toBe(0);
    void orphan;
  });

  it('leaves no claim behind a finished or a refused completion', async () => {
    const ok = await postToStorage(
      t,
      robot,
      event.name,
      'f.jpg',
      await makeJpeg({ width: 64, height: 48, seed: 5 }),
      'image/jpeg',
    );
    expect((await completeUpload(t, robot, ok.key)).body.status).toBe('ok');
    const bad = await postToStorage(
      t,
      robot,
      event.name,
      'g.jpg',
      Buffer.from('not a picture'),
      'image/jpeg',
    );
    expect((await completeUpload(t, robot, bad.key)).body.status).toBe('nok');
    const { rows } = await t.database.executeSql('select count(*)::int as n from upload_claims');
    expect(rows[0]!.n).toBe(0);
  });

  it('runs at every worker start, then hourly', async () => {
    // A `kill -9` leaves uploads behind: the next start sweeps them, not only the next :23.
    const booted = await createTestApp({}, { worker: true });
    try {
      for (;;) {
        const { rows } = await booted.database.executeSql(
          `select state from pgboss.job
           where name = 'storage.sweep-uploads' and singleton_key = 'at-start'`,
        );
        if ((rows[0] as { state?: string } | undefined)?.state === 'completed') break;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await booted.close();
    }
  });

  it('is a scheduled job in the registry', async () => {
    const { jobCatalogue: jobRegistry } = await import('../../src/jobs/catalogue.ts');
    const job = jobRegistry.find((j) => j.name === 'storage.sweep-uploads');
    expect(job?.schedule).toBe('23 * * * *');
  });
});
