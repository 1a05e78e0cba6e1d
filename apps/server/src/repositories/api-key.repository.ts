import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { apiKeys } from '../db/schema.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

export class ApiKeyRepository {
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

  async findByHash(keyHash: string): Promise<ApiKeyRow | undefined> {
    const [row] = await this.db.select().from(apiKeys).where(eq(apiKeys.keyHash, keyHash));
    return row;
  }

  async touch(id: number, now: Date): Promise<void> {
    await this.db.update(apiKeys).set({ lastUsedAt: now }).where(eq(apiKeys.id, id));
  }

  async delete(userId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(apiKeys)
      .where(and(eq(apiKeys.id, id), eq(apiKeys.userId, userId)))
      .returning({ id: apiKeys.id });
    return rows.length === 1;
  }
}
