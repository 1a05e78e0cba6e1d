import * as endpoints from '../../../lib/guest-endpoints.ts';
import { type GuestPhoto as Photo, type ResultOf } from '@flashbulb/shared';
import type { AlbumDownloadSize } from '@flashbulb/shared/api/albums/albums';
import { GUEST_BOOT_PAGE_SIZE } from '@flashbulb/shared/rules/guest-boot';
import type { PhotoStreamKeyType } from '../../../lib/photo-stream.ts';
import { callApi } from '../../../lib/api-client.ts';

/** Which key a page reads photos with (the link decides; albums spec §2.1, §6). */
export interface AlbumKey {
  readonly keyType: PhotoStreamKeyType;
  readonly keyValue: string;
  /** A VIP token a kiosk accepted (albums §2.4): the list also shows photos inside their delay. */
  readonly vipToken?: string;
  /**
   * The lead gate (events that collect leads): the token of the lead this browser gave, or
   * the event's display token the organiser's kiosk, stream and slide-show links carry.
   */
  readonly leadToken?: string | null;
  readonly display?: string;
}

/** The lead gate's fields of an album call. */
export const leadGateFields = (key: AlbumKey): { display?: string; lead_token?: string } =>
  key.display ? { display: key.display } : key.leadToken ? { lead_token: key.leadToken } : {};

/** Photos per request (the list's page size; the server sends the first page with the page). */
export const GUEST_PAGE_SIZE = GUEST_BOOT_PAGE_SIZE;

export type PhotoPage = ResultOf<typeof endpoints.publicPhotoList>;

export const albumQueryKey = (key: AlbumKey) => {
  const base = ['albums', key.keyType, key.keyValue] as const;
  const withVip = key.vipToken ? ([...base, 'vip', key.vipToken] as const) : base;
  // A lead given (or a display screen) reads the album afresh: the server answers it differently.
  return key.display || key.leadToken
    ? ([...withVip, 'gate', key.display ? 'display' : key.leadToken] as const)
    : withVip;
};

/**
 * One page of the album, newest first. `before` freezes the list at the moment the album opened
 * (pages after the first never shift when new photos arrive; those come through the stream).
 * `afterPhotoId` is the last photo of the page before, when the reader has it: the server then
 * seeks to it by index (keyset paging) instead of counting past every earlier photo; a jump far
 * down the grid (no page before it loaded) asks by page number. `since` asks only for photos from
 * that time on (the live stream's catch-up).
 */
export const fetchGuestPhotoPage = (
  key: AlbumKey,
  pageNumber: number,
  before: string | null,
  signal?: AbortSignal,
  afterPhotoId?: number,
  since?: string,
): Promise<PhotoPage> =>
  callApi(
    endpoints.publicPhotoList,
    {
      key_type: key.keyType,
      key_value: key.keyValue,
      max_size: GUEST_PAGE_SIZE,
      page_number: pageNumber,
      // The live stream's catch-up (`since`) wants the new photos, not a count of them all.
      ...(pageNumber === 1 && !since ? { show_total_count: 1 as const } : {}),
      ...(before ? { end_date: before } : {}),
      ...(since ? { start_date: since } : {}),
      ...(afterPhotoId !== undefined && pageNumber > 1 ? { before_id: afterPhotoId } : {}),
      ...(key.vipToken ? { vip_token: key.vipToken } : {}),
      ...leadGateFields(key),
    },
    { signal },
  );

/**
 * The album's exact count up to `before` (the newest photo at opening): asked after the first
 * paint when the page the server sent counted only up to its limit.
 */
export const fetchAlbumCount = async (
  key: AlbumKey,
  before: string | null,
  signal?: AbortSignal,
): Promise<number> => {
  const page = await callApi(
    endpoints.publicPhotoList,
    {
      key_type: key.keyType,
      key_value: key.keyValue,
      max_size: 1,
      page_number: 1,
      show_total_count: 1,
      ...(before ? { end_date: before } : {}),
      ...(key.vipToken ? { vip_token: key.vipToken } : {}),
      ...leadGateFields(key),
    },
    { signal },
  );
  return page.total_count ?? 0;
};

