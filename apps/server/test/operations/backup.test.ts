import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cp, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { endpoints } from '@flashbulb/shared';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.ts';
import {
  BackupReader,
  type BackupManifest,
} from '../../src/repositories/operations/backup-folder.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';
import { apiKeyAuth, as, createEvent, createRobotWorld } from '../helpers/events.ts';
import { makeJpeg, uploadPhoto, waitForReady } from '../helpers/photos.ts';
import { createEmptyPgDatabase, createTestApp } from '../helpers/test-app.ts';

/**
 * Backup and restore end to end, on the engine of the project: data made through the API, a
 * backup by the CLI, the data folder (and database) wiped, a restore by the CLI, and every row
 * and object compared byte for byte; a server starts on the restored install. A backup with one
 * object corrupted, one from a newer schema and a restore over data are refused, changing nothing.
 */

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../../..');
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

const cli = async (...args: string[]) => {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_SECRET_KEY: cliSecret,
    LOG_LEVEL: 'silent',
  };
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  try {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'apps/server/src/cli/main.ts', ...args],
      { cwd: root, env },
    );
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
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
