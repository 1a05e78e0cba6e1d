import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { loginThrottle, passwordResetCodes } from '../db/schema.ts';

export type ThrottleRow = typeof loginThrottle.$inferSelect;
export type ResetCodeRow = typeof passwordResetCodes.$inferSelect;

/** Failure counters for lockout, and password-reset codes. */
export class ThrottleRepository {
  constructor(private readonly db: Db) {}

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
