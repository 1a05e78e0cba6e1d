import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/database.ts';
import {
  attendeeEvents,
  attendeePhotos,
  attendeeProfilePhotos,
  attendees,
  events,
  faceSelfies,
  leads,
  miniAlbums,
  orders,
  organisations,
  outbox,
  payments,
  photoAudit,
  photos,
  privacyRequests,
  storageDeletions,
  users,
} from '../../db/schema.ts';
import type { FaceSelfieRow } from '../faces/face-selfie.repository.ts';
import type { OutboxRow } from '../messaging/outbox.repository.ts';
import type { OrderRow, PaymentRow } from '../payments/payment.repository.ts';
import { photoAuditRows, type PhotoRow } from '../photos/photo.repository.ts';
import type { ProfilePhotoRow } from './kiosk-media.repository.ts';
import type { LeadRow } from './lead.repository.ts';

/** Everything kept about one attendee (a privacy export reads it; an erasure plans from it). */
export interface AttendeeData {
  events: { id: number; name: string; fullName: string }[];
  /** Photos uploaded with the attendee's id (in their organisation) or attached to their album. */
  photos: PhotoRow[];
  /** Of those, the ids attached to their album (the others carry their id from the upload). */
  attachedIds: Set<number>;
  /** Photo id → how many other attendees' albums hold it by attachment. */
  otherHolders: Map<number, number>;
  /** Event id → what an erasure does with photos uploaded with the id there (the event's rule). */
  erasePhotos: Map<number, 'delete' | 'detach'>;
  leads: LeadRow[];
  selfies: FaceSelfieRow[];
  messages: OutboxRow[];
  orders: { order: OrderRow; payments: PaymentRow[] }[];
  profilePhotos: ProfilePhotoRow[];
}

/** What an erasure changes, decided by the service; applied in one transaction. */
export interface ErasePlan {
  attendeeId: number;
  /** The id now (the update checks it: a second erasure at the same moment changes nothing). */
  uid: string;
  placeholderUid: string;
  deletePhotos: PhotoRow[];
  /** Photos uploaded with the attendee's id that stay in the event: the id is taken off them. */
  detachPhotoIds: number[];
  leadIds: number[];
  messageIds: number[];
  /** Storage keys and folder prefixes to delete once the transaction is committed. */
  storage: string[];
  audit: {
    organisationId: number;
    actorUserId: number | null;
    counts: Record<string, number>;
  };
  now: Date;
}

/** Privacy requests: the reads of an export and the one transaction of an erasure. */
export class AttendeePrivacyRepository {
  constructor(private readonly db: Db) {}

