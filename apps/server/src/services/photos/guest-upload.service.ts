import { randomUUID } from 'node:crypto';
import {
  extensionOf,
  guestUploadError,
  GUEST_UPLOAD_MAX_BYTES,
  MEDIA_CONTENT_TYPES,
  type ParsedBodyOf,
  type guestUploadAccess,
  type guestUploadComplete,
} from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { HOUR_MS, type GuestLimits, type UsageBudgets } from '../../access/guest-limits.ts';
import { requireGuestUploader } from '../../access/guest-upload-rules.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { guestUploadKey, guestUploadShape, parseGuestUploadKey } from './guest-upload-rules.ts';
import { safeFileName } from './photo-upload-grant.service.ts';
import type { PhotoUploadService } from './photo-upload.service.ts';

/**
 * Guests adding their own photos (docs/domains/photos.md, "Guests' own photos"): the public
 * album's key while the event takes guests' photos, an attendee's key into their own album while
 * it takes attendees' photos. The grant and the completion are the robots' (signed POST, then the
 * same registration: idempotent, moderated, announced); the guest's picture is a picture of at
 * most 25 MB, fitted and tagged as the event says, and the grants come out of hourly budgets per
 * client address and per event.
 */
export class GuestUploadService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      storage: StorageRepository;
      uploads: Pick<PhotoUploadService, 'completeGuestUpload'>;
      budgets: UsageBudgets;
      limits: GuestLimits;
      clock: Clock;
    },
  ) {}

  async createGrant(
    principal: Principal,
    input: ParsedBodyOf<typeof guestUploadAccess>,
    client: { address: string },
  ) {
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.guest_upload', {
      eventName: input.event_name,
    });
    const uploader = requireGuestUploader(grant);
    const problem = guestUploadError(input.file_name, input.size_bytes ?? null);
    if (problem)
      throw new AppError(
        problem,
        problem === 'guest_upload_too_large' ? 'size_bytes' : 'file_name',
      );
    const contentType = MEDIA_CONTENT_TYPES[extensionOf(input.file_name)];
    if (!contentType || contentType !== input.content_type.toLowerCase())
      throw new AppError('unsupported_picture_format', 'content_type');
    const event = grant.event.row;
    // Each grant is one photo: what a guest may make the server store comes out of budgets.
    const l = this.deps.limits;
    await this.deps.budgets.spend(
      [
        { key: `guest-upload:address:${client.address}`, limit: l.guestUploadsPerAddressHourly },
        { key: `guest-upload:event:${event.id}`, limit: l.guestUploadsPerEventHourly },
      ],
      1,
      HOUR_MS,
    );
    const key = guestUploadKey(
      event.name,
      randomUUID(),
      uploader.attendeeUid,
      safeFileName(input.file_name),
    );
    const expiresInSeconds = 600;
    const upload = await this.deps.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: GUEST_UPLOAD_MAX_BYTES,
      expiresInSeconds,
    });
    return {
      ...upload,
      key,
      max_bytes: GUEST_UPLOAD_MAX_BYTES,
      expires_date: new Date(
        this.deps.clock.now().getTime() + expiresInSeconds * 1000,
      ).toISOString(),
    };
  }

  async complete(principal: Principal, input: ParsedBodyOf<typeof guestUploadComplete>) {
    const parsed = parseGuestUploadKey(input.key);
    if (!parsed) throw new AppError('not_found', 'key');
    const grant = await this.deps.access.requireEventAccess(principal, 'photo.guest_upload', {
      eventName: parsed.eventName,
    });
    const uploader = requireGuestUploader(grant);
    // The key's folder is the album it was granted for: an attendee's for that attendee only, the
    // public album's for the public key only.
    if (parsed.attendeeUid !== uploader.attendeeUid) throw new AppError('not_found', 'key');
    const event = grant.event;
    const { photo, result } = await this.deps.uploads.completeGuestUpload(
      event,
      input.key,
      uploader.attendeeUid,
      grant.audience,
      guestUploadShape(event.row.opts),
    );
    return {
      uid: photo.uid,
      upload_result: result,
      held_for_review: photo.moderation === 'pending',
      in_event_album: photo.albumOnly === 0,
    };
  }
}
