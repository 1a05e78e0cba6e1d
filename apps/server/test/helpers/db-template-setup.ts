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
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  const database = await openDatabase({ engine: 'pglite', dataDir: null });
  const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-pglite-template-'));
  try {
    await createQueueSchema(database);
    const { client } = database as unknown as { client: PGlite };
    const dump = await client.dumpDataDir('none');
    const file = path.join(dir, 'template.tar');
    await writeFile(file, Buffer.from(await dump.arrayBuffer()));
    process.env.FLASHBULB_TEST_PGLITE_DUMP = file;
  } finally {
    await database.close();
  }
  return () => rm(dir, { recursive: true, force: true });
}
