import {
  useInfiniteQuery,
  useQuery,
  type InfiniteData,
  type QueryClient,
} from '@tanstack/react-query';
import {
  curationReprocess,
  curationUpdate,
  deletePhotoList,
  ownerPhotoList,
  photoCountInfo,
  updatePhoto,
  updatePhotoList,
  type Photo,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';
import {
  toPhotoListFields,
  type AlbumFilter,
  type PhotoListFilterFields,
} from '../utils/album-filter.ts';

/** Photos per list call: a few screens of thumbnails, well under the call's limit of 1000. */
export const CONSOLE_PAGE_SIZE = 120;

export const albumQueryKeys = {
  all: ['album'] as const,
  photos: (eventId: number) => ['album', eventId, 'photos'] as const,
  list: (eventId: number, hash: string) => ['album', eventId, 'photos', 'list', hash] as const,
  counts: (eventId: number) => ['album', eventId, 'counts'] as const,
};

/**
 * Where a page starts. The list fields travel with the pages so that every page of one listing
 * asks with the same date window (a named range is resolved once, when page 1 is fetched).
 */
export interface PhotoPageParam {
  readonly page: number;
  readonly fields: PhotoListFilterFields | null;
  /** The last photo of the page before: the next page starts after it (keyset paging). */
  readonly afterPhotoId?: number;
}

export interface PhotoPage {
  readonly photos: Photo[];
  readonly totalCount: number | null;
  readonly page: number;
  readonly fields: PhotoListFilterFields;
}

export type PhotoPages = InfiniteData<PhotoPage, PhotoPageParam>;

const fetchConsolePhotoPage = async (
  eventId: number,
  page: number,
  fields: PhotoListFilterFields,
  signal?: AbortSignal,
  afterPhotoId?: number,
): Promise<PhotoPage> => {
  const result = await callApi(
    ownerPhotoList,
    {
      event_id: eventId,
      max_size: CONSOLE_PAGE_SIZE,
      page_number: page,
      // The total is a count query: ask once per listing, on its first page.
      ...(page === 1 ? { show_total_count: 1 as const } : {}),
      // The console sees photos still waiting for their photo delay too.
      get_from_tmp: 1,
      ...fields,
      // Pages after the first seek past the last photo already shown: an index seek at any depth,
      // and photos arriving meanwhile never shift a page (they come first, through the stream).
      ...(afterPhotoId !== undefined ? { before_id: afterPhotoId } : {}),
    },
    { signal },
  );
  return { photos: result.photos, totalCount: result.total_count, page, fields };
};

const FIRST_PAGE: PhotoPageParam = { page: 1, fields: null };

/** The album's photos, newest first, page by page (infinite scrolling). */
export const useAlbumPhotos = (eventId: number | undefined, filter: AlbumFilter, hash: string) =>
  useInfiniteQuery({
    queryKey: albumQueryKeys.list(eventId ?? 0, hash),
    enabled: eventId !== undefined,
    initialPageParam: FIRST_PAGE,
    queryFn: ({ pageParam, signal }) =>
      fetchConsolePhotoPage(
        eventId ?? 0,
        pageParam.page,
        pageParam.fields ?? toPhotoListFields(filter, new Date()),
        signal,
        pageParam.afterPhotoId,
      ),
    getNextPageParam: (last): PhotoPageParam | undefined => {
      const lastPhoto = last.photos[last.photos.length - 1];
      return last.photos.length < CONSOLE_PAGE_SIZE || !lastPhoto
        ? undefined
        : { page: last.page + 1, fields: last.fields, afterPhotoId: lastPhoto.id };
    },
  });

/** Every loaded photo once, in list order (a photo patched into two pages is kept once). */
export const flattenPages = (data: { pages: readonly PhotoPage[] } | undefined): Photo[] => {
  if (!data) return [];
  const seen = new Set<number>();
  const photos: Photo[] = [];
  for (const page of data.pages) {
    for (const photo of page.photos) {
      if (seen.has(photo.id)) continue;
      seen.add(photo.id);
      photos.push(photo);
    }
  }
  return photos;
};

export const usePhotoCounts = (eventId: number | undefined) =>
  useQuery({
    queryKey: albumQueryKeys.counts(eventId ?? 0),
    enabled: eventId !== undefined,
    queryFn: ({ signal }) => callApi(photoCountInfo, { event_id: eventId ?? 0 }, { signal }),
  });

// ---- cache updates --------------------------------------------------------------------------------

const patchPages = (
  client: QueryClient,
  eventId: number,
  update: (pages: PhotoPage[]) => PhotoPage[],
): void => {
  client.setQueriesData<PhotoPages>({ queryKey: albumQueryKeys.photos(eventId) }, (data) =>
    data ? { ...data, pages: update(data.pages) } : data,
  );
};

/** Replace photos by id wherever they are loaded. */
export const replacePhotos = (client: QueryClient, eventId: number, fresh: Photo[]): void => {
  const byId = new Map(fresh.map((photo) => [photo.id, photo]));
  patchPages(client, eventId, (pages) =>
    pages.map((page) => ({
      ...page,
      photos: page.photos.map((photo) => byId.get(photo.id) ?? photo),
    })),
  );
};

const patchPhotos = (
  client: QueryClient,
  eventId: number,
  ids: readonly number[],
  patch: Partial<Photo>,
): void => {
  const wanted = new Set(ids);
  patchPages(client, eventId, (pages) =>
    pages.map((page) => ({
      ...page,
      photos: page.photos.map((photo) => (wanted.has(photo.id) ? { ...photo, ...patch } : photo)),
    })),
  );
};

const removePhotos = (client: QueryClient, eventId: number, ids: readonly number[]): void => {
  const gone = new Set(ids);
  patchPages(client, eventId, (pages) =>
    pages.map((page, index) => {
      const photos = page.photos.filter((photo) => !gone.has(photo.id));
      const removed = page.photos.length - photos.length;
      const totalCount =
        index === 0 && page.totalCount !== null
          ? Math.max(0, page.totalCount - ids.length)
          : page.totalCount;
      return removed === 0 && totalCount === page.totalCount
        ? page
        : { ...page, photos, totalCount };
    }),
  );
};

/** The list order: newest first, then the higher id (as the server sorts). */
const listsBefore = (a: Photo, b: Photo): boolean =>
  a.created_date === b.created_date ? a.id > b.id : a.created_date > b.created_date;

/**
 * Fetch page 1 of the current listing again and merge it: photos that finished processing are
 * replaced, photos that arrived since are put on top, the total follows. Cheaper than refetching
 * every loaded page, which a long-scrolled album of thousands would make expensive.
 */
export const refreshFirstPage = async (
  client: QueryClient,
  eventId: number,
  hash: string,
): Promise<void> => {
  const key = albumQueryKeys.list(eventId, hash);
  const current = client.getQueryData<PhotoPages>(key);
  const first = current?.pages[0];
  if (!current || !first) return;
  const head = await fetchConsolePhotoPage(eventId, 1, first.fields);
  client.setQueryData<PhotoPages>(key, (data) => {
    const top = data?.pages[0];
    if (!data || !top) return data;
    const known = new Set(data.pages.flatMap((page) => page.photos.map((photo) => photo.id)));
    const byId = new Map(head.photos.map((photo) => [photo.id, photo]));
    // Only photos newer than the top one are new arrivals; an unknown older photo moved up into
    // page 1 (after deletions elsewhere) and comes with its own page.
    const newest = top.photos[0];
    const arrived = head.photos.filter(
      (photo) => !known.has(photo.id) && (!newest || listsBefore(photo, newest)),
    );
    const pages = data.pages.map((page, index) => ({
      ...page,
      photos: [
        ...(index === 0 ? arrived : []),
        ...page.photos.map((photo) => byId.get(photo.id) ?? photo),
      ],
      totalCount: index === 0 ? head.totalCount : page.totalCount,
    }));
    return { ...data, pages };
  });
};

// ---- changes --------------------------------------------------------------------------------------

export interface PhotoChanges {
  readonly client: QueryClient;
  readonly eventId: number;
  /** The listing filters on visibility, so hiding or showing changes which photos belong. */
  readonly filtersVisibility: boolean;
}

export const setPhotosVisibility = async (
  { client, eventId, filtersVisibility }: PhotoChanges,
  ids: readonly number[],
  visible: 0 | 1,
): Promise<void> => {
  const [only] = ids;
  if (ids.length === 1 && only !== undefined) {
    const photo = await callApi(updatePhoto, { id: only, is_visible: visible });
    replacePhotos(client, eventId, [photo]);
  } else {
    await callApi(updatePhotoList, { id_array: [...ids], is_visible: visible });
    patchPhotos(client, eventId, ids, { is_visible: visible });
  }
  // Photos stay where they are, marked; counts and, when visibility is filtered, the paging follow.
  void client.invalidateQueries({ queryKey: albumQueryKeys.counts(eventId) });
  if (filtersVisibility)
    void client.invalidateQueries({ queryKey: albumQueryKeys.photos(eventId) });
};

export const deletePhotos = async (
  { client, eventId }: PhotoChanges,
  ids: readonly number[],
  reason: string,
): Promise<void> => {
  await callApi(deletePhotoList, { photo_id_array: [...ids], delete_reason: reason });
  removePhotos(client, eventId, ids);
  void client.invalidateQueries({ queryKey: albumQueryKeys.counts(eventId) });
  // The server's pages moved up by the deleted photos: reload the loaded pages in the background,
  // or the next page would skip as many photos as were deleted.
  void client.invalidateQueries({ queryKey: albumQueryKeys.photos(eventId) });
};

/** Curation update per photo (the call takes one original); at most 4 at a time. */
export const markPhotosCurated = async (
  { client, eventId }: PhotoChanges,
  ids: readonly number[],
): Promise<void> => {
  const queue = [...ids];
  const updated: Photo[] = [];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      updated.push(await callApi(curationUpdate, { original_photo_id: id }));
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
  } finally {
    replacePhotos(client, eventId, updated);
  }
};

/**
 * Makes the photos' derivatives again (after the event's watermarks changed): one reprocess per
 * photo, at most 4 at a time; each comes back processing and the album's polling shows it ready.
 * `onDone` hears how many went through so far.
 */
export const reprocessPhotos = async (
  { client, eventId }: PhotoChanges,
  ids: readonly number[],
  onDone: (done: number) => void,
): Promise<void> => {
  const queue = [...ids];
  const updated: Photo[] = [];
  const worker = async () => {
    for (let id = queue.shift(); id !== undefined; id = queue.shift()) {
      updated.push(await callApi(curationReprocess, { photo_id: id }));
      onDone(updated.length);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(4, ids.length) }, worker));
  } finally {
    replacePhotos(client, eventId, updated);
    void client.invalidateQueries({ queryKey: albumQueryKeys.counts(eventId) });
  }
};
