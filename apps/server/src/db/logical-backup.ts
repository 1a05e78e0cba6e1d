import { readMigrationFiles } from 'drizzle-orm/migrator';
import { sql } from 'drizzle-orm';
import type { Db } from './database.ts';
import { migrationsFolder } from './database.ts';

/**
 * The database half of a backup (ADR 0011): every row of the app's tables as the text
 * PostgreSQL's `row_to_json` makes of it, read in one REPEATABLE READ, READ ONLY transaction (one
 * snapshot: the rows agree with each other whatever the server writes meanwhile). The same SQL on
 * PGlite and PostgreSQL, no client tools needed, and the rows never pass through JavaScript values
 * (a bigint, a float or a timestamp comes back exactly as it went out).
 *
 * The file is lines: `#table <schema>.<name>` starts a table, every other line is one row.
 */

/** Which migrations the rows were written under (drizzle's own bookkeeping table). */
export interface SchemaVersion {
  /** Migrations applied. */
  migrations: number;
  /** `created_at` (the journal's `when`) of the newest one, or null when there is none. */
  last_created_at: number | null;
}

export interface SequenceValue {
  /** `schema.name` */
  name: string;
  /** Null when the sequence was never used. */
  last_value: string | null;
}

export interface DumpSummary {
  /** Rows per `schema.table`. */
  tables: Record<string, number>;
  sequences: SequenceValue[];
  schema: SchemaVersion;
}

const MIGRATIONS_TABLE = 'drizzle.__drizzle_migrations';
const FETCH_ROWS = 500;
/** Rows loaded per INSERT: bounded by bytes too, so a table of large rows keeps memory flat. */
const LOAD_ROWS = 500;
const LOAD_BYTES = 4 * 1024 * 1024;

const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;
/** `schema.table` → `"schema"."table"` */
const quoteTable = (qualified: string): string => {
  const dot = qualified.indexOf('.');
  return `${quoteIdent(qualified.slice(0, dot))}.${quoteIdent(qualified.slice(dot + 1))}`;
};

type Rows = Record<string, unknown>[];
type Runner = { execute(query: ReturnType<typeof sql.raw>): Promise<unknown> };
const rowsOf = async (tx: Runner, query: ReturnType<typeof sql.raw>): Promise<Rows> =>
  ((await tx.execute(query)) as { rows: Rows }).rows;
const raw = (tx: Runner, text: string): Promise<Rows> => rowsOf(tx, sql.raw(text));

/** The migrations this code knows, oldest first (drizzle's journal). */
export const knownMigrations = (): { count: number; last_created_at: number | null } => {
  const all = readMigrationFiles({ migrationsFolder });
  return { count: all.length, last_created_at: all.at(-1)?.folderMillis ?? null };
};

const readSchemaVersion = async (tx: Runner): Promise<SchemaVersion> => {
  const exists = await raw(tx, `select to_regclass('${MIGRATIONS_TABLE}') is not null as present`);
  if (!exists[0]?.present) return { migrations: 0, last_created_at: null };
  const [row] = await raw(
    tx,
    `select count(*)::int as n, max(created_at)::text as last from ${MIGRATIONS_TABLE}`,
  );
  return {
    migrations: Number(row?.n ?? 0),
    last_created_at: row?.last == null ? null : Number(row.last),
  };
};

/** The app's tables: every base table of `public`, and drizzle's migration table. */
const appTables = async (tx: Runner): Promise<string[]> =>
  (
    await raw(
      tx,
      `select table_schema || '.' || table_name as name from information_schema.tables
        where table_type = 'BASE TABLE'
          and (table_schema = 'public'
               or (table_schema = 'drizzle' and table_name = '__drizzle_migrations'))
        order by table_schema, table_name`,
    )
  ).map((row) => String(row.name));

/**
 * Writes every row through `write` (awaited: back-pressure keeps memory flat) and answers what it
 * wrote. The snapshot holds for the whole dump; on PGlite other queries wait until it ends.
 */
