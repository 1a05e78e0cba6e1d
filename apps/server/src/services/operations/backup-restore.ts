import { createHash } from 'node:crypto';
import nodePath from 'node:path';
import { Transform } from 'node:stream';
import type { SchemaVersion } from '../../db/logical-backup.ts';
import type { RestoreTarget } from '../../db/restore-target.ts';
import { AppError } from '../../lib/app-error.ts';
import {
  BACKUP_VERSION,
  BackupReader,
  listBackups,
  type BackupObjectEntry,
  type BackupProblem,
} from '../../repositories/operations/backup-folder.ts';
import {
  RESTORE_UNDO_ROOT,
  isTransient,
  rowsOf,
  secretFingerprint,
  stampOf,
  type BackupDeps,
  type LiveRestore,
} from './backup-archive.ts';

/** How long a restore into the running server waits for the requests already running. */
const QUIET_TIMEOUT_MS = 10_000;
/** How often it asks whether the running jobs have ended. */
const JOB_POLL_MS = 200;

/** A backup whose files or objects do not match their checksums: each named, nothing restored. */
export class BackupCorruptError extends AppError {
  constructor(readonly problems: BackupProblem[]) {
    super('backup_corrupt', problems.map((p) => p.name).join(', '));
  }
}

export interface RestoreResult {
  objects: number;
  rows: number;
  schema: SchemaVersion;
  /** PGlite: the previous database folder, moved aside (`--force` over an install). */
  kept_aside: string | null;
}

/** The key a backup was made under: its own key file's, else the fingerprint it recorded. */
const fingerprintOf = async (reader: BackupReader): Promise<string> => {
  const backupSecret = await reader.readSecret();
  if (backupSecret !== null) return secretFingerprint(backupSecret);
  return 'fingerprint' in reader.manifest.secret ? reader.manifest.secret.fingerprint : '';
};

/**
 * Restoring backups (ADR 0011): the backup's own refusals, the target's, and the two ways in —
 * into a stopped install (the CLI: objects, then the database at once, then the key file) and
 * into the running server (objects kept aside until the database is in). Who may ask is
 * `backup.service.ts`'s.
 */
export class BackupRestorer {
  constructor(private readonly deps: BackupDeps) {}

  /** A complete backup folder directly inside the server's backup folder, or `backup_not_found`. */
  async serverBackup(given: string): Promise<string> {
    const resolved = nodePath.resolve(this.deps.serverFolder, given);
    const inside = (await listBackups(this.deps.serverFolder)).includes(resolved);
    if (!inside) throw new AppError('backup_not_found', 'path');
    return resolved;
  }

  /**
   * One of the server's own backups into the running server. Verified first while the server
   * serves on; then maintenance (503 `maintenance` to others) once running requests have ended,
   * refused while jobs run or uploads complete; the objects written (a replaced one kept aside
   * until the end), then the database in one transaction; a failure puts the objects back and
   * leaves the database as it was.
   */
  async restoreLive(
    live: LiveRestore,
    from: string,
  ): Promise<{ objects: number; rows: number; duration_ms: number }> {
    const started = this.deps.clock.now();
    const reader = await this.verifiedBackup(from);
    // The running server keeps its key: a backup made under another one would not open.
    const fingerprint = await fingerprintOf(reader);
    const current = await this.deps.secret.current();
    if (fingerprint !== '' && (current === null || secretFingerprint(current) !== fingerprint))
      throw new AppError('backup_secret_mismatch', 'path');
    if (!(await live.enterMaintenance(1, QUIET_TIMEOUT_MS))) throw new AppError('backup_busy');
    try {
      await this.waitForQuiet(live);
      const objects = await this.restoreObjectsLive(reader, started);
      try {
        await live.restoreDatabase({
          lines: reader.databaseLines(),
          summary: {
            tables: reader.manifest.database.tables,
            sequences: reader.manifest.database.sequences,
            schema: reader.manifest.schema,
          },
        });
      } catch (error) {
        await objects.undo();
        throw error;
      }
      await objects.done();
      return {
        objects: objects.written,
        rows: rowsOf(reader.manifest),
        duration_ms: Math.max(0, this.deps.clock.now().getTime() - started.getTime()),
      };
    } finally {
      live.leaveMaintenance();
    }
  }

  /**
   * Uploads completing refuse the restore at once (their objects and rows would be cut apart);
   * running jobs are given the quiet time to end (no new request can start one meanwhile).
   */
  private async waitForQuiet(live: LiveRestore): Promise<void> {
    const deadline = Date.now() + QUIET_TIMEOUT_MS;
    for (;;) {
      const busy = await live.inFlight();
      if (busy.uploads > 0) throw new AppError('backup_busy');
      if (busy.jobs === 0) return;
      if (Date.now() > deadline) throw new AppError('backup_busy');
      await new Promise((resolve) => setTimeout(resolve, JOB_POLL_MS));
    }
  }

  /** The backup's own refusals: unreadable, newer format or schema, files not as recorded. */
  private async verifiedBackup(from: string): Promise<BackupReader> {
    const reader = await BackupReader.open(from);
    if (!reader) throw new AppError('backup_not_found', 'from');
    const { manifest } = reader;
    if (manifest.version > BACKUP_VERSION) throw new AppError('backup_version_unsupported', 'from');
    const known = this.deps.knownSchema();
    if (
      manifest.schema.migrations > known.count ||
      (manifest.schema.last_created_at ?? 0) > (known.last_created_at ?? 0)
    )
      throw new AppError('backup_schema_newer', 'from');
    const problems = await reader.verify();
    if (problems.length > 0) throw new BackupCorruptError(problems);
    return reader;
  }

