import { and, asc, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db, PreparedRead } from '../../db/database.ts';
import { apiKeys, users } from '../../db/schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** What a signed-in call needs of its user (read with the key or session, in one query). */
export const callerColumns = {
  id: users.id,
  email: users.email,
  role: users.role,
  organisationId: users.organisationId,
  disabledAt: users.disabledAt,
};
export interface CallerRow {
  id: number;
  email: string;
  role: number;
  organisationId: number | null;
  disabledAt: Date | null;
}

export class ApiKeyRepository {
  /** Prepared on first use (see PreparedRead). */
  private byHash?: PreparedRead<{ key: ApiKeyRow; user: CallerRow }>;

  constructor(private readonly db: Db) {}

  async create(key: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
    const [row] = await this.db.insert(apiKeys).values(key).returning();
    if (!row) throw new Error('API key insert returned nothing');
    return row;
  }

  async listForUser(userId: number): Promise<ApiKeyRow[]> {
    return this.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.userId, userId))
      .orderBy(asc(apiKeys.id));
  }

  /** The key with its user, in one query (every call signed with a key reads this). */
  async findByHash(keyHash: string): Promise<{ key: ApiKeyRow; user: CallerRow } | undefined> {
    // Prepared once (built and planned once): it runs on every call signed with a key.
    this.byHash ??= this.db
      .select({ key: getTableColumns(apiKeys), user: callerColumns })
      .from(apiKeys)
      .innerJoin(users, eq(users.id, apiKeys.userId))
      .where(eq(apiKeys.keyHash, sql.placeholder('keyHash')))
      .prepare('flashbulb_api_key_by_hash');
    const [row] = await this.byHash.execute({ keyHash });
    return row;
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
  }

  /** Revokes every key of a user (a password reset: whoever had the old password made them). */
  async deleteAllForUser(userId: number): Promise<void> {
    await this.db.delete(apiKeys).where(eq(apiKeys.userId, userId));
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .returning({ id: apiKeys.id });
    return rows.length === 1;
  }
}