export const dumpDatabase = (
  db: Db,
  write: (text: string) => Promise<void>,
): Promise<DumpSummary> =>
  db.transaction(
    async (tx) => {
      const tables: Record<string, number> = {};
      for (const table of await appTables(tx)) {
        await write(`#table ${table}\n`);
        let count = 0;
        await raw(
          tx,
          `declare backup_rows no scroll cursor for
             select row_to_json(t)::text as j from ${quoteTable(table)} t`,
        );
        for (;;) {
          const rows = await raw(tx, `fetch ${FETCH_ROWS} from backup_rows`);
          if (rows.length === 0) break;
          count += rows.length;
          await write(rows.map((row) => `${String(row.j)}\n`).join(''));
        }
        await raw(tx, 'close backup_rows');
        tables[table] = count;
      }
      const sequences = (
        await raw(
          tx,
          `select schemaname || '.' || sequencename as name, last_value::text as last_value
             from pg_sequences where schemaname in ('public', 'drizzle') order by 1`,
        )
      ).map((row) => ({
        name: String(row.name),
        last_value: row.last_value == null ? null : (row.last_value as string),
      }));
      return { tables, sequences, schema: await readSchemaVersion(tx) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );

/** Rows in the app's tables that people made: the ones an empty install has none of. */
const PEOPLE_TABLES = ['public.organisations', 'public.users', 'public.events', 'public.photos'];

/** True when the database holds none of the app's data (no tables yet, or migrated and empty). */
export const databaseIsEmpty = async (db: Db): Promise<boolean> => {
  for (const table of PEOPLE_TABLES) {
    const [present] = await raw(db, `select to_regclass('${table}') is not null as present`);
    if (!present?.present) continue;
    const [row] = await raw(db, `select exists (select 1 from ${quoteTable(table)}) as any`);
    if (row?.any) return false;
  }
  return true;
};

export const databaseSchemaVersion = (db: Db): Promise<SchemaVersion> => readSchemaVersion(db);

export interface RestoreInput {
  /** The dump's lines, in order, without their line ends. */
  lines: AsyncIterable<string>;
  summary: DumpSummary;
  /**
   * PostgreSQL: held for the transaction so no server migrates meanwhile (the same advisory
   * lock as start-up's migrations).
   */
  advisoryLock?: number;
  /**
   * A restore into the running server: the job queue's schema stays (its workers and schedules
   * run on), only the jobs still waiting go — they name rows of the data being replaced.
   */
  keepJobQueue?: boolean;
}

/**
 * Replaces the app's schema and rows with the dump's, in one transaction: nothing of it is seen
 * until all of it is in, and a failure leaves the database as it was. The schema is rebuilt by
 * this code's own migrations up to the dump's version; later ones run at the server's next start.
 */
export const restoreDatabase = (db: Db, input: RestoreInput): Promise<void> =>
  db.transaction(async (tx) => {
    if (input.advisoryLock !== undefined)
      await raw(tx, `select pg_advisory_xact_lock(${Number(input.advisoryLock)})`);
    // Clear: the job queue (its jobs named rows of the old data; it is made again at start),
    // drizzle's bookkeeping, every table of public.
    if (input.keepJobQueue)
      await raw(
        tx,
        `do $$ begin
           if to_regclass('pgboss.job') is not null then
             delete from pgboss.job where state < 'active';
           end if;
         end $$`,
      );
    else await raw(tx, 'drop schema if exists pgboss cascade');
    await raw(tx, 'drop schema if exists drizzle cascade');
    for (const row of await raw(
      tx,
      `select tablename from pg_tables where schemaname = 'public'`,
    )) {
      await raw(tx, `drop table if exists public.${quoteIdent(String(row.tablename))} cascade`);
    }
    const upTo = input.summary.schema.last_created_at ?? -1;
    for (const migration of readMigrationFiles({ migrationsFolder })) {
      if (migration.folderMillis > upTo) break;
      for (const statement of migration.sql)
        if (statement.trim()) await tx.execute(sql.raw(statement));
    }
    await raw(tx, 'create schema drizzle');
    await raw(
      tx,
      `create table ${MIGRATIONS_TABLE} (id serial primary key, hash text not null, created_at bigint)`,
    );

    // Foreign keys are set aside while rows load (any order, self-references included) and put
    // back after: adding one checks every row, so a dump that breaks one fails the restore.
    const foreignKeys = (
      await raw(
        tx,
        `select conrelid::regclass::text as tbl, conname, pg_get_constraintdef(oid) as def
           from pg_constraint where contype = 'f' and connamespace = 'public'::regnamespace`,
      )
    ).map((row) => ({ table: String(row.tbl), name: String(row.conname), def: String(row.def) }));
    for (const fk of foreignKeys)
      await raw(tx, `alter table ${fk.table} drop constraint ${quoteIdent(fk.name)}`);

    const loaded: Record<string, number> = {};
    let table: string | null = null;
    let columns = '';
    let batch: string[] = [];
    let bytes = 0;
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const target = quoteTable(table);
      const json = `[${batch.join(',')}]`;
      await tx.execute(
        sql`${sql.raw(`insert into ${target} (${columns}) overriding system value select ${columns} from json_populate_recordset(null::${target}, `)}${json}${sql.raw('::json)')}`,
      );
      loaded[table] = (loaded[table] ?? 0) + batch.length;
      batch = [];
      bytes = 0;
    };
    for await (const line of input.lines) {
      if (line === '') continue;
      if (line.startsWith('#table ')) {
        await flush();
        table = line.slice('#table '.length);
        if (!(table in input.summary.tables)) throw new Error(`unexpected table ${table}`);
        loaded[table] = 0;
        const names = await rowsOf(
          tx,
          sql`select attname from pg_attribute
               where attrelid = ${quoteTable(table)}::regclass and attnum > 0
                 and not attisdropped and attgenerated = '' order by attnum`,
        );
        columns = names.map((row) => quoteIdent(String(row.attname))).join(', ');
        continue;
      }
      if (!table) throw new Error('a row before any table');
      batch.push(line);
      bytes += line.length;
      if (batch.length >= LOAD_ROWS || bytes >= LOAD_BYTES) await flush();
    }
    await flush();
    for (const [name, count] of Object.entries(input.summary.tables)) {
      if ((loaded[name] ?? 0) !== count)
        throw new Error(
          `table ${name}: ${loaded[name] ?? 0} rows read, the manifest says ${count}`,
        );
    }

    for (const fk of foreignKeys)
      await raw(tx, `alter table ${fk.table} add constraint ${quoteIdent(fk.name)} ${fk.def}`);
    for (const sequence of input.summary.sequences) {
      if (sequence.last_value === null) continue;
      await rowsOf(
        tx,
        sql`select setval(${quoteTable(sequence.name)}::regclass, ${sequence.last_value}::bigint, true)`,
      );
    }
  });
