import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  API_BASE,
  ATTENDEE_EXPORT_PATH,
  ATTENDEE_EXPORT_TICKET_SECONDS,
  type eraseAttendee,
  type exportAttendee,
  type ParsedBodyOf,
  type PrivacyCounts,
  type privacyRequestList,
  type PrivacyRequest,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { signedInUserOf, type Principal } from '../../access/principal.ts';
import { administersOrganisation, organisationScope } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import { sealTicket, unsealTicket } from '../../lib/sealed-ticket.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { zipStream, type ZipEntry } from '../../lib/zip-stream.ts';
import type {
  AttendeeData,
  AttendeePrivacyRepository,
} from '../../repositories/attendees/attendee-privacy.repository.ts';
import type { AttendeeRecord } from '../../repositories/attendees/attendee.repository.ts';
import type { JobSender } from '../../jobs/job-sender.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { deletedEvent, photoFolder, protectedPhotoFolder } from '../photos/photo-files.ts';
import { erasePhotoPlan } from './privacy-rules.ts';
import { exportEntries } from './attendee-export-files.ts';

/** What an export ticket carries, sealed with the app secret. */
interface Ticket {
  /** Attendee row id and the uid it had when the export was asked for. */
  a: number;
  u: string;
}

/** Entries per page of the privacy log. */
const PRIVACY_LOG_PAGE = 100;

/**
 * Privacy requests about one attendee (a guest's right to see and to erase what is kept about
 * them): the owner's export (a ZIP of their photos and of their leads, consents, messages and
 * orders as JSON and CSV, streamed as it is written) and erasure. Every call must reach each of
 * the attendee's events (`event.manage`); an attendee out of reach is as unknown as a wrong id.
 * Each export and erasure writes a privacy log row that names the attendee id and counts, nothing
 * else, and stays after the erasure.
 */
