import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DeleteObjectCommand, ListObjectVersionsCommand } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestoreTarget } from '../../src/db/restore-target.ts';
import { BackupReader } from '../../src/repositories/operations/backup-folder.ts';
import { BackupArchive, type BackupDeps } from '../../src/services/operations/backup-archive.ts';
import {
  BackupCorruptError,
  BackupRestorer,
} from '../../src/services/operations/backup-restore.ts';
import { S3Storage, type S3StorageConfig } from '../../src/storage/s3-storage.ts';
import type { StorageRepository } from '../../src/storage/storage.repository.ts';
import {
  startS3VersionedDouble,
  type S3VersionedDouble,
} from '../doubles/s3/s3-versioned-double.ts';

/**
 * Backups read and restore objects through the storage interface, so an S3 bucket backs up and
 * restores like local disk: every object with its bytes, content type and cache control. The
 * database side is faked here (backup.test.ts covers it on both engines).
 */

const BUCKETS = ['source', 'restored', 'untouched'];
let dir: string;
let server: S3rver;
let endpoint: string;
const opened: S3Storage[] = [];

const bucket = (name: string, at = endpoint): S3Storage => {
  const config: S3StorageConfig = {
    bucket: name,
    region: 'us-east-1',
    endpoint: at,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
    publicUrl: undefined,
  };
  const storage = new S3Storage(config);
  opened.push(storage);
  return storage;
};

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-backup-s3-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: path.join(dir, 's3'),
    configureBuckets: BUCKETS.map((name) => ({ name })),
  });
  const { port } = await server.run();
  endpoint = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  for (const storage of opened) await storage.close();
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const deps = (storage: StorageRepository): BackupDeps => ({
  engine: 'postgres',
  storage,
  dumpDatabase: () =>
    Promise.resolve({ tables: {}, sequences: [], schema: { migrations: 1, last_created_at: 1 } }),
  knownSchema: () => ({ count: 1, last_created_at: 1 }),
  secret: {
    fromEnvironment: true,
    current: () => Promise.resolve('s3-backup-test-secret-0123456789abcdef'),
    install: () => Promise.reject(new Error('not in this test')),
  },
  clock: { now: () => new Date() },
  serverFolder: path.join(dir, 'backups'),
});
const archive = (storage: StorageRepository) => new BackupArchive(deps(storage));
const restorer = (storage: StorageRepository) => new BackupRestorer(deps(storage));

const emptyTarget = (): RestoreTarget & { restored: number } => ({
  engine: 'postgres',
  restored: 0,
  isEmpty: () => Promise.resolve(true),
  schemaVersion: () => Promise.resolve({ migrations: 0, last_created_at: null }),
  restore() {
    this.restored += 1;
    return Promise.resolve({ keptAside: null });
  },
  close: () => Promise.resolve(),
});

const contents = async (storage: StorageRepository) => {
  const out: Record<string, string> = {};
  for await (const listed of storage.list('')) {
    const object = (await storage.get(listed.key))!;
    const hash = createHash('sha256');
    for await (const chunk of object.body) hash.update(chunk as Buffer);
    out[listed.key] = `${hash.digest('hex')} ${object.contentType} ${object.cacheControl}`;
  }
  return out;
};

describe('backups of an S3 bucket', () => {
  it('backs every object up and restores it into an empty bucket; a damaged copy is refused', async () => {
    const source = bucket('source');
    await source.put(
      'protected/events/ABCD/photos/uid_1_uid/original.jpg',
      Buffer.alloc(5000, 7),
      'image/jpeg',
    );
    await source.put(
      'events/ABCD/photos/uid_1_uid/thumbnail.jpg',
      Buffer.from('thumb'),
      'image/jpeg',
      {
        cacheControl: 'public, max-age=31536000, immutable',
      },
    );
    await source.put('data/ABCD.json', Buffer.from('{"a":1}'), 'application/json');
    const before = await contents(source);

    const made = await archive(source).create(path.join(dir, 'backups'));
    expect(made.objects).toBe(3);
    const reader = (await BackupReader.open(made.path))!;
    expect(reader.manifest.storage).toBe('s3');
    expect(await reader.verify()).toEqual([]);

    const restored = bucket('restored');
    const target = emptyTarget();
    await restorer(restored).restore(made.path, target, false);
    expect(target.restored).toBe(1);
    expect(await contents(restored)).toEqual(before);

    // One byte of one object changed in the backup: named, and the empty bucket stays empty.
    const victim = path.join(made.path, 'objects', 'data', 'ABCD.json');
    await writeFile(victim, (await readFile(victim)).toString().replace('1', '2'));
    const untouched = bucket('untouched');
    const refusedTarget = emptyTarget();
    const refused = await restorer(untouched)
      .restore(made.path, refusedTarget, false)
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(BackupCorruptError);
    expect((refused as BackupCorruptError).problems).toEqual([
      { name: 'data/ABCD.json', problem: 'checksum_mismatch' },
    ]);
    expect(refusedTarget.restored).toBe(0);
    expect(await contents(untouched)).toEqual({});
  }, 60_000);
});

