import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endpoints } from '@flashbulb/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import {
  BackupReader,
  type BackupManifest,
} from '../../src/repositories/operations/backup-folder.ts';
import { backupScheduledJob } from '../../src/jobs/backup-scheduled.job.ts';
import { bindJob } from '../../src/jobs/job-definition.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';
import { cliInProcess } from '../helpers/cli.ts';
import { apiKeyAuth, as, createEvent, createRobotWorld, errorOf } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createEmptyPgDatabase, createTestApp } from '../helpers/test-app.ts';

/**
 * Backup and restore end to end, on the engine of the project: data made through the API, a
 * backup by the CLI, the data folder (and database) wiped, a restore by the CLI, and every row
 * and object compared byte for byte; a server starts on the restored install. A backup with one
 * object corrupted, one from a newer schema and a restore over data are refused, changing nothing.
 */

const SECRET = 'test-secret-key-that-is-long-enough-0123456789';
const onPostgres = process.env.FLASHBULB_TEST_DB === 'postgres';

let work: string;
let dataDir: string;
let drops: (() => Promise<void>)[] = [];
let databaseUrl: string | undefined;

const newDatabaseUrl = async (): Promise<string | undefined> => {
  if (!onPostgres) return undefined;
  const created = await createEmptyPgDatabase();
  drops.push(created.drop);
  return created.url;
};

const appEnv = (): Record<string, string> => (databaseUrl ? { DATABASE_URL: databaseUrl } : {});

/** The secret key the CLI runs with (a test of a wrong one changes it for one call). */
let cliSecret = SECRET;

/** `npm run cli -- <args>` on this install, run in this process (the CLI's own test spawns it). */
const cli = async (...args: string[]) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_SECRET_KEY: cliSecret,
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  return cliInProcess(args, env);
};

/** Every table of the app: row count and a hash over its rows' text, in a fixed order. */
const rowsFingerprint = async (database: Database): Promise<Record<string, string>> => {
  const { rows } = await database.executeSql(
    `select table_name as t from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by 1`,
    [],
  );
  const out: Record<string, string> = {};
  for (const { t } of rows) {
    const [row] = (
      await database.executeSql(
        `select count(*)::int as n,
                coalesce(md5(string_agg(row_to_json(x)::text, E'\\n' order by row_to_json(x)::text)), '') as h
           from public."${String(t)}" x`,
        [],
      )
    ).rows;
    out[String(t)] = `${String(row?.n)}:${String(row?.h)}`;
  }
  return out;
};

/** Every stored object: SHA-256 of its bytes, content type and cache control. */
const objectsFingerprint = async (storage: StorageRepository): Promise<Record<string, string>> => {
  const out: Record<string, string> = {};
  for await (const listed of storage.list('')) {
    if (listed.key.startsWith('ready-check/')) continue;
    const object = await storage.get(listed.key);
    if (!object) continue;
    const hash = createHash('sha256');
    for await (const chunk of object.body) hash.update(chunk as Buffer);
    out[listed.key] = `${hash.digest('hex')} ${object.contentType} ${object.cacheControl}`;
  }
  return out;
};

/** Tables in the PostgreSQL database's public schema (0 on PGlite: nothing to ask). */
const publicTables = async (): Promise<number> => {
  if (!databaseUrl) return 0;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      `select count(*)::int as n from information_schema.tables where table_schema = 'public'`,
    );
    return rows[0]!.n;
  } finally {
    await client.end();
  }
};

const filesUnder = async (dir: string): Promise<string[]> =>
  (await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []))
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));

