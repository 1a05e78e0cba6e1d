import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { createEmptyPgDatabase } from '../helpers/test-app.ts';

/** A database nothing has touched, opened (and so migrated) as the server opens it. */
const openEmpty = async () => {
  if (process.env.FLASHBULB_TEST_DB !== 'postgres') {
    return {
      database: await openDatabase({ engine: 'pglite', dataDir: null }),
      drop: () => Promise.resolve(),
    };
  }
  const empty = await createEmptyPgDatabase();
  return { database: await openDatabase({ engine: 'postgres', url: empty.url }), drop: empty.drop };
};

const tables = async (run: (sql: string) => Promise<{ rows: Record<string, unknown>[] }>) =>
  (
    await run(
      "select table_name from information_schema.tables where table_schema = 'public' order by 1",
    )
  ).rows.map((r) => r.table_name);

describe('database', () => {
  it('applies the committed migrations on open', async () => {
    const { database, drop } = await openEmpty();
    try {
      expect(await tables((sql) => database.executeSql(sql))).toEqual(
        expect.arrayContaining([
          'users',
          'organisations',
          'auth_sessions',
          'api_keys',
          'outbox',
          'webhook_events',
          'login_throttle',
        ]),
      );
      const applied = await database.executeSql(
        'select count(*)::int as n from drizzle.__drizzle_migrations',
      );
      expect(applied.rows[0]!.n).toBeGreaterThan(0);
    } finally {
      await database.close();
      await drop();
    }
  });

  it.runIf(process.env.FLASHBULB_TEST_DB !== 'postgres')(
    'keeps data on disk across restarts (PGlite)',
    async () => {
      const dir = await mkdtemp(path.join(tmpdir(), 'flashbulb-db-'));
      try {
        const first = await openDatabase({ engine: 'pglite', dataDir: path.join(dir, 'db') });
        await first.executeSql("insert into organisations (name) values ('Persisted')");
        await first.close();
        // Reopening runs the migrator again: it must be a no-op and keep the row.
        const second = await openDatabase({ engine: 'pglite', dataDir: path.join(dir, 'db') });
        const rows = await second.executeSql('select name from organisations');
        expect(rows.rows).toEqual([{ name: 'Persisted' }]);
        await second.close();
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  );
});
