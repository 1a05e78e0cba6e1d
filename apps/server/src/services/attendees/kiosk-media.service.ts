import { createHash, randomUUID } from 'node:crypto';
import {
  extensionOf,
  imageFieldError,
  KIOSK_JPEG_MAX_BYTES,
  KIOSK_MEDIA_EXTENSIONS,
  KIOSK_MP4_MAX_BYTES,
  MEDIA_CONTENT_TYPES,
  randomFileName,
  type EndpointName,
  type Endpoints,
  type ParsedBodyOf,
  type ProfilePhoto,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { attendsEvent } from '../../access/rules.ts';
import { AppError } from '../../lib/app-error.ts';
import { profilePhotoForKiosk } from '../../presenters/attendee.presenter.ts';
import type { Clock } from '../../lib/clock.ts';
import { sniffMedia } from '../../lib/media-sniff.ts';
import type {
  AttendeeRecord,
  AttendeeRepository,
} from '../../repositories/attendees/attendee.repository.ts';
import type { EventRecord } from '../../repositories/events/event.repository.ts';
import type { ImageEngine } from '../../repositories/photos/image-engine.ts';
import type {
  KioskMediaRepository,
  ProfilePhotoRow,
} from '../../repositories/attendees/kiosk-media.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { deletedEvent, readAll, removePhotoFiles } from '../photos/photo-files.ts';
import type { SignalEmitter } from '../../signals/signal-bus.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';

/** Albums §9: profile images are at most this wide. */
export const PROFILE_PHOTO_MAX_WIDTH = 1500;
/** Bytes one profile photo upload may carry (a 1500 px wide PNG fits). */
export const PROFILE_PHOTO_MAX_BYTES = 10 * 1024 * 1024;
/** Protected key spaces (not in PUBLIC_ROOTS): only signed URLs after the kiosk's key reach them. */
export const PROFILE_PHOTO_ROOT = 'profile-photos';
/** Albums §7.1: the kiosk's upload root. */
export const KIOSK_MEDIA_ROOT = 'kioskMedia';

const PROFILE_TMP_KEY = /^profile-photos\/tmp\/([A-Z0-9_.]{1,100})\/[0-9a-f-]{36}\/[^/]+$/;
/** `kioskMedia/<event code>/<uuid>/[att_<attendee id>/]<file name>`: fixed by the signed policy. */
const KIOSK_KEY = /^kioskMedia\/([A-Z0-9]{4})\/[0-9a-f-]{36}\/(?:att_([A-Z0-9_.]{1,100})\/)?[^/]+$/;

type KeylessBody<E extends EndpointName> = Omit<
  ParsedBodyOf<Endpoints[E]>,
  'key_type' | 'key_value'
>;

const safeName = (name: string): string =>
  name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 200) || 'photo';

/**
 * Kiosk media (albums §5, §7.1, §7.2, §9): an attendee's profile photos and custom photos
 * from the kiosk camera (the owner's pass-code list: PassCodeService). Guest calls need the kiosk's key
 * (`attendee.kiosk`: private or event-owner key) and an open attendee of its organisation; profile
 * photos need the kiosk itself (`attendee.kiosk_desk`: private key + display token) and an
 * attendee of its event.
 */
export class KioskMediaService {
  constructor(
    private readonly deps: {
      rows: KioskMediaRepository;
      access: AccessControl;
      storage: StorageRepository;
      images: ImageEngine;
      clock: Clock;
      bus: SignalEmitter;
      photos: PhotoRepository;
      albums: AlbumRepository;
      attendees: AttendeeRepository;
      /** Registers a stored upload as a photo of the event (PhotoUploadService). */
      uploads: {
        completeKioskUpload(
          event: EventRecord,
          key: string,
          attendeeUid: string | null,
        ): Promise<{ photo_uid: string; attendee_uid: string | null }>;
      };
    },
  ) {}

