import { createHash, createHmac } from 'node:crypto';
import nodePath from 'node:path';
import { Transform } from 'node:stream';
import type {
  BackupRun,
  BackupSchedule,
  BackupScheduleState,
  BackupSummary,
} from '@flashbulb/shared';
import { isSuperUser } from '../../access/roles.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { DumpSummary, SchemaVersion } from '../../db/logical-backup.ts';
import type { RestoreTarget } from '../../db/restore-target.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import {
  BACKUP_FORMAT,
  BACKUP_VERSION,
  BackupReader,
  BackupWriter,
  listBackups,
  removeBackup,
  type BackupManifest,
  type BackupObjectEntry,
  type BackupProblem,
} from '../../repositories/operations/backup-folder.ts';
import type {
  BackupRunRow,
  BackupRunsRepository,
} from '../../repositories/operations/backup-runs.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { backupDue, nextBackupAt, scheduleSince } from './backup-schedule.ts';

/**
 * Objects never worth keeping: the readiness check's (written and deleted at once) and the
 * copies a restore into the running server keeps aside until it is done.
 */
const RESTORE_UNDO_ROOT = 'restore-undo/';
const TRANSIENT_ROOTS = ['ready-check/', RESTORE_UNDO_ROOT];
/** How long a restore into the running server waits for the requests already running. */
const QUIET_TIMEOUT_MS = 10_000;
/** How often it asks whether the running jobs have ended. */
const JOB_POLL_MS = 200;

/** Who may hold the secret's fingerprint: it names the key without revealing it. */
export const secretFingerprint = (secret: string): string =>
  createHmac('sha256', secret).update('flashbulb backup fingerprint v1').digest('hex').slice(0, 16);

/** A backup whose files or objects do not match their checksums: each named, nothing restored. */
export class BackupCorruptError extends AppError {
  constructor(readonly problems: BackupProblem[]) {
    super('backup_corrupt', problems.map((p) => p.name).join(', '));
  }
}

export interface BackupResult {
  path: string;
  created_at: string;
  duration_ms: number;
  bytes: number;
  objects: number;
  rows: number;
}

export interface RestoreResult {
  objects: number;
  rows: number;
  schema: SchemaVersion;
  /** PGlite: the previous database folder, moved aside (`--force` over an install). */
  kept_aside: string | null;
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
  /** The schedule and the record of runs (the server; the CLI has none). */
  runs?: BackupRunsRepository;
  /** The running server a backup can be restored into (the server; the CLI has none). */
  live?: LiveRestore;
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

/** Until a super user sets one: no scheduled backup, retention of seven. */
const DEFAULT_SCHEDULE: BackupSchedule = { kind: 'off' };
const DEFAULT_KEEP = 7;

const runOf = (row: BackupRunRow): BackupRun => ({
  trigger: row.trigger,
  started_date: row.startedAt.toISOString(),
  duration_ms: row.durationMs,
  bytes: row.bytes,
  path: row.path,
  result: row.result,
  error: row.error,
});

/** A failed run's record names the error key, never a message (paths, provider text). */
const errorKeyOf = (error: unknown): string => (error instanceof AppError ? error.key : 'internal');

const isTransient = (key: string) => TRANSIENT_ROOTS.some((root) => key.startsWith(root));

/** `2026-11-27T07:50:01.123Z` → `20261127T075001123Z`: sorts by time, safe in a file name. */
const stampOf = (date: Date): string => date.toISOString().replace(/[-:.]/g, '');

/**
 * Backups and restores (docs/deploy.md "Backups"; ADR 0011): what a backup holds and the rules of
 * a restore. Operator tools: the CLI calls them with the server stopped or on PostgreSQL; the
 * owner call `backupCreate` (super users) runs `create` inside a running server.
 */
export class BackupService {
  private running = false;
  constructor(private readonly deps: BackupDeps) {}

  /** The owner call: super users (a backup holds every organisation); one at a time. */
  async createFor(
    actor: SignedInUser | null,
    input: { keep?: number | undefined },
  ): Promise<BackupResult & { created_date: string; removed: string[] }> {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
    return this.runRecorded('manual', input.keep);
  }

