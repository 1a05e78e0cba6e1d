import { randomUUID } from 'node:crypto';
import {
  extensionOf,
  uploadAttendeeIds,
  UPLOAD_ATTENDEE_SEPARATOR,
  MEDIA_CONTENT_TYPES,
  PHOTO_EXTENSIONS,
  PHOTO_MAX_BYTES,
  type ParsedBodyOf,
  type photoUploadAccess,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { InstantLinks } from './instant-links.ts';

/** A file name as upload keys hold it: no spaces, nothing outside `[A-Za-z0-9._-]`, 200 at most. */
export const safeFileName = (name: string): string =>
  name
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^A-Za-z0-9._-]/g, '-')
    .slice(0, 200) || 'photo';

/**
 * The first half of an upload (albums spec §3): a signed POST straight to storage for one file
 * under `tmp/`, its attendees fixed in the key, and the photo's instant page made before its bytes.
 * The second half, the completion, is `photo-upload.service.ts`.
 */
export class PhotoUploadGrantService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      storage: StorageRepository;
      clock: Clock;
      /** The photo's guest page handed out with the grant (instant links). */
      instantLinks?: Pick<InstantLinks, 'create'>;
    },
  ) {}

  async createUploadGrant(principal: Principal, input: ParsedBodyOf<typeof photoUploadAccess>) {
    const caller = await this.deps.access.requireEventAccess(principal, 'photo.upload', {
      eventName: input.event_name,
    });
    // Every id of a list must be one: a bad entry refuses the grant, so nothing is attached.
    const attendeeUids = uploadAttendeeIds(input.attendee_uid);
    if (typeof attendeeUids === 'string') throw new AppError(attendeeUids, 'attendee_uid');
    const ext = extensionOf(input.file_name);
    if (!(PHOTO_EXTENSIONS as readonly string[]).includes(ext))
      throw new AppError('unsupported_picture_format', 'file_name');
    const contentType = MEDIA_CONTENT_TYPES[ext];
    if (!contentType || contentType !== input.content_type.toLowerCase()) {
      throw new AppError('unsupported_picture_format', 'content_type');
    }
    const attendeeFolder = attendeeUids.length
      ? `att_${attendeeUids.join(UPLOAD_ATTENDEE_SEPARATOR)}/`
      : '';
    const key = `tmp/${caller.event.row.name}/${randomUUID()}/${attendeeFolder}${safeFileName(input.file_name)}`;
    const expiresInSeconds = 600;
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: PHOTO_MAX_BYTES,
      expiresInSeconds,
    });
    const expiresAt = new Date(this.deps.clock.now().getTime() + expiresInSeconds * 1000);
    // The photo's page exists before its bytes: a booth shows its QR code while it uploads.
    const instant = this.deps.instantLinks
      ? await this.deps.instantLinks.create(caller.event.row, key, expiresAt)
      : { code: '', url: '' };
    return {
      ...grant,
      key,
      max_bytes: PHOTO_MAX_BYTES,
      expires_date: expiresAt.toISOString(),
      instant_url: instant.url,
      instant_code: instant.code,
    };
  }
}
