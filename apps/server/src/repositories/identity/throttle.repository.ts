import { eq, sql } from 'drizzle-orm';
import type { Db, SqlRunner } from '../../db/database.ts';
import { loginThrottle, passwordResetCodes } from '../../db/schema.ts';

export type ThrottleRow = typeof loginThrottle.$inferSelect;
export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

/** Failure counters for lockout, and password-reset codes. */
export class ThrottleRepository {
  constructor(
    private readonly db: Db,
    /** Raw SQL for the quota counters (table `rate_limit_hits`, shared with the HTTP rate limit). */
    private readonly sqlRunner?: SqlRunner,
  ) {}

  /**
   * Takes `amount` from a counter that holds `limit` per window, atomically (every process counts
   * against the same row of `rate_limit_hits`): answers whether it fitted; a refused take counts
   * nothing. A window starts with its first take and ends `windowMs` later, on the database's
   * clock; `retryAfterMs` is how long until the current window ends.
   */
  async takeQuota(
    key: string,
    amount: number,
    limit: number,
    windowMs: number,
  ): Promise<{ taken: boolean; retryAfterMs: number }> {
    const run = this.sqlRunner;
    if (!run) throw new Error('ThrottleRepository: quotas need a SQL runner');
    if (amount > limit) return { taken: false, retryAfterMs: windowMs };
    const ttl = `greatest(0, ceil(extract(epoch from (window_ends_at - now())) * 1000))::int as ttl`;
    // A row that exists: one update, which re-checks its condition under the row lock.
    const update = () =>
      run.executeSql(
        `update rate_limit_hits set
           count = case when window_ends_at <= now() then $2 else count + $2 end,
           window_ends_at = case when window_ends_at <= now()
                                 then now() + $4 * interval '1 millisecond' else window_ends_at end
         where key = $1 and (window_ends_at <= now() or count + $2 <= $3)
         returning ${ttl}`,
        [key, amount, limit, windowMs],
      );
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const updated = await update();
      if (updated.rows[0]) return { taken: true, retryAfterMs: 0 };
      const inserted = await run.executeSql(
        `insert into rate_limit_hits (key, count, window_ends_at)
           values ($1, $2, now() + $3 * interval '1 millisecond')
         on conflict (key) do nothing returning key`,
        [key, amount, windowMs],
      );
      if (inserted.rows[0]) return { taken: true, retryAfterMs: 0 };
      // The row exists: either it is full, or another process inserted it just now (try again).
      const { rows } = await run.executeSql(
        `select ${ttl}, count + $2 <= $3 as fits from rate_limit_hits where key = $1`,
        [key, amount, limit],
      );
      const row = rows[0] as { ttl: number; fits: boolean } | undefined;
      if (row && !row.fits && row.ttl > 0) return { taken: false, retryAfterMs: row.ttl };
    }
    return { taken: false, retryAfterMs: 1000 };
  }

  /** Gives `amount` back to a counter (a concurrency slot freed); never below zero. */
  async returnQuota(key: string, amount: number): Promise<void> {
    if (!this.sqlRunner) throw new Error('ThrottleRepository: quotas need a SQL runner');
    await this.sqlRunner.executeSql(
      `update rate_limit_hits set count = greatest(0, count - $2)
        where key = $1 and window_ends_at > now()`,
      [key, amount],
    );
  }

  async get(username: string): Promise<ThrottleRow | undefined> {
    const [row] = await this.db
      .select()
      .from(loginThrottle)
      .where(eq(loginThrottle.username, username));
    return row;
  }

  /**
   * Counts one failure in one statement so concurrent failures are all counted. A run of failures
   * is forgotten after `forgetSeconds` without one; the hourly window restarts after an hour.
   */
  async recordFailure(username: string, now: Date, forgetSeconds: number): Promise<void> {
    await this.db
      .insert(loginThrottle)
      .values({
        username,
        consecutiveFailures: 1,
        lastFailureAt: now,
        hourWindowStart: now,
        hourFailures: 1,
      })
      .onConflictDoUpdate({
        target: loginThrottle.username,
        set: {
          consecutiveFailures: sql`case when ${loginThrottle.lastFailureAt} is null
            or ${loginThrottle.lastFailureAt} <= ${now}::timestamptz - make_interval(secs => ${forgetSeconds})
            then 1 else ${loginThrottle.consecutiveFailures} + 1 end`,
          hourFailures: sql`case when ${loginThrottle.hourWindowStart} is null
            or ${loginThrottle.hourWindowStart} < ${now}::timestamptz - interval '1 hour'
            then 1 else ${loginThrottle.hourFailures} + 1 end`,
          hourWindowStart: sql`case when ${loginThrottle.hourWindowStart} is null
            or ${loginThrottle.hourWindowStart} < ${now}::timestamptz - interval '1 hour'
            then ${now}::timestamptz else ${loginThrottle.hourWindowStart} end`,
          lastFailureAt: now,
        },
      });
  }

  /** A success ends the run of failures (the hourly count stays). */
  async recordSuccess(username: string): Promise<void> {
    await this.db
      .update(loginThrottle)
      .set({ consecutiveFailures: 0 })
      .where(eq(loginThrottle.username, username));
  }

  async putResetCode(userId: number, codeHash: string, expiresAt: Date): Promise<void> {
    await this.db
      .insert(passwordResetCodes)
      .values({ userId, codeHash, expiresAt, tries: 0 })
      .onConflictDoUpdate({
        target: passwordResetCodes.userId,
        set: { codeHash, expiresAt, tries: 0, createdAt: new Date() },
      });
  }

  async getResetCode(userId: number): Promise<ResetCodeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(passwordResetCodes)
      .where(eq(passwordResetCodes.userId, userId));
    return row;
  }

  async countResetTry(userId: number): Promise<void> {
    await this.db
      .update(passwordResetCodes)
      .set({ tries: sql`${passwordResetCodes.tries} + 1` })
      .where(eq(passwordResetCodes.userId, userId));
  }

  /** Consumes the code; false when another request did so first. */
  async deleteResetCode(userId: number, codeHash: string): Promise<boolean> {
    const rows = await this.db
      .delete(passwordResetCodes)
      .where(
        sql`${passwordResetCodes.userId} = ${userId} and ${passwordResetCodes.codeHash} = ${codeHash}`,
      )
      .returning({ userId: passwordResetCodes.userId });
    return rows.length === 1;
  }
}