  /**
   * One backup into the server's folder, then retention, recorded (time, size, duration,
   * result) for the console. One at a time in this process (`backup_running`).
   */
  private async runRecorded(
    trigger: 'schedule' | 'manual',
    keep: number | undefined,
  ): Promise<BackupResult & { created_date: string; removed: string[] }> {
    if (this.running) throw new AppError('backup_running');
    this.running = true;
    const startedAt = this.deps.clock.now();
    try {
      const result = await this.create(this.deps.serverFolder);
      const removed = keep !== undefined ? await this.prune(this.deps.serverFolder, keep) : [];
      await this.deps.runs?.record({
        trigger,
        startedAt,
        durationMs: result.duration_ms,
        bytes: result.bytes,
        path: result.path,
        result: 'ok',
        removed: removed.length,
      });
      return { ...result, created_date: result.created_at, removed };
    } catch (error) {
      await this.deps.runs
        ?.record({
          trigger,
          startedAt,
          durationMs: Math.max(0, this.deps.clock.now().getTime() - startedAt.getTime()),
          result: 'failed',
          error: errorKeyOf(error),
        })
        .catch(() => undefined);
      throw error;
    } finally {
      this.running = false;
    }
  }

  /** The console's schedule panel: the schedule, retention, last backup and next run. */
  async scheduleFor(actor: SignedInUser | null): Promise<BackupScheduleState> {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
    return this.scheduleState();
  }

  /** Super users set when the server backs itself up and how many backups it keeps. */
  async setScheduleFor(
    actor: SignedInUser | null,
    input: { schedule: BackupSchedule; keep: number },
  ): Promise<BackupScheduleState> {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
    await this.requireRuns().saveSettings(input.schedule, input.keep, this.deps.clock.now());
    return this.scheduleState();
  }

  /**
   * The job `backup.scheduled` (every five minutes): a backup when the schedule says one is due,
   * then retention keeps the newest `keep`. Answers whether it ran.
   */
  async runScheduled(): Promise<{ ran: boolean }> {
    const runs = this.requireRuns();
    const settings = await runs.settings();
    if (!settings) return { ran: false };
    const lastScheduled = await runs.last('schedule');
    const since = scheduleSince(lastScheduled?.startedAt ?? null, settings.updatedAt);
    if (!backupDue(settings.schedule, since, this.deps.clock.now())) return { ran: false };
    await this.runRecorded('schedule', settings.keep);
    return { ran: true };
  }

  private async scheduleState(): Promise<BackupScheduleState> {
    const runs = this.requireRuns();
    const settings = await runs.settings();
    const schedule = settings?.schedule ?? DEFAULT_SCHEDULE;
    const last = await runs.last();
    const lastScheduled = await runs.last('schedule');
    const next = settings
      ? nextBackupAt(schedule, scheduleSince(lastScheduled?.startedAt ?? null, settings.updatedAt))
      : null;
    return {
      schedule,
      keep: settings?.keep ?? DEFAULT_KEEP,
      last_run: last ? runOf(last) : null,
      next_run_date: next ? next.toISOString() : null,
    };
  }

