import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { cardReaders, paymentConnections } from '../../db/schema.ts';

export type PaymentConnectionRow = typeof paymentConnections.$inferSelect;
export type CardReaderRow = typeof cardReaders.$inferSelect;

/**
 * An organisation's payment provider connections and its paired card readers.
 * Secrets arrive here already sealed (SecretBox) and leave sealed: decrypting is the caller's.
 */
export class PaymentConnectionRepository {
  constructor(private readonly db: Db) {}

  async list(organisationId: number): Promise<PaymentConnectionRow[]> {
    return this.db
      .select()
      .from(paymentConnections)
      .where(eq(paymentConnections.organisationId, organisationId))
      .orderBy(asc(paymentConnections.provider));
  }

  async find(organisationId: number, provider: string): Promise<PaymentConnectionRow | undefined> {
    const [row] = await this.db
      .select()
      .from(paymentConnections)
      .where(
        and(
          eq(paymentConnections.organisationId, organisationId),
          eq(paymentConnections.provider, provider),
        ),
      );
    return row;
  }

  /** Saves (or replaces) a connection; a replaced one is untested again. */
  async save(values: {
    organisationId: number;
    provider: string;
    secrets: Record<string, string>;
    shop: string | null;
    lastFour: string;
  }): Promise<PaymentConnectionRow> {
    const [row] = await this.db
      .insert(paymentConnections)
      .values({ ...values, testedAt: null, testError: null })
      .onConflictDoUpdate({
        target: [paymentConnections.organisationId, paymentConnections.provider],
        set: {
          secrets: values.secrets,
          shop: values.shop,
          lastFour: values.lastFour,
          testedAt: null,
          testError: null,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  }

  async recordTest(
    organisationId: number,
    provider: string,
    testedAt: Date,
    testError: string,
  ): Promise<PaymentConnectionRow | undefined> {
    const [row] = await this.db
      .update(paymentConnections)
      .set({ testedAt, testError })
      .where(
        and(
          eq(paymentConnections.organisationId, organisationId),
          eq(paymentConnections.provider, provider),
        ),
      )
      .returning();
    return row;
  }

  async remove(organisationId: number, provider: string): Promise<boolean> {
    const rows = await this.db
      .delete(paymentConnections)
      .where(
        and(
          eq(paymentConnections.organisationId, organisationId),
          eq(paymentConnections.provider, provider),
        ),
      )
      .returning({ provider: paymentConnections.provider });
    return rows.length > 0;
  }

  async readers(organisationId: number): Promise<CardReaderRow[]> {
    return this.db
      .select()
      .from(cardReaders)
      .where(eq(cardReaders.organisationId, organisationId))
      .orderBy(asc(cardReaders.id));
  }

  async reader(organisationId: number, id: number): Promise<CardReaderRow | undefined> {
    const [row] = await this.db
      .select()
      .from(cardReaders)
      .where(and(eq(cardReaders.organisationId, organisationId), eq(cardReaders.id, id)));
    return row;
  }

  /** Saves a pairing result; the same device code again updates its row (a re-check). */
  async saveReader(values: {
    organisationId: number;
    name: string;
    locationId: string;
    locationName: string;
    deviceCodeId: string;
    deviceId: string;
  }): Promise<CardReaderRow> {
    const [row] = await this.db
      .insert(cardReaders)
      .values(values)
      .onConflictDoUpdate({
        target: [cardReaders.organisationId, cardReaders.deviceCodeId],
        set: {
          name: values.name,
          locationId: values.locationId,
          locationName: values.locationName,
          deviceId: values.deviceId,
          updatedAt: sql`now()`,
        },
      })
      .returning();
    return row!;
  }

  async setReaderDevice(id: number, deviceId: string): Promise<CardReaderRow | undefined> {
    const [row] = await this.db
      .update(cardReaders)
      .set({ deviceId, updatedAt: sql`now()` })
      .where(eq(cardReaders.id, id))
      .returning();
    return row;
  }

  async removeReader(organisationId: number, id: number): Promise<boolean> {
    const rows = await this.db
      .delete(cardReaders)
      .where(and(eq(cardReaders.organisationId, organisationId), eq(cardReaders.id, id)))
      .returning({ id: cardReaders.id });
    return rows.length > 0;
  }
}
