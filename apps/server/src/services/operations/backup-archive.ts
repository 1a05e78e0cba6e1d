import { createHmac } from 'node:crypto';
import type { BackupSummary } from '@flashbulb/shared';
import type { DumpSummary } from '../../db/logical-backup.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupReader,
  BackupWriter,
  listBackups,
  removeBackup,
  type BackupManifest,
} from '../../repositories/operations/backup-folder.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/**
 * Objects never worth keeping: the readiness check's (written and deleted at once) and the
 * copies a restore into the running server keeps aside until it is done.
 */
export const RESTORE_UNDO_ROOT = 'restore-undo/';
const TRANSIENT_ROOTS = ['ready-check/', RESTORE_UNDO_ROOT];

export const isTransient = (key: string) => TRANSIENT_ROOTS.some((root) => key.startsWith(root));

/** `2026-11-27T07:50:01.123Z` → `20261127T075001123Z`: sorts by time, safe in a file name. */
export const stampOf = (date: Date): string => date.toISOString().replace(/[-:.]/g, '');

/** Who may hold the secret's fingerprint: it names the key without revealing it. */
export const secretFingerprint = (secret: string): string =>
  createHmac('sha256', secret).update('flashbulb backup fingerprint v1').digest('hex').slice(0, 16);

/** Every row a backup holds, over all its tables. */
export const rowsOf = (manifest: BackupManifest): number =>
  Object.values(manifest.database.tables).reduce((a, b) => a + b, 0);

export interface BackupResult {
  path: string;
  created_at: string;
  duration_ms: number;
  bytes: number;
  objects: number;
  rows: number;
}

/** The install's secret key: where it lives decides what a backup carries. */
export interface SecretAccess {
  /** The key this install uses now (null: none made yet, a fresh data folder). */
  current(): Promise<string | null>;
  /** True when it comes from FLASHBULB_SECRET_KEY (never copied into a backup). */
  readonly fromEnvironment: boolean;
  /** Writes the data folder's key file (embedded installs). */
  install(secret: string): Promise<void>;
}

/** What a restore into the running server needs of it (container/operations.ts). */
export interface LiveRestore {
  /**
   * Maintenance on (other requests answered 503 `maintenance`) once the requests already running
   * but `own` have ended; false (and maintenance off) when they did not within the time given.
   */
  enterMaintenance(own: number, timeoutMs: number): Promise<boolean>;
  leaveMaintenance(): void;
  /** What is in flight that a restore must not cut: running jobs, upload completions. */
  inFlight(): Promise<{ jobs: number; uploads: number }>;
  /** The dump into the open database, all or nothing, then this code's newer migrations. */
  restoreDatabase(input: { lines: AsyncIterable<string>; summary: DumpSummary }): Promise<void>;
}

/**
 * One install as backups see it (container/operations-backup.ts), shared by the archive and the
 * restorer.
 */
export interface BackupDeps {
  engine: 'pglite' | 'postgres';
  storage: StorageRepository;
  /** Streams every row of one consistent snapshot through `write` (db/logical-backup.ts). */
  dumpDatabase(write: (text: string) => Promise<void>): Promise<DumpSummary>;
  /** This code's newest migration: a backup from a newer one is refused. */
  knownSchema(): { count: number; last_created_at: number | null };
  secret: SecretAccess;
  clock: Clock;
  /** Where the owner call writes (`<data dir>/backups`): never a folder a caller names. */
  serverFolder: string;
}

/**
 * Making backups (docs/deploy.md "Backups"; ADR 0011): what a backup folder holds, the folder's
 * listing and retention. Who may ask and when is `backup.service.ts`'s.
 */
export class BackupArchive {
  constructor(private readonly deps: BackupDeps) {}

  /** Writes a complete backup folder into `parent`, or nothing (a failed run removes its files). */
  async create(parent: string): Promise<BackupResult> {
    const { storage, clock } = this.deps;
    const started = clock.now();
    const writer = await BackupWriter.create(parent, stampOf(started));
    try {
      // The rows first, in one snapshot; then the objects: an object the rows name was written
      // before the snapshot, so it is there unless it was deleted meanwhile (then `vanished`).
      const summary = await this.deps.dumpDatabase((text) => writer.database.write(text));
      const database = await writer.database.finish();
      let count = 0;
      let objectBytes = 0;
      const vanished: string[] = [];
      for await (const listed of storage.list('')) {
        if (isTransient(listed.key)) continue;
        const object = await storage.get(listed.key);
        if (!object) {
          vanished.push(listed.key);
          continue;
        }
        const written = await writer.writeObject(listed.key, object.body);
        await writer.objectList.write(
          `${JSON.stringify({
            key: listed.key,
            size: written.bytes,
            sha256: written.sha256,
            content_type: object.contentType,
            cache_control: object.cacheControl,
            ...(object.versionId ? { version_id: object.versionId } : {}),
          })}\n`,
        );
        count += 1;
        objectBytes += written.bytes;
      }
      const objectList = await writer.objectList.finish();
      const secret = await this.deps.secret.current();
      const manifest: BackupManifest = {
        format: BACKUP_FORMAT,
        version: BACKUP_VERSION,
        created_at: started.toISOString(),
        duration_ms: Math.max(0, clock.now().getTime() - started.getTime()),
        engine: this.deps.engine,
        storage: storage.backend,
        schema: summary.schema,
        database: {
          file: 'database.ndjson',
          ...database,
          tables: summary.tables,
          sequences: summary.sequences,
        },
        objects: {
          file: 'objects.ndjson',
          ...objectList,
          count,
          object_bytes: objectBytes,
          vanished,
        },
        secret:
          secret === null || this.deps.secret.fromEnvironment
            ? { fingerprint: secret === null ? '' : secretFingerprint(secret) }
            : await writer.writeSecret(secret),
      };
      const done = await writer.commit(manifest);
      return {
        path: done.path,
        created_at: manifest.created_at,
        duration_ms: manifest.duration_ms,
        bytes: done.bytes,
        objects: count,
        rows: rowsOf(manifest),
      };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  /** The complete backups in the server's folder, newest first (at most 50). */
  async list(): Promise<BackupSummary[]> {
    const backups: BackupSummary[] = [];
    for (const folder of (await listBackups(this.deps.serverFolder)).slice(0, 50)) {
      const reader = await BackupReader.open(folder);
      if (!reader) continue;
      const { manifest } = reader;
      backups.push({
        path: folder,
        created_date: manifest.created_at,
        duration_ms: manifest.duration_ms,
        bytes:
          manifest.database.bytes +
          manifest.objects.bytes +
          manifest.objects.object_bytes +
          ('bytes' in manifest.secret ? manifest.secret.bytes : 0),
        objects: manifest.objects.count,
        rows: rowsOf(manifest),
        engine: manifest.engine,
      });
    }
    return backups;
  }

  /** Removes all but the newest `keep` complete backups in `parent`; answers the removed ones. */
  async prune(parent: string, keep: number): Promise<string[]> {
    const old = (await listBackups(parent)).slice(keep);
    for (const folder of old) await removeBackup(folder);
    return old;
  }
}
