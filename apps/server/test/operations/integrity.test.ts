import { endpoints, type IntegrityReport } from '@flashbulb/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeyAuth, as, createEvent, createRobotWorld, errorOf } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { parsePrometheusText, sampleValue } from '../helpers/prometheus-text.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';
import { bindJob } from '../../src/jobs/job-definition.ts';
import { integrityCheckJob } from '../../src/jobs/integrity-check.job.ts';

/**
 * The storage integrity check through its owner call: a clean install reports nothing; one
 * deleted derivative, one object no row owns and one original whose bytes changed are each found
 * exactly once, on the metric too; the console's actions re-derive, delete and re-attach.
 */

let t: TestApp;
let superAuth: { authorization: string };
let adminAuth: { authorization: string };
let photos: { id: number; original: string; thumbnail: string; uid: string }[];
let eventName: string;

const photoRow = async (id: number) => {
  const { rows } = await t.database.executeSql(
    `select uid, storage_key, derivatives->>'thumbnail' as thumbnail from photos where id = $1`,
    [id],
  );
  const row = rows[0]!;
  return {
    id,
    uid: String(row.uid),
    original: String(row.storage_key),
    thumbnail: String(row.thumbnail),
  };
};

beforeAll(async () => {
  t = await createTestApp();
  const { world, robot, robotId } = await createRobotWorld(t);
  superAuth = await apiKeyAuth(t, world.superUser);
  adminAuth = as(world.adminA);
  const event = await createEvent(t, world.adminA, {
    robot_id_array: [robotId],
    photo_watermark: '/default-watermark.png',
  });
  eventName = event.name;
  photos = [];
  for (const seed of [3, 4, 5]) {
    const photo = await uploadPhoto(
      t,
      robot,
      event.name,
      await makeJpeg({ width: 64, height: 48, seed }),
    );
    await waitForReady(t, world.adminA.authorization, event.id, photo.id);
    photos.push(await photoRow(photo.id));
  }
}, 120_000);
afterAll(async () => {
  await t.close();
});

const check = () => t.ok(endpoints.integrityCheck, {}, superAuth);
const only = (report: IntegrityReport, problem: string) =>
  report.problems.filter((p) => p.problem === problem);

const scrape = async () => {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    remoteAddress: '127.0.0.1',
  });
  return parsePrometheusText(response.body);
};

