import { access, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { closeTree } from '../lib/data-dir-modes.ts';
import { DataDirLock } from './data-dir-lock.ts';
import { migrationsFolder, type Database, type Db } from './database.ts';
import {
  databaseIsEmpty,
  databaseSchemaVersion,
  restoreDatabase,
  type RestoreInput,
  type SchemaVersion,
} from './logical-backup.ts';
import * as schema from './schema.ts';

/** Start-up's migration lock (database.ts): a restore and a starting server never overlap. */
const MIGRATION_LOCK_ID = 727_001;

/**
 * The database a restore writes: opened without migrating (the dump says which schema it needs),
 * held against servers for the whole restore.
 */
export interface RestoreTarget {
  readonly engine: 'pglite' | 'postgres';
  /** No organisation, user, event or photo (or no tables at all). */
  isEmpty(): Promise<boolean>;
  schemaVersion(): Promise<SchemaVersion>;
  /**
   * Puts the dump in place, all or nothing. PGlite: into a new folder beside the data folder,
   * swapped in when complete (the old one is kept as `db.before-restore-<stamp>` and named in
   * the answer); PostgreSQL: one transaction.
   */
  restore(input: Omit<RestoreInput, 'advisoryLock'>): Promise<{ keptAside: string | null }>;
  close(): Promise<void>;
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

/** Embedded: the folder `dataDir/db`, locked (role cli) so no server opens it meanwhile. */
export const openPgliteRestoreTarget = async (
  folder: string,
  stamp: string,
): Promise<RestoreTarget> => {
  await mkdir(path.dirname(folder), { recursive: true, mode: 0o700 });
  const lock = await DataDirLock.acquire(folder, 'cli');
  let current: { client: PGlite; db: Db } | null = null;
  const openCurrent = async () => {
    if (current) return current;
    const client = await PGlite.create({ dataDir: folder, extensions: { vector } });
    current = { client, db: drizzlePglite(client, { schema }) as unknown as Db };
    return current;
  };
  const hasDatabase = () => exists(path.join(folder, 'PG_VERSION'));
  const closeCurrent = async () => {
    if (current) await current.client.close();
    current = null;
  };
  return {
    engine: 'pglite',
    async isEmpty() {
      if (!(await hasDatabase())) return true;
      return databaseIsEmpty((await openCurrent()).db);
    },
    async schemaVersion() {
      if (!(await hasDatabase())) return { migrations: 0, last_created_at: null };
      return databaseSchemaVersion((await openCurrent()).db);
    },
    async restore(input) {
      await closeCurrent();
      const staging = `${folder}.restoring-${stamp}`;
      await rm(staging, { recursive: true, force: true });
      const client = await PGlite.create({ dataDir: staging, extensions: { vector } });
      try {
        await restoreDatabase(drizzlePglite(client, { schema }), input);
        await client.close();
      } catch (error) {
        await client.close().catch(() => undefined);
        await rm(staging, { recursive: true, force: true });
        throw error;
      }
      await closeTree(staging);
      let keptAside: string | null = null;
      if (await exists(folder)) {
        keptAside = `${folder}.before-restore-${stamp}`;
        await rename(folder, keptAside);
      }
      await rename(staging, folder);
      return { keptAside };
    },
    async close() {
      try {
        await closeCurrent();
      } finally {
        await lock.release();
      }
    },
  };
};

/** PostgreSQL at `url`: one connection, the restore one transaction under the migration lock. */
export const openPostgresRestoreTarget = async (url: string): Promise<RestoreTarget> => {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  const db = drizzlePg(client, { schema }) as unknown as Db;
  return {
    engine: 'postgres',
    isEmpty: () => databaseIsEmpty(db),
    schemaVersion: () => databaseSchemaVersion(db),
    async restore(input) {
      await restoreDatabase(db, { ...input, advisoryLock: MIGRATION_LOCK_ID });
      return { keptAside: null };
    },
    async close() {
      await client.end().catch(() => undefined);
    },
  };
};

/**
 * A restore into the database the running server holds open (the owner call `backupRestore`):
 * one transaction (PGlite: its one connection is held, every other query waits; PostgreSQL: the
 * tables are dropped and made again under locks, so other connections wait for the commit),
 * the job queue kept, then this code's newer migrations applied, as a start would.
 */
export const restoreIntoRunning = async (
  database: Database,
  input: Omit<RestoreInput, 'advisoryLock' | 'keepJobQueue'>,
): Promise<void> => {
  await restoreDatabase(database.db, {
    ...input,
    keepJobQueue: true,
    ...(database.engine === 'postgres' ? { advisoryLock: MIGRATION_LOCK_ID } : {}),
  });
  if (database.engine === 'pglite')
    await migratePglite(database.db as unknown as PgliteDatabase<typeof schema>, {
      migrationsFolder,
    });
  else
    await migratePg(database.db as unknown as NodePgDatabase<typeof schema>, { migrationsFolder });
};
