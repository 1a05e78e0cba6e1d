import { randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  API_BASE,
  type BodyOf,
  type Endpoint,
  type Envelope,
  type ResultOf,
} from '@flashbulb/shared';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/app.ts';
import { loadConfig, type AppConfig } from '../../src/config.ts';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import pino from 'pino';
import { openDatabase, wrapPglite, type Database } from '../../src/db/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import type { Clock } from '../../src/lib/clock.ts';
import { DEFAULT_GUEST_LIMITS } from '../../src/access/guest-limits.ts';
import { PasswordHasher } from '../../src/lib/password-hasher.ts';
import type { FaceEngineProvider } from '../../src/repositories/faces/engine/face-engine-provider.ts';

/** A clock tests move by hand. */
export class TestClock implements Clock {
  private current: number;
  constructor(start = Date.now()) {
    this.current = start;
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): void {
    this.current += ms;
  }
  set(ms: number): void {
    this.current = ms;
  }
}

/**
 * argon2id at its lowest cost, for test apps: the server's cost (19 MiB, 2 passes) made every
 * sign-in and user a tenth of a second or more, hundreds of times per run. The hashes carry their
 * parameters, so a server hasher verifies them too (apps/server/test/identity/password-hasher.test.ts).
 */
export const TEST_PASSWORD_HASHER = new PasswordHasher({
  memoryCost: 64,
  timeCost: 1,
  parallelism: 1,
});

const TEST_GUEST_LIMITS = Object.keys(DEFAULT_GUEST_LIMITS)
  .filter((name) => name !== 'recipientsPerCall')
  .map((name) => `${name}=1000000`)
  .join(',');

let pgliteTemplate: Promise<ReturnType<typeof wrapPglite>> | undefined;

// ---- one loaded PGlite template per worker process -----------------------------------------------
// Loading the template (a ~48 MB data directory) costs about a second of CPU; a server file used
// to pay it for every database it opened. The server projects run without isolation, so a worker
// keeps this module between files: a database a file drops without closing it (a test app's
// close() does) is emptied (every table but the migration records and pg-boss's queues,
// identities restarted, session state reset) and handed to the next one. It is kept only if its
// tables and columns are still the template's and no other is idle; anything unexpected closes
// it, and the next file loads the template afresh. Emptying deletes the rows of the tables that
// hold any (foreign keys off for it) and restarts the sequences that were used: a `truncate` of
// all 62 tables made a new file for each in PGlite's memory file system, 0.35–1.2 s CPU per
// hand-over against ≈ 0.06 s for one query to find the tables with rows and the deletes.
// FLASHBULB_TEST_PGLITE_REUSE=0 loads it for every database (to rule the reuse out).

/** Whether this run hands a dropped PGlite on to the worker's next file (see above). */
export const handsOnPglite = (): boolean =>
  process.env.FLASHBULB_TEST_DB !== 'postgres' && process.env.FLASHBULB_TEST_PGLITE_REUSE !== '0';

let idlePglite: PGlite | undefined;
let pgliteReset: { withRows: string; shape: string } | undefined;

/** Sequences handed out from since they were last set (`last_value` is null until then). */
const USED_SEQUENCES = `select format('%I.%I', schemaname, sequencename) as name, start_value::text as start
  from pg_sequences where schemaname in ('public', 'pgboss') and last_value is not null`;

/**
 * Tables, views, their columns with their types, and indexes, as one hash: a file that altered
 * the schema does not hand it on. Read from the catalogue itself: information_schema's views
 * cost several times as much, once per file.
 */
const schemaShape = async (client: PGlite): Promise<string> => {
  const { rows } = await client.query<{ shape: string }>(
    `select md5(string_agg(
       n.nspname || '.' || c.relname || '.' || c.relkind::text
         || coalesce('.' || a.attname || ':' || format_type(a.atttypid, a.atttypmod), ''),
       ',' order by n.nspname, c.relname, a.attname)) as shape
       from pg_class c
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
         and c.relkind in ('r', 'p', 'v', 'm', 'f')
      where n.nspname in ('public', 'pgboss', 'drizzle')
        and c.relkind in ('r', 'p', 'v', 'm', 'f', 'i', 'I')`,
  );
  return rows[0]?.shape ?? '';
};