  /**
   * The backup's objects into live storage: one already there with the same bytes is left, one
   * with other bytes is copied aside first (`restore-undo/<stamp>/`), each written one hashed
   * again as it streams. `undo` puts storage back as it was; `done` drops the copies.
   */
  private async restoreObjectsLive(reader: BackupReader, started: Date) {
    const { storage } = this.deps;
    const aside = `${RESTORE_UNDO_ROOT}${stampOf(started)}/`;
    const added: string[] = [];
    const replaced: string[] = [];
    const undo = async () => {
      for (const key of replaced) await storage.copy(`${aside}${key}`, key).catch(() => undefined);
      for (const key of added) await storage.delete(key).catch(() => undefined);
      await storage.deletePrefix(aside).catch(() => undefined);
    };
    try {
      for await (const entry of reader.objects()) {
        const present = await this.sha256Of(entry.key);
        if (present === entry.sha256) continue;
        if (present !== null) {
          await storage.copy(entry.key, `${aside}${entry.key}`);
          replaced.push(entry.key);
        } else added.push(entry.key);
        if (!(await this.restoredByVersion(entry))) await this.putVerified(reader, entry);
      }
    } catch (error) {
      await undo();
      throw error;
    }
    return {
      written: added.length + replaced.length,
      undo,
      done: () => storage.deletePrefix(aside).catch(() => undefined),
    };
  }

  /** One object from the backup into storage, hashed as it streams; other bytes are refused. */
  private async putVerified(
    reader: BackupReader,
    entry: { key: string; sha256: string; content_type: string; cache_control: string },
  ): Promise<void> {
    const hash = createHash('sha256');
    const hashed = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        hash.update(chunk);
        done(null, chunk);
      },
    });
    await this.deps.storage.put(
      entry.key,
      reader.openObject(entry.key).pipe(hashed),
      entry.content_type,
      {
        cacheControl: entry.cache_control,
      },
    );
    // Verified a moment ago; a file changed since then is not taken either.
    if (hash.digest('hex') !== entry.sha256)
      throw new BackupCorruptError([{ name: entry.key, problem: 'checksum_mismatch' }]);
  }

  /**
   * A versioned S3 bucket that still has the object's backed-up version: that version made
   * current again (a copy inside the bucket), taken only if its bytes hash as the manifest says.
   * False: the backup's own copy is written instead.
   */
  private async restoredByVersion(entry: BackupObjectEntry): Promise<boolean> {
    const { storage } = this.deps;
    if (!entry.version_id || !storage.restoreVersion) return false;
    if (!(await storage.restoreVersion(entry.key, entry.version_id))) return false;
    return (await this.sha256Of(entry.key)) === entry.sha256;
  }

  /** The SHA-256 of a stored object's bytes (streamed), or null when there is none. */
  private async sha256Of(key: string): Promise<string | null> {
    const object = await this.deps.storage.get(key);
    if (!object) return null;
    const hash = createHash('sha256');
    for await (const chunk of object.body) hash.update(chunk as Buffer);
    return hash.digest('hex');
  }

  /** Every refusal before anything is touched: the folder, its schema, its checksums, the target. */
  async checkRestore(
    from: string,
    target: RestoreTarget,
    force: boolean,
  ): Promise<{ reader: BackupReader }> {
    const reader = await this.verifiedBackup(from);
    if (!force) {
      if (!(await target.isEmpty())) throw new AppError('backup_target_not_empty', 'database');
      if (await this.storageHasObjects()) throw new AppError('backup_target_not_empty', 'storage');
      const backupFingerprint = await fingerprintOf(reader);
      // Sealed secrets and signed links rest on the key: restoring under another one breaks them.
      // A key file in the backup is installed with it; a key from the environment must be given.
      const installs = (await reader.readSecret()) !== null && !this.deps.secret.fromEnvironment;
      if (backupFingerprint !== '' && !installs) {
        const current = await this.deps.secret.current();
        if (current === null || secretFingerprint(current) !== backupFingerprint)
          throw new AppError('backup_secret_mismatch', 'secret');
      }
    }
    return { reader };
  }

  /**
   * Restores a verified backup into a stopped install: objects first (each hashed again as it is
   * written; a mismatch undoes the objects written so far), then the database all at once
   * (PGlite: a new folder swapped in; PostgreSQL: one transaction), then the secret key file.
   */
  async restore(from: string, target: RestoreTarget, force: boolean): Promise<RestoreResult> {
    const { reader } = await this.checkRestore(from, target, force);
    const { storage } = this.deps;
    const written: string[] = [];
    try {
      for await (const entry of reader.objects()) {
        // Listed before the write: a write refused half-way is undone with the others.
        written.push(entry.key);
        if (!(await this.restoredByVersion(entry))) await this.putVerified(reader, entry);
      }
      const { keptAside } = await target.restore({
        lines: reader.databaseLines(),
        summary: {
          tables: reader.manifest.database.tables,
          sequences: reader.manifest.database.sequences,
          schema: reader.manifest.schema,
        },
      });
      const secret = await reader.readSecret();
      if (secret !== null && !this.deps.secret.fromEnvironment)
        await this.deps.secret.install(secret);
      return {
        objects: written.length,
        rows: rowsOf(reader.manifest),
        schema: reader.manifest.schema,
        kept_aside: keptAside,
      };
    } catch (error) {
      if (!force) for (const key of written) await storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  private async storageHasObjects(): Promise<boolean> {
    for await (const listed of this.deps.storage.list('')) {
      if (!isTransient(listed.key)) return true;
    }
    return false;
  }
}
