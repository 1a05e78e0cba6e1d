import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { SqlRunner } from '../../db/database.ts';

/** What the metrics and the readiness check read from the database (the gauges of /metrics). */
export class OperationsRepository {
  private journalLast: Promise<number> | undefined;

  constructor(private readonly db: SqlRunner) {}

  /** Jobs per queue and state (created, retry, active, failed…) still in pg-boss's job table. */
  async jobCounts(): Promise<{ queue: string; state: string; count: number }[]> {
    const { rows } = await this.db.executeSql(
      `select name, state::text as state, count(*)::int as count from pgboss.job
        where state in ('created', 'retry', 'active', 'failed') group by name, state`,
      [],
    );
    return rows.map((row) => ({
      queue: String(row.name),
      state: String(row.state),
      count: Number(row.count),
    }));
  }

  /** Messages not yet handed to a provider, by channel and status (held, queued, sending). */
  async outboxBacklog(): Promise<{ channel: string; status: string; count: number }[]> {
    const { rows } = await this.db.executeSql(
      `select channel, status, count(*)::int as count from outbox
        where status in ('outbox', 'queued', 'sending') group by channel, status`,
      [],
    );
    return rows.map((row) => ({
      channel: String(row.channel),
      status: String(row.status),
      count: Number(row.count),
    }));
  }

  /**
   * What a restore into the running server must not cut: jobs running, uploads completing (a
   * claim older than five minutes is a crash's leftover, not an upload).
   */
  async inFlight(): Promise<{ jobs: number; uploads: number }> {
    const { rows } = await this.db.executeSql(
      `select (select count(*)::int from pgboss.job where state = 'active') as jobs,
              (select count(*)::int from upload_claims
                where claimed_at > now() - interval '5 minutes') as uploads`,
      [],
    );
    return { jobs: Number(rows[0]?.jobs ?? 0), uploads: Number(rows[0]?.uploads ?? 0) };
  }

  /** The newest kept integrity report's counts and time (null before the first check). */
  async latestIntegrity(): Promise<{
    checked_date: string;
    missing: number;
    untracked: number;
    checksum_mismatch: number;
  } | null> {
    const { rows } = await this.db.executeSql(
      `select report->>'checked_date' as checked_date, (report->>'missing')::int as missing,
              (report->>'untracked')::int as untracked,
              (report->>'checksum_mismatch')::int as checksum_mismatch
         from integrity_reports order by checked_at desc, id desc limit 1`,
      [],
    );
    const row = rows[0];
    if (!row) return null;
    return {
      checked_date: String(row.checked_date),
      missing: Number(row.missing),
      untracked: Number(row.untracked),
      checksum_mismatch: Number(row.checksum_mismatch),
    };
  }

  /**
   * Whether the newest migration shipped with this code is applied (drizzle records each one's
   * `when` from the journal as `created_at`). False when the database lags the code.
   */
  async migrationsApplied(): Promise<boolean> {
    const expected = await (this.journalLast ??= readJournalLast());
    const { rows } = await this.db.executeSql(
      'select max(created_at)::text as last from drizzle.__drizzle_migrations',
      [],
    );
    return Number(rows[0]?.last ?? 0) >= expected;
  }
}

const readJournalLast = async (): Promise<number> => {
  const file = fileURLToPath(new URL('../../../drizzle/meta/_journal.json', import.meta.url));
  const journal = JSON.parse(await readFile(file, 'utf8')) as { entries: { when: number }[] };
  return Math.max(0, ...journal.entries.map((entry) => entry.when));
};
