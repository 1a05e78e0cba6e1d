import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { leads } from '../../db/schema.ts';

export type LeadRow = typeof leads.$inferSelect;
export type NewLeadRow = Omit<typeof leads.$inferInsert, 'id' | 'createdAt' | 'updatedAt'>;

/** Leads of events: data access only. */
export class LeadRepository {
  constructor(private readonly db: Db) {}

  /** One lead per event and e-mail: a repeat replaces what the guest gave, keeps the first time. */
  async upsert(row: NewLeadRow, now: Date): Promise<LeadRow> {
    const [saved] = await this.db
      .insert(leads)
      .values({ ...row, createdAt: now, updatedAt: now })
      .onConflictDoUpdate({
        target: [leads.eventId, leads.email],
        set: {
          fullName: row.fullName,
          companyName: row.companyName ?? null,
          phone: row.phone ?? null,
          source: row.source,
          consentVersion: row.consentVersion ?? null,
          consentText: row.consentText ?? null,
          consentedAt: row.consentedAt ?? null,
          updatedAt: now,
        },
      })
      .returning();
    if (!saved) throw new Error('lead not saved');
    return saved;
  }

  async ofEvent(eventId: number, limit = 100_000): Promise<LeadRow[]> {
    return this.db
      .select()
      .from(leads)
      .where(eq(leads.eventId, eventId))
      .orderBy(desc(leads.createdAt), desc(leads.id))
      .limit(limit);
  }

  /** Deletes the event's leads among `ids`; answers how many went. */
  async delete(eventId: number, ids: number[]): Promise<number> {
    const gone = await this.db
      .delete(leads)
      .where(and(eq(leads.eventId, eventId), inArray(leads.id, ids)))
      .returning({ id: leads.id });
    return gone.length;
  }

  /** Whether the event still has this lead (the gate's token names it). */
  async exists(eventId: number, id: number): Promise<boolean> {
    const [row] = await this.db
      .select({ id: leads.id })
      .from(leads)
      .where(and(eq(leads.eventId, eventId), eq(leads.id, id)))
      .limit(1);
    return row !== undefined;
  }

  async count(eventId: number): Promise<number> {
    const [row] = await this.db
      .select({ n: sql<number>`count(*)::int` })
      .from(leads)
      .where(eq(leads.eventId, eventId));
    return row?.n ?? 0;
  }
}
