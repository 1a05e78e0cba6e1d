import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import { SIGNED_GET_SECONDS } from '../../storage/signed-get.ts';
import type { LocalObjectReader, StorageRepository } from '../../storage/storage.repository.ts';
import type { PhotoUrls } from './photo-urls.ts';

/**
 * What a signed media URL opens (`GET /media/photos/<id>/<variant>`), decided before a byte is
 * read. `denied`: a bad or expired signature, or a guest URL of a photo hidden or not ready;
 * `missing`: no such photo or variant; `stream`: local storage answers the object itself until
 * the URL expires (`expires`, epoch seconds); `redirect`: a presigned GET of the store.
 */
export type MediaRead =
  | { kind: 'denied'; reason: 'missing' | 'expired' | 'bad-signature' | 'not-shown' }
  | { kind: 'missing' }
  | { kind: 'stream'; reader: LocalObjectReader; key: string; expires: number }
  | { kind: 'redirect'; location: string };

/**
 * Signed media URLs for protected objects (ADR 0006): the signature and expiry are checked, then
 * the photo as it is now — it must exist, and for guest audiences be visible and ready — so
 * hiding a photo stops its signed URLs at once.
 */
export class MediaAccessService {
  constructor(
    private readonly deps: {
      urls: PhotoUrls;
      photos: PhotoRepository;
      storage: StorageRepository;
    },
  ) {}

  async read(id: string, variant: string, query: Record<string, unknown>): Promise<MediaRead> {
    const checked = this.deps.urls.check(id, variant, query);
    if (!checked.ok) return { kind: 'denied', reason: checked.reason };
    const { grant } = checked;
    const row = await this.deps.photos.findById(grant.photoId);
    if (!row) return { kind: 'missing' };
    if (grant.audience === 'g' && !shownToGuests(row)) {
      return { kind: 'denied', reason: 'not-shown' };
    }
    const key = this.deps.urls.keyOf(row, grant.variant);
    if (!key) return { kind: 'missing' };
    const reader = this.deps.storage.localReader();
    if (reader) return { kind: 'stream', reader, key, expires: grant.expires };
    const location = await this.deps.storage.signedGetUrl(key, {
      expiresInSeconds: SIGNED_GET_SECONDS,
    });
    return { kind: 'redirect', location };
  }
}
