import {
  memo,
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type KeyboardEvent,
} from 'react';
import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { displayDate, photoBox, photoSrcSet } from '../utils/photo-image.ts';

const GAP = 4;
/** Rows beyond the visible ones, so a flick shows pictures rather than gaps. */
const OVERSCAN_ROWS = 3;

export const gridColumns = (width: number, minTile: number): number =>
  Math.max(2, Math.floor((width + GAP) / (minTile + GAP)));

export interface TileAction {
  readonly label: (photo: Photo) => string;
  readonly run: (photo: Photo) => void;
  /** Toggle-style actions: their state is shown (aria-pressed); a done one is disabled. */
  readonly pressed?: (photo: Photo) => boolean;
}

/**
 * The album grid, virtualised against the window scroll: only the rows in view (plus a few) are in
 * the page, so 100,000 photos scroll like 100. Square cells sized from the width, so nothing
 * shifts as pictures arrive; the first rows load eagerly, the rest lazily.
 */
export function GuestPhotoGrid({
  count,
  photoAt,
  showRange,
  onOpen,
  focusIndex,
  minTile,
  tileActions = [],
  isSelected,
}: {
  count: number;
  photoAt: (index: number) => Photo | undefined;
  showRange: (first: number, last: number) => void;
  onOpen: (index: number) => void;
  /** Scroll to this photo (the viewer moved); focus stays where it is. */
  focusIndex: number | null;
  minTile: number;
  tileActions?: readonly TileAction[];
  /** Selection mode: a tile shows whether it is chosen, and opening it (click, Enter, Space) toggles. */
  isSelected?: (photo: Photo) => boolean;
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

  const columns = gridColumns(width, minTile);
  const cell = Math.floor((width - GAP * (columns - 1)) / columns);
  const rows = Math.ceil(count / columns);
  const virtualizer = useWindowVirtualizer({
    count: rows,
    estimateSize: () => cell + GAP,
    overscan: OVERSCAN_ROWS,
    scrollMargin: offsetTop,
  });
  useEffect(() => virtualizer.measure(), [cell, virtualizer]);

  const items = virtualizer.getVirtualItems();
  const firstRow = items[0]?.index ?? 0;
  const lastRow = items[items.length - 1]?.index ?? 0;
  useEffect(() => {
    showRange(firstRow * columns, Math.min(count, (lastRow + 1) * columns) - 1);
  }, [firstRow, lastRow, columns, count, showRange]);

  useEffect(() => {
    if (focusIndex === null) return;
    virtualizer.scrollToIndex(Math.floor(focusIndex / columns), { align: 'auto' });
  }, [focusIndex, columns, virtualizer]);

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
    virtualizer.scrollToIndex(Math.floor(next / columns), { align: 'auto' });
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const steps: Record<string, number> = {
      ArrowRight: 1,
      ArrowLeft: -1,
      ArrowDown: columns,
      ArrowUp: -columns,
    };
    const step = steps[event.key];
    if (step !== undefined) {
      event.preventDefault();
      move(active + step);
    } else if (event.key === 'Home') {
      event.preventDefault();
      move(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      move(count - 1);
    } else if (event.key === 'Enter' && (event.target as HTMLElement).dataset.photoIndex) {
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
      aria-rowcount={rows}
      onKeyDown={onKeyDown}
      style={{ height: virtualizer.getTotalSize() }}
    >
      {items.map((row) => (
        <div
          key={row.key}
          role="row"
          aria-rowindex={row.index + 1}
          className="albums-row"
          style={{
            transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
            gridTemplateColumns: `repeat(${columns}, ${cell}px)`,
            gap: GAP,
            height: cell,
          }}
        >
          {Array.from({ length: columns }, (_, column) => {
            const index = row.index * columns + column;
            if (index >= count) return null;
            const photo = photoAt(index);
            return (
              <div role="gridcell" key={column} className="albums-cell">
                {photo ? (
                  <PhotoTile
                    photo={photo}
                    index={index}
                    cell={cell}
                    eager={row.index < 2}
                    focusable={index === active}
                    onOpen={openAt}
                    actions={tileActions}
                    selected={isSelected?.(photo)}
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
      ))}
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
}: {
  photo: Photo;
  index: number;
  cell: number;
  eager: boolean;
  focusable: boolean;
  onOpen: (index: number) => void;
  actions: readonly TileAction[];
  /** Undefined outside selection mode. */
  selected: boolean | undefined;
}) {
  const { t } = useTranslation();
  const alt = t('albums.photoAlt', {
    name: photo.file_name,
    date: displayDate(photo.created_date),
  });
  const box = photoBox(photo);
  const hidden = photo.is_visible === 0;
  return (
    <div
      className={`albums-tile${hidden ? ' albums-tile--hidden' : ''}${selected ? ' albums-tile--selected' : ''}`}
    >
      <button
        type="button"
        className="albums-tile-open"
        data-photo-index={index}
        data-photo-id={photo.id}
        data-photo-name={photo.file_name}
        tabIndex={focusable ? 0 : -1}
        onClick={() => onOpen(index)}
        aria-label={alt}
        aria-pressed={selected}
      >
        {photo.urls.thumbnail || photo.urls.preview ? (
          <img
            src={photo.urls.thumbnail ?? photo.urls.preview ?? undefined}
            srcSet={photoSrcSet(photo)}
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
        {photo.media_type === 'video' && <span className="albums-badge">{t('albums.video')}</span>}
        {hidden && <span className="albums-badge albums-badge--hidden">{t('albums.hidden')}</span>}
        {selected && (
          <span className="albums-badge albums-badge--selected" aria-hidden="true">
            {t('albums.selected')}
          </span>
        )}
      </button>
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
