import type { SqlRunner } from '../../db/database.ts';

/**
 * Counters in fixed windows, kept in the database (table `rate_limit_hits`, shared with the
 * identity rate limit) so a budget holds across every API process. Times are the database's, so
 * processes with skewed clocks agree.
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
}