describe('storage integrity check', () => {
  it('finds nothing on a clean install, and only super users may run it', async () => {
    const refused = await t.call(endpoints.integrityCheck, {}, adminAuth);
    expect(errorOf(refused)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const report = await check();
    expect(report).toMatchObject({ missing: 0, untracked: 0, checksum_mismatch: 0, problems: [] });
    expect(report.checksums_verified).toBe(3);
    expect(report.objects_named).toBeGreaterThanOrEqual(9);
  });

  it('finds a deleted, an added and a corrupted object, each exactly once, and sets the metric', async () => {
    const storage = t.app.container.storage;
    const [first, second] = photos as [(typeof photos)[0], (typeof photos)[0]];
    await storage.delete(first.thumbnail);
    const stray = `protected/events/${eventName}/photos/uid_0123456789abcdef01234567_uid/original.jpg`;
    await storage.put(stray, Buffer.from('nobody owns me'), 'image/jpeg');
    await storage.put(
      second.original,
      await makeJpeg({ width: 64, height: 48, seed: 99 }),
      'image/jpeg',
    );

    const report = await check();
    expect(report).toMatchObject({ missing: 1, untracked: 1, checksum_mismatch: 1 });
    expect(report.problems).toHaveLength(3);
    expect(only(report, 'missing')).toEqual([
      expect.objectContaining({
        key: first.thumbnail,
        owner: 'photos.derivative:thumbnail',
        owner_id: first.id,
        actions: ['re-derive'],
      }),
    ]);
    expect(only(report, 'untracked')).toEqual([
      expect.objectContaining({ key: stray, owner: null, actions: ['delete'] }),
    ]);
    expect(only(report, 'checksum_mismatch')).toEqual([
      expect.objectContaining({
        key: second.original,
        owner: 'photos.original',
        owner_id: second.id,
      }),
    ]);

    const families = await scrape();
    for (const kind of ['missing', 'untracked', 'checksum_mismatch'])
      expect(sampleValue(families, 'flashbulb_integrity_problems', { kind })).toBe(1);

    // The console's actions: the missing thumbnail is made again, the stray object deleted.
    const wrong = await t.call(
      endpoints.integrityRepair,
      { key: stray, action: 're-derive' },
      superAuth,
    );
    expect(errorOf(wrong)).toMatchObject({
      status: 409,
      message_key: 'integrity_action_unavailable',
    });
    await t.ok(endpoints.integrityRepair, { key: first.thumbnail, action: 're-derive' }, superAuth);
    await t.ok(endpoints.integrityRepair, { key: stray, action: 'delete' }, superAuth);
    const deadline = Date.now() + 20_000;
    while (!(await storage.head(first.thumbnail))) {
      if (Date.now() > deadline) throw new Error('the thumbnail was not made again');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const after = await check();
    expect(after).toMatchObject({ missing: 0, untracked: 0, checksum_mismatch: 1 });
    // A key that is named by a row is not an untracked object to delete.
    const named = await t.call(
      endpoints.integrityRepair,
      { key: first.original, action: 'delete' },
      superAuth,
    );
    expect(errorOf(named)).toMatchObject({ status: 404, message_key: 'integrity_object_unknown' });
    expect(await storage.head(first.original)).not.toBeNull();
  }, 60_000);

  it('re-attaches an original found outside its row, when its SHA-256 matches', async () => {
    const storage = t.app.container.storage;
    const third = photos[2]!;
    const archived = `archive/${third.original}`;
    await storage.copy(third.original, archived);
    await storage.delete(third.original);

    const report = await check();
    expect(only(report, 'missing')).toEqual([
      expect.objectContaining({
        key: third.original,
        owner: 'photos.original',
        owner_id: third.id,
      }),
    ]);
    expect(only(report, 'untracked')).toEqual([
      expect.objectContaining({ key: archived, actions: ['re-attach', 'delete'] }),
    ]);
    await t.ok(endpoints.integrityRepair, { key: archived, action: 're-attach' }, superAuth);
    expect((await photoRow(third.id)).original).toBe(archived);
    const after = await check();
    expect(after).toMatchObject({ missing: 0, untracked: 0 });
  });

  it('keeps each report (nightly job and owner call), newest first, and the metric reads the newest kept', async () => {
    const refused = await t.call(endpoints.integrityReports, {}, adminAuth);
    expect(errorOf(refused)).toMatchObject({ status: 403, message_key: 'forbidden' });
    const before = await t.ok(endpoints.integrityReports, {}, superAuth);
    // Every owner-call check above was kept, as the console's page lists them.
    expect(before.reports.length).toBeGreaterThanOrEqual(5);
    expect(before.reports.every((r) => r.trigger === 'manual')).toBe(true);

    // The nightly job, driven directly: its report is kept too, and is now the newest.
    const storage = t.app.container.storage;
    const stray = `archive/stray-${Date.now()}.jpg`;
    await storage.put(stray, Buffer.from('stray'), 'image/jpeg');
    const silent = { info: () => undefined, warn: () => undefined };
    await bindJob(integrityCheckJob, {
      integrity: t.app.container.services.integrity,
      integrityLog: silent,
    }).run({});
    const after = await t.ok(endpoints.integrityReports, {}, superAuth);
    expect(after.reports).toHaveLength(before.reports.length + 1);
    expect(after.reports[0]).toMatchObject({ trigger: 'schedule', untracked: 1 });
    expect(only(after.latest!, 'untracked')).toEqual([
      expect.objectContaining({ key: stray, actions: ['delete'] }),
    ]);

    // The metric reads the kept report at scrape, whichever process ran the check.
    await t.database.executeSql(
      `update integrity_reports set report = jsonb_set(report, '{untracked}', '7')
        where id = $1`,
      [after.reports[0]!.id],
    );
    const families = await scrape();
    expect(sampleValue(families, 'flashbulb_integrity_problems', { kind: 'untracked' })).toBe(7);

    // Acting on the kept report's problem: the console's delete.
    await t.ok(endpoints.integrityRepair, { key: stray, action: 'delete' }, superAuth);
    expect(await storage.head(stray)).toBeNull();
  });
});
