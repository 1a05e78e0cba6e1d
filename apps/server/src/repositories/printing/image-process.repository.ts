import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { eventImageProcesses, imageProcesses } from '../../db/schema.ts';

export type ImageProcessRow = typeof imageProcesses.$inferSelect;
export type NewImageProcess = Omit<typeof imageProcesses.$inferInsert, 'id' | 'createdAt'>;

/** Image processing steps per organisation. I/O only. */
export class ImageProcessRepository {
  constructor(private readonly db: Db) {}

  async createMany(rows: NewImageProcess[]): Promise<ImageProcessRow[]> {
    if (!rows.length) return [];
    return this.db.insert(imageProcesses).values(rows).returning();
  }

  async countForOrganisation(organisationId: number): Promise<number> {
    const rows = await this.db
      .select({ id: imageProcesses.id })
      .from(imageProcesses)
      .where(eq(imageProcesses.organisationId, organisationId));
    return rows.length;
  }

  /** All steps, or one organisation's, in their display order. */
  async list(organisationId?: number): Promise<ImageProcessRow[]> {
    return this.db
      .select()
      .from(imageProcesses)
      .where(
        organisationId === undefined
          ? undefined
          : eq(imageProcesses.organisationId, organisationId),
      )
      .orderBy(
        asc(imageProcesses.organisationId),
        asc(imageProcesses.position),
        asc(imageProcesses.id),
      );
  }

  async idsInOrganisation(ids: number[], organisationId: number): Promise<number[]> {
    if (!ids.length) return [];
    const rows = await this.db
      .select({ id: imageProcesses.id })
      .from(imageProcesses)
      .where(
        and(inArray(imageProcesses.id, ids), eq(imageProcesses.organisationId, organisationId)),
      );
    return rows.map((r) => r.id);
  }

  /** Every step the event chose (`image_process_id_array`), in the event's order. */
  async listForEvent(eventId: number): Promise<ImageProcessRow[]> {
    const rows = await this.db
      .select({ process: imageProcesses })
      .from(eventImageProcesses)
      .innerJoin(imageProcesses, eq(imageProcesses.id, eventImageProcesses.imageProcessId))
      .where(eq(eventImageProcesses.eventId, eventId))
      .orderBy(asc(eventImageProcesses.position));
    return rows.map((r) => r.process);
  }

  /** The event's steps that print automatically, in the event's order. */
  async listAutoPrintForEvent(eventId: number): Promise<ImageProcessRow[]> {
    const rows = await this.db
      .select({ process: imageProcesses })
      .from(eventImageProcesses)
      .innerJoin(imageProcesses, eq(imageProcesses.id, eventImageProcesses.imageProcessId))
      .where(and(eq(eventImageProcesses.eventId, eventId), eq(imageProcesses.autoPrint, true)))
      .orderBy(asc(eventImageProcesses.position));
    return rows.map((r) => r.process);
  }
}
