// Over ~350 lines as two components: the virtualised grid (keyboard, paging, far jumps) and its
// memoised tile; the layout arithmetic is in utils/justified-layout.ts.
import { isRightToLeft } from '../utils/direction.ts';
import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import {
  aspectOf,
  GALLERY_GAP as GAP,
  GALLERY_ROW_HEIGHT,
  justifyRows,
  rowOf,
  type JustifiedRow,
} from '../utils/justified-layout.ts';
import { clipDuration, photoBox, tileSrcSet } from '../utils/photo-image.ts';
import { usePhotoTime } from '../utils/event-clock.ts';
import { Icon } from './icons.tsx';

/** Rows beyond the visible ones, so a flick shows pictures rather than gaps. */
const OVERSCAN_ROWS = 3;
export { GALLERY_ROW_HEIGHT };

/** A heart on each tile (the guest's favourites, hooks/use-favourites.ts). */
export interface TileFavourites {
  readonly isFavourite: (photo: Photo) => boolean;
  readonly toggle: (photo: Photo) => void;
}

export interface TileAction {
  readonly label: (photo: Photo) => string;
  readonly run: (photo: Photo) => void;
  /** Toggle-style actions: their state is shown (aria-pressed); a done one is disabled. */
  readonly pressed?: (photo: Photo) => boolean;
}

/** A run of photos laid out on its own: the live arrivals, then each page of the list. */
interface Section {
  readonly start: number;
  readonly count: number;
  /** Cache key: the same photos at the same width lay out the same. */
  readonly key: string;
}

const sectionsOf = (count: number, liveCount: number, pageSize: number): Section[] => {
  const sections: Section[] = [];
  const live = Math.min(liveCount, count);
  if (live > 0) sections.push({ start: 0, count: live, key: `live:${live}` });
  for (let start = live, page = 1; start < count; start += pageSize, page += 1)
    sections.push({ start, count: Math.min(pageSize, count - start), key: `p${page}` });
  return sections;
};

/**
 * The album grid, justified (photos in their own aspect ratio, rows about 180 px high, each row
 * filling the width) and virtualised against the window scroll: only the rows in view (plus a few)
 * are in the page, so 100,000 photos scroll like 100. Each page of the list is laid out on its own
 * (a page not loaded yet is laid out as 3:2 photos, then once with the real sizes), so a loading
 * page never moves the rows of another; the first rows load eagerly, the rest lazily.
 */
