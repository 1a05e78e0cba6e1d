import type { FastifyBaseLogger as Logger } from 'fastify';
import type { Database } from './database.ts';

/** The tables whose lists must stay fast (index-only scans need the visibility map current). */
export const VACUUMED_TABLES = ['photos', 'attendees', 'attendee_photos', 'photo_faces'] as const;

/**
 * PGlite runs PostgreSQL in one process without the autovacuum launcher, so nothing vacuums or
 * analyzes its tables: deep photo pages lose their index-only scan (every row a heap fetch) and
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
      `select relname, n_live_tup, n_dead_tup, n_ins_since_vacuum, n_mod_since_analyze
         from pg_stat_user_tables where relname = any($1::text[])`,
      [VACUUMED_TABLES],
    );
    const done: string[] = [];
    for (const row of rows) {
      const live = Number(row.n_live_tup);
      const changed = Number(row.n_dead_tup) + Number(row.n_ins_since_vacuum);
      if (changed <= 1000 + 0.1 * live) continue;
      const table = String(row.relname);
      // The name comes from the fixed list above, never from input.
      if (!(VACUUMED_TABLES as readonly string[]).includes(table)) continue;
      await this.deps.database.executeSql(`vacuum (analyze) ${table}`);
      done.push(table);
    }
    if (done.length > 0) this.deps.logger.info({ tables: done }, 'vacuumed');
    return done;
  }
}
