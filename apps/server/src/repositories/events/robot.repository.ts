import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { events, photos, robots } from '../../db/schema.ts';

export type RobotRow = typeof robots.$inferSelect;
export type RobotWithEvent = RobotRow & {
  eventName: string | null;
  /** When the robot's last photo arrived (any event). */
  lastUploadAt: Date | null;
};

/** Robots (uploaders) of organisations. I/O only. */
export class RobotRepository {
  constructor(private readonly db: Db) {}

  async create(robot: typeof robots.$inferInsert): Promise<RobotRow> {
    const [row] = await this.db.insert(robots).values(robot).returning();
    if (!row) throw new Error('Robot insert returned nothing');
    return row;
  }

  async findById(id: number): Promise<RobotWithEvent | undefined> {
    const [row] = await this.selectWithEvent().where(eq(robots.id, id));
    return row;
  }

  /** All robots, or one organisation's. */
  async list(organisationId?: number): Promise<RobotWithEvent[]> {
    return this.selectWithEvent()
      .where(organisationId === undefined ? undefined : eq(robots.organisationId, organisationId))
      .orderBy(asc(robots.name), asc(robots.id));
  }

  /** Which of `ids` belong to the organisation, with the event each serves now. */
  async placesInOrganisation(
    ids: number[],
    organisationId: number,
  ): Promise<{ id: number; eventId: number | null }[]> {
    if (!ids.length) return [];
    return this.db
      .select({ id: robots.id, eventId: robots.eventId })
      .from(robots)
      .where(and(inArray(robots.id, ids), eq(robots.organisationId, organisationId)));
  }

  /** Replaces the key's hash: the old key stops working at once. False when there is no robot. */
  async replaceKey(id: number, keyHash: string, keyPrefix: string): Promise<boolean> {
    const rows = await this.db
      .update(robots)
      .set({ keyHash, keyPrefix })
      .where(eq(robots.id, id))
      .returning({ id: robots.id });
    return rows.length === 1;
  }

  async findByKeyHash(keyHash: string): Promise<RobotRow | undefined> {
    const [row] = await this.db.select().from(robots).where(eq(robots.keyHash, keyHash));
    return row;
  }

  private selectWithEvent() {
    return this.db
      .select({
        id: robots.id,
        name: robots.name,
        organisationId: robots.organisationId,
        keyHash: robots.keyHash,
        keyPrefix: robots.keyPrefix,
        eventId: robots.eventId,
        createdAt: robots.createdAt,
        eventName: events.name,
        // One index look-up per robot (photos_robot_created_idx), not a scan of every photo.
        lastUploadAt:
          sql<Date | null>`(select max(${photos.createdAt}) from ${photos} where ${photos.robotId} = ${robots.id})`.mapWith(
            (value: string | Date | null) => (value === null ? null : new Date(value)),
          ),
      })
      .from(robots)
      .leftJoin(events, eq(events.id, robots.eventId))
      .$dynamic();
  }
}
