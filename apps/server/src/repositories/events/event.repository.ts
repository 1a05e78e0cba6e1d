import type { EventSettings } from '@flashbulb/shared';
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  notInArray,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db, PreparedRead } from '../../db/database.ts';
import { eventImageProcesses, eventPrintTemplates, events, robots } from '../../db/schema.ts';

export type EventRow = typeof events.$inferSelect;
type EventInsert = typeof events.$inferInsert;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Settings kept in other tables (robots, image processes, print templates). */
type RelationKey = 'robot_id_array' | 'image_process_id_array' | 'ppt_id_array';
export type EventSettingsColumns = Omit<EventSettings, RelationKey>;

export interface EventRelations {
  robotIds: number[];
  imageProcessIds: number[];
  pptIds: number[];
}

/** An event row with the ids of its robots, image processes and print templates (in order). */
export interface EventRecord extends EventRelations {
  row: EventRow;
}

export interface NewEvent {
  name: string;
  organisationId: number;
  ownerUserId: number | null;
  keys: Record<'owner' | 'private' | 'public', { hash: string; sealed: string }>;
  settings: EventSettingsColumns;
  secureFields: EventRow['secureFields'];
  createdAt: Date;
}

export interface EventChanges {
  settings: EventSettingsColumns;
  secureFields: EventRow['secureFields'];
  emailFromAddressVerified: boolean;
}

export interface EventListFilter {
  organisationId?: number;
  ownerUserId?: number;
  isVisible?: 0 | 1;
  privateKeyHash?: string;
}

export type EventKeyKind = 'owner' | 'private' | 'public';

/** Events and their links to robots, image processes and print templates. I/O only. */
export class EventRepository {
  /** Prepared on first use (see PreparedRead). */
  private byId?: PreparedRead<EventSelectRow>;

  constructor(private readonly db: Db) {}

  /** undefined when the generated name (or a key) is taken: the caller retries with new ones. */
  async create(event: NewEvent, relations: EventRelations): Promise<EventRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const values: EventInsert = {
        ...event.settings,
        name: event.name,
        organisationId: event.organisationId,
        ownerUserId: event.ownerUserId,
        ownerKeyHash: event.keys.owner.hash,
        ownerKeySealed: event.keys.owner.sealed,
        privateKeyHash: event.keys.private.hash,
        privateKeySealed: event.keys.private.sealed,
        publicKeyHash: event.keys.public.hash,
        publicKeySealed: event.keys.public.sealed,
        secureFields: event.secureFields,
        createdAt: event.createdAt,
        updatedAt: event.createdAt,
      };
      const [row] = await tx.insert(events).values(values).onConflictDoNothing().returning();
      if (!row) return undefined;
      await syncRelations(tx, row.id, row.organisationId, relations);
      return { row, ...relations };
    });
  }

  async findById(id: number): Promise<EventRecord | undefined> {
    // Prepared once: this runs on every event-scoped call, and building the select of the wide
    // events row took most of the query's CPU (docs/performance.md).
    this.byId ??= this.select()
      .where(eq(events.id, sql.placeholder('id')))
      .prepare('flashbulb_event_by_id');
    return toRecord((await this.byId.execute({ id }))[0]);
  }

  async findByName(name: string): Promise<EventRecord | undefined> {
    return toRecord((await this.select().where(eq(events.name, name)))[0]);
  }

  /** One event with its links, in one query. */
  private select() {
    return this.db
      .select({
        row: getTableColumns(events),
        robotIds: sql<unknown>`array(select r.id from robots r where r.event_id = events.id order by r.id)`,
        imageProcessIds: sql<unknown>`array(select p.image_process_id from event_image_processes p
              where p.event_id = events.id order by p.position)`,
        pptIds: sql<unknown>`array(select t.template_id from event_print_templates t
              where t.event_id = events.id order by t.position)`,
      })
      .from(events)
      .$dynamic();
  }

  async findByKeyHash(kind: EventKeyKind, hash: string): Promise<EventRow | undefined> {
    const column =
      kind === 'owner'
        ? events.ownerKeyHash
        : kind === 'private'
          ? events.privateKeyHash
          : events.publicKeyHash;
    const [row] = await this.db.select().from(events).where(eq(column, hash));
    return row;
  }

  /**
   * Writes the changes only if the event still carries `expectedUpdatedAt` (checked and written in
   * one statement, so two editors cannot both win). undefined = stale or gone; nothing changed.
   * The new `updated_at` is strictly later than the old one even if the clock has not moved.
   */
  async update(
    id: number,
    expectedUpdatedAt: Date,
    changes: EventChanges,
    relations: EventRelations,
    now: Date,
  ): Promise<EventRecord | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(events)
        .set({
          ...changes.settings,
          secureFields: changes.secureFields,
          emailFromAddressVerified: changes.emailFromAddressVerified,
          updatedAt: sql`greatest(${now.toISOString()}::timestamptz, ${events.updatedAt} + interval '1 millisecond')`,
        })
        .where(and(eq(events.id, id), eq(events.updatedAt, expectedUpdatedAt)))
        .returning();
      if (!row) return undefined;
      await syncRelations(tx, row.id, row.organisationId, relations);
      return { row, ...relations };
    });
  }

  async delete(id: number): Promise<boolean> {
    const rows = await this.db.delete(events).where(eq(events.id, id)).returning({ id: events.id });
    return rows.length === 1;
  }

  async list(
    filter: EventListFilter,
    limit: number,
    offset: number,
  ): Promise<{ rows: EventRow[]; total: number }> {
    const conditions: SQL[] = [];
    if (filter.organisationId !== undefined)
      conditions.push(eq(events.organisationId, filter.organisationId));
    if (filter.ownerUserId !== undefined)
      conditions.push(eq(events.ownerUserId, filter.ownerUserId));
    if (filter.isVisible !== undefined) conditions.push(eq(events.is_visible, filter.isVisible));
    if (filter.privateKeyHash !== undefined)
      conditions.push(eq(events.privateKeyHash, filter.privateKeyHash));
    const where = conditions.length ? and(...conditions) : undefined;
    const rows = await this.db
      .select()
      .from(events)
      .where(where)
      .orderBy(desc(events.createdAt), desc(events.id))
      .limit(limit)
      .offset(offset);
    const [total] = await this.db.select({ n: count() }).from(events).where(where);
    return { rows, total: total?.n ?? 0 };
  }

  /** Marks the address verified if it is still the event's address; does not touch updated_at. */
  async markFromAddressVerified(id: number, address: string): Promise<boolean> {
    const rows = await this.db
      .update(events)
      .set({ emailFromAddressVerified: true })
      .where(and(eq(events.id, id), eq(events.email_from_address, address)))
      .returning({ id: events.id });
    return rows.length === 1;
  }
}

