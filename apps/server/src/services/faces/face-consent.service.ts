import { randomUUID } from 'node:crypto';
import { SELFIE_MAX_BYTES, type ParsedBodyOf, type selfieUploadAccess } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { Quotas } from '../operations/quotas.ts';
import type { FaceSelfieService } from './face-selfie.service.ts';
import { SELFIE_ROOT } from './reference-photos.ts';

/** A key as quotas count it: its type, event and attendee as access resolved them (never its value). */
export const quotaKeyOf = (caller: {
  keyType?: string | null | undefined;
  event: { row: { id: number } };
  attendee?: { row: { id: number } } | null | undefined;
}): string =>
  `${caller.keyType ?? 'operator'}:${caller.event.row.id}:${caller.attendee?.row.id ?? ''}`;

/**
 * Before a guest's face search (docs/domains/faces.md): the consent text a guest accepts, and
 * the grant of one selfie upload, given only with that consent recorded first.
 */
export class FaceConsentService {
  constructor(
    private readonly deps: {
      access: AccessControl;
      storage: StorageRepository;
      /** Consent and the selfie records. */
      selfieRules: Pick<FaceSelfieService, 'requireConsent' | 'record' | 'consentVersion'>;
      /** Selfie grants per key (services/operations/quotas.ts). */
      quotas?: Pick<Quotas, 'selfieGrant'> | undefined;
      /** Loads the event's face descriptors for the search that follows (face-search.service.ts). */
      warmEvent: (eventId: number) => void;
    },
  ) {}

  /**
   * `event/face-consent/retrieve`: the text a guest accepts and its version, for clients that do
   * not run the shared TypeScript helper. Answered also while selfies are off (the flag says so).
   */
  async faceConsent(principal: Principal) {
    const { event } = await this.deps.access.requireEventAccess(principal, 'face.search_by_key', {
      keyEvent: true,
    });
    return {
      face_consent_version: this.deps.selfieRules.consentVersion(event.row),
      face_recognition_text: event.row.opts.faceRecognitionText ?? '',
      face_recognition_enabled:
        event.row.enable_facial_recognition === 1 && event.row.opts.disableSelfies !== 1 ? 1 : 0,
    };
  }

  /**
   * `event/selfie-upload-access/retrieve`: a presigned POST for one selfie, a protected object
   * under `selfies/<code>/` (never public; only the face search reads it).
   */
  async selfieUploadAccess(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof selfieUploadAccess>, 'key_type' | 'key_value'>,
  ) {
    const caller = await this.deps.access.requireEventAccess(principal, 'face.search_by_key', {
      keyEvent: true,
    });
    const { event, attendee, keyType } = caller;
    await this.deps.quotas?.selfieGrant(quotaKeyOf(caller));
    if (event.row.enable_facial_recognition !== 1 || event.row.opts.disableSelfies === 1)
      throw new AppError('face_recognition_off');
    const consentVersion = this.deps.selfieRules.requireConsent(
      event.row,
      input.face_consent_version,
    );
    const extension = input.content_type === 'image/png' ? 'png' : 'jpg';
    const key = `${SELFIE_ROOT}/${event.row.name}/${randomUUID()}.${extension}`;
    // The consent (version, time) is stored with the selfie before any upload is possible.
    await this.deps.selfieRules.record({
      event: event.row,
      key,
      keyType: keyType ?? 'operator',
      attendeeId: attendee?.row.id ?? null,
      consentVersion,
    });
    const grant = await this.deps.storage.createUploadGrant({
      key,
      contentType: input.content_type,
      maxBytes: SELFIE_MAX_BYTES,
    });
    // The guest searches next: load the event's descriptors while the selfie uploads.
    this.deps.warmEvent(event.row.id);
    return { ...grant, key, public_url: await this.deps.storage.signedGetUrl(key) };
  }
}
