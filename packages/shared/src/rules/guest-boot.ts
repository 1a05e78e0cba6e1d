import type { ResultOf } from '../api/endpoint.ts';
import type { PublicKeyType, publicEventFullData } from '../api/events/events.ts';
import type { publicPhotoList } from '../api/photos/photos.ts';

/**
 * The data an album link's page is sent with: the server reads the event and the first
 * photo page for the link's key as the API would and writes them into `guest.html` as a JSON
 * block with this id, so the page shows its first photos without asking for them again.
 */
export const GUEST_BOOT_ELEMENT_ID = 'flashbulb-guest-boot';

/** The first page's size: the album page asks for pages of this many photos. */
export const GUEST_BOOT_PAGE_SIZE = 100;

/**
 * The page sent with an album link counts its photos up to this many (`count_limit`): counting a
 * large album to the last photo took longer than the rest of the page (a full scan, hundreds of
 * milliseconds at 100,000 photos). Beyond it the page shows "1000+ photos" and asks for the
 * exact count once it has painted.
 */
export const GUEST_BOOT_COUNT_LIMIT = 1000;

export interface GuestBoot {
  /** The key the page reads with (as the link gives it) and `eName`: the page checks they match. */
  readonly key_type: PublicKeyType;
  readonly key_value: string;
  readonly event_name: string | null;
  /** `publicEventFullData`'s first event, as the API answers it. */
  readonly event: ResultOf<typeof publicEventFullData>[number] | null;
  /** `publicPhotoList`'s first page (newest first, total count), as the API answers it. */
  readonly first_page: ResultOf<typeof publicPhotoList>;
}