let before: { rows: Record<string, string>; objects: Record<string, string> };
let eventId: number;
let adminAuth: { authorization: string };
let superAuth: { authorization: string };
let photoIds: number[];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'flashbulb-backup-'));
  dataDir = path.join(work, 'data');
  databaseUrl = await newDatabaseUrl();
  const t = await createTestApp(appEnv(), { onDisk: { dataDir } });
  try {
    const { world, admin, robot, robotId } = await createRobotWorld(t);
    adminAuth = admin;
    superAuth = await apiKeyAuth(t, world.superUser);
    const event = await createEvent(t, world.adminA, {
      robot_id_array: [robotId],
      photo_watermark: '/default-watermark.png',
    });
    eventId = event.id;
    photoIds = [];
    for (const seed of [1, 2]) {
      const photo = await uploadPhoto(
        t,
        robot,
        event.name,
        await makeJpeg({ width: 64, height: 48, seed }),
      );
      await waitForReady(t, world.adminA.authorization, event.id, photo.id);
      photoIds.push(photo.id);
    }
    const generated = await t.ok(
      endpoints.generateAttendeeList,
      { attendee_count: 1, event_id_array: [event.id], is_prepaid: 0, email: 'ann@example.com' },
      as(world.adminA),
    );
    const [attendee] = (
      await t.database.executeSql('select id from attendees where uid = $1', [
        generated.attendees[0]!.uid,
      ])
    ).rows;
    await t.database.executeSql(
      `insert into orders (event_id, attendee_id, pricing_button_index, button_text, items, amount,
         currency, status, client_request_id)
       values ($1, $2, 0, 'All photos', '"all"', 500, 'USD', 'paid', 'backup-1')`,
      [event.id, attendee!.id],
    );

    // The owner call writes a backup inside the running server (super users only).
    const refused = await t.call(endpoints.backupCreate, {}, as(world.adminA));
    expect(refused.statusCode).toBe(403);
    const viaApi = await t.ok(endpoints.backupCreate, { keep: 1 }, superAuth);
    expect(path.dirname(viaApi.path)).toBe(path.join(dataDir, 'backups'));
    const reader = await BackupReader.open(viaApi.path);
    expect(await reader!.verify()).toEqual([]);
    expect(viaApi.objects).toBeGreaterThanOrEqual(6);
    const listed = await t.ok(endpoints.backupList, {}, superAuth);
    expect(listed.backups).toEqual([
      expect.objectContaining({
        path: viaApi.path,
        created_date: viaApi.created_date,
        objects: viaApi.objects,
        rows: viaApi.rows,
      }),
    ]);
    // A second backup in the same second (the test clock stands still) gets a folder of its own,
    // not a 500 from a name that is taken.
    const again = await t.ok(endpoints.backupCreate, {}, superAuth);
    expect(again.created_date).toBe(viaApi.created_date);
    expect(again.path).toBe(`${viaApi.path}-2`);
    expect(await (await BackupReader.open(again.path))!.verify()).toEqual([]);

    before = {
      rows: await rowsFingerprint(t.database),
      objects: await objectsFingerprint(t.app.container.storage),
    };
  } finally {
    await t.close();
  }
}, 180_000);

afterAll(async () => {
  for (const drop of drops) await drop();
  drops = [];
  await rm(work, { recursive: true, force: true });
});

