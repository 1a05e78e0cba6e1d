import { and, eq, getTableColumns, gt, isNull, ne, lt, or, isNotNull, sql } from 'drizzle-orm';
import type { Db, PreparedRead } from '../../db/database.ts';
import { authSessions, signInChallenges, pendingTotpSecrets, users } from '../../db/schema.ts';
import { callerColumns, type CallerRow } from './api-key.repository.ts';

export type SessionRow = typeof authSessions.$inferSelect;
export type ChallengeRow = typeof signInChallenges.$inferSelect;

/** Signed-in sessions, sign-in challenges in progress and pending authenticator secrets. */
export class SessionRepository {
  /** Prepared on first use (see PreparedRead). */
  private active?: PreparedRead<{ session: SessionRow; user: CallerRow }>;

  constructor(private readonly db: Db) {}

  async create(session: typeof authSessions.$inferInsert): Promise<void> {
    await this.db.insert(authSessions).values(session);
  }

  /** An active session with its user, in one query (every signed-in call reads this). */
  async findActive(
    id: string,
    now: Date,
  ): Promise<{ session: SessionRow; user: CallerRow } | undefined> {
    // Prepared once (built and planned once): it runs on every signed-in call.
    this.active ??= this.db
      .select({ session: getTableColumns(authSessions), user: callerColumns })
      .from(authSessions)
      .innerJoin(users, eq(users.id, authSessions.userId))
      .where(
        and(
          eq(authSessions.id, sql.placeholder('id')),
          isNull(authSessions.revokedAt),
          gt(authSessions.expiresAt, sql.placeholder('now')),
        ),
      )
      .prepare('flashbulb_active_session');
    // A placeholder skips the column's encoder: the timestamp goes as the encoder would send it.
    const [row] = await this.active.execute({ id, now: now.toISOString() });
    return row;
  }

  async findByRefreshHash(hash: string): Promise<SessionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.refreshTokenHash, hash));
    return row;
  }

  async findByPreviousRefreshHash(hash: string): Promise<SessionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(authSessions)
      .where(eq(authSessions.previousRefreshTokenHash, hash));
    return row;
  }

  /** Swaps the refresh token only if it is still the one presented (two racing refreshes: one wins). */
  async rotate(id: string, fromHash: string, toHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(authSessions)
      .set({ refreshTokenHash: toHash, previousRefreshTokenHash: fromHash, refreshedAt: now })
      .where(
        and(
          eq(authSessions.id, id),
          eq(authSessions.refreshTokenHash, fromHash),
          isNull(authSessions.revokedAt),
        ),
      )
      .returning({ id: authSessions.id });
    return rows.length === 1;
  }

  /**
   * A second rotation from the token the last one replaced, allowed only while that rotation is
   * recent (`rotatedAfter`): the browser that sent both lost the first answer's cookie. The
   * previous token stays the previous one, and the window does not move.
   */
  async rotateFromPrevious(
    id: string,
    previousHash: string,
    toHash: string,
    rotatedAfter: Date,
  ): Promise<boolean> {
    const rows = await this.db
      .update(authSessions)
      .set({ refreshTokenHash: toHash })
      .where(
        and(
          eq(authSessions.id, id),
          eq(authSessions.previousRefreshTokenHash, previousHash),
          gt(authSessions.refreshedAt, rotatedAfter),
          isNull(authSessions.revokedAt),
        ),
      )
      .returning({ id: authSessions.id });
    return rows.length === 1;
  }

  async revoke(id: string, now: Date): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: now })
      .where(and(eq(authSessions.id, id), isNull(authSessions.revokedAt)));
  }

  async revokeAllForUser(userId: number, now: Date, exceptId?: string): Promise<void> {
    await this.db
      .update(authSessions)
      .set({ revokedAt: now })
      .where(
        and(
          eq(authSessions.userId, userId),
          isNull(authSessions.revokedAt),
          exceptId ? ne(authSessions.id, exceptId) : undefined,
        ),
      );
  }

  async createChallenge(challenge: typeof signInChallenges.$inferInsert): Promise<void> {
    await this.db.insert(signInChallenges).values(challenge);
  }

  async findChallenge(tokenHash: string, now: Date): Promise<ChallengeRow | undefined> {
    const [row] = await this.db
      .select()
      .from(signInChallenges)
      .where(and(eq(signInChallenges.tokenHash, tokenHash), gt(signInChallenges.expiresAt, now)));
    return row;
  }

  async updateChallenge(
    tokenHash: string,
    changes: Partial<Pick<ChallengeRow, 'pendingTotpSecret' | 'totpVerified' | 'challengeName'>>,
  ): Promise<void> {
    await this.db
      .update(signInChallenges)
      .set(changes)
      .where(eq(signInChallenges.tokenHash, tokenHash));
  }

  /** Consumes a challenge; false if another request consumed it first. */
  async deleteChallenge(tokenHash: string): Promise<boolean> {
    const rows = await this.db
      .delete(signInChallenges)
      .where(eq(signInChallenges.tokenHash, tokenHash))
      .returning({ tokenHash: signInChallenges.tokenHash });
    return rows.length === 1;
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.delete(signInChallenges).where(lt(signInChallenges.expiresAt, now));
    await this.db
      .delete(authSessions)
      .where(
        or(
          lt(authSessions.expiresAt, now),
          and(isNotNull(authSessions.revokedAt), lt(authSessions.expiresAt, now)),
        ),
      );
  }

  async setPendingTotp(userId: number, secret: string): Promise<void> {
    await this.db
      .insert(pendingTotpSecrets)
      .values({ userId, secret })
      .onConflictDoUpdate({
        target: pendingTotpSecrets.userId,
        set: { secret, createdAt: new Date() },
      });
  }

  async takePendingTotp(userId: number): Promise<string | undefined> {
    const [row] = await this.db
      .select()
      .from(pendingTotpSecrets)
      .where(eq(pendingTotpSecrets.userId, userId));
    return row?.secret;
  }

  async clearPendingTotp(userId: number): Promise<void> {
    await this.db.delete(pendingTotpSecrets).where(eq(pendingTotpSecrets.userId, userId));
  }
}
