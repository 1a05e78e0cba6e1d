// `node --import tsx apps/server/test/helpers/seed-data-dir.ts <folder>`: makes <folder>/db a
// migrated embedded database with pg-boss's schema, as a server's first start leaves it. The e2e
// set-up makes one per run and each journey's server starts on a copy, instead of migrating its
// own (seconds per server on two cores).
import path from 'node:path';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import { JobQueue } from '../../src/jobs/job-queue.ts';

const folder = process.argv[2];
if (!folder) throw new Error('usage: seed-data-dir.ts <data folder>');
const database = await openDatabase({ engine: 'pglite', dataDir: path.join(folder, 'db') });
try {
  const queue = new JobQueue(database, pino({ level: 'silent' }));
  await queue.start();
  await queue.stop();
} finally {
  await database.close();
}
