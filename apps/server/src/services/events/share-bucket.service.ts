import {
  isValidFileName,
  STOCK_IMAGE_UPLOAD_LIMITS,
  SHARE_UPLOAD_EXTENSIONS,
  SHARE_UPLOAD_MAX_BYTES,
  type FlashbulbEvent,
  type ParsedBodyOf,
  type shareBucketUploadAccess,
  type stockImageUploadAccess,
} from '@flashbulb/shared';
import { AppError } from '../../lib/app-error.ts';
import type { OrganisationRepository } from '../../repositories/identity/organisation.repository.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import type { SignedInUser } from '../../access/signed-in-user.ts';
import type { AccessControl } from '../../access/access-control.ts';
import type { Principal } from '../../access/principal.ts';
import { organisationScope } from '../../access/rules.ts';
import type { EventSettingsFilePublisher } from './event.service.ts';

/** Each organisation's files live under `share/<organisation id>/`. */
export const SHARE_ROOT = 'share';
/** Each event's stock images live under `stock-images/<event code>/`. */
export const STOCK_IMAGE_ROOT = 'stock-images';
/** The event settings file the public pages read (owner-console §7). */
export const eventSettingsFileKey = (eventName: string): string => `data/${eventName}.json`;

/** The opts the public album, share and web-app pages need; nothing secret (no tokens, no shop). */
const PUBLIC_OPTS = [
  'description',
  'disableEventLabel',
  'redirectToWebApp',
  'disableLinkPhotos',
  'disableSelfies',
  'webappRegistrationType',
  'enableEmailCollect',
  'enablePhotoUpl',
  'enableAttendeePhotoUpl',
  'agreementText',
  'faqText',
  'supportLink',
  'supportChatKey',
  'pictureSize',
  'slideshowBg',
  'slideshowMinIntervalSeconds',
  'slideshowMaxIntervalSeconds',
  'kioskStreamEnabled',
  'webappLogoEnabled',
  'webappLogoSrc',
  'webappBackgroundEnabled',
  'webappBackgroundSrc',
  'webappBannerTopEnabled',
  'webappBannerTopSrc',
  'webappBannerTopLink',
  'webappBannerBottomEnabled',
  'webappBannerBottomSrc',
  'webappBannerBottomLink',
  'webappShareTitle',
  'ogpTitle',
  'ogpDescription',
  'webappSmsEnabled',
  'webappSmsText',
  'webappSmsAgreement',
  'userContentTooltip',
  'userContentUploadMessage',
  'userContentProcessMessage',
  'faceRecognitionText',
  'timeInTimeText',
] as const satisfies readonly (keyof FlashbulbEvent['opts'])[];

export const eventSettingsFileBody = (event: FlashbulbEvent) => ({
  id: event.id,
  name: event.name,
  empty_album_text: event.empty_album_text,
  opts: Object.fromEntries(PUBLIC_OPTS.map((key) => [key, event.opts[key]])),
});

/** Writes `data/<code>.json` on every save; removes it with the event. */
export class StorageEventSettingsFile implements EventSettingsFilePublisher {
  constructor(private readonly storage: StorageRepository) {}

  async publish(event: FlashbulbEvent): Promise<void> {
    await this.storage.put(
      eventSettingsFileKey(event.name),
      Buffer.from(JSON.stringify(eventSettingsFileBody(event))),
      'application/json',
      // Saved settings must show at once on the public pages.
      { cacheControl: 'no-cache' },
    );
  }

  async remove(eventName: string): Promise<void> {
    await this.storage.delete(eventSettingsFileKey(eventName));
  }
}

/** `a/b/c.png` with every segment a valid file name; no `.`/`..`, no leading slash. */
export const safeSegments = (relativePath: string, field: string): string[] => {
  const segments = relativePath.split('/');
  if (
    segments.length > 10 ||
    segments.some((s) => s === '.' || s === '..' || !isValidFileName(s) || s !== s.trim())
  )
    throw new AppError('file_name_invalid', field);
  return segments;
};

/** Direct uploads into an organisation's share area (owner-console §7 share-bucket API). */
export class ShareBucketService {
  constructor(
    private readonly storage: StorageRepository,
    private readonly organisations: OrganisationRepository,
    private readonly access: AccessControl,
  ) {}

  async createUploadAccess(
    actor: SignedInUser,
    input: ParsedBodyOf<typeof shareBucketUploadAccess>,
  ) {
    const organisationId = organisationScope(actor, input.organisation_id);
    if (organisationId === undefined || organisationId === null)
      throw new AppError('organisation_not_found', 'organisation_id');
    if (!(await this.organisations.findById(organisationId)))
      throw new AppError('organisation_not_found', 'organisation_id');
    const segments = safeSegments(input.relativeFilePath, 'relativeFilePath');
    const extension = (segments.at(-1) ?? '').split('.').pop()?.toLowerCase() ?? '';
    const contentType =
      segments.at(-1)?.includes('.') && Object.hasOwn(SHARE_UPLOAD_EXTENSIONS, extension)
        ? SHARE_UPLOAD_EXTENSIONS[extension as keyof typeof SHARE_UPLOAD_EXTENSIONS]
        : undefined;
    if (!contentType) throw new AppError('unsupported_picture_format', 'relativeFilePath');
    const key = [SHARE_ROOT, String(organisationId), ...segments].join('/');
    const grant = await this.storage.createUploadGrant({
      key,
      contentType,
      maxBytes: SHARE_UPLOAD_MAX_BYTES,
    });
    return { ...grant, key, public_url: this.storage.publicUrl(key) };
  }

  /**
   * Public twin for the stock-images tab: only the event owner's key may place files in the
   * event's stock-image area (other valid keys are refused, wrong keys are `invalid_key`).
   */
  async stockImageUploadAccess(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof stockImageUploadAccess>, 'key_type' | 'key_value'>,
  ) {
    const { event } = await this.access.requireEventAccess(principal, 'event.media_upload', {
      eventName: input.event_name,
    });
    const directory = input.directory ? safeSegments(input.directory, 'directory') : [];
    const [fileName, ...rest] = safeSegments(input.file_name, 'file_name');
    if (!fileName || rest.length) throw new AppError('file_name_invalid', 'file_name');
    const extension = fileName.split('.').pop()?.toLowerCase() ?? '';
    const limits = Object.hasOwn(STOCK_IMAGE_UPLOAD_LIMITS, extension)
      ? STOCK_IMAGE_UPLOAD_LIMITS[extension as keyof typeof STOCK_IMAGE_UPLOAD_LIMITS]
      : undefined;
    if (!limits || !fileName.includes('.'))
      throw new AppError('unsupported_picture_format', 'file_name');
    const key = [
      STOCK_IMAGE_ROOT,
      event.row.name,
      ...directory,
      ...(input.is_thumbnail ? ['thumbnails'] : []),
      fileName,
    ].join('/');
    const grant = await this.storage.createUploadGrant({
      key,
      contentType: limits.contentType,
      maxBytes: limits.maxBytes,
    });
    return { ...grant, key, public_url: this.storage.publicUrl(key) };
  }

  /**
   * There is no CDN in front of our storage (objects are served by us or by the S3 store with
   * their own cache headers), so there is nothing to invalidate: the paths are checked and the
   * call answers ok, as the editor expects.
   */
  invalidateCache(paths: string[] | undefined): Promise<Record<string, never>> {
    (paths ?? []).forEach((p, i) => safeSegments(p, `paths.${i}`));
    return Promise.resolve({});
  }
}
