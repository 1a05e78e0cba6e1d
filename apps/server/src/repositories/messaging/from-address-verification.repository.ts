import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { fromAddressVerifications } from '../../db/schema.ts';

export type FromAddressVerificationRow = typeof fromAddressVerifications.$inferSelect;

/** One-time tokens of from-address verification e-mails (hashed). I/O only. */
export class FromAddressVerificationRepository {
  constructor(private readonly db: Db) {}

  async create(row: typeof fromAddressVerifications.$inferInsert): Promise<void> {
    await this.db.insert(fromAddressVerifications).values(row);
  }

  async findByHash(tokenHash: string): Promise<FromAddressVerificationRow | undefined> {
    const [row] = await this.db
      .select()
      .from(fromAddressVerifications)
      .where(eq(fromAddressVerifications.tokenHash, tokenHash));
    return row;
  }

  /** Spends the token; false when it was already spent (two clicks race: one wins). */
  async markUsed(tokenHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(fromAddressVerifications)
      .set({ usedAt: now })
      .where(
        and(
          eq(fromAddressVerifications.tokenHash, tokenHash),
          isNull(fromAddressVerifications.usedAt),
        ),
      )
      .returning({ tokenHash: fromAddressVerifications.tokenHash });
    return rows.length === 1;
  }
}
