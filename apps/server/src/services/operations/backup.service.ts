import { createHash, createHmac } from 'node:crypto';
import { Transform } from 'node:stream';
import type { BackupSummary } from '@flashbulb/shared';
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
  type BackupProblem,
} from '../../repositories/operations/backup-folder.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/** Objects the readiness check writes and deletes at once: never worth keeping. */
const TRANSIENT_ROOTS = ['ready-check/'];

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
}

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
    if (this.running) throw new AppError('backup_running');
    this.running = true;
    try {
      const result = await this.create(this.deps.serverFolder);
      const removed =
        input.keep !== undefined ? await this.prune(this.deps.serverFolder, input.keep) : [];
      return { ...result, created_date: result.created_at, removed };
    } finally {
      this.running = false;
    }
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

  /** Every refusal before anything is touched: the folder, its schema, its checksums, the target. */
  async checkRestore(
    from: string,
    target: RestoreTarget,
    force: boolean,
  ): Promise<{ reader: BackupReader }> {
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
