import { useCallback, useMemo, useState } from 'react';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import type { GuestPhoto as Photo, StockImageTile } from '@flashbulb/shared';
import { errorKeyOf } from '../../../lib/api-client.ts';
import {
  albumQueryKey,
  fetchAlbumCount,
  fetchGuestPhotoPage,
  GUEST_PAGE_SIZE,
  type AlbumKey,
  type PhotoPage,
} from '../api/guest-album-photos.ts';

export interface AlbumPhotos {
  readonly status: 'loading' | 'error' | 'ready';
  readonly errorKey: string | null;
  /** Every photo of the album, loaded or not: live arrivals plus the list as it was at opening. */
  readonly count: number;
  /**
   * True while `count` is a lower bound: the page the server sent counted a large album only up
   * to a limit (`total_count_capped`), and the exact count has not come yet.
   */
  readonly countAtLeast: boolean;
  /** How many of them (at the front) arrived live, after opening. */
  readonly liveCount: number;
  /** The photo at an index (newest first), or undefined while its page loads. */
  readonly photoAt: (index: number) => Photo | undefined;
  /** Load the pages covering these indexes (the rows in view). */
  readonly showRange: (first: number, last: number) => void;
  /** Photos that arrived after opening (stream or polling); known ones are ignored. */
  readonly addLive: (photos: readonly Photo[]) => void;
  /** A changed photo (hidden, shown, curated) replaces the listed one. */
  readonly replace: (photo: Photo) => void;
  /** The newest photo at opening, to tell new photos from old ones. */
  readonly newestAtOpening: string | null;
  /** The event's stock images shown now (with the first page). */
  readonly stockImages: readonly StockImageTile[];
}

const NO_STOCK: readonly StockImageTile[] = [];

const pageOf = (baseIndex: number): number => Math.floor(baseIndex / GUEST_PAGE_SIZE) + 1;

/**
 * Sparse paging over the album: only the pages of the rows in view are fetched. Scrolling on from
 * a loaded page asks for the photos after its last one (keyset paging, an index seek at any
 * depth); a jump to rows whose page before is not loaded asks by page number (random access), so
 * the last photo of 100,000 is one request away from a scroll to the end.
 * Pages after the first are frozen at the first page's newest photo (`end_date`), so they never
 * shift under the reader; photos arriving later are prepended as live photos.
 */
export const useAlbumPhotos = (key: AlbumKey): AlbumPhotos => {
  const base = albumQueryKey(key);
  const queryClient = useQueryClient();
  const first = useQuery({
    queryKey: [...base, 'page', 1],
    queryFn: ({ signal }) => fetchGuestPhotoPage(key, 1, null, signal),
    staleTime: Infinity,
  });
  const newestAtOpening = first.data?.photos[0]?.created_date ?? null;
  const [range, setRange] = useState<readonly [number, number]>([0, 0]);
  const [live, setLive] = useState<readonly Photo[]>([]);
  const [replaced, setReplaced] = useState<ReadonlyMap<number, Photo>>(new Map());

  // A large album's first page counted only up to a limit: the exact count, asked once the page
  // has painted, frozen at the opening like every later page.
  const capped = first.data?.total_count_capped === 1;
  const exact = useQuery({
    queryKey: [...base, 'count', newestAtOpening],
    queryFn: ({ signal }) => fetchAlbumCount(key, newestAtOpening, signal),
    staleTime: Infinity,
    enabled: capped,
  });
  const exactTotal = capped ? exact.data : undefined;
  const baseTotal = first.data
    ? (exactTotal ?? first.data.total_count ?? first.data.photos.length)
    : 0;
  const liveCount = live.length;
  const wantedPages = useMemo(() => {
    const pages: number[] = [];
    const from = pageOf(Math.max(0, range[0] - liveCount));
    const to = pageOf(Math.max(0, Math.min(range[1] - liveCount, baseTotal - 1)));
    for (let page = Math.max(2, from); page <= to; page += 1) pages.push(page);
    return pages;
  }, [range, liveCount, baseTotal]);

  const pages = useQueries({
    queries: wantedPages.map((page) => ({
      queryKey: [...base, 'page', page, newestAtOpening],
      queryFn: ({ signal }: { signal: AbortSignal }) => {
        const previousKey =
          page === 2 ? [...base, 'page', 1] : [...base, 'page', page - 1, newestAtOpening];
        const previous = queryClient.getQueryData<PhotoPage>(previousKey)?.photos;
        const lastBefore =
          previous?.length === GUEST_PAGE_SIZE ? previous[previous.length - 1]?.id : undefined;
        return fetchGuestPhotoPage(key, page, newestAtOpening, signal, lastBefore);
      },
      staleTime: Infinity,
      enabled: first.isSuccess,
    })),
  });

  const loaded = new Map<number, readonly Photo[]>();
  if (first.data) loaded.set(1, first.data.photos);
  wantedPages.forEach((page, i) => {
    const data = pages[i]?.data;
    if (data) loaded.set(page, data.photos);
  });

  const photoAt = (index: number): Photo | undefined => {
    const photo =
      index < liveCount
        ? live[index]
        : loaded.get(pageOf(index - liveCount))?.[(index - liveCount) % GUEST_PAGE_SIZE];
    return photo ? (replaced.get(photo.id) ?? photo) : undefined;
  };

  const firstPhotos = first.data?.photos;
  const firstIds = useMemo(() => new Set((firstPhotos ?? []).map((p) => p.id)), [firstPhotos]);
  const addLive = useCallback(
    (incoming: readonly Photo[]) =>
      setLive((current) => {
        const known = new Set([...firstIds, ...current.map((p) => p.id)]);
        const fresh = incoming.filter(
          (p) =>
            !known.has(p.id) && (newestAtOpening === null || p.created_date >= newestAtOpening),
        );
        if (fresh.length === 0) return current;
        return [...fresh, ...current].sort((a, b) =>
          a.created_date === b.created_date
            ? b.id - a.id
            : a.created_date < b.created_date
              ? 1
              : -1,
        );
      }),
    [firstIds, newestAtOpening, setLive],
  );

  const showRange = useCallback(
    (from: number, to: number) => {
      setRange((current) => (current[0] === from && current[1] === to ? current : [from, to]));
    },
    [setRange],
  );

  const replace = useCallback(
    (photo: Photo) => {
      setReplaced((current) => new Map(current).set(photo.id, photo));
    },
    [setReplaced],
  );

  return {
    // A failed refresh (a kiosk gone offline) keeps the photos it has on screen.
    status: first.data ? 'ready' : first.isError ? 'error' : 'loading',
    errorKey: first.isError && !first.data ? errorKeyOf(first.error) : null,
    count: liveCount + baseTotal,
    countAtLeast: capped && exactTotal === undefined,
    liveCount,
    photoAt,
    showRange,
    addLive,
    replace,
    newestAtOpening,
    stockImages: first.data?.stock_images ?? NO_STOCK,
  };
};
