import { useEffect, useRef } from 'react';
import { Box, Center, Loader, Text } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { observeElementRect, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@flashbulb/shared';
import { CAPTION_HEIGHT, PhotoTile, type TileGesture } from './photo-tile.tsx';

const MIN_TILE = 160;
const GAP = 12;
/** Rows rendered beyond the visible ones, so fast scrolling shows pictures, not gaps. */
const OVERSCAN_ROWS = 3;
/** Ask for the next page this many rows before the end. */
const PREFETCH_ROWS = 4;
/**
 * Size to assume when the browser reports none (before layout, or in a test DOM): a typical
 * console viewport, so the first rows render either way.
 */
const FALLBACK_RECT = { width: 1000, height: 800 };

export const gridColumns = (width: number): number =>
  Math.max(1, Math.floor((width + GAP) / (MIN_TILE + GAP)));

const observeRectWithFallback = (
  instance: Virtualizer<HTMLDivElement, Element>,
  callback: (rect: { width: number; height: number }) => void,
) =>
  observeElementRect(instance, (rect) =>
    callback(rect.height > 0 ? rect : { ...rect, height: FALLBACK_RECT.height }),
  );

/**
 * The album grid: only the rows in view (plus a few) are in the page, so 10,000 photos scroll as
 * smoothly as 100. Tiles have fixed sizes from the width, so nothing shifts as pictures load.
 */
export function ConsolePhotoGrid({
  photos,
  selected,
  total,
  hasMore,
  loadingMore,
  onLoadMore,
  onSelect,
  onOpen,
  onToggleVisibility,
}: {
  photos: readonly Photo[];
  selected: ReadonlySet<number>;
  total: number;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onSelect: (id: number, gesture: TileGesture) => void;
  onOpen: (id: number) => void;
  onToggleVisibility: (photo: Photo) => void;
}) {
  const { t } = useTranslation();
  const scrollRef = useRef<HTMLDivElement>(null);
  const { ref: sizeRef, width: measured } = useElementSize();
  const width = measured > 0 ? measured : FALLBACK_RECT.width;
  const columns = gridColumns(width);
  const tile = Math.floor((width - GAP * (columns - 1)) / columns);
  const rowHeight = tile + CAPTION_HEIGHT + GAP;
  const rowCount = Math.ceil(photos.length / columns);

  // eslint-disable-next-line react-hooks/incompatible-library -- the virtualizer is read during render by design
  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: OVERSCAN_ROWS,
    initialRect: FALLBACK_RECT,
    observeElementRect: observeRectWithFallback,
  });

  // Row heights follow the width; tell the virtualizer when the column layout changes.
  useEffect(() => {
    virtualizer.measure();
  }, [virtualizer, rowHeight]);

  const rows = virtualizer.getVirtualItems();
  const lastRow = rows.at(-1)?.index ?? -1;
  useEffect(() => {
    if (hasMore && !loadingMore && lastRow >= rowCount - PREFETCH_ROWS) onLoadMore();
  }, [hasMore, loadingMore, lastRow, rowCount, onLoadMore]);

  return (
    <Box ref={sizeRef}>
      <div
        ref={scrollRef}
        data-testid="album-grid-scroll"
        style={{
          height: 'max(420px, calc(100dvh - 330px))',
          overflowY: 'auto',
          overscrollBehavior: 'contain',
        }}
      >
        <div
          role="list"
          aria-label={t('album.grid.label')}
          aria-busy={loadingMore}
          style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}
        >
          {rows.map((row) => {
            const start = row.index * columns;
            return (
              <div
                key={row.key}
                role="none"
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  width: '100%',
                  height: rowHeight,
                  transform: `translateY(${row.start}px)`,
                  display: 'flex',
                  gap: GAP,
                }}
              >
                {photos.slice(start, start + columns).map((photo, offset) => (
                  <PhotoTile
                    key={photo.id}
                    photo={photo}
                    size={tile}
                    position={start + offset + 1}
                    total={total}
                    selected={selected.has(photo.id)}
                    onSelect={onSelect}
                    onOpen={onOpen}
                    onToggleVisibility={onToggleVisibility}
                  />
                ))}
              </div>
            );
          })}
        </div>
        {loadingMore && (
          <Center py="md" role="status">
            <Loader size="sm" aria-hidden="true" />
            <Text size="sm" ml="xs">
              {t('album.grid.loadingMore')}
            </Text>
          </Center>
        )}
      </div>
    </Box>
  );
}