  async collect(attendee: {
    id: number;
    uid: string;
    email: string | null;
    organisationId: number;
  }): Promise<AttendeeData> {
    const linked = await this.db
      .select({ id: events.id, name: events.name, fullName: events.full_name })
      .from(attendeeEvents)
      .innerJoin(events, eq(events.id, attendeeEvents.eventId))
      .where(eq(attendeeEvents.attendeeId, attendee.id))
      .orderBy(events.id);
    const eventIds = linked.map((e) => e.id);
    const attached = await this.db
      .select({ photoId: attendeePhotos.photoId })
      .from(attendeePhotos)
      .where(eq(attendeePhotos.attendeeId, attendee.id));
    const attachedIds = new Set(attached.map((a) => a.photoId));
    const photoRows = await this.db
      .select()
      .from(photos)
      .where(
        or(
          and(
            eq(photos.attendeeUid, attendee.uid),
            sql`${photos.eventId} in (select e.id from events e where e.organisation_id = ${attendee.organisationId})`,
          ),
          attachedIds.size > 0 ? inArray(photos.id, [...attachedIds]) : sql`false`,
        ),
      )
      .orderBy(photos.id);
    const otherHolders = new Map<number, number>();
    if (photoRows.length > 0) {
      const held = await this.db
        .select({ photoId: attendeePhotos.photoId, n: sql<number>`count(*)::int` })
        .from(attendeePhotos)
        .where(
          and(
            inArray(
              attendeePhotos.photoId,
              photoRows.map((p) => p.id),
            ),
            sql`${attendeePhotos.attendeeId} <> ${attendee.id}`,
          ),
        )
        .groupBy(attendeePhotos.photoId);
      for (const row of held) otherHolders.set(row.photoId, Number(row.n));
    }
    const erasePhotos = new Map<number, 'delete' | 'detach'>();
    const photoEventIds = [...new Set(photoRows.map((p) => p.eventId))];
    if (photoEventIds.length > 0)
      for (const row of await this.db
        .select({ id: events.id, opts: events.opts })
        .from(events)
        .where(inArray(events.id, photoEventIds)))
        erasePhotos.set(row.id, row.opts.erasePhotos === 'detach' ? 'detach' : 'delete');
    const email = attendee.email?.trim().toLowerCase() || null;
    const leadRows =
      email && eventIds.length > 0
        ? await this.db
            .select()
            .from(leads)
            .where(and(inArray(leads.eventId, eventIds), sql`lower(${leads.email}) = ${email}`))
            .orderBy(leads.id)
        : [];
    const phones = [
      ...new Set(leadRows.map((l) => (l.phone ?? '').replace(/\D/g, '')).filter(Boolean)),
    ];
    const recipients = [...(email ? [email] : []), ...phones];
    const messageRows =
      recipients.length > 0 && eventIds.length > 0
        ? await this.db
            .select()
            .from(outbox)
            .where(
              and(
                inArray(outbox.eventId, eventIds),
                inArray(sql`lower(${outbox.recipient})`, recipients),
              ),
            )
            .orderBy(outbox.id)
        : [];
    const selfies = await this.db
      .select()
      .from(faceSelfies)
      .where(eq(faceSelfies.attendeeId, attendee.id))
      .orderBy(faceSelfies.id);
    const orderRows = await this.db
      .select()
      .from(orders)
      .where(eq(orders.attendeeId, attendee.id))
      .orderBy(orders.id);
    const paymentRows =
      orderRows.length > 0
        ? await this.db
            .select()
            .from(payments)
            .where(
              inArray(
                payments.orderId,
                orderRows.map((o) => o.id),
              ),
            )
            .orderBy(payments.id)
        : [];
    const profilePhotos = await this.db
      .select()
      .from(attendeeProfilePhotos)
      .where(eq(attendeeProfilePhotos.attendeeId, attendee.id))
      .orderBy(attendeeProfilePhotos.id);
    return {
      events: linked,
      photos: photoRows,
      attachedIds,
      otherHolders,
      erasePhotos,
      leads: leadRows,
      selfies,
      messages: messageRows,
      orders: orderRows.map((order) => ({
        order,
        payments: paymentRows.filter((p) => p.orderId === order.id),
      })),
      profilePhotos,
    };
  }

  /**
   * The erasure's rows, all or nothing: photos deleted (with their audit entry and the variants
   * made of them) or detached, selfies, leads, messages, profile photos and album links deleted,
   * the attendee kept for their orders under a placeholder id with nothing else about them; the
   * storage to delete queued; the privacy log row written. False when the attendee's id changed
   * meanwhile (another erasure won): nothing is changed then.
   */
  async erase(plan: ErasePlan): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      // First: the row lock orders two erasures of one attendee; the loser finds the id changed.
      const renamed = await tx
        .update(attendees)
        .set({
          uid: plan.placeholderUid,
          privateId: null,
          customUid: 0,
          email: null,
          urlPrefix: null,
          lockedAt: plan.now,
        })
        .where(and(eq(attendees.id, plan.attendeeId), eq(attendees.uid, plan.uid)))
        .returning({ id: attendees.id });
      if (renamed.length === 0) return false;

