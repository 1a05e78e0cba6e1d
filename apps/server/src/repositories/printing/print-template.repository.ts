import { and, asc, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { organisations, printTemplates } from '../../db/schema.ts';

export type PrintTemplateRow = typeof printTemplates.$inferSelect;
export type PrintTemplateWithOrganisation = PrintTemplateRow & { organisationName: string | null };

/** Print and watermark templates ("ppt"). I/O only. */
export class PrintTemplateRepository {
  constructor(private readonly db: Db) {}

  async create(template: typeof printTemplates.$inferInsert): Promise<PrintTemplateRow> {
    const [row] = await this.db.insert(printTemplates).values(template).returning();
    if (!row) throw new Error('Template insert returned nothing');
    return row;
  }

  async update(
    id: number,
    changes: Pick<
      typeof printTemplates.$inferInsert,
      'name' | 'layout' | 'placeholderCounts' | 'updatedAt'
    >,
  ): Promise<PrintTemplateRow | undefined> {
    const [row] = await this.db
      .update(printTemplates)
      .set(changes)
      .where(eq(printTemplates.id, id))
      .returning();
    return row;
  }

  async findWithOrganisation(id: number): Promise<PrintTemplateWithOrganisation | undefined> {
    const [row] = await this.db
      .select({ template: printTemplates, organisationName: organisations.name })
      .from(printTemplates)
      .leftJoin(organisations, eq(organisations.id, printTemplates.organisationId))
      .where(eq(printTemplates.id, id));
    return row ? { ...row.template, organisationName: row.organisationName } : undefined;
  }

  async findById(id: number): Promise<PrintTemplateRow | undefined> {
    const [row] = await this.db.select().from(printTemplates).where(eq(printTemplates.id, id));
    return row;
  }

  /**
   * Public templates (organisation null) and private ones: of one organisation, or of every
   * organisation when `privateOf` is 'all'.
   */
  async list(
    isWatermark: boolean,
    privateOf: number | 'all',
  ): Promise<PrintTemplateWithOrganisation[]> {
    return this.db
      .select({
        id: printTemplates.id,
        name: printTemplates.name,
        organisationId: printTemplates.organisationId,
        isWatermark: printTemplates.isWatermark,
        placeholderCounts: printTemplates.placeholderCounts,
        layout: printTemplates.layout,
        createdAt: printTemplates.createdAt,
        updatedAt: printTemplates.updatedAt,
        organisationName: organisations.name,
      })
      .from(printTemplates)
      .leftJoin(organisations, eq(organisations.id, printTemplates.organisationId))
      .where(
        and(
          eq(printTemplates.isWatermark, isWatermark),
          or(
            isNull(printTemplates.organisationId),
            privateOf === 'all'
              ? isNotNull(printTemplates.organisationId)
              : eq(printTemplates.organisationId, privateOf),
          ),
        ),
      )
      .orderBy(asc(printTemplates.name), asc(printTemplates.id));
  }

  /** Which of `ids` an event of the organisation may use: public or the organisation's own, of the kind. */
  async usableIds(ids: number[], organisationId: number, isWatermark: boolean): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .select({ id: printTemplates.id })
      .from(printTemplates)
      .where(
        and(
          inArray(printTemplates.id, ids),
          eq(printTemplates.isWatermark, isWatermark),
          or(
            isNull(printTemplates.organisationId),
            eq(printTemplates.organisationId, organisationId),
          ),
        ),
      );
    return rows.map((r) => r.id);
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db
      .delete(printTemplates)
      .where(eq(printTemplates.id, id))
      .returning({ id: printTemplates.id });
    return rows.length === 1;
  }
}
