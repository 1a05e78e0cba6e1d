import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from './database.ts';

/** The tables whose lists must stay fast (index-only scans need the visibility map current). */
export const VACUUMED_TABLES = ['photos', 'attendees', 'attendee_photos', 'photo_faces'] as const;

/**
 * The job queue's schema: every job is inserted, updated twice and deleted (archived) within a
 * day, so its tables (a partition per queue, the archive) are the most churned of all. Without a
 * vacuum their dead rows are never reused and the file grows for as long as the server runs.
 */
export const JOB_QUEUE_SCHEMA = 'pgboss';

/** A catalog name as a quoted identifier. */
const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * PGlite runs PostgreSQL in one process without the autovacuum launcher, so nothing vacuums or
 * analyzes its tables (ours listed above, and the job queue's): deep photo pages lose their index-only scan (every row a heap fetch) and
 * the planner works from old statistics. This does autovacuum's job with autovacuum's rule —
 * a table whose rows changed since its last vacuum by more than 1,000 + 10 % of its live rows is
 * vacuumed and analyzed. PostgreSQL has its own autovacuum: nothing is done there.
 */
export class DatabaseMaintenance {
  constructor(
    private readonly deps: {
      database: Pick<Database, 'engine' | 'executeSql'>;
      logger: Pick<Logger, 'info'>;
    },
  ) {}

  /** Job `database.vacuum`: answers the tables it vacuumed. */
  async vacuumIfNeeded(): Promise<string[]> {
    if (this.deps.database.engine !== 'pglite') return [];
    // Counters of this process's recent statements reach the statistics views at the end of the
    // next statement at the latest: ask for that now, so the figures below are current.
    await this.deps.database.executeSql('select pg_stat_force_next_flush()');
    const { rows } = await this.deps.database.executeSql(
      `select s.schemaname, s.relname, s.n_live_tup, s.n_dead_tup, s.n_ins_since_vacuum
         from pg_stat_user_tables s join pg_class c on c.oid = s.relid
        where c.relkind = 'r'
          and ((s.schemaname = 'public' and s.relname = any($1::text[])) or s.schemaname = $2)`,
      [VACUUMED_TABLES, JOB_QUEUE_SCHEMA],
    );
    const done: string[] = [];
    for (const row of rows) {
      const live = Number(row.n_live_tup);
      const changed = Number(row.n_dead_tup) + Number(row.n_ins_since_vacuum);
      if (changed <= 1000 + 0.1 * live) continue;
      // Names come from the catalog (our fixed list, or the job queue's own tables), never from
      // input, and are quoted all the same.
      const schema = String(row.schemaname);
      const table = String(row.relname);
      await this.deps.database.executeSql(`vacuum (analyze) ${quoted(schema)}.${quoted(table)}`);
      done.push(schema === 'public' ? table : `${schema}.${table}`);
    }
    if (done.length > 0) this.deps.logger.info({ tables: done }, 'vacuumed');
    return done;
  }
}
