import type { PhotoRepository } from '../../repositories/photos/photo.repository.ts';
import { shownToGuests } from '../../repositories/photos/photo-visibility.ts';
import { isProtectedKey } from '../../storage/key-space.ts';
import type { StorageRepository } from '../../storage/storage.repository.ts';
import { AppError } from '../../lib/app-error.ts';
import type { PhotoUrls } from '../photos/photo-urls.ts';
import {
  REFERENCE_ROOTS,
  SELFIE_ROOT,
  storageKeyOfReference,
  storageUrlBases,
} from './reference-photos.ts';

type EventRow = { id: number; name: string };

/** A photo's public folder, `events/<code>/photos/uid_<uid>_uid/…` (storage/key-space.ts). */
const PHOTO_FOLDER = /^events\/[^/]+\/photos\/uid_([^/]+)_uid\//;

/**
 * Which stored objects a face search may read as its references: the rule that keeps a search
 * from fetching anything outside this server's storage, or a photo its caller may not see.
 */
export class FaceReferences {
  constructor(
    private readonly deps: {
      storage: StorageRepository;
      photos: Pick<PhotoRepository, 'findById' | 'findByEventUid'>;
      /** Our signed media URLs (`/media/photos/<id>/<variant>`) are accepted as references. */
      urls: Pick<PhotoUrls, 'fromUrl' | 'keyOf'>;
    },
  ) {}

  /**
   * The storage keys the references name, all checked before any is read: one foreign URL
   * refuses the whole call (`invalid_url`), and nothing outside this server's storage is fetched.
   * Owners may name the event's photos (public or signed storage URL, or key), its selfies, and
   * our signed media URLs of its photos; guests their selfies and the media URLs they were given
   * (guest audience, a photo of the event that is visible and ready).
   */
  async keysOf(
    event: EventRow,
    references: readonly string[],
    audience: 'owner' | 'guest',
  ): Promise<string[]> {
    const bases = await storageUrlBases(this.deps.storage);
    const keys: string[] = [];
    for (const reference of references) {
      const key =
        (await this.mediaKey(event, reference, audience)) ??
        (audience === 'guest' ? await this.publicVariantKey(event, bases, reference) : null) ??
        storageKeyOfReference(
          bases,
          reference,
          event.name,
          audience === 'owner' ? REFERENCE_ROOTS : [SELFIE_ROOT],
        );
      if (!key) throw new AppError('invalid_url', 'photo_url_list');
      keys.push(key);
    }
    return keys;
  }

  /** The key of a photo variant one of our signed media URLs names, when it may be used. */
  private async mediaKey(
    event: EventRow,
    reference: string,
    audience: 'owner' | 'guest',
  ): Promise<string | null> {
    const grant = this.deps.urls.fromUrl(reference.trim());
    if (!grant) return null;
    if (audience === 'guest' && grant.audience !== 'g') return null;
    const row = await this.deps.photos.findById(grant.photoId);
    if (!row || row.eventId !== event.id) return null;
    if (audience === 'guest' && !shownToGuests(row)) return null;
    return this.deps.urls.keyOf(row, grant.variant) ?? null;
  }

  /**
   * The key of a photo's public file (thumbnail, watermarked variant) named by its public storage
   * URL, as photo lists hand it to guests: only a current public variant of a visible, ready photo
   * of this event (not any object under `events/<code>/`).
   */
  private async publicVariantKey(
    event: EventRow,
    bases: readonly URL[],
    reference: string,
  ): Promise<string | null> {
    const key = storageKeyOfReference(bases, reference, event.name, ['events']);
    if (!key) return null;
    const uid = PHOTO_FOLDER.exec(key)?.[1];
    if (!uid) return null;
    const row = await this.deps.photos.findByEventUid(event.id, uid);
    if (!row || !shownToGuests(row)) return null;
    const variants = Object.values(row.derivatives).filter((k) => !isProtectedKey(k));
    return variants.includes(key) ? key : null;
  }
}
