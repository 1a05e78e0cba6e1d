import { cardCodeFromScan, formatAttendeeId, isValidEmail } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { KeylessBody } from '../../access/keyless-body.ts';
import type { Principal } from '../../access/principal.ts';
import { attendsEvent } from '../../access/rules.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import { attendeeAlbumUrl } from '../../presenters/attendee.presenter.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
  AttendeeRow,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord, EventRow } from '../../repositories/events/event.repository.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import type { ThrottleRepository } from '../../repositories/identity/throttle.repository.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import { albumDecision } from '../albums/album-visibility.ts';
import type { AlbumMailService } from '../messaging/album-mail.service.ts';
import { attachPhotos, eventPhotos, openAttendee } from './attendee-support.ts';
import {
  STAFF_PIN_FORGET_SECONDS,
  samePin,
  staffPinThrottleKey,
  staffPinThrottled,
} from './staff-pin.ts';

/** Owner-console §5: cards whose account is older than this cannot be grouped at a kiosk. */
export const GROUP_MAX_AGE_MS = 3 * 24 * 60 * 60_000;

/**
 * The kiosk's attendee calls (albums spec §7.2; owner-console §5): photos attached by the kiosk's
 * key or a scanned card, the album link mailed to the address a visitor leaves, cards grouped
 * into one album. The kiosk's key reaches attendees of its organisation; the desk (private key
 * + display token) only those of its own event.
 */
export class KioskDeskService {
  constructor(
    private readonly deps: {
      attendees: AttendeeRepository;
      albums: Pick<AlbumRepository, 'photosByUids'>;
      access: AccessControl;
      clock: Clock;
      publicUrl: string;
      /** `attendee.photos_attached`: the attendee's live stream shows the photos. */
      bus?: SignalEmitter;
      /** The album link mail of update-by-kiosk (the one album mail renderer, through the outbox). */
      albumMail?: () => Pick<AlbumMailService, 'send'>;
      /** Public thumbnail URLs of an attendee's visible photos, for the album mail. */
      thumbnails?: (event: EventRow, attendeeId: number, limit: number) => Promise<string[]>;
      /** Opens the event's sealed staff PIN. */
      secrets?: Pick<SecretBox, 'decrypt'>;
      /** Counts wrong staff PINs per kiosk. */
      throttle?: Pick<ThrottleRepository, 'get' | 'recordFailure' | 'recordSuccess'>;
    },
  ) {}

