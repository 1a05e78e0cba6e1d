import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { closeTree } from '../lib/data-dir-modes.ts';
import { DataDirLock } from './data-dir-lock.ts';
import * as schema from './schema.ts';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/**
 * A select prepared once with `.prepare(name)`: the query is built once, and PostgreSQL parses and
 * plans a named statement once per connection. For the reads every call makes (its key or session,
 * its event).
 */
export interface PreparedRead<Row> {
  execute(placeholders: Record<string, unknown>): Promise<Row[]>;
}

export interface SqlRunner {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

/** The database behind the app: PGlite on disk (embedded default) or PostgreSQL (DATABASE_URL). */
export interface Database extends SqlRunner {
  readonly engine: 'pglite' | 'postgres';
  /**
   * Runs start-up work (the job queue's schema set-up) while holding the advisory lock that
   * serialises migrations across processes. PostgreSQL only: one process owns a PGlite.
   */
  withStartupLock?<T>(work: () => Promise<T>): Promise<T>;
  readonly db: Db;
  ping(): Promise<void>;
  /** The pool's connections (PostgreSQL); PGlite has one connection and no pool. */
  poolStats?(): { total: number; idle: number; waiting: number; max: number };
  /**
   * Subscribes to PostgreSQL `NOTIFY` on a channel (a plain identifier). PGlite delivers its own
   * notifications in process; PostgreSQL uses one dedicated connection per process, so
   * notifications sent by any process arrive. Answers the unsubscribe function.
   */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** The embedded database folder's lock (PGlite on disk only): one writer per folder. */
  readonly lock?: DataDirLock;
}

export const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
/** Serialises migrations when several processes start at once against one PostgreSQL. */
const MIGRATION_LOCK_ID = 727_001;

export type DatabaseOptions =
  | { engine: 'pglite'; dataDir: string | null; lockRole?: 'server' | 'cli' }
  | { engine: 'postgres'; url: string; poolSize?: number };

/** A Database over an open PGlite (tests clone a migrated template instead of migrating each time). */
export const wrapPglite = (client: PGlite): Database & { client: PGlite } => ({
  engine: 'pglite',
  client,
  db: drizzlePglite(client, { schema }),
  async executeSql(text, values) {
    // pg-boss sends multi-statement scripts without parameters; only `exec` runs those.
    if (!values || values.length === 0) {
      const results = await client.exec(text);
      return { rows: results.at(-1)?.rows ?? [] };
    }
    const result = await client.query<Record<string, unknown>>(text, values);
    return { rows: result.rows };
  },
  async ping() {
    await client.query('select 1');
  },
  async listen(channel, onPayload) {
    const unlisten = await client.listen(channel, onPayload);
    return async () => {
      if (!client.closed) await unlisten();
    };
  },
  async close() {
    await client.close();
  },
});

export const openDatabase = async (options: DatabaseOptions): Promise<Database> => {
  if (options.engine === 'pglite') {
    if (options.dataDir)
      await mkdir(path.dirname(options.dataDir), { recursive: true, mode: 0o700 });
    // One writer per folder: refused (DataDirLockedError) while another live process holds it.
    const lock = options.dataDir
      ? await DataDirLock.acquire(options.dataDir, options.lockRole ?? 'server')
      : undefined;
    try {
      const client = await PGlite.create({
        ...(options.dataDir ? { dataDir: options.dataDir } : {}),
        extensions: { vector },
      });
      // The initial files come out world-writable whatever the umask: the server user's alone.
      if (options.dataDir) await closeTree(options.dataDir);
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      const database = wrapPglite(client);
      if (!lock) return database;
      return {
        ...database,
        lock,
        async close() {
          try {
            await database.close();
          } finally {
            await lock.release();
          }
        },
      };
    } catch (error) {
      await lock?.release();
      throw error;
    }
  }

  const pool = new pg.Pool({ connectionString: options.url, max: options.poolSize ?? 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const lockClient = await pool.connect();
  try {
    await lockClient.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(lockClient), { migrationsFolder });
  } finally {
    await lockClient
      .query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID])
      .catch(() => undefined);
    lockClient.release();
  }
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  // LISTEN needs a connection of its own that stays open (a pooled one would be handed back).
  let listener: Promise<pg.Client> | undefined;
  const handlers = new Map<string, Set<(payload: string) => void>>();
  const listenerClient = (): Promise<pg.Client> =>
    (listener ??= (async () => {
      const client = new pg.Client({ connectionString: options.url });
      client.on('error', () => undefined);
      client.on('notification', (message) => {
        for (const handler of handlers.get(message.channel) ?? []) handler(message.payload ?? '');
      });
      await client.connect();
      return client;
    })());
  return {
    engine: 'postgres',
    db,
    async withStartupLock(work) {
      // Its own connection, outside the pool: the work itself may need every pooled one.
      const client = new pg.Client({ connectionString: options.url });
      client.on('error', () => undefined);
      await client.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
        return await work();
      } finally {
        await client.end().catch(() => undefined);
      }
    },
    async executeSql(text, values) {
      const result = await pool.query<Record<string, unknown>>(text, values);
      return { rows: result.rows };
    },
    async ping() {
      await pool.query('select 1');
    },
    poolStats() {
      return {
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
        max: options.poolSize ?? 10,
      };
    },
    async listen(channel, onPayload) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`bad channel name ${channel}`);
      const client = await listenerClient();
      let set = handlers.get(channel);
      if (!set) {
        set = new Set();
        handlers.set(channel, set);
        await client.query(`listen ${channel}`);
      }
      set.add(onPayload);
      return () => {
        set.delete(onPayload);
        return Promise.resolve();
      };
    },
    async close() {
      if (listener) await (await listener).end().catch(() => undefined);
      await pool.end();
    },
  };
};
