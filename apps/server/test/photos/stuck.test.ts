import { endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady, type UploadAuth } from '../helpers/photos.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: { authorization: string };
let event: FlashbulbEvent;
let robot: UploadAuth;

const MINUTE = 60_000;

beforeAll(async () => {
  // The API role only: nothing runs jobs until the test starts a worker.
  t = await createTestApp({}, { worker: false });
  const { world, robotId, ...keys } = await createRobotWorld(t);
  ({ admin, robot } = keys);
  event = await createEvent(t, world.adminA, { robot_id_array: [robotId] });
});
afterAll(async () => {
  await t.close();
});

const pendingDerivatives = async (): Promise<number[]> => {
  const { rows } = await t.database.executeSql(
    `select (data->>'photoId')::int as id from pgboss.job
      where name = 'photo.derivatives' and state < 'completed' order by id`,
  );
  return rows.map((r) => Number(r.id));
};

/**
 * The row turns ready inside the job, a moment before pg-boss marks the job completed: wait for
 * pg-boss too, so a test that rewrites job or photo state does not race the finishing job.
 */
const derivativesSettled = async (): Promise<void> => {
  const deadline = Date.now() + 30_000;
  while ((await pendingDerivatives()).length > 0) {
    if (Date.now() > deadline) throw new Error('derivatives jobs still pending after 30 s');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

const statusOf = async (photoId: number): Promise<string> => {
  const { rows } = await t.database.executeSql('select status from photos where id = $1', [
    photoId,
  ]);
  return rows[0]!.status as string;
};

describe('photos stuck in processing', () => {
  it('the tests’ wait for a photo follows its jobs: waits while one is pending, fails at once after', async () => {
    const photo = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 700 }));
    // No worker: the derivatives job stays queued, and the wait with it (no clock of its own).
    let settled = false;
    const waiting = waitForReady(t, admin.authorization, event.id, photo.id).finally(() => {
      settled = true;
    });
    // The wait has read the list and the job at least once, and goes on.
    await t.ok(
      endpoints.ownerPhotoList,
      { event_id: event.id, max_size: 10, page_number: 1 },
      admin,
    );
    expect(settled).toBe(false);
    // Every job ends (the derivatives one as if it had used up its retries): the photo is still
    // processing and nothing is left to make it, which the wait says at once.
    await t.database.executeSql(
      `update pgboss.job set state = 'failed' where state in ('created', 'retry', 'active')`,
    );
    await expect(waiting).rejects.toThrow(/still processing, and no job is left to make it/);
    // Out of the next test's sweep.
    await t.database.executeSql(`update photos set status = 'failed' where id = $1`, [photo.id]);
  });

  it('re-enqueues derivatives once for a photo whose job was lost, and it becomes ready', async () => {
    const photo = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 701 }));
    expect(photo.status).toBe('processing');
    expect(await pendingDerivatives()).toEqual([photo.id]);
    // The process "died" between the insert and the enqueue: the row is there, the job is not.
    await t.database.executeSql(`delete from pgboss.job where name = 'photo.derivatives'`);
    expect(await pendingDerivatives()).toEqual([]);

    const derivatives = t.app.container.services.photoDerivatives;
    // A fresh upload may still be on its way to its job: left alone for five minutes.
    t.clock.advance(4 * MINUTE);
    expect(await derivatives.requeueStuck()).toEqual({ requeued: 0, failed: 0 });
    expect(await pendingDerivatives()).toEqual([]);
    t.clock.advance(2 * MINUTE);
    expect(await derivatives.requeueStuck()).toEqual({ requeued: 1, failed: 0 });
    expect(await pendingDerivatives()).toEqual([photo.id]);
    // Idempotent: a photo whose job is queued is not queued again.
    expect(await derivatives.requeueStuck()).toEqual({ requeued: 0, failed: 0 });
    expect(await pendingDerivatives()).toEqual([photo.id]);
    expect(await statusOf(photo.id)).toBe('processing');

    // A worker starts (a restarted process on the same data) and the requeued job runs.
    await t.app.close();
    t.app = await buildApp(t.config, { database: t.database, clock: t.clock });
    await t.app.ready();
    const ready = await waitForReady(t, admin.authorization, event.id, photo.id);
    expect(ready.status).toBe('ready');
    expect(ready.urls.preview).not.toBeNull();
    expect(await t.app.container.services.photoDerivatives.requeueStuck()).toEqual({
      requeued: 0,
      failed: 0,
    });
  });

  it('runs as the scheduled registry job photos.requeue-stuck', async () => {
    // The worker runs from here on (previous test): a photo stuck without a job is picked up.
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 702 }));
    await waitForReady(t, admin.authorization, event.id, uploaded.id);
    await derivativesSettled();
    await t.database.executeSql(
      `update photos set status = 'processing', derivatives = '{}'::jsonb where id = $1`,
      [uploaded.id],
    );
    expect(await pendingDerivatives()).toEqual([]);
    t.clock.advance(6 * MINUTE);
    await t.app.container.jobs.send('photos.requeue-stuck', {});
    const ready = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    expect(ready.status).toBe('ready');
    expect(ready.urls.thumbnail).not.toBeNull();
  });

  it('marks a stuck photo failed, not requeued, when its derivatives job used up its retries', async () => {
    const uploaded = await uploadPhoto(t, robot, event.name, await makeJpeg({ seed: 703 }));
    await waitForReady(t, admin.authorization, event.id, uploaded.id);
    await derivativesSettled();
    // As if every attempt had thrown: the row still says processing, pg-boss says failed.
    await t.database.executeSql(`update photos set status = 'processing' where id = $1`, [
      uploaded.id,
    ]);
    await t.database.executeSql(
      `update pgboss.job set state = 'failed'
        where name = 'photo.derivatives' and data->>'photoId' = $1`,
      [String(uploaded.id)],
    );
    t.clock.advance(6 * MINUTE);
    const before = await t.database.executeSql(
      `select count(*)::int as n from pgboss.job where name = 'photo.derivatives'`,
    );
    expect(await t.app.container.services.photoDerivatives.requeueStuck()).toEqual({
      requeued: 0,
      failed: 1,
    });
    const after = await t.database.executeSql(
      `select count(*)::int as n from pgboss.job where name = 'photo.derivatives'`,
    );
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
    const { rows } = await t.database.executeSql(
      'select status, failure_reason from photos where id = $1',
      [uploaded.id],
    );
    expect(rows[0]).toEqual({ status: 'failed', failure_reason: 'derivatives job failed' });
    // The owner may reprocess it; that queues a new job and the sweep leaves it alone.
    await t.ok(endpoints.curationReprocess, { photo_id: uploaded.id }, admin);
    const ready = await waitForReady(t, admin.authorization, event.id, uploaded.id);
    expect(ready.status).toBe('ready');
  });
});
