import { and, asc, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { organisations, users } from '../../db/schema.ts';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type UserWithOrganisation = UserRow & { organisationName: string | null };

/** Users: data access only. */
export class UserRepository {
  constructor(private readonly db: Db) {}

  async count(): Promise<number> {
    const [row] = await this.db.select({ n: count() }).from(users);
    return row?.n ?? 0;
  }

  async findByEmail(email: string): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.email, email));
    return row;
  }

  async findById(id: number): Promise<UserWithOrganisation | undefined> {
    const [row] = await this.db
      .select({ user: users, organisationName: organisations.name })
      .from(users)
      .leftJoin(organisations, eq(organisations.id, users.organisationId))
      .where(eq(users.id, id));
    return row ? { ...row.user, organisationName: row.organisationName } : undefined;
  }

  /** Every user, or one organisation's, by e-mail. */
  async list(organisationId?: number): Promise<UserWithOrganisation[]> {
    const rows = await this.db
      .select({ user: users, organisationName: organisations.name })
      .from(users)
      .leftJoin(organisations, eq(organisations.id, users.organisationId))
      .where(organisationId === undefined ? undefined : eq(users.organisationId, organisationId))
      .orderBy(asc(users.email));
    return rows.map((row) => ({ ...row.user, organisationName: row.organisationName }));
  }

  /** Role, organisation and disabled time, in one statement. */
  async updateAccount(
    id: number,
    change: Partial<Pick<UserRow, 'role' | 'organisationId' | 'disabledAt'>>,
  ): Promise<void> {
    await this.db
      .update(users)
      .set({ ...change, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  /** Inserts unless the e-mail is taken; undefined when it is. */
  async create(user: NewUserRow): Promise<UserRow | undefined> {
    const [row] = await this.db.insert(users).values(user).onConflictDoNothing().returning();
    return row;
  }

  /** Creates the user only while the table is empty (first administrator), atomically. */
  async createIfNoUsers(user: NewUserRow): Promise<UserRow | undefined> {
    return this.db.transaction(async (tx) => {
      // One creator at a time across processes; the check below then sees every earlier insert.
      await tx.execute(sql`select pg_advisory_xact_lock(727002)`);
      const [existing] = await tx.select({ n: count() }).from(users);
      if ((existing?.n ?? 0) > 0) return undefined;
      const [row] = await tx.insert(users).values(user).returning();
      return row;
    });
  }

  async setPassword(id: number, passwordHash: string): Promise<void> {
    await this.db
      .update(users)
      .set({
        passwordHash,
        status: 'CONFIRMED',
        temporaryPasswordExpiresAt: null,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
  }

  async setTotp(
    id: number,
    encryptedSecret: string | null,
    enabled: boolean,
    acceptedStep: number | null,
  ): Promise<void> {
    await this.db
      .update(users)
      .set({
        totpSecret: encryptedSecret,
        totpEnabled: enabled,
        totpLastStep: acceptedStep,
        updatedAt: new Date(),
      })
      .where(eq(users.id, id));
  }

  async setTotpEnabled(id: number, enabled: boolean): Promise<void> {
    await this.db
      .update(users)
      .set({ totpEnabled: enabled, updatedAt: new Date() })
      .where(eq(users.id, id));
  }

  /** Records a used TOTP step; false when that step (or a later one) was used already — a replay. */
  async claimTotpStep(id: number, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ totpLastStep: step })
      .where(and(eq(users.id, id), or(isNull(users.totpLastStep), lt(users.totpLastStep, step))))
      .returning({ id: users.id });
    return rows.length === 1;
  }
}