export class AttendeePrivacyService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      rows: AttendeePrivacyRepository;
      storage: StorageRepository;
      secrets: SecretBox;
      clock: Clock;
      publicUrl: string;
      bus: SignalEmitter;
      jobs: JobSender;
      /** Deletes the storage an erasure made owed (photos/storage-deletions.ts); a job retries. */
      deleteOwedStorage: () => Promise<unknown>;
    },
  ) {}

  async export(principal: Principal, input: ParsedBodyOf<typeof exportAttendee>) {
    const record = await this.reach(principal, input.attendee_uid);
    const data = await this.deps.rows.collect(record.row);
    const counts = countsOf(data);
    await this.deps.rows.recordExport({
      organisationId: record.row.organisationId,
      actorUserId: actorOf(principal),
      attendeeUid: record.row.uid,
      counts,
      now: this.deps.clock.now(),
    });
    const sealed = sealTicket(
      this.deps.secrets,
      this.deps.clock,
      { a: record.row.id, u: record.row.uid },
      ATTENDEE_EXPORT_TICKET_SECONDS,
    );
    return {
      url: `${this.deps.publicUrl.replace(/\/+$/, '')}${API_BASE}${ATTENDEE_EXPORT_PATH}?ticket=${encodeURIComponent(sealed)}`,
      expires_in: ATTENDEE_EXPORT_TICKET_SECONDS,
      counts,
    };
  }

  /**
   * The ZIP of an export ticket, read afresh (an erasure in between leaves nothing to export:
   * `not_found`, as for an unreadable or expired ticket).
   */
  async open(sealed: string): Promise<{ fileName: string; body: Readable }> {
    const ticket = unsealTicket<Ticket>(this.deps.secrets, this.deps.clock, sealed);
    const { record } = await this.deps.access.attendeeByUid(ticket.u);
    if (!record || record.row.id !== ticket.a) throw new AppError('not_found');
    return {
      fileName: `attendee-${record.row.uid}.zip`,
      body: zipStream(this.entries(record)),
    };
  }

  async erase(principal: Principal, input: ParsedBodyOf<typeof eraseAttendee>) {
    const record = await this.reach(principal, input.attendee_uid);
    const data = await this.deps.rows.collect(record.row);
    const uid = record.row.uid;
    const plan = erasePhotoPlan(data.photos, uid, data.otherHolders, data.erasePhotos);
    const storage = [
      ...data.selfies.map((s) => s.storageKey),
      ...data.profilePhotos.map((p) => p.storageKey),
      ...plan.remove.flatMap((photo) => photoPrefixes(photo.storageKey, photo.uid)),
    ];
    const counts = countsOf(data);
    const placeholderUid = `ERASED_${randomBytes(8).toString('hex').toUpperCase()}`;
    const now = this.deps.clock.now();
    const erased = await this.deps.rows.erase({
      attendeeId: record.row.id,
      uid,
      placeholderUid,
      deletePhotos: plan.remove,
      detachPhotoIds: plan.detach,
      leadIds: data.leads.map((l) => l.id),
      messageIds: data.messages.map((m) => m.id),
      storage,
      audit: {
        organisationId: record.row.organisationId,
        actorUserId: actorOf(principal),
        counts: { ...counts, deleted_photos: plan.remove.length },
      },
      now,
    });
    // Another erasure of the same attendee committed first.
    if (!erased) throw new AppError('invalid_attendee_id', 'attendee_uid');
    // After the commit: what reacts to deleted photos (variants, print sheets), then the storage
    // the rows pointed at. A failed delete stays owed; the job tries again.
    for (const photo of plan.remove)
      await this.deps.bus.emit('photo.deleted', deletedEvent(photo, 'owner'));
    try {
      await this.deps.deleteOwedStorage();
    } catch {
      await this.deps.jobs.send('storage.delete-pending', {});
    }
    return {
      placeholder_uid: placeholderUid,
      deleted_photos: plan.remove.length,
      detached_photos: data.photos.length - plan.remove.length,
      counts,
    };
  }

  /**
   * The privacy log, read-only: super users see every organisation (or the one asked for), an
   * organisation's admins their own; event owners none (they answer requests, they do not audit).
   */
  async log(
    principal: Principal,
    input: ParsedBodyOf<typeof privacyRequestList>,
  ): Promise<{ requests: PrivacyRequest[]; next_before_id: number | null }> {
    const actor = signedInUserOf(principal);
    if (!actor) throw new AppError('unauthorized_user');
    const scope = organisationScope(actor, input.organisation_id);
    if (scope === null || (scope !== undefined && !administersOrganisation(actor, scope)))
      throw new AppError('forbidden');
    const rows = await this.deps.rows.listRequests({
      organisationId: scope,
      beforeId: input.before_id,
      limit: PRIVACY_LOG_PAGE + 1,
    });
    const page = rows.slice(0, PRIVACY_LOG_PAGE);
    return {
      requests: page.map((row) => ({
        id: row.id,
        action: row.action,
        attendee_uid: row.attendeeUid,
        organisation_id: row.organisationId,
        organisation_name: row.organisationName,
        actor_email: row.actorEmail,
        created_date: row.createdAt.toISOString(),
        counts: row.counts,
      })),
      next_before_id: rows.length > PRIVACY_LOG_PAGE ? (page.at(-1)?.id ?? null) : null,
    };
  }

  /**
   * The attendee an operator may handle: of an organisation in their reach and, for each event
   * the attendee is linked to, `event.manage` there. Out of reach reads as an unknown id.
   */
  private async reach(principal: Principal, rawUid: string): Promise<AttendeeRecord> {
    const actor = signedInUserOf(principal);
    if (!actor) throw new AppError('unauthorized_user');
    const { record } = await this.deps.access.attendeeByUid(rawUid);
    if (!record) throw new AppError('invalid_attendee_id', 'attendee_uid');
    // An attendee of no event (yet): only who administers their organisation.
    if (record.eventIds.length === 0 && !administersOrganisation(actor, record.row.organisationId))
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    for (const eventId of record.eventIds) {
      try {
        await this.deps.access.requireEventAccess(principal, 'event.manage', { eventId });
      } catch (error) {
        if (error instanceof AppError && error.key === 'event_not_found')
          throw new AppError('invalid_attendee_id', 'attendee_uid');
        throw error;
      }
    }
    return record;
  }

  /** The archive's entries, read when the zip starts (attendee-export-files.ts). */
  private async *entries(record: AttendeeRecord): AsyncIterable<ZipEntry> {
    const data = await this.deps.rows.collect(record.row);
    yield* exportEntries(data, record, this.deps.storage, this.deps.clock.now());
  }
}

const countsOf = (data: AttendeeData): PrivacyCounts => ({
  photos: data.photos.length,
  leads: data.leads.length,
  consents: data.leads.filter((l) => l.consentedAt).length + data.selfies.length,
  messages: data.messages.length,
  orders: data.orders.length,
  selfies: data.selfies.length,
  profile_photos: data.profilePhotos.length,
});

const actorOf = (principal: Principal): number | null => signedInUserOf(principal)?.userId ?? null;

/** A deleted photo's folders: public, protected, and their archives (photo-files.ts). */
const photoPrefixes = (storageKey: string, uid: string): string[] => {
  const code = /(?:^|\/)events\/([^/]+)\//.exec(storageKey)?.[1];
  if (!code) return [storageKey];
  const folder = photoFolder(code, uid);
  const hidden = protectedPhotoFolder(code, uid);
  return [folder, hidden, `archive/${folder}`, `archive/${hidden}`];
};
