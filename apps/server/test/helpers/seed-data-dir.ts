// `node --import tsx apps/server/test/helpers/seed-data-dir.ts <folder>`: makes <folder>/db a
// migrated embedded database with pg-boss's schema, as a server's first start leaves it. The e2e
// set-up makes one per run and each journey's server starts on a copy, instead of migrating its
// own (seconds per server on two cores).
// The server tests' template is the same database (helpers/db-template-setup.ts): when a run
// has kept it for these sources, the folder is loaded from it (≈ 1 s of CPU instead of ≈ 12).
import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';
import { pgliteCacheFile } from './db-template-setup.ts';
import { loadTemplateInto } from './pglite-folder.ts';

const folder = process.argv[2];
if (!folder) throw new Error('usage: seed-data-dir.ts <data folder>');
const cached = process.env.FLASHBULB_TEST_TEMPLATE_CACHE === '0' ? null : pgliteCacheFile();
if (cached && existsSync(cached)) {
  await loadTemplateInto(path.join(folder, 'db'), cached);
} else {
  const database = await openDatabase({ engine: 'pglite', dataDir: path.join(folder, 'db') });
  try {
    const queue = new JobQueue(database, pino({ level: 'silent' }));
    await queue.start();
    await queue.stop();
  } finally {
    await database.close();
  }
}
