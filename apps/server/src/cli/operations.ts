import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createContractClient, endpoints } from '@flashbulb/shared';
import { loadConfig, type AppConfig } from '../config.ts';
import type { IntegrityReport } from '@flashbulb/shared';
import {
  createBackupArchive,
  createBackupRestorer,
  createIntegrityService,
  serverBackupFolder,
} from '../container/operations-backup.ts';
import {
  embeddedDatabaseFolder,
  openConfiguredDatabase,
  resolveSecret,
} from '../container/core.ts';
import { DataDirLockedError, readLockHolder } from '../db/data-dir-lock.ts';
import type { Database } from '../db/database.ts';
import {
  openPgliteRestoreTarget,
  openPostgresRestoreTarget,
  type RestoreTarget,
} from '../db/restore-target.ts';
import { systemClock } from '../lib/clock.ts';
import { BackupCorruptError } from '../services/operations/backup-restore.ts';
import { createStorage } from '../storage/create-storage.ts';
import type { StorageRepository } from '../storage/storage.repository.ts';
import type { CliIo } from './cli-io.ts';
import { UsageError } from './usage-error.ts';

interface OperationFlags {
  to?: string | undefined;
  from?: string | undefined;
  keep?: string | undefined;
  force?: boolean | undefined;
  json?: boolean | undefined;
  'api-key'?: string | undefined;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** The running server on this embedded database (its API is the way in), or null. */
const runningServer = async (config: AppConfig): Promise<string | null> => {
  if (config.databaseUrl) return null;
  const folder = embeddedDatabaseFolder(config);
  const holder = await readLockHolder(folder);
  if (holder?.role === 'server' && holder.url) return holder.url;
  if (holder) throw new DataDirLockedError(folder, holder);
  return null;
};

const apiKeyOf = (flags: OperationFlags, server: string, io: CliIo): string => {
  const key = flags['api-key'] ?? io.env.FLASHBULB_API_KEY;
  if (!key)
    throw new UsageError(
      `A Flashbulb server is running on this database (${server}), so this command goes through ` +
        'its API: give a super user’s API key with --api-key or FLASHBULB_API_KEY, or stop the server.',
    );
  return key;
};

/** Database and storage opened by this process (the server is stopped, or on PostgreSQL). */
const openInstall = async (
  config: AppConfig,
): Promise<{ database: Database; storage: StorageRepository; close(): Promise<void> }> => {
  const database = await openConfiguredDatabase(config, 'cli');
  try {
    const storage = await createStorage(config, await resolveSecret(config), systemClock);
    return {
      database,
      storage,
      async close() {
        await storage.close();
        await database.close();
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
};

const parseKeep = (value: string | undefined): number | undefined => {
  if (value === undefined) return undefined;
  const keep = Number(value);
  if (!Number.isInteger(keep) || keep < 1 || keep > 1000)
    throw new UsageError('--keep is a whole number of backups, 1–1000');
  return keep;
};

const backupCreate = async (config: AppConfig, flags: OperationFlags, io: CliIo) => {
  const out = (line: string) => io.out(`${line}\n`);
  const keep = parseKeep(flags.keep);
  const server = await runningServer(config);
  if (server) {
    if (flags.to)
      throw new UsageError(
        'A server is running on this database: its backups go to <data dir>/backups (leave --to out), ' +
          'or stop the server to write elsewhere.',
      );
    const client = createContractClient({ baseUrl: server });
    const result = await client.call(endpoints.backupCreate, keep !== undefined ? { keep } : {}, {
      authorization: apiKeyOf(flags, server, io),
    });
    out(
      `Backup written to ${result.path}: ${result.rows} rows, ${result.objects} objects, ` +
        `${megabytes(result.bytes)}, in ${result.duration_ms} ms.`,
    );
    if (result.removed.length) out(`Removed older backups: ${result.removed.join(', ')}`);
    return;
  }
  const install = await openInstall(config);
  try {
    const archive = createBackupArchive({ config, ...install, clock: systemClock });
    const parent = flags.to ?? serverBackupFolder(config);
    const result = await archive.create(parent);
    out(
      `Backup written to ${result.path}: ${result.rows} rows, ${result.objects} objects, ` +
        `${megabytes(result.bytes)}, in ${result.duration_ms} ms.`,
    );
    if (keep !== undefined) {
      const removed = await archive.prune(parent, keep);
      if (removed.length) out(`Removed older backups: ${removed.join(', ')}`);
    }
  } finally {
    await install.close();
  }
};

const backupRestore = async (config: AppConfig, flags: OperationFlags, io: CliIo) => {
  const out = (line: string) => io.out(`${line}\n`);
  if (!flags.from) throw new UsageError('backup restore needs --from <backup folder>');
  const server = await runningServer(config);
  if (server) {
    // The running server restores one of its own backups (<data dir>/backups) into itself.
    const client = createContractClient({ baseUrl: server });
    const result = await client.call(
      endpoints.backupRestore,
      { path: path.resolve(flags.from) },
      { authorization: apiKeyOf(flags, server, io) },
    );
    out(
      `Restored ${result.rows} rows and ${result.objects} objects into the running server ` +
        `(${server}) in ${result.duration_ms} ms.`,
    );
    return;
  }
  const stamp = new Date().toISOString().replace(/[-:.]/g, '');
  let target: RestoreTarget;
  try {
    target = config.databaseUrl
      ? await openPostgresRestoreTarget(config.databaseUrl)
      : await openPgliteRestoreTarget(embeddedDatabaseFolder(config), stamp);
  } catch (error) {
    if (error instanceof DataDirLockedError)
      throw new UsageError(`Stop the server before restoring. ${error.message}`);
    throw error;
  }
  // Only objects are written through it: the signing secret of upload grants plays no part.
  const storage = await createStorage(
    config,
    config.secretKey ?? randomBytes(48).toString('base64url'),
    systemClock,
  );
  try {
    const restorer = createBackupRestorer({
      config,
      database: null,
      storage,
      clock: systemClock,
    });
    const result = await restorer.restore(flags.from, target, flags.force ?? false);
    out(
      `Restored ${result.rows} rows and ${result.objects} objects (schema: ${result.schema.migrations} migrations). ` +
        'Start the server: it applies any newer migrations.',
    );
    if (result.kept_aside) out(`The previous database folder was kept as ${result.kept_aside}.`);
  } catch (error) {
    if (error instanceof BackupCorruptError) {
      for (const problem of error.problems) io.err(`${problem.problem}: ${problem.name}\n`);
      io.err('Nothing was restored.\n');
    }
    throw error;
  } finally {
    await storage.close();
    await target.close();
  }
};

const describeReport = (report: IntegrityReport): string => {
  const lines = [
    `Integrity check: ${report.objects_in_storage} objects in storage, ${report.objects_named} named by rows, ` +
      `${report.checksums_verified} checksums verified, in ${report.duration_ms} ms.`,
    `missing: ${report.missing}, untracked: ${report.untracked}, checksum mismatches: ${report.checksum_mismatch}`,
  ];
  for (const problem of report.problems) {
    const owner = problem.owner ? ` (${problem.owner} ${problem.owner_id})` : '';
    lines.push(`${problem.problem}\t${problem.key}${owner}`);
  }
  const listed = report.missing + report.untracked + report.checksum_mismatch;
  if (listed > report.problems.length)
    lines.push(`… and ${listed - report.problems.length} more (see the console's Operations page)`);
  return `${lines.join('\n')}\n`;
};

const integrityCheck = async (
  config: AppConfig,
  flags: OperationFlags,
  io: CliIo,
): Promise<number> => {
  const server = await runningServer(config);
  let report: IntegrityReport;
  if (server) {
    const client = createContractClient({ baseUrl: server });
    report = await client.call(
      endpoints.integrityCheck,
      {},
      { authorization: apiKeyOf(flags, server, io) },
    );
  } else {
    const install = await openInstall(config);
    try {
      report = await createIntegrityService({ ...install, clock: systemClock }).check();
    } finally {
      await install.close();
    }
  }
  io.out(flags.json ? `${JSON.stringify(report, null, 2)}\n` : describeReport(report));
  return report.missing + report.untracked + report.checksum_mismatch > 0 ? 1 : 0;
};

/** `backup create|restore`, `integrity check`: operator commands on this install (exit code). */
export const runOperations = async (
  noun: string,
  verb: string | undefined,
  flags: OperationFlags,
  io: CliIo,
): Promise<number> => {
  const config = loadConfig(io.env);
  if (noun === 'backup' && verb === 'create') {
    await backupCreate(config, flags, io);
    return 0;
  }
  if (noun === 'backup' && verb === 'restore') {
    await backupRestore(config, flags, io);
    return 0;
  }
  if (noun === 'integrity' && verb === 'check') return integrityCheck(config, flags, io);
  throw new UsageError(`Unknown command: ${noun} ${verb ?? ''}`.trim());
};