  private requireRuns(): BackupRunsRepository {
    if (!this.deps.runs) throw new Error('no backup schedule here (the command line)');
    return this.deps.runs;
  }

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
        rows: Object.values(summary.tables).reduce((a, b) => a + b, 0),
      };
    } catch (error) {
      await writer.abort();
      throw error;
    }
  }

  /**
   * The owner call `backupRestore`: one of the server's own backups (a folder `backupList`
   * names) restored into the running server (ADR 0011 "Restore into the running server").
   * Verified first while the server serves on; then maintenance (503 `maintenance` to others)
   * once running requests have ended, refused while jobs run or uploads complete; the objects
   * written (a replaced one kept aside until the end), then the database in one transaction; a
   * failure puts the objects back and leaves the database as it was.
   */
  async restoreFor(
    actor: SignedInUser | null,
    input: { path: string },
  ): Promise<{ objects: number; rows: number; duration_ms: number }> {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
    const live = this.deps.live;
    if (!live) throw new Error('no running server to restore into (the command line)');
    const from = await this.serverBackup(input.path);
    if (this.running) throw new AppError('backup_running');
    this.running = true;
    const started = this.deps.clock.now();
    try {
      const reader = await this.verifiedBackup(from);
      // The running server keeps its key: a backup made under another one would not open.
      const backupSecret = await reader.readSecret();
      const fingerprint =
        backupSecret !== null
          ? secretFingerprint(backupSecret)
          : 'fingerprint' in reader.manifest.secret
            ? reader.manifest.secret.fingerprint
            : '';
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
          rows: Object.values(reader.manifest.database.tables).reduce((a, b) => a + b, 0),
          duration_ms: Math.max(0, this.deps.clock.now().getTime() - started.getTime()),
        };
      } finally {
        live.leaveMaintenance();
      }
    } finally {
      this.running = false;
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

  /** A complete backup folder directly inside the server's backup folder, or `backup_not_found`. */
  private async serverBackup(given: string): Promise<string> {
    const resolved = nodePath.resolve(this.deps.serverFolder, given);
    const inside = (await listBackups(this.deps.serverFolder)).includes(resolved);
    if (!inside) throw new AppError('backup_not_found', 'path');
    return resolved;
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
    const { manifest } = reader;
    if (!force) {
      if (!(await target.isEmpty())) throw new AppError('backup_target_not_empty', 'database');
      if (await this.storageHasObjects()) throw new AppError('backup_target_not_empty', 'storage');
      const backupSecret = await reader.readSecret();
      const backupFingerprint =
        backupSecret !== null
          ? secretFingerprint(backupSecret)
          : 'fingerprint' in manifest.secret
            ? manifest.secret.fingerprint
            : '';
      // Sealed secrets and signed links rest on the key: restoring under another one breaks them.
      // A key file in the backup is installed with it; a key from the environment must be given.
      const installs = backupSecret !== null && !this.deps.secret.fromEnvironment;
      if (backupFingerprint !== '' && !installs) {
        const current = await this.deps.secret.current();
        if (current === null || secretFingerprint(current) !== backupFingerprint)
          throw new AppError('backup_secret_mismatch', 'secret');
      }
    }
    return { reader };
  }

  /**
   * Restores a verified backup: objects first (each hashed again as it is written; a mismatch
   * undoes the objects written so far), then the database all at once (PGlite: a new folder
   * swapped in; PostgreSQL: one transaction), then the secret key file.
   */
  async restore(from: string, target: RestoreTarget, force: boolean): Promise<RestoreResult> {
    const { reader } = await this.checkRestore(from, target, force);
    const { storage } = this.deps;
    const written: string[] = [];
    try {
      for await (const entry of reader.objects()) {
        if (await this.restoredByVersion(entry)) {
          written.push(entry.key);
          continue;
        }
        const hash = createHash('sha256');
        const hashed = new Transform({
          transform(chunk: Buffer, _encoding, done) {
            hash.update(chunk);
            done(null, chunk);
          },
        });
        await storage.put(
          entry.key,
          reader.openObject(entry.key).pipe(hashed),
          entry.content_type,
          {
            cacheControl: entry.cache_control,
          },
        );
        written.push(entry.key);
        // Verified a moment ago; a file changed since then is not taken either.
        if (hash.digest('hex') !== entry.sha256)
          throw new BackupCorruptError([{ name: entry.key, problem: 'checksum_mismatch' }]);
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
        rows: Object.values(reader.manifest.database.tables).reduce((a, b) => a + b, 0),
        schema: reader.manifest.schema,
        kept_aside: keptAside,
      };
    } catch (error) {
      if (!force) for (const key of written) await storage.delete(key).catch(() => undefined);
      throw error;
    }
  }

  /** The owner call: the complete backups in the server's folder, newest first (at most 50). */
  async listFor(actor: SignedInUser | null): Promise<{ folder: string; backups: BackupSummary[] }> {
    if (!actor) throw new AppError('unauthorized_user');
    if (!isSuperUser(actor)) throw new AppError('forbidden');
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
        rows: Object.values(manifest.database.tables).reduce((a, b) => a + b, 0),
        engine: manifest.engine,
      });
    }
    return { folder: this.deps.serverFolder, backups };
  }

  /** Removes all but the newest `keep` complete backups in `parent`; answers the removed ones. */
  async prune(parent: string, keep: number): Promise<string[]> {
    const old = (await listBackups(parent)).slice(keep);
    for (const folder of old) await removeBackup(folder);
    return old;
  }

  private async storageHasObjects(): Promise<boolean> {
    for await (const listed of this.deps.storage.list('')) {
      if (!isTransient(listed.key)) return true;
    }
    return false;
  }
}
