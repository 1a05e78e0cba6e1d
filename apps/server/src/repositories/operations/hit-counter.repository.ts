import type { SqlRunner } from '../../db/database.ts';

/**
 * Counters in fixed windows, kept in the database (table `rate_limit_hits`) so a budget — and the
 * identity rate limit (http/rate-limit-store.ts) — holds across every API process. Times are the
 * database's, so processes with skewed clocks agree.
 */
export class HitCounterRepository {
  constructor(private readonly db: SqlRunner) {}

  /**
   * Adds `amount` to each key's count in one statement (a key whose window has ended starts a new
   * one of `windowMs`); answers the counts after adding, in the order of `keys`.
   */
  async add(keys: string[], amount: number, windowMs: number): Promise<number[]> {
    const unique = [...new Set(keys)];
    if (unique.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `insert into rate_limit_hits (key, count, window_ends_at)
         select k, $2::int, now() + $3 * interval '1 millisecond' from unnest($1::text[]) as k
       on conflict (key) do update set
         count = case when rate_limit_hits.window_ends_at <= now() then excluded.count
                      else rate_limit_hits.count + excluded.count end,
         window_ends_at = case when rate_limit_hits.window_ends_at <= now()
                               then excluded.window_ends_at else rate_limit_hits.window_ends_at end
       returning key, count`,
      [unique, amount, windowMs],
    );
    const counts = new Map(rows.map((row) => [row.key as string, Number(row.count)]));
    return keys.map((key) => counts.get(key) ?? 0);
  }

  /** Each key's count in its current window (0 when none or ended), in the order of `keys`. */
  async current(keys: string[]): Promise<number[]> {
    if (keys.length === 0) return [];
    const { rows } = await this.db.executeSql(
      `select key, count from rate_limit_hits where key = any($1::text[]) and window_ends_at > now()`,
      [keys],
    );
    const counts = new Map(rows.map((row) => [row.key as string, Number(row.count)]));
    return keys.map((key) => counts.get(key) ?? 0);
  }

  /**
   * Counts one hit on `key` in one statement: up within its window, or a new window of `windowMs`
   * when the last has ended. Answers the count and the milliseconds left in the window.
   */
  async hit(key: string, windowMs: number): Promise<{ count: number; ttl: number }> {
    const { rows } = await this.db.executeSql(
      `insert into rate_limit_hits (key, count, window_ends_at)
         values ($1, 1, now() + $2 * interval '1 millisecond')
       on conflict (key) do update set
         count = case when rate_limit_hits.window_ends_at <= now() then 1
                      else rate_limit_hits.count + 1 end,
         window_ends_at = case when rate_limit_hits.window_ends_at <= now()
                               then excluded.window_ends_at else rate_limit_hits.window_ends_at end
       returning count, greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`,
      [key, windowMs],
    );
    const row = rows[0] as { count: number; ttl: number };
    return { count: row.count, ttl: row.ttl };
  }

  /** Forgets windows that ended over an hour ago (keeps the table bounded without a job). */
  async forgetEnded(): Promise<void> {
    await this.db.executeSql(
      `delete from rate_limit_hits where window_ends_at < now() - interval '1 hour'`,
    );
  }
}
