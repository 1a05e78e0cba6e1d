// A migrated embedded database folder made from the run's PGlite template dump
// (helpers/db-template-setup.ts) instead of by a first start: PGlite's initdb, the migrations and
// pg-boss's schema cost ≈ 12 s of CPU per folder; loading the dump about one.
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { closeTree } from '../../src/lib/data-dir-modes.ts';

/** Writes the template `dump` (a PGlite data-dir tarball) into `folder`, as a first start leaves it. */
export const loadTemplateInto = async (folder: string, dump: string): Promise<void> => {
  await mkdir(path.dirname(folder), { recursive: true, mode: 0o700 });
  const client = await PGlite.create({
    dataDir: folder,
    loadDataDir: new Blob([await readFile(dump)]),
    extensions: { vector },
  });
  await client.close();
  // As openDatabase does after creating a folder: the server user's alone.
  await closeTree(folder);
};
