import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseMaintenance } from '../../src/db/maintenance.ts';
import { createEvent, createRobotWorld } from '../helpers/events.ts';
import { insertCompletedJobs } from '../helpers/jobs.ts';
import { createTestApp, type TestApp } from '../helpers/test-app.ts';

/** PGlite has no autovacuum launcher: the `database.vacuum` job does its work. */

let t: TestApp;
let eventId: number;
beforeAll(async () => {
  t = await createTestApp({}, { worker: false });
  const { world } = await createRobotWorld(t);
  eventId = (await createEvent(t, world.adminA)).id;
});
afterAll(async () => {
  await t.close();
});

const maintenance = () =>
  new DatabaseMaintenance({ database: t.database, logger: { info: () => undefined } });

const lastVacuum = async (table: string) => {
  const { rows } = await t.database.executeSql(
    'select last_vacuum from pg_stat_user_tables where relname = $1',
    [table],
  );
  return rows[0]?.last_vacuum ?? null;
};

describe('database.vacuum', () => {
  it.runIf(process.env.FLASHBULB_TEST_DB !== 'postgres')(
    'on PGlite vacuums a table once enough of it changed, and not again until it changes',
    async () => {
      await t.database.executeSql(
        `insert into photos (uid, event_id, sha256, storage_key, file_name, content_type, media_type,
           size_bytes, status, created_at, available_at)
         select 'vac' || g, $1, md5(g::text), 'k' || g, 'f.jpg',
           'image/jpeg', 'image', 1, 'ready', now(), now()
         from generate_series(1, 3000) g`,
        [eventId],
      );
      expect(await lastVacuum('photos')).toBeNull();
      expect(await maintenance().vacuumIfNeeded()).toContain('photos');
      expect(await lastVacuum('photos')).not.toBeNull();
      expect(await maintenance().vacuumIfNeeded()).not.toContain('photos');
    },
  );

  it.runIf(process.env.FLASHBULB_TEST_DB !== 'postgres')(
    'on PGlite vacuums the job queue’s tables too: a day of jobs archived leaves their dead rows',
    async () => {
      // What pg-boss does to every job within a day: inserted, completed, then moved out of the
      // job table by its archive. Without a vacuum the partition's file only ever grows.
      const queue = 'auth.cleanup';
      await insertCompletedJobs(t, queue, 3000);
      await t.database.executeSql(`delete from pgboss.job where name = $1`, [queue]);
      const { rows } = await t.database.executeSql(
        `select c.relname from pg_inherits i join pg_class c on c.oid = i.inhrelid
          join pg_class p on p.oid = i.inhparent
          join pg_namespace n on n.oid = p.relnamespace
          where n.nspname = 'pgboss' and p.relname = 'job'
            and pg_get_expr(c.relpartbound, c.oid) like '%' || $1 || '%'`,
        [queue],
      );
      const partition = String(rows[0]!.relname);
      const done = await maintenance().vacuumIfNeeded();
      expect(done).toContain(`pgboss.${partition}`);
      const { rows: after } = await t.database.executeSql(
        `select n_dead_tup, last_vacuum from pg_stat_user_tables
          where schemaname = 'pgboss' and relname = $1`,
        [partition],
      );
      expect(Number(after[0]!.n_dead_tup)).toBe(0);
      expect(after[0]!.last_vacuum).not.toBeNull();
      expect(await maintenance().vacuumIfNeeded()).not.toContain(`pgboss.${partition}`);
    },
  );

  it.runIf(process.env.FLASHBULB_TEST_DB === 'postgres')(
    'on PostgreSQL leaves the work to autovacuum',
    async () => {
      expect(await maintenance().vacuumIfNeeded()).toEqual([]);
    },
  );
});