describe('backups of a versioned S3 bucket', () => {
  let double: S3VersionedDouble;
  beforeAll(async () => {
    double = await startS3VersionedDouble(['live']);
  });
  afterAll(async () => {
    await double?.close();
  });

  it('records each object’s version id and restores by it; a version the bucket lost comes from the copy', async () => {
    const live = bucket('live', double.url);
    const original = 'protected/events/ABCD/photos/uid_1_uid/original.jpg';
    const thumb = 'events/ABCD/photos/uid_1_uid/thumbnail.jpg';
    const data = 'data/ABCD.json';
    await live.put(original, Buffer.alloc(4000, 1), 'image/jpeg');
    // The backup takes the newest version.
    await live.put(original, Buffer.alloc(5000, 7), 'image/jpeg');
    await live.put(thumb, Buffer.from('thumb'), 'image/jpeg', {
      cacheControl: 'public, max-age=31536000, immutable',
    });
    await live.put(data, Buffer.from('{"a":1}'), 'application/json');
    const before = await contents(live);

    const made = await archive(live).create(path.join(dir, 'versioned-backups'));
    expect(made.objects).toBe(3);
    const reader = (await BackupReader.open(made.path))!;
    const entries = new Map<string, string | undefined>();
    for await (const entry of reader.objects()) entries.set(entry.key, entry.version_id);
    // The manifest's version ids are the bucket's current versions (ListObjectVersions).
    const listed = await live.client.send(
      new ListObjectVersionsCommand({ Bucket: 'live', Prefix: '' }),
    );
    const latest = new Map(
      (listed.Versions ?? []).filter((v) => v.IsLatest).map((v) => [v.Key!, v.VersionId!]),
    );
    expect(Object.fromEntries(entries)).toEqual(Object.fromEntries(latest));
    expect(double.versions('live', original)).toHaveLength(2);

    // Afterwards one object is overwritten and one deleted (a delete marker on top).
    await live.put(original, Buffer.from('overwritten'), 'image/jpeg');
    await live.delete(thumb);
    expect(await contents(live)).not.toEqual(before);

    const from = double.requests.length;
    await restorer(live).restore(made.path, emptyTarget(), true);
    expect(await contents(live)).toEqual(before);
    // Restored by version inside the bucket: copies of the recorded versions, no bytes uploaded.
    const restoring = double.requests.slice(from).filter((r) => r.method === 'PUT');
    expect(restoring.filter((r) => !r.copySource)).toEqual([]);
    expect(
      restoring.map((r) => decodeURIComponent(r.copySource!).replace(/^\/?live\//, '')).sort(),
    ).toEqual([...entries].map(([key, version]) => `${key}?versionId=${version}`).sort());

    // The bucket lost the backed-up version of one object for good: that one comes from the copy.
    await live.client.send(
      new DeleteObjectCommand({ Bucket: 'live', Key: data, VersionId: entries.get(data)! }),
    );
    await live.put(data, Buffer.from('{"a":2}'), 'application/json');
    const again = double.requests.length;
    await restorer(live).restore(made.path, emptyTarget(), true);
    expect(await contents(live)).toEqual(before);
    const uploads = double.requests.slice(again).filter((r) => r.method === 'PUT' && !r.copySource);
    expect(uploads.map((r) => r.key)).toEqual([data]);
  }, 60_000);
});