/**
 * Points the event's links at exactly `relations`. Robots chosen here are taken off whatever event
 * they served before (a robot serves one event); robots no longer chosen are disconnected.
 */
const syncRelations = async (
  tx: Tx,
  eventId: number,
  organisationId: number,
  relations: EventRelations,
): Promise<void> => {
  await tx
    .update(robots)
    .set({ eventId: null })
    .where(
      relations.robotIds.length
        ? and(eq(robots.eventId, eventId), notInArray(robots.id, relations.robotIds))
        : eq(robots.eventId, eventId),
    );
  if (relations.robotIds.length) {
    await tx
      .update(robots)
      .set({ eventId })
      .where(
        and(inArray(robots.id, relations.robotIds), eq(robots.organisationId, organisationId)),
      );
  }
  await tx.delete(eventImageProcesses).where(eq(eventImageProcesses.eventId, eventId));
  if (relations.imageProcessIds.length) {
    await tx.insert(eventImageProcesses).values(
      relations.imageProcessIds.map((imageProcessId, position) => ({
        eventId,
        imageProcessId,
        position,
      })),
    );
  }
  await tx.delete(eventPrintTemplates).where(eq(eventPrintTemplates.eventId, eventId));
  if (relations.pptIds.length) {
    await tx
      .insert(eventPrintTemplates)
      .values(relations.pptIds.map((templateId, position) => ({ eventId, templateId, position })));
  }
};

/** An `int[]` from the database (PGlite and node-postgres both parse it to numbers or strings). */
const idList = (value: unknown): number[] =>
  Array.isArray(value) ? value.map((id) => Number(id)) : [];

interface EventSelectRow {
  row: EventRow;
  robotIds: unknown;
  imageProcessIds: unknown;
  pptIds: unknown;
}

const toRecord = (found: EventSelectRow | undefined): EventRecord | undefined =>
  found && {
    row: found.row,
    robotIds: idList(found.robotIds),
    imageProcessIds: idList(found.imageProcessIds),
    pptIds: idList(found.pptIds),
  };