describe('backup and restore', () => {
  let backupPath: string;

  it('backs up with the CLI: a manifest with the schema, the engine and every file’s SHA-256', async () => {
    const made = await cli('backup', 'create', '--to', path.join(work, 'backups'));
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    const [line] = made.stdout.split('\n');
    backupPath = /Backup written to (.+?): /.exec(line!)![1]!;
    const reader = await BackupReader.open(backupPath);
    expect(reader!.manifest).toMatchObject({
      format: 'flashbulb-backup',
      version: 1,
      engine: onPostgres ? 'postgres' : 'pglite',
      storage: 'local',
      secret: { fingerprint: expect.stringMatching(/^[0-9a-f]{16}$/) as unknown },
    });
    expect(reader!.manifest.schema.migrations).toBeGreaterThan(20);
    expect(reader!.manifest.database.tables['public.photos']).toBe(2);
    expect(reader!.manifest.objects.count).toBe(Object.keys(before.objects).length);
    // No secret in the backup when it comes from the environment.
    expect(await readFile(path.join(backupPath, 'database.ndjson'), 'utf8')).not.toContain(SECRET);
  }, 120_000);

  it('restores onto a wiped install: every row and object byte-equal, and a server starts on it', async () => {
    // A backup with one object changed: reported by name, nothing restored.
    const corrupt = path.join(work, 'corrupt');
    await cp(backupPath, corrupt, { recursive: true });
    const reader = await BackupReader.open(corrupt);
    const victim = (await (async () => {
      for await (const entry of reader!.objects())
        if (entry.key.endsWith('thumbnail.jpg')) return entry.key;
      return null;
    })())!;
    const victimFile = path.join(corrupt, 'objects', ...victim.split('/'));
    const bytes = await readFile(victimFile);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3);
    await writeFile(victimFile, bytes);

    // Wipe: the data folder goes, the database is a new empty one.
    await rm(dataDir, { recursive: true, force: true });
    databaseUrl = await newDatabaseUrl();

    const refused = await cli('backup', 'restore', '--from', corrupt);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`checksum_mismatch: ${victim}`);
    expect(refused.stderr).toContain('backup_corrupt');
    expect(refused.stderr.match(/checksum_mismatch: /g)).toHaveLength(1);
    expect(await filesUnder(path.join(dataDir, 'storage', 'objects'))).toEqual([]);
    expect(await stat(path.join(dataDir, 'db', 'PG_VERSION')).catch(() => null)).toBeNull();
    expect(await publicTables()).toBe(0);

    // A backup of a newer schema than this code: refused before anything is read.
    const newer = path.join(work, 'newer');
    await cp(backupPath, newer, { recursive: true });
    const manifest = JSON.parse(
      await readFile(path.join(newer, 'manifest.json'), 'utf8'),
    ) as BackupManifest;
    manifest.schema.last_created_at = 4_102_444_800_000;
    manifest.schema.migrations += 1;
    await writeFile(path.join(newer, 'manifest.json'), JSON.stringify(manifest));
    const tooNew = await cli('backup', 'restore', '--from', newer);
    expect(tooNew.code).toBe(1);
    expect(tooNew.stderr).toContain('backup_schema_newer');

    // Under another secret key than the backup's: sealed secrets would not open. Refused.
    cliSecret = 'another-secret-key-that-is-long-enough-9876543210';
    const wrongKey = await cli('backup', 'restore', '--from', backupPath).finally(() => {
      cliSecret = SECRET;
    });
    expect(wrongKey.code).toBe(1);
    expect(wrongKey.stderr).toContain('backup_secret_mismatch');
    expect(await publicTables()).toBe(0);
    expect(await filesUnder(path.join(dataDir, 'storage', 'objects'))).toEqual([]);

    const restored = await cli('backup', 'restore', '--from', backupPath);
    expect(restored.stderr).toBe('');
    expect(restored.code).toBe(0);
    expect(restored.stdout).toContain('Restored');

    // What the rows name is in storage, and the originals hash to their recorded SHA-256.
    const integrity = await cli('integrity', 'check');
    expect(integrity.stdout).toContain('missing: 0, untracked: 0, checksum mismatches: 0');
    expect(integrity.stdout).toContain('2 checksums verified');
    expect(integrity.code).toBe(0);

    // Over data, without --force: refused.
    const again = await cli('backup', 'restore', '--from', backupPath);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('backup_target_not_empty');
    // With --force it restores over it (the embedded database's old folder is kept aside).
    const forced = await cli('backup', 'restore', '--from', backupPath, '--force');
    expect(forced.stderr).toBe('');
    expect(forced.code).toBe(0);
    if (!onPostgres) expect(forced.stdout).toMatch(/kept as .*db\.before-restore-/);

    const t = await createTestApp(appEnv(), { onDisk: { dataDir } });
    try {
      expect(await rowsFingerprint(t.database)).toEqual(before.rows);
      expect(await objectsFingerprint(t.app.container.storage)).toEqual(before.objects);
      // The restored install answers: the admin's API key, the event's photos, ready.
      const list = await t.ok(
        endpoints.ownerPhotoList,
        { event_id: eventId, max_size: 100, page_number: 1 },
        adminAuth,
      );
      expect(list.photos.map((p) => p.id).sort()).toEqual([...photoIds].sort());
      expect(list.photos.every((p) => p.status === 'ready')).toBe(true);
      // New rows continue the restored sequences.
      const org = await t.ok(endpoints.createOrganisation, { name: 'After Restore' }, superAuth);
      expect(org.id).toBeGreaterThan(2);
    } finally {
      await t.close();
    }
  }, 240_000);
});