      const ids = plan.deletePhotos.map((p) => p.id);
      if (ids.length > 0) {
        const variants = await tx.select().from(photos).where(inArray(photos.originalPhotoId, ids));
        const gone = [...plan.deletePhotos, ...variants.filter((v) => !ids.includes(v.id))];
        await tx.insert(photoAudit).values(
          photoAuditRows(gone, {
            action: 'privacy_erase',
            reason: null,
            actorUserId: plan.audit.actorUserId,
          }),
        );
        await tx.delete(photos).where(
          inArray(
            photos.id,
            gone.map((r) => r.id),
          ),
        );
      }
      if (plan.detachPhotoIds.length > 0)
        await tx
          .update(photos)
          .set({ attendeeUid: null })
          .where(and(inArray(photos.id, plan.detachPhotoIds), eq(photos.attendeeUid, plan.uid)));
      await tx.delete(attendeePhotos).where(eq(attendeePhotos.attendeeId, plan.attendeeId));
      await tx.delete(attendeeEvents).where(eq(attendeeEvents.attendeeId, plan.attendeeId));
      await tx.delete(faceSelfies).where(eq(faceSelfies.attendeeId, plan.attendeeId));
      await tx
        .delete(attendeeProfilePhotos)
        .where(eq(attendeeProfilePhotos.attendeeId, plan.attendeeId));
      if (plan.leadIds.length > 0) await tx.delete(leads).where(inArray(leads.id, plan.leadIds));
      if (plan.messageIds.length > 0)
        await tx.delete(outbox).where(inArray(outbox.id, plan.messageIds));
      // Mini-albums they sent keep the receiver's data (another person's) but not their id.
      await tx
        .update(miniAlbums)
        .set({ senderAttendeeUid: plan.placeholderUid })
        .where(eq(miniAlbums.senderAttendeeUid, plan.uid));
      if (plan.storage.length > 0)
        await tx.insert(storageDeletions).values(plan.storage.map((prefix) => ({ prefix })));
      await tx.insert(privacyRequests).values({
        organisationId: plan.audit.organisationId,
        actorUserId: plan.audit.actorUserId,
        action: 'erase',
        attendeeUid: plan.uid,
        counts: plan.audit.counts,
        createdAt: plan.now,
      });
      return true;
    });
  }

  /** The privacy log row of an export. */
  async recordExport(entry: {
    organisationId: number;
    actorUserId: number | null;
    attendeeUid: string;
    counts: Record<string, number>;
    now: Date;
  }): Promise<void> {
    await this.db.insert(privacyRequests).values({
      organisationId: entry.organisationId,
      actorUserId: entry.actorUserId,
      action: 'export',
      attendeeUid: entry.attendeeUid,
      counts: entry.counts,
      createdAt: entry.now,
    });
  }

  /** The privacy log, newest first: of one organisation, or of all (`undefined`). */
  async listRequests(query: {
    organisationId: number | undefined;
    beforeId: number | undefined;
    limit: number;
  }): Promise<PrivacyLogRow[]> {
    return this.db
      .select({
        id: privacyRequests.id,
        action: privacyRequests.action,
        attendeeUid: privacyRequests.attendeeUid,
        organisationId: privacyRequests.organisationId,
        organisationName: organisations.name,
        actorEmail: users.email,
        counts: privacyRequests.counts,
        createdAt: privacyRequests.createdAt,
      })
      .from(privacyRequests)
      .innerJoin(organisations, eq(organisations.id, privacyRequests.organisationId))
      .leftJoin(users, eq(users.id, privacyRequests.actorUserId))
      .where(
        and(
          query.organisationId !== undefined
            ? eq(privacyRequests.organisationId, query.organisationId)
            : undefined,
          query.beforeId !== undefined ? lt(privacyRequests.id, query.beforeId) : undefined,
        ),
      )
      .orderBy(desc(privacyRequests.id))
      .limit(query.limit);
  }
}

export interface PrivacyLogRow {
  id: number;
  action: 'export' | 'erase';
  attendeeUid: string;
  organisationId: number;
  organisationName: string;
  actorEmail: string | null;
  counts: Record<string, number>;
  createdAt: Date;
}
