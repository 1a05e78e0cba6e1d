// Why this file is long: a shared photo's one visibility rule serves the share link, the share
// tracking, the share page and the viewer page; each refuses a hidden, foreign or paid image the
// same way. A split waits for the guest-page work beside it (the pages move together).
import type { generateShareLink, ParsedBodyOf, ShareNetwork, trackShare } from '@flashbulb/shared';
import type { AccessControl } from '../../access/access-control.ts';
import { attendeeOf, isOperator, type Principal } from '../../access/principal.ts';
import { AppError } from '../../lib/app-error.ts';
import type { Clock } from '../../lib/clock.ts';
import type { SecretBox } from '../../lib/secret-box.ts';
import type { AlbumRepository } from '../../repositories/albums/album.repository.ts';
import type { EventRecord, EventRepository } from '../../repositories/events/event.repository.ts';
import type { PhotoRepository, PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { isProtectedKey } from '../../storage/key-space.ts';
import { resolveStorageReference } from '../../storage/owned-references.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { albumDecision } from './album-visibility.ts';
import type { PhotoListingService } from '../photos/photo-listing.service.ts';
import type { Audience } from '../photos/photo-downloads.ts';
import type { PhotoUrls } from '../photos/photo-urls.ts';

/** The placeholders of the sharing templates (owner console §2; albums spec §3). */
const SHARE_PLACEHOLDERS = /\{(user_name|image_url|imageUrl|srcImg|srcVideo|url|width|height)\}/g;

/**
 * A sharing template with its placeholders filled; anything else stays as typed. The result is
 * plain text: where it is shown it is escaped, and no link is made of it.
 */
export const fillShareTemplate = (template: string, values: Record<string, string>): string =>
  template.replace(SHARE_PLACEHOLDERS, (_match, name: string) => values[name] ?? '');

/**
 * Who shares, for `{user_name}`: the attendee behind an attendee key, by their address's local
 * part (attendees have no name; the text is shown to them before they post it). Other keys
 * name nobody.
 */
const sharerName = (principal: Principal): string =>
  attendeeOf(principal)?.row.email?.split('@')[0]?.trim() ?? '';

/** What a share page shows; every text is plain (the page escapes it). */
export interface SharePage {
  title: string;
  description: string;
  pageUrl: string;
  /**
   * Where the page's button goes: the shared photo itself (its image or video). Never the album:
   * one shared photo must not hand out the event's key, which opens every photo.
   */
  photoUrl: string;
  mediaType: 'image' | 'video';
  /** The preview, or the photo-watermark variant when the event has one. */
  imageUrl: string | null;
  videoUrl: string | null;
  width: number | null;
  height: number | null;
  /**
   * The event's sharing template for this kind of photo (photo, video, 360) with `{srcImg}`,
   * `{srcVideo}`, `{image_url}`, `{url}`, `{width}`, `{height}` filled: plain text, escaped
   * where shown.
   */
  body: string;
  /** A 360° photo: its interactive viewer page. */
  viewerUrl: string | null;
  /** Origins the page loads media from (its CSP allows only these). */
  mediaOrigins: string[];
}

/** The share-preview page (`/?photoId=…&imgSrc=…&url=…&eName=…`, albums §2.1): plain texts. */
export type SharePreviewPage =
  | (SharePage & {
      status: 200;
      eventName: string;
      /** The event's logo when it is a fetchable address, and the operator's link behind it. */
      logoUrl: string | null;
      logoLink: string | null;
    })
  /** A link that names no photo, or one the public may not see (or of another event). */
  | { status: 400 | 404; reason: 'incomplete' | 'unavailable' };

export interface ViewerPage {
  imageUrl: string;
  closeable: boolean;
  watermarkUrl: string | null;
  watermarkText: string | null;
  /** Where closing goes: the photo's own share page (never the album and its key). */
  closeUrl: string;
  mediaOrigins: string[];
}

const PHOTO_KEY = /^events\/([A-Z0-9]{4})\/photos\/uid_([0-9a-f]+)_uid\/[^/]+$/;

const activityNames: Record<ShareNetwork, string> = {
  facebook: 'FacebookShare',
  twitter: 'TwitterShare',
  linkedin: 'LinkedInShare',
  whatsapp: 'WhatsAppShare',
  email: 'EmailShare',
  link: 'LinkShare',
};

/**
 * Share pages (albums §7.2, owner-console §2): one page per photo with Open Graph tags that social
 * networks read without running JavaScript, the 360 viewer for our own storage URLs only, and the
 * share tracking (`FacebookShare`).
 */
export class ShareService {
  constructor(
    private readonly deps: {
      photos: PhotoListingService;
      albums: AlbumRepository;
      events: EventRepository;
      access: AccessControl;
      storage: StorageRepository;
      /** Signed media URLs (ADR 0006): the viewer accepts the public's own. */
      urls: PhotoUrls;
      photoRows: Pick<PhotoRepository, 'findById'>;
      secrets: SecretBox;
      clock: Clock;
      publicUrl: string;
    },
  ) {}

  private shareUrl(uid: string): string {
    return `${this.deps.publicUrl}/share/${encodeURIComponent(uid)}`;
  }

  private origins(...urls: (string | null)[]): string[] {
    const set = new Set<string>();
    for (const url of urls) if (url) set.add(new URL(url).origin);
    return [...set];
  }

  /** A photo of the key's event that the key may see (no stream window: a share outlives it). */
  private async photoForKey(
    principal: Principal,
    uid: string,
  ): Promise<{ row: PhotoRow; event: EventRecord; audience: Audience }> {
    // The key must open something before a photo is looked up (a wrong key learns nothing).
    await this.deps.access.requireEventAccess(principal, 'photo.share', { keyEvent: true });
    const row = await this.deps.albums.photoByUid(uid);
    if (!row) throw new AppError('not_found', 'photo_uid');
    // An attendee key shares only photos of its own album (possibly of another of its events).
    const { event, audience } = await this.deps.access.requireEventAccess(
      principal,
      'photo.share',
      { photo: row, field: 'photo_uid' },
    );
    if (
      !albumDecision(row, event.row, audience, this.deps.clock.now(), { streamWindow: false }).show
    ) {
      throw new AppError('not_found', 'photo_uid');
    }
    return { row, event, audience };
  }

  async generateLink(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof generateShareLink>, 'key_type' | 'key_value'>,
  ): Promise<{ url: string; photo_uid: string; text: string }> {
    if (!isOperator(principal)) {
      const { row, event } = await this.photoForKey(principal, input.photo_uid);
      const text = this.shareContent(row, event, sharerName(principal)).body;
      return { url: this.shareUrl(row.uid), photo_uid: row.uid, text };
    }
    const row = await this.deps.albums.photoByUid(input.photo_uid);
    if (!row) throw new AppError('not_found', 'photo_uid');
    const { event } = await this.deps.access.requireEventAccess(principal, 'photo.share', {
      photo: row,
      field: 'photo_uid',
    });
    // The page itself shows only what the public may see; a hidden photo's page answers 404.
    const text = this.shareContent(row, event, '').body;
    return { url: this.shareUrl(row.uid), photo_uid: row.uid, text };
  }

  async track(
    principal: Principal,
    input: Omit<ParsedBodyOf<typeof trackShare>, 'key_value'>,
  ): Promise<{ id: number; activity_name: string }> {
    const { row, event } = await this.photoForKey(principal, input.photo_uid);
    const activityName = activityNames[input.network];
    const id = await this.deps.albums.addShare({
      eventId: event.row.id,
      photoId: row.id,
      network: input.network,
      activityName,
      keyType: input.key_type,
    });
    return { id, activity_name: activityName };
  }

  /**
   * What sharing a photo shows: the URLs the public gets (ADR 0006: a paid event's preview is its
   * watermarked variant, protected files come as signed media URLs; a clip's public rendition,
   * never the original) and the event's sharing template of the photo's kind (owner console §2:
   * photo, video, 360) filled as plain text. `userName` is the sharer where known.
   */
  private shareContent(row: PhotoRow, event: EventRecord, userName: string) {
    const urls = this.deps.photos.presentForGuest(row, 'public', { event: event.row }).urls;
    const imageUrl =
      event.row.photo_watermark && urls.photo_watermark ? urls.photo_watermark : urls.preview;
    const videoUrl = urls.video;
    const kind = row.mediaType === 'video' ? 'video' : row.is360 === 1 ? '360' : 'image';
    const viewerUrl =
      kind === '360' && imageUrl
        ? `${this.deps.publicUrl}/share/viewer?url=${encodeURIComponent(imageUrl)}&closeable=1${event.row.photo_watermark ? '&wm=111' : ''}`
        : null;
    const template =
      kind === 'video'
        ? event.row.sharing_video_body_template
        : kind === '360'
          ? event.row.sharing_360_body_template
          : event.row.sharing_body_template;
    const body = fillShareTemplate(template, {
      user_name: userName,
      image_url: imageUrl ?? '',
      imageUrl: imageUrl ?? '',
      srcImg: imageUrl ?? '',
      srcVideo: videoUrl ?? '',
      url: viewerUrl ?? this.shareUrl(row.uid),
      width: row.width === null ? '' : String(row.width),
      height: row.height === null ? '' : String(row.height),
    });
    return { imageUrl, videoUrl, viewerUrl, body };
  }

  /** The share page of a photo the public may see, else null (the route answers 404). */
  async sharePage(uid: string): Promise<SharePage | null> {
    const row = await this.deps.albums.photoByUid(uid);
    if (!row) return null;
    const event = await this.deps.events.findById(row.eventId);
    if (!event) return null;
    const now = this.deps.clock.now();
    if (!albumDecision(row, event.row, 'public', now, { streamWindow: false }).show) return null;
    const opts = event.row.opts;
    const { imageUrl, videoUrl, viewerUrl, body } = this.shareContent(row, event, '');
    const title = opts.ogpTitle.trim() || opts.webappShareTitle.trim() || event.row.full_name;
    return {
      title,
      description: opts.ogpDescription.trim() || event.row.full_name,
      pageUrl: this.shareUrl(row.uid),
      photoUrl: videoUrl ?? imageUrl ?? this.shareUrl(row.uid),
      mediaType: row.mediaType === 'video' ? 'video' : 'image',
      imageUrl,
      videoUrl,
      width: row.width,
      height: row.height,
      body,
      viewerUrl,
      mediaOrigins: this.origins(imageUrl, videoUrl),
    };
  }

  /**
   * The share-preview page a shared photo link opens (albums §2.1: `url`, `imgSrc`, `photoId`,
   * optional `eName`). Only `photoId` (the photo's uid: ids are guessable, uids are not) decides
   * what is shown, and only a photo the public may see now; `eName` must name its event. The
   * given `imgSrc` is used only when it is one of that photo's own public files (else its
   * preview). Its button opens the photo's own share page, whatever `url` says: the page never
   * sends anyone to another site, nor carries an album key (one shared photo opens that photo,
   * not the whole album).
   */
  async sharePreview(input: {
    photoId: string | null;
    imgSrc: string | null;
    url: string | null;
    eventName: string | null;
  }): Promise<SharePreviewPage> {
    const uid = input.photoId?.trim() ?? '';
    if (!uid) return { status: 400, reason: 'incomplete' };
    if (!/^[0-9a-f]{1,100}$/.test(uid)) return { status: 404, reason: 'unavailable' };
    const shown = await this.shownPhoto(await this.deps.albums.photoByUid(uid));
    const page = shown ? await this.sharePage(uid) : null;
    if (!shown || !page) return { status: 404, reason: 'unavailable' };
    const { row, event } = shown;
    if (input.eventName && input.eventName.trim().toUpperCase() !== event.row.name)
      return { status: 404, reason: 'unavailable' };
    const urls = this.deps.photos.presentForGuest(row, 'public', { event: event.row }).urls;
    const own = [urls.preview, urls.thumbnail, urls.photo_watermark].filter(
      (u): u is string => typeof u === 'string' && u !== '',
    );
    // A paid event shows its watermarked variant only (sharePage chose it): nothing else is taken.
    const imageUrl =
      page.mediaType === 'image' && input.imgSrc && own.includes(input.imgSrc)
        ? event.row.photo_watermark && urls.photo_watermark
          ? urls.photo_watermark
          : input.imgSrc
        : page.imageUrl;
    const logo = event.row.logo_full_path?.trim() ?? '';
    // An http(s) address or a storage key (an inline data: logo is left out: link previews and
    // this page's policy load no inline images).
    const logoUrl = /^https?:\/\//i.test(logo)
      ? logo
      : logo && !/^[a-z][a-z0-9+.-]*:/i.test(logo) && !logo.includes('..')
        ? this.deps.storage.publicUrl(logo.replace(/^\/+/, ''))
        : null;
    const logoLink = /^https?:\/\//i.test(event.row.logo_link.trim())
      ? event.row.logo_link.trim()
      : null;
    return {
      ...page,
      status: 200,
      eventName: event.row.name,
      imageUrl,
      logoUrl,
      logoLink,
      mediaOrigins: this.origins(imageUrl, page.videoUrl, logoUrl),
    };
  }

  /** A photo the public may see now, with its event, else null. */
  private async shownPhoto(row: PhotoRow | undefined) {
    if (!row) return null;
    const event = await this.deps.events.findById(row.eventId);
    if (!event) return null;
    const now = this.deps.clock.now();
    if (!albumDecision(row, event.row, 'public', now, { streamWindow: false }).show) return null;
    return { row, event };
  }

  /** A public storage URL of one of a shown photo's own public files. */
  private async viewerStorageFile(url: string) {
    const base = this.deps.storage.publicUrl('x').slice(0, -1);
    if (!url.startsWith(base)) return null;
    let key: string;
    try {
      key = decodeURIComponent(url.slice(base.length));
    } catch {
      return null;
    }
    const match = PHOTO_KEY.exec(key);
    if (!match) return null;
    const shown = await this.shownPhoto(await this.deps.albums.photoByUid(match[2]!));
    if (!shown || shown.event.row.name !== match[1]) return null;
    // Only the photo's own public files: never a protected one (original, unwatermarked preview).
    if (!Object.values(shown.row.derivatives).includes(key) || isProtectedKey(key)) return null;
    return { event: shown.event, uid: shown.row.uid, imageUrl: this.deps.storage.publicUrl(key) };
  }

  /** A signed media URL (ADR 0006) of a variant the public presentation of a shown photo has. */
  private async viewerMediaFile(url: string) {
    const grant = this.deps.urls.fromUrl(url);
    if (!grant) return null;
    const shown = await this.shownPhoto(await this.deps.photoRows.findById(grant.photoId));
    if (!shown) return null;
    const given = this.deps.photos.presentForGuest(shown.row, 'public', {
      event: shown.event.row,
    }).urls;
    const variants = Object.values(given).flatMap((u) => {
      const g = u ? this.deps.urls.fromUrl(u) : null;
      return g ? [g.variant] : [];
    });
    if (!variants.includes(grant.variant)) return null;
    return { event: shown.event, uid: shown.row.uid, imageUrl: url };
  }

  /**
   * The 360 viewer (`/share/viewer?url=…&closeable=…&wm=…`) for a photo the public may see: `url`
   * must be one of our storage URLs of such a photo, so the page never frames or links to other
   * sites. `wm=111` lays the event's watermark over it.
   */
  async viewerPage(input: {
    url: string;
    closeable: boolean;
    watermark: boolean;
  }): Promise<ViewerPage | null> {
    const found =
      (await this.viewerStorageFile(input.url)) ?? (await this.viewerMediaFile(input.url));
    if (!found) return null;
    const { event, uid, imageUrl } = found;
    let watermarkUrl: string | null = null;
    let watermarkText: string | null = null;
    if (input.watermark) {
      // Only an object in the event's own upload areas (storage/owned-references.ts) is shown.
      const reference = resolveStorageReference(
        event.row.photo_watermark ?? event.row.live_view_watermark,
        { organisationId: event.row.organisationId, eventCode: event.row.name },
        { external: false, publicPrefix: this.deps.storage.publicUrl('x').slice(0, -1) },
      );
      const source = reference?.kind === 'stored' ? reference.key : null;
      if (source && (await this.deps.storage.head(source).catch(() => null)))
        watermarkUrl = this.deps.storage.publicUrl(source);
      else watermarkText = event.row.full_name;
    }
    return {
      imageUrl,
      closeable: input.closeable,
      watermarkUrl,
      watermarkText,
      closeUrl: this.shareUrl(uid),
      mediaOrigins: this.origins(imageUrl, watermarkUrl),
    };
  }
}