  private async kioskEvent(principal: Principal) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk', {
      keyEvent: true,
    });
    return event;
  }

  /** The kiosk's event and the open attendee of its organisation an id names. */
  private async kioskAttendee(
    principal: Principal,
    rawId: string,
  ): Promise<{ event: EventRecord; record: AttendeeRecord }> {
    const event = await this.kioskEvent(principal);
    const { record, refusal } = await this.deps.access.attendeeById(rawId);
    if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', 'attendee_uid');
    if (record.row.organisationId !== event.row.organisationId)
      throw new AppError('invalid_attendee_id', 'attendee_uid');
    return { event, record };
  }

  /**
   * The kiosk's desk (profile photos): the private key with the event's display token, and an
   * open attendee of the kiosk's own event.
   */
  private async deskAttendee(
    principal: Principal,
    rawId: string,
  ): Promise<{ event: EventRecord; record: AttendeeRecord }> {
    const { event } = await this.deps.access.requireEventAccess(principal, 'attendee.kiosk_desk', {
      keyEvent: true,
    });
    const { record, refusal } = await this.deps.access.attendeeById(rawId);
    if (refusal || !record) throw new AppError(refusal ?? 'invalid_attendee_id', 'attendee_uid');
    if (!attendsEvent(record, event.row)) throw new AppError('invalid_attendee_id', 'attendee_uid');
    return { event, record };
  }

  // ---- profile photos ----------------------------------------------------------------------------

  private async presentProfile(row: ProfilePhotoRow): Promise<ProfilePhoto> {
    return profilePhotoForKiosk(
      row,
      await this.deps.storage.signedGetUrl(row.storageKey, { expiresInSeconds: 600 }),
    );
  }

  async profilePhotoUploadAccess(
    principal: Principal,
    input: KeylessBody<'profilePhotoUploadAccess'>,
  ) {
    const { record } = await this.deskAttendee(principal, input.attendee_uid);
    if (imageFieldError(input.file_name))
      throw new AppError('image_field_not_allowed', 'file_name');
    const contentType = MEDIA_CONTENT_TYPES[extensionOf(input.file_name)]!;
    const key = `${PROFILE_PHOTO_ROOT}/tmp/${record.row.uid}/${randomUUID()}/${safeName(input.file_name)}`;
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: PROFILE_PHOTO_MAX_BYTES,
    });
    return { ...grant, key, max_bytes: PROFILE_PHOTO_MAX_BYTES };
  }

  /**
   * Registers an upload of this attendee's grant: the bytes must be a jpg or png (whatever the
   * name says) at most 1500 px wide. A refused upload is removed; a registered one moves out of
   * the upload area. Repeating the call answers the same photo.
   */
  async createProfilePhoto(principal: Principal, input: KeylessBody<'createProfilePhoto'>) {
    const { record } = await this.deskAttendee(principal, input.attendee_uid);
    const match = PROFILE_TMP_KEY.exec(input.key);
    if (!match || match[1] !== record.row.uid) throw new AppError('not_found', 'key');
    const fileName = input.key.split('/').pop()!;
    if (imageFieldError(fileName)) throw new AppError('image_field_not_allowed', 'key');
    const finalKey = input.key.replace(`${PROFILE_PHOTO_ROOT}/tmp/`, `${PROFILE_PHOTO_ROOT}/`);
    const object = await this.deps.storage.get(input.key);
    if (!object) {
      // Already registered by an earlier call (the upload area is emptied after registering).
      const existing = (await this.deps.rows.profilePhotos(record.row.id)).find(
        (row) => row.storageKey === finalKey,
      );
      if (existing) return this.presentProfile(existing);
      throw new AppError('not_found', 'key');
    }
    const bytes = await readAll(object.body, PROFILE_PHOTO_MAX_BYTES);
    const refuse = async (
      key: 'unsupported_picture_format' | 'profile_photo_too_wide',
    ): Promise<never> => {
      await this.deps.storage.delete(input.key);
      throw new AppError(key, 'key');
    };
    const media = sniffMedia(bytes.subarray(0, 16));
    if (!media || (media.ext !== 'jpg' && media.ext !== 'png'))
      return refuse('unsupported_picture_format');
    const info = await this.deps.images.inspect(bytes);
    if (typeof info === 'string') return refuse('unsupported_picture_format');
    if (info.width > PROFILE_PHOTO_MAX_WIDTH) return refuse('profile_photo_too_wide');
    await this.deps.storage.put(finalKey, bytes, media.contentType);
    const row = await this.deps.rows.insertProfilePhoto({
      attendeeId: record.row.id,
      storageKey: finalKey,
      fileName,
      width: info.width,
      height: info.height,
      createdAt: this.deps.clock.now(),
    });
    await this.deps.storage.delete(input.key);
    return this.presentProfile(row);
  }

  async listProfilePhotos(principal: Principal, input: KeylessBody<'listProfilePhotos'>) {
    const { record } = await this.deskAttendee(principal, input.attendee_uid);
    const rows = await this.deps.rows.profilePhotos(record.row.id);
    return { profile_photos: await Promise.all(rows.map((row) => this.presentProfile(row))) };
  }

  async deleteProfilePhoto(principal: Principal, input: KeylessBody<'deleteProfilePhoto'>) {
    const { record } = await this.deskAttendee(principal, input.attendee_uid);
    const row = await this.deps.rows.deleteProfilePhoto(record.row.id, input.id);
    if (!row) throw new AppError('not_found', 'id');
    // The row goes first: a crash here leaves an unlisted file, never a listed missing one.
    await this.deps.storage.delete(row.storageKey);
    return { id: row.id };
  }

  // ---- custom photos -----------------------------------------------------------------------------

  /**
   * An upload grant under `kioskMedia/`. With a client request id the key's folder and
   * random name come from the event, the attendee and that id, so a kiosk that retries or reloads
   * gets the same key again: its second upload overwrites the first, and completing a key already
   * completed answers the photo it made — one photo per id.
   */
  private async customGrant(
    event: EventRecord,
    input: Pick<
      KeylessBody<'createCustomPhoto'>,
      'file_name' | 'keep_origin_name' | 'client_request_id'
    >,
    attendeeUid: string | null,
  ) {
    const ext = extensionOf(input.file_name);
    if (!(KIOSK_MEDIA_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError('unsupported_picture_format', 'file_name');
    const maxBytes = ext === 'mp4' ? KIOSK_MP4_MAX_BYTES : KIOSK_JPEG_MAX_BYTES;
    const seed = input.client_request_id
      ? createHash('sha256')
          .update(`custom-photo:${event.row.id}:${attendeeUid ?? ''}:${input.client_request_id}`)
          .digest()
      : null;
    let draw = 16;
    const seeded = seed ? () => seed.readUInt32BE((draw += 4) - 4) / 2 ** 32 : undefined;
    const name =
      input.keep_origin_name === 1
        ? safeName(input.file_name)
        : randomFileName(input.file_name, seeded);
    const hex = seed?.toString('hex');
    const folder = hex
      ? `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
      : randomUUID();
    const attendeeFolder = attendeeUid ? `att_${attendeeUid}/` : '';
    const key = `${KIOSK_MEDIA_ROOT}/${event.row.name}/${folder}/${attendeeFolder}${name}`;
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType: MEDIA_CONTENT_TYPES[ext]!,
      maxBytes,
    });
    return { ...grant, key, max_bytes: maxBytes };
  }

  async createCustomPhoto(principal: Principal, input: KeylessBody<'createCustomPhoto'>) {
    const event = await this.kioskEvent(principal);
    return this.customGrant(event, input, null);
  }

  async createAttendeeCustomPhoto(
    principal: Principal,
    input: KeylessBody<'createAttendeeCustomPhoto'>,
  ) {
    const { event, record } = await this.kioskAttendee(principal, input.attendee_uid);
    return this.customGrant(event, input, record.row.uid);
  }

  async completeCustomPhoto(principal: Principal, input: KeylessBody<'completeCustomPhoto'>) {
    const event = await this.kioskEvent(principal);
    const match = KIOSK_KEY.exec(input.key);
    if (!match || match[1] !== event.row.name) throw new AppError('not_found', 'key');
    return this.deps.uploads.completeKioskUpload(event, input.key, match[2] ?? null);
  }

  // ---- kiosk photo delete ------------------------------------------------------------------------

  /**
   * Albums §4, §6: a guest deletes a photo of their album at the kiosk. The link's
   * `allowKioskPhotoDelete` only shows the button; the server asks the event's own flag. The row
   * goes with an audit entry (`kiosk_delete`, "deleted at the kiosk") before the files.
   */
  async kioskDeletePhoto(principal: Principal, input: KeylessBody<'kioskDeletePhoto'>) {
    const { event, record } = await this.kioskAttendee(principal, input.attendee_uid);
    if (event.row.opts.allowKioskPhotoDelete !== 1)
      throw new AppError('kiosk_photo_delete_off', 'photo_uid');
    const [row] = await this.deps.albums.photosByUids(event.row.id, [input.photo_uid]);
    const inAlbum =
      row &&
      (await this.deps.attendees.albumPhotos(record.row.id, record.row.uid)).some(
        (p) => p.id === row.id,
      );
    if (!row || !inAlbum) throw new AppError('not_found', 'photo_uid');
    const deleted = await this.deps.photos.deleteWithAudit(
      [row],
      'deleted at the kiosk',
      null,
      'kiosk_delete',
    );
    await this.deps.bus.emit('photo.deleted', deletedEvent(row, 'kiosk'));
    await removePhotoFiles(this.deps.storage, [row]);
    return { deleted };
  }
}
