// Vitest globalSetup of the `server-pglite` and `server-pg` projects: migrate ONE template
// database per run (our migrations plus pg-boss's schema) so that each test file starts from a
// copy instead of migrating its own (seconds per file on two cores, twice: both engines).
//  - PGlite: the migrated data directory is dumped to a tarball; files load it
//    (`loadDataDir`) — FLASHBULB_TEST_PGLITE_DUMP names the file.
//  - PostgreSQL: a database `flashbulb_template` on the throwaway cluster (started by the
//    project's first globalSetup); files `create database … template flashbulb_template` —
//    FLASHBULB_TEST_PG_TEMPLATE names it.
// Tests that need a really empty database (migration and start-up races) ask
// `openTestDatabase({ empty: true })`.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import pino from 'pino';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';

const PG_TEMPLATE = 'flashbulb_template';

const createQueueSchema = async (database: Database): Promise<void> => {
  const queue = new JobQueue(database, pino({ level: 'silent' }));
  await queue.start();
  await queue.stop();
};

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // Global set-up runs in Vitest's own process: the engine is the project's, not process.env's.
  if (project.config.env?.FLASHBULB_TEST_DB === 'postgres') {
    const adminUrl = process.env.FLASHBULB_TEST_PG_URL;
    if (!adminUrl) throw new Error('the PostgreSQL cluster set-up must run first');
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${PG_TEMPLATE}`);
    await admin.query(`create database ${PG_TEMPLATE}`);
    await admin.end();
    const url = new URL(adminUrl);
    url.pathname = `/${PG_TEMPLATE}`;
    const database = await openDatabase({ engine: 'postgres', url: url.toString(), poolSize: 2 });
    try {
      await createQueueSchema(database);
    } finally {
      // A template database must have no open connection while copies are made.
      await database.close();
    }
    process.env.FLASHBULB_TEST_PG_TEMPLATE = PG_TEMPLATE;
    return () => Promise.resolve();
  }
  const cached = process.env.FLASHBULB_TEST_TEMPLATE_CACHE === '0' ? null : pgliteCacheFile();
  if (cached && (await stat(cached).catch(() => null))) {
    process.env.FLASHBULB_TEST_PGLITE_DUMP = cached;
    return () => Promise.resolve();
  }
  const database = await openDatabase({ engine: 'pglite', dataDir: null });
  const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-pglite-template-'));
  try {
    await createQueueSchema(database);
    const { client } = database as unknown as { client: PGlite };
    const dump = await client.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    process.env.FLASHBULB_TEST_PGLITE_DUMP = file;
    if (cached) {
      await keepInCache(file, cached);
      process.env.FLASHBULB_TEST_PGLITE_DUMP = cached;
    }
  } finally {
    await database.close();
  }
  return () => rm(dir, { recursive: true, force: true });
}

// ---- the PGlite template kept between runs ------------------------------------------------------
// Making the template is seconds of every `vitest run` of a server project (10-35 s on this
// 2-core machine), also of a run of one file. The dump is kept in node_modules/.cache under a
// hash of everything it is made from: the migrations, the database and job code (pg-boss's
// queues come from the job definitions), this file, and the versions of the packages involved.
// A change to any of them makes a new one. FLASHBULB_TEST_TEMPLATE_CACHE=0 turns it off.

const SERVER = fileURLToPath(new URL('../../', import.meta.url));
const NODE_MODULES = path.join(SERVER, '../../node_modules');
const CACHE_DIR = path.join(NODE_MODULES, '.cache/flashbulb-test');
const CACHE_PREFIX = 'pglite-template-';
const TEMPLATE_DIRS = ['drizzle', 'src/db', 'src/jobs'];
const TEMPLATE_FILES = ['test/helpers/db-template-setup.ts'];
const TEMPLATE_PACKAGES = ['pg-boss', '@electric-sql/pglite', '@electric-sql/pglite-pgvector'];

/** The files under a folder of apps/server, as sorted paths relative to it. */
const filesUnder = (dir: string): string[] =>
  (readdirSync(path.join(SERVER, dir), { recursive: true }) as string[])
    .map((name) => path.join(dir, name))
    .filter((file) => statSync(path.join(SERVER, file)).isFile())
    .sort();

/** Where the template made from the current sources is kept (it may not be made yet). */
export const pgliteCacheFile = (): string | null => {
  try {
    const hash = createHash('sha256');
    for (const name of TEMPLATE_PACKAGES) {
      // Read from the workspace's node_modules: some packages do not export their manifest.
      const manifest = JSON.parse(
        readFileSync(path.join(NODE_MODULES, name, 'package.json'), 'utf8'),
      ) as { version: string };
      hash.update(`${name}@${manifest.version}\n`);
    }
    for (const file of [...TEMPLATE_DIRS.flatMap(filesUnder), ...TEMPLATE_FILES]) {
      hash.update(`${file}\n`);
      hash.update(readFileSync(path.join(SERVER, file)));
    }
    return path.join(CACHE_DIR, `${CACHE_PREFIX}${hash.digest('hex').slice(0, 16)}.tar`);
  } catch {
    // A package that hides its manifest, an unreadable file: make the template, keep nothing.
    return null;
  }
};

/** Older dumps go after a day (not at once: a run beside this one may be reading one). */
const CACHE_KEEP_MS = 86_400_000;

/** Moves the fresh dump into the cache (atomically: runs side by side may race), drops old ones. */
const keepInCache = async (file: string, cached: string): Promise<void> => {
  await mkdir(CACHE_DIR, { recursive: true });
  const partial = `${cached}.${process.pid}.partial`;
  await writeFile(partial, readFileSync(file));
  await rename(partial, cached);
  for (const name of await readdir(CACHE_DIR)) {
    const other = path.join(CACHE_DIR, name);
    if (!name.startsWith(CACHE_PREFIX) || other === cached) continue;
    const info = await stat(other).catch(() => null);
    if (info && Date.now() - info.mtimeMs > CACHE_KEEP_MS) await rm(other, { force: true });
  }
};
