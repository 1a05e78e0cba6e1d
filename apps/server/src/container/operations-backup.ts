import path from 'node:path';
import type { AppConfig } from '../config.ts';
import type { Database } from '../db/database.ts';
import { dumpDatabase, knownMigrations } from '../db/logical-backup.ts';
import type { Clock } from '../lib/clock.ts';
import { readSecretFile, writeSecretFile } from '../repositories/operations/backup-folder.ts';
import type { BackupRunsRepository } from '../repositories/operations/backup-runs.repository.ts';
import { IntegrityRepository } from '../repositories/operations/integrity.repository.ts';
import {
  BackupArchive,
  type BackupDeps,
  type LiveRestore,
  type SecretAccess,
} from '../services/operations/backup-archive.ts';
import { BackupRestorer } from '../services/operations/backup-restore.ts';
import { BackupService } from '../services/operations/backup.service.ts';
import { IntegrityService } from '../services/operations/integrity.service.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';

/** Where the server writes the backups it is asked for (`backupCreate`): `<data>/backups`. */
export const serverBackupFolder = (config: AppConfig): string =>
  path.join(config.dataDir, 'backups');

/** The install's secret key as a backup sees it: FLASHBULB_SECRET_KEY, or `<data>/secret.key`. */
export const secretAccess = (config: AppConfig): SecretAccess => {
  const file = path.join(config.dataDir, 'secret.key');
  return {
    fromEnvironment: Boolean(config.secretKey),
    current: async () => config.secretKey ?? (await readSecretFile(file)),
    install: (secret) => writeSecretFile(file, secret),
  };
};

interface BackupInstall {
  config: AppConfig;
  /** Absent for a restore (it opens its own target, db/restore-target.ts); `create` then fails. */
  database: Database | null;
  storage: StorageRepository;
  clock: Clock;
}

const backupDeps = (input: BackupInstall): BackupDeps => ({
  engine: input.config.databaseUrl ? 'postgres' : 'pglite',
  storage: input.storage,
  dumpDatabase: (write) => {
    if (!input.database) throw new Error('no database opened for a backup');
    return dumpDatabase(input.database.db, write);
  },
  knownSchema: knownMigrations,
  secret: secretAccess(input.config),
  clock: input.clock,
  serverFolder: serverBackupFolder(input.config),
});

/** Making backups of one install (the CLI with the server stopped, or on PostgreSQL). */
export const createBackupArchive = (input: BackupInstall): BackupArchive =>
  new BackupArchive(backupDeps(input));

/** Restoring a backup into a stopped install (the CLI). */
export const createBackupRestorer = (input: BackupInstall): BackupRestorer =>
  new BackupRestorer(backupDeps(input));

/** The server's backups: the owner calls, the schedule and restores into the running server. */
export const createBackupService = (
  input: BackupInstall & { runs: BackupRunsRepository; live: LiveRestore },
): BackupService => {
  const deps = backupDeps(input);
  return new BackupService({
    archive: new BackupArchive(deps),
    restorer: new BackupRestorer(deps),
    clock: input.clock,
    serverFolder: deps.serverFolder,
    runs: input.runs,
    live: input.live,
  });
};

/** The integrity check for the CLI: it reports; repairs (which enqueue jobs) are the console's. */
export const createIntegrityService = (input: {
  database: Database;
  storage: StorageRepository;
  clock: Clock;
}): IntegrityService =>
  new IntegrityService({
    rows: new IntegrityRepository(input.database),
    storage: input.storage,
    clock: input.clock,
    jobs: {
      send: () => Promise.reject(new Error('the command line check does not repair')),
    },
  });
