import { useCallback, useState } from 'react';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { PhotoViewer } from '../viewer/photo-viewer.tsx';
import type { ViewerOptions } from '../viewer/viewer-options.ts';
import { GuestPhotoGrid } from './guest-photo-grid.tsx';

const noop = () => undefined;

/**
 * A list of photos known at once (a mini-album's, the ones "Find me" found) in the album grid; a
 * tap opens the viewer on that photo, unless the page opens none (`openable`). The album page's
 * own grid loads its pages as they scroll into view instead.
 */
export function PhotoListGrid({
  photos,
  viewerOptions,
  rowHeight,
  openable = true,
}: {
  photos: readonly Photo[];
  viewerOptions: ViewerOptions;
  rowHeight?: number;
  openable?: boolean;
}) {
  const [open, setOpen] = useState<number | null>(null);
  const photoAt = useCallback((index: number): Photo | undefined => photos[index], [photos]);
  const close = useCallback(() => setOpen(null), []);
  return (
    <>
      <GuestPhotoGrid
        count={photos.length}
        photoAt={photoAt}
        showRange={noop}
        onOpen={setOpen}
        focusIndex={open}
        rowHeight={rowHeight}
        openable={openable}
      />
      {open !== null && openable && (
        <PhotoViewer
          index={open}
          count={photos.length}
          photoAt={photoAt}
          onIndex={setOpen}
          onClose={close}
          options={viewerOptions}
        />
      )}
    </>
  );
}