const acquirePglite = async (dump: string): Promise<PGlite> => {
  const idle = idlePglite;
  idlePglite = undefined;
  if (idle && !idle.closed) return idle;
  const client = await PGlite.create({
    loadDataDir: new Blob([await readFile(dump)]),
    extensions: { vector },
  });
  if (!pgliteReset) {
    const { rows } = await client.query<{ name: string }>(
      `select format('%I.%I', schemaname, tablename) as name from pg_tables
        where schemaname = 'public'
           or (schemaname = 'pgboss' and tablename in ('job', 'archive', 'schedule', 'subscription'))`,
    );
    pgliteReset = {
      // One statement names the tables that hold rows (an empty table's scan ends at once).
      withRows: rows
        .map((row) => `select '${row.name}' as name where exists (select 1 from ${row.name})`)
        .join(' union all '),
      shape: await schemaShape(client),
    };
  }
  return client;
};

const releasePglite = async (client: PGlite): Promise<void> => {
  if (client.closed) return;
  try {
    if (idlePglite || !pgliteReset || !handsOnPglite()) {
      throw new Error('not kept');
    }
    await client.exec('reset all; deallocate all; unlisten *; select pg_advisory_unlock_all()');
    const tables = (await client.query<{ name: string }>(pgliteReset.withRows)).rows;
    const sequences = (await client.query<{ name: string; start: string }>(USED_SEQUENCES)).rows;
    // Foreign keys are triggers: the replica role skips them, so the order of the deletes does not
    // matter (every table with rows is emptied).
    await client.exec(
      [
        'set session_replication_role = replica',
        ...tables.map((table) => `delete from ${table.name}`),
        ...sequences.map((seq) => `select setval('${seq.name}', ${seq.start}, false)`),
        'reset session_replication_role',
      ].join(';\n'),
    );
    if ((await schemaShape(client)) !== pgliteReset.shape) throw new Error('schema changed');
    idlePglite = client;
  } catch {
    await client.close().catch(() => undefined);
  }
};

declare module 'vitest' {
  export interface ProvidedContext {
    pgUrl: string;
  }
}

/**
 * A fresh database for one test file: in-memory PGlite, or a new database on the throwaway
 * PostgreSQL cluster of the `server-pg` project. Both start as a copy of the run's migrated
 * template (helpers/db-template-setup.ts); `empty: true` skips the template (the database is
 * migrated on open, without pg-boss's schema). For a database nothing has touched, on PostgreSQL,
 * see `createEmptyPgDatabase`.
 */