export function GuestPhotoGrid({
  count,
  liveCount = 0,
  pageSize = 100,
  photoAt,
  showRange,
  onOpen,
  focusIndex,
  rowHeight = GALLERY_ROW_HEIGHT,
  tileActions = [],
  isSelected,
  openable = true,
  favourites,
}: {
  count: number;
  /** Photos at the front that arrived live: laid out apart from the pages behind them. */
  liveCount?: number;
  /** The list's page size: the pages behind the live photos are laid out one by one. */
  pageSize?: number;
  photoAt: (index: number) => Photo | undefined;
  showRange: (first: number, last: number) => void;
  onOpen: (index: number) => void;
  /** Scroll to this photo (the viewer moved); focus stays where it is. */
  focusIndex: number | null;
  /** Target row height (kiosk screens ask for bigger photos). */
  rowHeight?: number;
  tileActions?: readonly TileAction[];
  /** Selection mode: a tile shows whether it is chosen, and opening it (click, Enter, Space) toggles. */
  isSelected?: (photo: Photo) => boolean;
  /** False: the photos are pictures only, not buttons that open anything (nothing is linked). */
  openable?: boolean;
  /** The guest's favourites: a heart on each tile. */
  favourites?: TileFavourites;
}) {
  const { t } = useTranslation();
  const gridRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(() => Math.min(window.innerWidth, 1600));
  const [offsetTop, setOffsetTop] = useState(0);
  const [active, setActive] = useState(0);
  const [focusPending, setFocusPending] = useState(false);

  useLayoutEffect(() => {
    const element = gridRef.current;
    if (!element) return undefined;
    const measure = () => {
      if (element.clientWidth > 0) setWidth(element.clientWidth);
      setOffsetTop(element.getBoundingClientRect().top + window.scrollY);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Which sections have their photos (first photo loaded): the layout changes only when one does.
  const sections = useMemo(
    () => sectionsOf(count, liveCount, pageSize),
    [count, liveCount, pageSize],
  );
  const loadedSignature = sections.map((section) => (photoAt(section.start) ? '1' : '0')).join('');
  const rows = useMemo(() => {
    const all: JustifiedRow[] = [];
    sections.forEach((section, i) => {
      const loaded = loadedSignature[i] === '1';
      const aspects = Array.from({ length: section.count }, (_, j) => {
        const photo = loaded ? photoAt(section.start + j) : undefined;
        return aspectOf(photo?.width, photo?.height);
      });
      for (const row of justifyRows(aspects, width, rowHeight, GAP, section.start)) all.push(row);
    });
    return all;
    // photoAt changes every render; the signature says when the loaded photos changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [sections, loadedSignature, width, rowHeight]);

  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    estimateSize: (i) => (rows[i]?.height ?? rowHeight) + GAP,
    overscan: OVERSCAN_ROWS,
    scrollMargin: offsetTop,
  });
  useEffect(() => virtualizer.measure(), [rows, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    const first = rows[firstRow];
    const last = rows[lastRow];
    if (!first || !last) return;
    showRange(first.start, Math.min(count, last.start + last.widths.length) - 1);
  }, [firstRow, lastRow, rows, count, showRange]);

  useEffect(() => {
    if (focusIndex === null) return;
    virtualizer.scrollToIndex(rowOf(rows, focusIndex), { align: 'auto' });
  }, [focusIndex, rows, virtualizer]);

  useEffect(() => {
    if (!focusPending) return;
    const tile = gridRef.current?.querySelector<HTMLElement>(`[data-photo-index="${active}"]`);
    if (tile) {
      tile.focus();
      setFocusPending(false);
    }
  }, [focusPending, active, firstRow, lastRow]);

  const openAt = useCallback(
    (index: number) => {
      setActive(index);
      onOpen(index);
    },
    [onOpen],
  );

  const move = (to: number) => {
    const next = Math.max(0, Math.min(count - 1, to));
    setActive(next);
    setFocusPending(true);
    virtualizer.scrollToIndex(rowOf(rows, next), { align: 'auto' });
  };

  /** The photo in the row `step` rows away, at the same position along the row (or its end). */
  const verticalFrom = (index: number, step: number): number => {
    const here = rowOf(rows, index);
    const target = rows[here + step];
    const row = rows[here];
    if (!target || !row) return step < 0 ? 0 : count - 1;
    return target.start + Math.min(index - row.start, target.widths.length - 1);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Rows run right to left in Arabic: the arrow towards a row's end goes on.
    const forward = isRightToLeft() ? 'ArrowLeft' : 'ArrowRight';
    const target =
      event.key === forward
        ? active + 1
        : event.key === 'ArrowLeft' || event.key === 'ArrowRight'
          ? active - 1
          : event.key === 'ArrowDown'
            ? verticalFrom(active, 1)
            : event.key === 'ArrowUp'
              ? verticalFrom(active, -1)
              : event.key === 'Home'
                ? 0
                : event.key === 'End'
                  ? count - 1
                  : null;
    if (target !== null) {
      event.preventDefault();
      move(target);
    } else if (
      openable &&
      event.key === 'Enter' &&
      (event.target as HTMLElement).dataset.photoIndex
    ) {
      event.preventDefault();
      onOpen(active);
    }
  };

  return (
    <div
      ref={gridRef}
      className="albums-grid"
      role="grid"
      aria-label={isSelected ? t('albums.gridSelectLabel') : t('albums.gridLabel')}
      aria-rowcount={rows.length}
      onKeyDown={onKeyDown}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {items.map((item) => {
        const row = rows[item.index];
        if (!row) return null;
        return (
          <div
            key={item.key}
            role="row"
            aria-rowindex={item.index + 1}
            className="albums-row"
            style={{
              transform: `translateY(${item.start - virtualizer.options.scrollMargin}px)`,
              gap: GAP,
              height: row.height,
            }}
          >
            {row.widths.map((cellWidth, column) => {
              const index = row.start + column;
              const photo = photoAt(index);
              return (
                <div
                  role="gridcell"
                  key={column}
                  className="albums-cell"
                  style={{ width: cellWidth, height: row.height }}
                >
                  {photo ? (
                    <PhotoTile
                      photo={photo}
                      index={index}
                      cell={cellWidth}
                      eager={item.index < 3}
                      focusable={index === active}
                      onOpen={openable ? openAt : null}
                      actions={tileActions}
                      selected={isSelected?.(photo)}
                      favourite={favourites?.isFavourite(photo)}
                      onFavourite={favourites?.toggle}
                    />
                  ) : (
                    <div
                      className="albums-tile albums-tile--loading"
                      data-photo-index={index}
                      tabIndex={index === active ? 0 : -1}
                      aria-label={t('albums.loadingPhoto')}
                    />
                  )}
                </div>
              );
            })}
          </div>
        );
      })}
    </div>
  );
}

/** Memoised: scrolling re-renders the grid every frame, but a tile only when its photo changes. */
const PhotoTile = memo(function PhotoTile({
  photo,
  index,
  cell,
  eager,
  focusable,
  onOpen,
  actions,
  selected,
  favourite,
  onFavourite,
}: {
  photo: Photo;
  index: number;
  cell: number;
  eager: boolean;
  focusable: boolean;
  /** Null: the tile is a picture, not a button. */
  onOpen: ((index: number) => void) | null;
  actions: readonly TileAction[];
  /** Undefined outside selection mode. */
  selected: boolean | undefined;
  /** Undefined where the page keeps no favourites. */
  favourite: boolean | undefined;
  onFavourite: ((photo: Photo) => void) | undefined;
}) {
  const { t } = useTranslation();
  const photoTime = usePhotoTime();
  const alt = t('albums.photoAlt', {
    name: photo.file_name,
    date: photoTime(photo.created_date),
  });
  const box = photoBox(photo);
  const hidden = photo.is_visible === 0;
  const Opener = onOpen ? 'button' : 'div';
  return (
    <div
      className={`albums-tile${hidden ? ' albums-tile--hidden' : ''}${selected ? ' albums-tile--selected' : ''}`}
    >
      <Opener
        {...(onOpen
          ? {
              type: 'button',
              onClick: () => onOpen(index),
              tabIndex: focusable ? 0 : -1,
              'aria-label': alt,
              'aria-pressed': selected,
            }
          : {})}
        className="albums-tile-open"
        data-photo-index={index}
        data-photo-id={photo.id}
        data-photo-name={photo.file_name}
      >
        {photo.urls.thumbnail || photo.urls.preview ? (
          <img
            src={photo.urls.thumbnail ?? photo.urls.preview ?? undefined}
            srcSet={tileSrcSet(photo)}
            sizes={`${cell}px`}
            width={box.width}
            height={box.height}
            alt={alt}
            loading={eager ? 'eager' : 'lazy'}
            fetchPriority={eager ? 'high' : 'auto'}
            decoding="async"
            draggable={false}
          />
        ) : (
          <span className="albums-tile-name">{photo.file_name}</span>
        )}
        {photo.media_type === 'video' && (
          <span
            className="albums-badge albums-badge--video"
            aria-label={
              photo.duration_ms !== null
                ? t('albums.videoDuration', { duration: clipDuration(photo.duration_ms) })
                : t('albums.video')
            }
          >
            <span aria-hidden="true">▶ </span>
            {photo.duration_ms !== null ? clipDuration(photo.duration_ms) : t('albums.video')}
          </span>
        )}
        {photo.is_360 === 1 && (
          <span className="albums-badge albums-badge--360">{t('albums.badge360')}</span>
        )}
        {hidden && <span className="albums-badge albums-badge--hidden">{t('albums.hidden')}</span>}
        {selected && (
          <span className="albums-badge albums-badge--selected" aria-hidden="true">
            {t('albums.selected')}
          </span>
        )}
      </Opener>
      {onFavourite && (
        <button
          type="button"
          className={`albums-heart${favourite ? ' albums-heart--on' : ''}`}
          aria-pressed={favourite === true}
          aria-label={t('albums.favourites.toggle', { name: photo.file_name })}
          title={t('albums.favourites.toggle', { name: photo.file_name })}
          tabIndex={focusable ? 0 : -1}
          onClick={() => onFavourite(photo)}
        >
          <Icon name="heart" />
        </button>
      )}
      {actions.length > 0 && (
        <div className="albums-tile-actions">
          {actions.map((action) => (
            <button
              key={action.label(photo)}
              type="button"
              aria-pressed={action.pressed?.(photo)}
              disabled={action.pressed?.(photo) === true}
              tabIndex={focusable ? 0 : -1}
              aria-label={t('albums.actionOn', {
                action: action.label(photo),
                name: photo.file_name,
              })}
              onClick={() => action.run(photo)}
            >
              {action.label(photo)}
            </button>
          ))}
        </div>
      )}
    </div>
  );
});
