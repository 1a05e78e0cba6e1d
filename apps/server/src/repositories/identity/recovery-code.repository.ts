import { and, count, eq, isNull, max, min, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { mfaRecoveryCodes } from '../../db/schema.ts';

export interface RecoveryCodeStatus {
  /** Codes of the current set not used yet. */
  remaining: number;
  /** Codes in the current set (0: none made yet). */
  total: number;
  generatedAt: Date | null;
  lastUsedAt: Date | null;
}

/** Two-factor recovery codes (their keyed hashes): data access only. */
export class RecoveryCodeRepository {
  constructor(private readonly db: Db) {}

  /** The user's set becomes exactly these hashes: the old set is gone in the same transaction. */
  async replace(userId: number, codeHashes: readonly string[], now: Date): Promise<void> {
    await this.db.transaction(async (tx) => {
      await tx.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
      if (codeHashes.length === 0) return;
      await tx
        .insert(mfaRecoveryCodes)
        .values(codeHashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
    });
  }

  /** Marks the code used if it is the user's and unused; false otherwise (one winner only). */
  async claim(userId: number, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaRecoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(mfaRecoveryCodes.userId, userId),
          eq(mfaRecoveryCodes.codeHash, codeHash),
          isNull(mfaRecoveryCodes.usedAt),
        ),
      )
      .returning({ id: mfaRecoveryCodes.id });
    return rows.length > 0;
  }

  async status(userId: number): Promise<RecoveryCodeStatus> {
    const [row] = await this.db
      .select({
        total: count(),
        remaining: sql<number>`count(*) filter (where ${mfaRecoveryCodes.usedAt} is null)`.mapWith(
          Number,
        ),
        generatedAt: min(mfaRecoveryCodes.createdAt),
        lastUsedAt: max(mfaRecoveryCodes.usedAt),
      })
      .from(mfaRecoveryCodes)
      .where(eq(mfaRecoveryCodes.userId, userId));
    return {
      total: row?.total ?? 0,
      remaining: row?.remaining ?? 0,
      generatedAt: row?.generatedAt ? new Date(row.generatedAt) : null,
      lastUsedAt: row?.lastUsedAt ? new Date(row.lastUsedAt) : null,
    };
  }

  async deleteAll(userId: number): Promise<void> {
    await this.db.delete(mfaRecoveryCodes).where(eq(mfaRecoveryCodes.userId, userId));
  }
}