/** Hide or show a photo with the event owner key of the curation link. */
export const setPhotoVisible = async (
  key: AlbumKey,
  photoId: number,
  visible: boolean,
): Promise<Photo> => {
  const { photos } = await callApi(endpoints.publicUpdatePhotoList, {
    key_type: key.keyType,
    key_value: key.keyValue,
    id_array: [photoId],
    is_visible: visible ? 1 : 0,
  });
  const [photo] = photos;
  if (!photo) throw new Error('the server answered no photo');
  return photo;
};

/** Mark an original as curated with the event owner key of the link. */
export const markCurated = (key: AlbumKey, photoId: number): Promise<Photo> =>
  callApi(endpoints.curationUpdate, {
    key_type: key.keyType,
    key_value: key.keyValue,
    original_photo_id: photoId,
  });

/**
 * The photo's share page (Open Graph tags for social networks) and the event's share text for it
 * (its sharing template, filled by the server); the preview and no text if it cannot be made.
 */
export const shareFor = async (
  key: AlbumKey,
  photo: Photo,
): Promise<{ url: string; text: string }> => {
  try {
    const share = await callApi(endpoints.generateShareLink, {
      key_type: key.keyType,
      key_value: key.keyValue,
      photo_uid: photo.uid,
    });
    return { url: share.url, text: share.text };
  } catch {
    return { url: photo.urls.preview ?? photo.urls.thumbnail ?? window.location.href, text: '' };
  }
};

/** `shareFor` asked once per photo for one key (the menu, the copy and the sheet share it). */
export const sharesFor = (key: AlbumKey) => {
  const asked = new Map<string, Promise<{ url: string; text: string }>>();
  return (photo: Photo): Promise<{ url: string; text: string }> => {
    const known = asked.get(photo.uid);
    if (known) return known;
    const made = shareFor(key, photo);
    asked.set(photo.uid, made);
    return made;
  };
};

/** Records the Facebook share (activity FacebookShare); a failure never bothers the guest. */
export const trackFacebookShare = (key: AlbumKey, photo: Photo): void => {
  callApi(endpoints.trackShare, {
    key_type: key.keyType,
    key_value: key.keyValue,
    photo_uid: photo.uid,
    network: 'facebook',
  }).catch(() => undefined);
};

/**
 * Counts a view of the album page or a download for the event's insight (anonymous: the server
 * keeps no address). Sent after the page showed, never awaited: a failure never bothers the guest.
 */
export const trackInsight = (key: AlbumKey, kind: 'view' | 'download', photo?: Photo): void => {
  callApi(endpoints.insightTrack, {
    key_type: key.keyType,
    key_value: key.keyValue,
    kind,
    ...(photo ? { photo_uid: photo.uid } : {}),
  }).catch(() => undefined);
};

/**
 * The address of a zip of the chosen photos (ids), or of the whole album (null), which the server
 * streams. The server decides what goes in: originals where the key may download them,
 * otherwise the shown picture of a free event's album; it refuses with `download_not_allowed`.
 */
/** Asks the server for an album zip: its address, or (a large whole album) a mailed link. */
export const createAlbumZip = (
  key: AlbumKey,
  photoIds: number[] | null,
  options: { size?: AlbumDownloadSize; email?: string } = {},
) =>
  callApi(endpoints.createAlbumDownload, {
    key_type: key.keyType,
    key_value: key.keyValue,
    ...leadGateFields(key),
    ...(photoIds ? { photo_id_array: photoIds } : {}),
    ...(options.size ? { size: options.size } : {}),
    ...(options.email ? { email: options.email } : {}),
  });

/** Whether a mailed zip (a job builds it) is ready yet, and then its link. */
export const albumZipStatus = (key: AlbumKey, statusToken: string) =>
  callApi(endpoints.albumDownloadStatus, {
    key_type: key.keyType,
    key_value: key.keyValue,
    status_token: statusToken,
  });

/** The guest's favourites as the album lists them (at most 500; the key's own rules hold). */
export const fetchPhotosByIds = async (key: AlbumKey, ids: readonly number[]): Promise<Photo[]> => {
  if (ids.length === 0) return [];
  const page = await callApi(endpoints.publicPhotoList, {
    key_type: key.keyType,
    key_value: key.keyValue,
    max_size: 500,
    page_number: 1,
    photo_id_array: [...ids],
    ...leadGateFields(key),
  });
  return page.photos;
};
