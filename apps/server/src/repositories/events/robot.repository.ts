import { and, asc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import { events, photos, robots } from '../../db/schema.ts';
import { rowsOf } from '../raw-rows.ts';

export type RobotRow = typeof robots.$inferSelect;
export type RobotWithEvent = RobotRow & {
  eventName: string | null;
  /** When the robot's last photo arrived (any event). */
  lastUploadAt: Date | null;
  /** Photos the robot uploaded (any event). */
  uploadCount: number;
};

/** One entry of the robot activity log: a photo a robot uploaded, or an activity it reported. */
export interface RobotActivityRow {
  kind: 'upload' | 'activity';
  id: number;
  at: Date;
  /** The instant to microseconds (UTC text): the page cursor, exact where a Date would round. */
  atExact: string;
  robotId: number;
  robotName: string | null;
  eventId: number;
  eventName: string;
  name: string;
  type: string;
  photoId: number | null;
}

export interface RobotActivityFilter {
  eventId?: number;
  robotId?: number;
  organisationId?: number;
  from?: Date;
  to?: Date;
  /** Entries strictly after this one in the log's order (newest first). */
  after?: { at: string; kind: 'upload' | 'activity'; id: number };
  limit: number;
}

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

  /**
   * The activity log, newest first: photos robots uploaded (`photos.robot_id`) and activities their
   * booths reported (`activities`), in one keyset-paged order (instant, kind, id).
   */
  async activity(filter: RobotActivityFilter): Promise<RobotActivityRow[]> {
    const branch = (alias: 'p' | 'a'): SQL => {
      const column = (name: string) => sql.raw(`${alias}.${name}`);
      const parts: SQL[] = [sql`${column('robot_id')} is not null`];
      if (filter.robotId !== undefined) parts.push(sql`${column('robot_id')} = ${filter.robotId}`);
      if (filter.eventId !== undefined) parts.push(sql`${column('event_id')} = ${filter.eventId}`);
      if (filter.organisationId !== undefined)
        parts.push(sql`e.organisation_id = ${filter.organisationId}`);
      if (filter.from)
        parts.push(sql`${column('created_at')} >= ${filter.from.toISOString()}::timestamptz`);
      if (filter.to)
        parts.push(sql`${column('created_at')} < ${filter.to.toISOString()}::timestamptz`);
      return sql.join(parts, sql` and `);
    };
    const after = filter.after
      ? sql`where (x.at, x.kind, x.id) < (${filter.after.at}::timestamptz, ${filter.after.kind}, ${filter.after.id})`
      : sql``;
    const result = await this.db.execute(sql`
      select x.kind, x.id, x.at, x.robot_id, x.event_id, x.event_name, x.name, x.type, x.photo_id,
        to_char(x.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as at_exact,
        r.name as robot_name
      from (
        select 'upload'::text as kind, p.id, p.created_at as at, p.robot_id, p.event_id,
          e.name as event_name, p.file_name as name, 'info'::text as type, p.id as photo_id
        from photos p join events e on e.id = p.event_id
        where ${branch('p')}
        union all
        select 'activity'::text, a.id, a.created_at, a.robot_id, a.event_id, e.name, a.name, a.type,
          a.photo_id
        from activities a join events e on e.id = a.event_id
        where ${branch('a')}
      ) x
      left join robots r on r.id = x.robot_id
      ${after}
      order by x.at desc, x.kind desc, x.id desc
      limit ${filter.limit}
    `);
    return rowsOf(result).map((row) => ({
      kind: row.kind === 'activity' ? 'activity' : 'upload',
      id: Number(row.id),
      at: new Date(String(row.at_exact)),
      atExact: String(row.at_exact),
      robotId: Number(row.robot_id),
      robotName: typeof row.robot_name === 'string' ? row.robot_name : null,
      eventId: Number(row.event_id),
      eventName: String(row.event_name),
      name: String(row.name),
      type: String(row.type),
      photoId: row.photo_id === null ? null : Number(row.photo_id),
    }));
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
        uploadCount:
          sql<number>`(select count(*) from ${photos} where ${photos.robotId} = ${robots.id})`.mapWith(
            Number,
          ),
      })
      .from(robots)
      .leftJoin(events, eq(events.id, robots.eventId))
      .$dynamic();
  }
}