export const openTestDatabase = async (
  options: { empty?: boolean } = {},
): Promise<{
  database: Database;
  drop: () => Promise<void>;
}> => {
  if (process.env.FLASHBULB_TEST_DB !== 'postgres') {
    const dump = options.empty ? undefined : process.env.FLASHBULB_TEST_PGLITE_DUMP;
    if (dump) {
      const client = await acquirePglite(dump);
      // Dropping it, unclosed, hands it back: emptied, it serves the worker's next file (see
      // acquirePglite). Closed, it is closed like any database (a test may close it on purpose).
      return { database: wrapPglite(client), drop: () => releasePglite(client) };
    }
    // Run without the project's set-up (or asked empty): migrate a template once per file and
    // clone it.
    pgliteTemplate ??= (async () => {
      const template = (await openDatabase({ engine: 'pglite', dataDir: null })) as ReturnType<
        typeof wrapPglite
      >;
      const queue = new JobQueue(template, pino({ level: 'silent' }));
      await queue.start();
      await queue.stop();
      return template;
    })();
    const template = await pgliteTemplate;
    // clone() answers the interface type; the object is a PGlite like its template.
    const database = wrapPglite((await template.client.clone()) as PGlite);
    return { database, drop: () => Promise.resolve() };
  }
  let adminUrl = process.env.FLASHBULB_TEST_PG_URL;
  try {
    adminUrl ??= inject('pgUrl');
  } catch {
    // not provided
  }
  if (!adminUrl) throw new Error('FLASHBULB_TEST_PG_URL is not set; run through `npm test`');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  const template = options.empty ? undefined : process.env.FLASHBULB_TEST_PG_TEMPLATE;
  await admin.query(`create database ${name}${template ? ` template ${template}` : ''}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 4 });
  return {
    database: Object.assign(database, { url: url.toString() }),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
};

/** A database on the throwaway PostgreSQL cluster that nothing has touched: no table, no schema. */
export const createEmptyPgDatabase = async (): Promise<{
  url: string;
  drop: () => Promise<void>;
}> => {
  const adminUrl = process.env.FLASHBULB_TEST_PG_URL ?? inject('pgUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const client = new pg.Client({ connectionString: adminUrl });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    },
  };
};

export interface TestApp {
  app: FastifyInstance;
  clock: TestClock;
  config: AppConfig;
  database: Database;
  /** POST an endpoint of the contract; answers status and the parsed envelope. */
  call<E extends Endpoint>(
    endpoint: E,
    body: BodyOf<E> | Record<string, unknown>,
    options?: { authorization?: string; cookie?: string; headers?: Record<string, string> },
  ): Promise<{ statusCode: number; body: Envelope<ResultOf<E>>; headers: Record<string, unknown> }>;
  /** The result of an ok reply; fails the test with the error otherwise. */
  ok<E extends Endpoint>(
    endpoint: E,
    body: BodyOf<E>,
    options?: { authorization?: string },
  ): Promise<ResultOf<E>>;
  close(): Promise<void>;
}

export const createTestApp = async (
  env: Record<string, string> = {},
  options: {
    worker?: boolean;
    logStream?: { write(line: string): void };
    faceEngine?: FaceEngineProvider;
    /** How outgoing webhooks resolve host names (a double answering what a test needs). */
    webhookResolve?: (host: string) => Promise<string[]>;
    /**
     * The app opens its database from the configuration, as `npm start` does: PGlite on disk in
     * this folder (or PostgreSQL when `env` sets DATABASE_URL). Closing leaves folder and database
     * for the caller (a server process started on them later).
     */
    onDisk?: { dataDir: string };
  } = {},
): Promise<TestApp> => {
  const dataDir =
    options.onDisk?.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'flashbulb-test-')));
  const config = loadConfig({
    FLASHBULB_DATA_DIR: dataDir,
    FLASHBULB_SECRET_KEY: 'test-secret-key-that-is-long-enough-0123456789',
    FLASHBULB_AUTH_RATE_LIMIT: '10000',
    // Like the identity rate limit: out of the way of tests that are not about the guest budgets
    // (those set their own); a call's recipient cap stays as it is.
    FLASHBULB_GUEST_LIMITS: TEST_GUEST_LIMITS,
    FLASHBULB_WEB_DIST: path.join(dataDir, 'no-web'),
    // The tests sell through the built-in test provider; a default install does not.
    FLASHBULB_PAYMENTS_PROVIDER: 'test',
    LOG_LEVEL: 'silent',
    ...env,
  });
  const clock = new TestClock();
  const opened = options.onDisk ? null : await openTestDatabase();
  const app = await buildApp(config, {
    ...(opened ? { database: opened.database } : {}),
    clock,
    passwordHasher: TEST_PASSWORD_HASHER,
    // Like the server: an `api` process runs no jobs (FLASHBULB_ROLE).
    worker: options.worker ?? config.role !== 'api',
    ...(options.logStream ? { logStream: options.logStream } : {}),
    ...(options.faceEngine ? { faceEngine: options.faceEngine } : {}),
    ...(options.webhookResolve ? { webhookResolve: options.webhookResolve } : {}),
  });
  await app.ready();
  const database = opened?.database ?? app.container.database;

  // Calls go to `self.app`, so a test may swap in a restarted app on the same data.
  const call: TestApp['call'] = async (endpoint, body, callOptions = {}) => {
    const response = await self.app.inject({
      method: 'POST',
      url: `${API_BASE}${endpoint.path}`,
      payload: body as object,
      headers: {
        ...(callOptions.authorization ? { authorization: callOptions.authorization } : {}),
        ...(callOptions.cookie ? { cookie: callOptions.cookie } : {}),
        ...callOptions.headers,
      },
    });
    return { statusCode: response.statusCode, body: response.json(), headers: response.headers };
  };

  const self: TestApp = {
    app,
    clock,
    config,
    database,
    call,
    async ok(endpoint, body, callOptions) {
      const response = await call(endpoint, body, callOptions);
      if (response.body.status !== 'ok') {
        throw new Error(
          `${endpoint.path} answered ${response.statusCode} ${JSON.stringify(response.body)}`,
        );
      }
      return response.body.result;
    },
    async close() {
      await self.app.close();
      if (!opened) return;
      // PGlite from the template goes back to the worker unclosed (drop empties and keeps it).
      if (opened.database.engine !== 'pglite' || !process.env.FLASHBULB_TEST_PGLITE_DUMP) {
        await opened.database.close();
      }
      await opened.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
  return self;
};