  /** A kiosk's key (private or event owner) and the attendee it serves, open and of its organisation. */
  private async kiosk(principal: Principal, attendeeId: string) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk', {
      keyEvent: true,
    });
    const record = await openAttendee(this.deps.access, attendeeId);
    if (record.row.organisationId !== event.row.organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return { event, record };
  }

  /** The event's published photos by uid (what its kiosk shows), all of them or `not_found`. */
  private async publishedPhotos(event: EventRecord, uids: string[]): Promise<PhotoRow[]> {
    const rows = await eventPhotos(this.deps.albums, event.row.id, uids);
    const now = this.deps.clock.now();
    if (
      rows.some((p) => !albumDecision(p, event.row, 'private', now, { streamWindow: false }).show)
    )
      throw new AppError('not_found', 'photo_uid_array');
    return rows;
  }

  async attachByKey(principal: Principal, input: KeylessBody<'attachPhotosByKey'>) {
    const { event, record } = await this.kiosk(principal, input.attendee_uid);
    const rows = await this.publishedPhotos(event, input.photo_uid_array);
    const attached = await attachPhotos(this.deps, record, event, rows, 'kiosk');
    return { attendee_uid: record.row.uid, attached_count: attached };
  }

  async attachByQrScan(principal: Principal, input: KeylessBody<'attachPhotosByQrScan'>) {
    const code = cardCodeFromScan(input.qr_text);
    if (!code) throw new AppError('invalid_attendee_id', 'qr_text');
    const { event, record } = await this.kiosk(principal, code);
    const rows = await this.publishedPhotos(event, input.photo_uid_array);
    const attached = await attachPhotos(this.deps, record, event, rows, 'qr_scan');
    return {
      attendee_uid: record.row.uid,
      display_uid: formatAttendeeId(record.row.uid),
      attached_count: attached,
      album_url: attendeeAlbumUrl(record.row, this.deps.publicUrl),
    };
  }

  /**
   * The kiosk's desk (`attendee.kiosk_desk`: the private key with the event's display token) and
   * the open attendee of the kiosk's own event an id names.
   */
  private async desk(principal: Principal, attendeeId: string, field = 'attendee_uid') {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const record = await openAttendee(this.deps.access, attendeeId, field);
    if (!attendsEvent(record, event.row)) throw new AppError('invalid_attendee_id', field);
    return { event, record };
  }

  /**
   * A kiosk visitor leaves the address their album link goes to. The kiosk proves itself with its
   * private key and the event's display token (a guest's private-album link is refused), and
   * reaches only attendees of its event: a printed attendee id alone changes nothing.
   */
  async updateByKiosk(principal: Principal, input: KeylessBody<'updateAttendeeByKiosk'>) {
    const { event, record } = await this.desk(principal, input.attendee_uid);
    const email = input.email_address.trim();
    if (!isValidEmail(email)) throw new AppError('email_invalid', 'email_address');
    await this.deps.attendees.update(record.row.id, { email });
    // A kiosk that retries with its request id (a reload between our answer and the kiosk
    // hearing it) gets the same answer and no second mail: the outbox keeps one per key.
    const onceKey = input.client_request_id
      ? `kiosk:${record.row.uid}:${input.client_request_id}`
      : undefined;
    await this.sendAlbumLink(event, record.row, email, onceKey);
    return { attendee_uid: record.row.uid, email };
  }

  /**
   * The album link, mailed with the event's album mail (`renderAlbumMail`: `email_subject`,
   * `email_body_template` with `{user_name}` and `{image_url}`, `email_from_name` and the verified
   * `email_from_address`, the event's logo, thumbnails of the album's photos, wording for their
   * number) through the outbox.
   */
  private async sendAlbumLink(
    event: EventRecord,
    row: AttendeeRow,
    to: string,
    onceKey?: string,
  ): Promise<void> {
    const albumMail = this.deps.albumMail?.();
    if (!albumMail) return;
    const count = (await this.deps.attendees.photoCounts([row.id])).get(row.id) ?? 0;
    const thumbnails = count > 0 ? await this.albumThumbnails(event, row.id) : [];
    await albumMail.send(
      event.row,
      { email: to, name: to.split('@')[0] ?? to },
      attendeeAlbumUrl(row, this.deps.publicUrl),
      { kind: 'attendee_album_link', count, thumbnails, onceKey },
    );
  }

  /** Public thumbnail URLs of up to six of an attendee's photos shown in the event's album. */
  private async albumThumbnails(event: EventRecord, attendeeId: number): Promise<string[]> {
    const thumbnails = this.deps.thumbnails;
    if (!thumbnails) return [];
    return thumbnails(event.row, attendeeId, 6);
  }

  /**
   * Several cards into one album (owner-console §5): the first id keeps the album and gains every
   * photo of the others' albums. The kiosk only (private key + display token). All ids must be
   * open attendees of the kiosk's event created
   * at most 3 days ago (`attendee_group_too_old` otherwise); checked all before anything changes.
   */
  async checkAndGroup(principal: Principal, input: KeylessBody<'checkAndGroupAttendees'>) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const now = this.deps.clock.now().getTime();
    const records: AttendeeRecord[] = [];
    const seen = new Set<number>();
    for (const raw of input.attendee_uid_list) {
      const record = await openAttendee(this.deps.access, raw, 'attendee_uid_list');
      if (!attendsEvent(record, event.row))
        throw new AppError('invalid_attendee_id', 'attendee_uid_list');
      if (seen.has(record.row.id)) continue;
      seen.add(record.row.id);
      if (now - record.row.createdAt.getTime() > GROUP_MAX_AGE_MS)
        throw new AppError('attendee_group_too_old', 'attendee_uid_list');
      records.push(record);
    }
    if (records.length < 2) throw new AppError('attendee_group_needs_two', 'attendee_uid_list');
    const [primary, ...others] = records as [AttendeeRecord, ...AttendeeRecord[]];
    await this.deps.attendees.linkEvent(primary.row.id, event.row.id);
    let attached = 0;
    for (const other of others) {
      for (const eventId of other.eventIds)
        await this.deps.attendees.linkEvent(primary.row.id, eventId);
      const photos = await this.deps.attendees.albumPhotos(other.row.id, other.row.uid);
      attached += await this.deps.attendees.attach(
        primary.row.id,
        photos.map((p) => p.id),
        'group',
      );
      if (photos.length)
        await this.deps.bus?.emit('attendee.photos_attached', {
          attendeeId: primary.row.id,
          photos: photos.map((p) => ({ photoId: p.id, eventId: p.eventId })),
        });
    }
    return {
      attendee_uid: primary.row.uid,
      grouped_uids: others.map((o) => o.row.uid),
      attached_count: attached,
      album_url: attendeeAlbumUrl(primary.row, this.deps.publicUrl),
    };
  }

  /**
   * The staff PIN typed on a kiosk (its staff controls: employee unlock code, VIP code, print
   * pool, delete): only the organiser's kiosk (private key + display token) asks, against the
   * event's sealed `kiosk_staff_pin`. Wrong PINs count per kiosk (event and address) and change
   * nothing else; a throttled kiosk is refused before its PIN is compared.
   */
  async checkStaffPin(
    principal: Principal,
    input: KeylessBody<'checkKioskStaffPin'>,
    kiosk: { address: string },
  ): Promise<{ valid: true }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const { secrets, throttle } = this.deps;
    if (!secrets || !throttle)
      throw new Error('KioskDeskService: staff PINs need secrets and a throttle');
    const sealed = event.row.secureFields.kiosk_staff_pin;
    if (!sealed) throw new AppError('kiosk_staff_pin_not_set', 'pin');
    const key = staffPinThrottleKey(event.row.id, kiosk.address);
    const now = this.deps.clock.now();
    if (staffPinThrottled(await throttle.get(key), now))
      throw new AppError('too_many_attempts', 'pin');
    if (!samePin(input.pin, secrets.decrypt(sealed))) {
      await throttle.recordFailure(key, now, STAFF_PIN_FORGET_SECONDS);
      throw new AppError('invalid_staff_pin', 'pin');
    }
    await throttle.recordSuccess(key);
    return { valid: true };
  }
}
