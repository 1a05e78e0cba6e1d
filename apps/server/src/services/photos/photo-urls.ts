import { createHmac } from 'node:crypto';
import type { Photo } from '@flashbulb/shared';
import type { Clock } from '../../lib/clock.ts';
import { KeyedHmac } from '../../lib/keyed-hmac.ts';
import {
  isPaidEvent,
  previewChoice,
  videoChoice,
  type PreviewCaller,
} from '../../access/preview-rules.ts';
import type { PhotoRow } from '../../repositories/photos/photo.repository.ts';
import { isProtectedKey } from '../../storage/key-space.ts';
import { roundedExpiry, signaturesMatch } from '../../storage/signed-get.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';

/**
 * The URL values of a photo (ADR 0006). Public objects (thumbnail, watermarked variants) get their
 * public storage URL. Protected ones (original, unwatermarked preview) get our own signed media URL,
 * `/media/photos/<id>/<variant>?a=<o|g>&e=<expiry>&s=<signature>`: an HMAC over photo id, variant,
 * audience and expiry. The media route checks it, re-checks the photo at read time (exists; for
 * guests also visible and ready), then streams the bytes (local) or redirects to a ~60 s S3
 * presigned GET. Which fields an audience receives at all is the presenter's business; this file
 * decides only the values.
 */

/** Where the media route lives. */
export const MEDIA_PATH = '/media/photos';
/** Media URLs live 1 to 2 hours and are the same URL within each hour (cacheable). */
export const MEDIA_URL_SECONDS = 3600;

/** `o`: an owner audience (a hidden photo still opens); `g`: every key audience. */
export type MediaAudience = 'o' | 'g';

/** `original`, or the name of one of the row's derivatives (`preview`, …). */
const VARIANT = /^[a-z][a-z_]{0,39}$/;

/** Who asks, as the presenter knows it (the access layer's preview caller). */
export type UrlView = PreviewCaller;

export interface MediaGrant {
  photoId: number;
  variant: string;
  audience: MediaAudience;
  /** Unix seconds. */
  expires: number;
}

export type MediaCheck =
  { ok: true; grant: MediaGrant } | { ok: false; reason: 'missing' | 'expired' | 'bad-signature' };

export { isPaidEvent };

/**
 * Signed URLs kept per expiry window, for pages asked again and again (a kiosk's or album's first
 * page). Small on purpose: a bigger cache made random deep pages slower than signing afresh
 * (its entries outlive the young generation; docs/performance.md, session 11).
 */
const SIGNED_URL_CACHE_SIZE = 4_096;

export class PhotoUrls {
  private readonly base: string;
  private readonly hmac: KeyedHmac;
  /**
   * Media URLs of the current expiry window (they are the same all window long): by variant and
   * audience, then by photo id (a number key: no key string to build per lookup).
   */
  private signed = new Map<string, Map<number, string>>();
  private signedCount = 0;
  private signedExpires = 0;

  constructor(
    private readonly deps: {
      storage: StorageRepository;
      clock: Clock;
      /** The server's public base URL (media URLs point at our own route). */
      publicUrl: string;
      /** The app secret; the media key is derived from it. */
      appSecret: string;
    },
  ) {
    this.base = deps.publicUrl.replace(/\/+$/, '');
    this.hmac = new KeyedHmac(
      createHmac('sha256', deps.appSecret).update('flashbulb media urls v1').digest(),
    );
  }