describe('restore into the running server, and scheduled backups', () => {
  let t: Awaited<ReturnType<typeof createTestApp>>;
  let liveDir: string;
  let superUser: { authorization: string };
  let admin: { authorization: string };
  let liveEventId: number;

  beforeAll(async () => {
    liveDir = path.join(work, 'live');
    databaseUrl = await newDatabaseUrl();
    t = await createTestApp(appEnv(), { onDisk: { dataDir: liveDir } });
    const { world, robot, robotId } = await createRobotWorld(t);
    superUser = await apiKeyAuth(t, world.superUser);
    admin = as(world.adminA);
    const event = await createEvent(t, world.adminA, { robot_id_array: [robotId] });
    liveEventId = event.id;
    const photo = await uploadPhoto(
      t,
      robot,
      event.name,
      await makeJpeg({ width: 64, height: 48 }),
    );
    await waitForReady(t, world.adminA.authorization, event.id, photo.id);
  }, 180_000);
  afterAll(async () => {
    await t?.close();
  });

  it('restores a backup through the call: verified, maintenance meanwhile, every row and object back', async () => {
    const storage = t.app.container.storage;
    const objectsBefore = await objectsFingerprint(storage);
    const backup = await t.ok(endpoints.backupCreate, {}, superUser);
    // The rows as the backup holds them (its own run is recorded after the snapshot).
    const withoutRuns = ({ backup_runs: _runs, ...rows }: Record<string, string>) => rows;
    const rowsBefore = withoutRuns(await rowsFingerprint(t.database));

    // After the backup: a new organisation, an original's bytes changed, a thumbnail deleted,
    // an object the backup never saw.
    await t.ok(endpoints.createOrganisation, { name: 'Made After The Backup' }, superUser);
    const keys = Object.keys(objectsBefore);
    const original = keys.find((k) => /\/original\.[a-z]+$/.test(k))!;
    const thumbnail = keys.find((k) => k.endsWith('thumbnail.jpg'))!;
    await storage.put(original, Buffer.from('damaged bytes'), 'image/jpeg');
    await storage.delete(thumbnail);
    const later = `archive/made-after-the-backup.jpg`;
    await storage.put(later, Buffer.from('later'), 'image/jpeg');
    const rowsChanged = await rowsFingerprint(t.database);
    const objectsChanged = await objectsFingerprint(storage);

    // Refused, each changing nothing: not a super user; a folder outside the server's backups;
    // a copy with one object corrupted (named); uploads completing.
    expect(
      errorOf(await t.call(endpoints.backupRestore, { path: backup.path }, admin)),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(errorOf(await t.call(endpoints.backupRestore, { path: work }, superUser))).toMatchObject(
      { status: 404, message_key: 'backup_not_found' },
    );
    const corrupt = `${backup.path}-9`;
    await cp(backup.path, corrupt, { recursive: true });
    const victim = path.join(corrupt, 'objects', ...thumbnail.split('/'));
    const bytes = await readFile(victim);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 3) ^ 0xff, bytes.length - 3);
    await writeFile(victim, bytes);
    const refused = await t.call(endpoints.backupRestore, { path: corrupt }, superUser);
    expect(errorOf(refused)).toMatchObject({
      status: 409,
      message_key: 'backup_corrupt',
      field: thumbnail,
    });
    await rm(corrupt, { recursive: true, force: true });
    await t.database.executeSql(
      `insert into upload_claims (upload_key, claimed_at) values ('tmp/in-flight', now())`,
      [],
    );
    expect(
      errorOf(await t.call(endpoints.backupRestore, { path: backup.path }, superUser)),
    ).toMatchObject({ status: 409, message_key: 'backup_busy' });
    await t.database.executeSql(`delete from upload_claims`, []);
    expect(await rowsFingerprint(t.database)).toEqual(rowsChanged);
    expect(await objectsFingerprint(storage)).toEqual(objectsChanged);

    // While it restores, other callers get 503 `maintenance`; health still answers.
    const gate = t.app.container.maintenance;
    const enter = gate.enter.bind(gate);
    const during: { status: number; message_key?: string }[] = [];
    let health = 0;
    let page = { status: 0, type: '', body: '' };
    const spy = vi.spyOn(gate, 'enter').mockImplementation(async (own, timeoutMs) => {
      const quiet = await enter(own, timeoutMs);
      during.push(errorOf(await t.call(endpoints.backupList, {}, superUser)));
      health = (await t.app.inject({ method: 'GET', url: '/api/health' })).statusCode;
      const opened = await t.app.inject({
        method: 'GET',
        url: '/attendee/SOMEONE',
        headers: { accept: 'text/html' },
      });
      page = {
        status: opened.statusCode,
        type: String(opened.headers['content-type']),
        body: opened.body,
      };
      return quiet;
    });
    try {
      const restored = await t.ok(endpoints.backupRestore, { path: backup.path }, superUser);
      expect(restored.objects).toBe(2);
    } finally {
      spy.mockRestore();
    }
    expect(during).toEqual([expect.objectContaining({ status: 503, message_key: 'maintenance' })]);
    expect(health).toBe(200);
    // A guest opening a page gets a page saying so, not the API's envelope.
    expect(page.status).toBe(503);
    expect(page.type).toContain('text/html');
    expect(page.body).toContain('being restored from a backup');

    // Back as it was at the backup, byte for byte; the object made later is left (untracked).
    expect(withoutRuns(await rowsFingerprint(t.database))).toEqual(rowsBefore);
    const objectsAfter = await objectsFingerprint(storage);
    expect(Object.keys(objectsAfter).sort()).toEqual([...keys, later].sort());
    for (const key of keys) expect(objectsAfter[key]).toBe(objectsBefore[key]);
    // And it serves on: the photos of the restored event, a new row after the restored ones.
    const list = await t.ok(
      endpoints.ownerPhotoList,
      { event_id: liveEventId, max_size: 10, page_number: 1 },
      admin,
    );
    expect(list.photos).toHaveLength(1);
    const org = await t.ok(endpoints.createOrganisation, { name: 'After Live Restore' }, superUser);
    expect(org.id).toBeGreaterThan(2);
  }, 180_000);

  it('backs up on its schedule when the job fires, and keeps the newest N', async () => {
    const initial = await t.ok(endpoints.backupScheduleGet, {}, superUser);
    expect(initial).toMatchObject({ schedule: { kind: 'off' }, next_run_date: null });
    expect(
      errorOf(
        await t.call(
          endpoints.backupScheduleSet,
          { schedule: { kind: 'hours', every: 6 }, keep: 2 },
          admin,
        ),
      ),
    ).toMatchObject({ status: 403, message_key: 'forbidden' });
    expect(
      errorOf(
        await t.call(
          endpoints.backupScheduleSet,
          { schedule: { kind: 'daily', at: '25:00' }, keep: 2 },
          superUser,
        ),
      ),
    ).toMatchObject({ status: 400, message_key: 'invalid_value' });
    expect(await t.ok(endpoints.backupScheduleGet, {}, superUser)).toEqual(initial);

    const saved = await t.ok(
      endpoints.backupScheduleSet,
      { schedule: { kind: 'hours', every: 6 }, keep: 2 },
      superUser,
    );
    const savedAt = t.clock.now().getTime();
    expect(saved).toMatchObject({
      schedule: { kind: 'hours', every: 6 },
      keep: 2,
      next_run_date: new Date(savedAt + 6 * 3_600_000).toISOString(),
    });

    const job = bindJob(backupScheduledJob, { backups: t.app.container.services.backups });
    // Not due yet: nothing written.
    expect(await job.run({})).toEqual({ ran: false });
    for (let n = 1; n <= 3; n += 1) {
      t.clock.advance(6 * 3_600_000);
      expect(await job.run({})).toEqual({ ran: true });
      expect(await job.run({})).toEqual({ ran: false });
    }
    const state = await t.ok(endpoints.backupScheduleGet, {}, superUser);
    expect(state.last_run).toMatchObject({ trigger: 'schedule', result: 'ok', error: null });
    expect(state.last_run!.bytes).toBeGreaterThan(0);
    expect(state.last_run!.started_date).toBe(t.clock.now().toISOString());
    expect(state.next_run_date).toBe(
      new Date(t.clock.now().getTime() + 6 * 3_600_000).toISOString(),
    );
    const listed = await t.ok(endpoints.backupList, {}, superUser);
    expect(listed.backups).toHaveLength(2);
    expect(listed.backups[0]!.path).toBe(state.last_run!.path);
    for (const backup of listed.backups)
      expect(await (await BackupReader.open(backup.path))!.verify()).toEqual([]);
  }, 180_000);
});