  /** The `urls` of a photo for one audience. */
  urls(row: PhotoRow, view: UrlView): Photo['urls'] {
    const audience: MediaAudience = view.audience === 'owner' ? 'o' : 'g';
    const d = row.derivatives;
    const url = (key: string | undefined, variant: string): string | null => {
      if (!key) return null;
      return isProtectedKey(key)
        ? this.mediaUrl(row.id, variant, audience)
        : this.deps.storage.publicUrl(key);
    };
    // Which variants this caller gets is the access layer's rule; here they become URLs.
    const choice = previewChoice(view);
    const fullSize = (variant: 'live_view_watermark' | 'photo_watermark') =>
      choice.fullSizeWatermarks ? url(d[variant], variant) : null;
    const protector = url(d.protector_watermark, 'protector_watermark');
    const video = videoChoice(view, d.video_watermark !== undefined);
    return {
      // A clip's original follows a photo's rules: only callers who may download it.
      original: view.original ? url(row.storageKey, 'original') : null,
      preview: choice.preview === 'preview' ? url(d.preview, 'preview') : protector,
      thumbnail: url(d.thumbnail, 'thumbnail'),
      live_view_watermark: fullSize('live_view_watermark'),
      photo_watermark: fullSize('photo_watermark'),
      protector_watermark: protector,
      video: url(d[video], video),
    };
  }

  /** A signed media URL, the same within each MEDIA_URL_SECONDS window. */
  mediaUrl(photoId: number, variant: string, audience: MediaAudience): string {
    const expires = roundedExpiry(this.deps.clock.now(), MEDIA_URL_SECONDS);
    if (expires !== this.signedExpires || this.signedCount >= SIGNED_URL_CACHE_SIZE) {
      this.signed = new Map();
      this.signedCount = 0;
      this.signedExpires = expires;
    }
    const kind = audience === 'o' ? variant : `${variant}/g`;
    let byPhoto = this.signed.get(kind);
    if (!byPhoto) this.signed.set(kind, (byPhoto = new Map<number, string>()));
    const known = byPhoto.get(photoId);
    if (known) return known;
    const signature = this.sign({ photoId, variant, audience, expires });
    const url = `${this.base}${MEDIA_PATH}/${photoId}/${variant}?a=${audience}&e=${expires}&s=${signature}`;
    byPhoto.set(photoId, url);
    this.signedCount += 1;
    return url;
  }

  /** Checks a media request's path parameters and query: signature first, then expiry. */
  check(idText: string, variant: string, query: Record<string, unknown>): MediaCheck {
    const { a, e, s } = query;
    if (typeof a !== 'string' || typeof e !== 'string' || typeof s !== 'string') {
      return { ok: false, reason: 'missing' };
    }
    if (
      !/^[1-9]\d{0,15}$/.test(idText) ||
      !VARIANT.test(variant) ||
      (a !== 'o' && a !== 'g') ||
      !/^\d{1,12}$/.test(e)
    ) {
      return { ok: false, reason: 'bad-signature' };
    }
    const grant: MediaGrant = { photoId: Number(idText), variant, audience: a, expires: Number(e) };
    if (!signaturesMatch(s, this.sign(grant))) return { ok: false, reason: 'bad-signature' };
    if (this.deps.clock.now().getTime() >= grant.expires * 1000) {
      return { ok: false, reason: 'expired' };
    }
    return { ok: true, grant };
  }

  /** A media URL of ours with a valid, unexpired signature → its grant, else null. */
  fromUrl(url: string): MediaGrant | null {
    const prefix = `${this.base}${MEDIA_PATH}/`;
    if (!url.startsWith(prefix)) return null;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return null;
    }
    const [idText = '', variant = '', ...rest] = url.slice(prefix.length).split('?')[0]!.split('/');
    if (rest.length > 0) return null;
    const checked = this.check(idText, variant, Object.fromEntries(parsed.searchParams));
    return checked.ok ? checked.grant : null;
  }

  /** The storage key a grant's variant names on the row as it is now (archives move originals). */
  keyOf(row: PhotoRow, variant: string): string | undefined {
    return variant === 'original' ? row.storageKey : row.derivatives[variant];
  }

  private sign(grant: MediaGrant): string {
    return this.hmac.digest(
      `${grant.photoId}\n${grant.variant}\n${grant.audience}\n${grant.expires}`,
    );
  }
}
