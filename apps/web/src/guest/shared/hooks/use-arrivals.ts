import { useCallback, useEffect, useMemo, useState } from 'react';
import type { AlbumPhotos } from './use-album-photos.ts';

/** Near the top of the page new photos slide in at once; further down they wait behind the pill. */
export const AUTO_REVEAL_SCROLL_PX = 120;

export interface Arrivals {
  /** The album as the grid shows it: live photos not revealed yet are left out. */
  readonly shown: Pick<AlbumPhotos, 'count' | 'liveCount' | 'photoAt' | 'showRange'>;
  /** Photos that arrived and wait for the guest ("3 new photos"). */
  readonly waiting: number;
  /** Show the waiting photos and go to the top of the album. */
  readonly reveal: () => void;
}

/**
 * Live arrivals without the jump: photos that arrive while the guest looks further down
 * the album wait behind an "n new photos" pill instead of pushing the grid under their finger;
 * at the top of the page, or with `always`, they slide in straight away. `hold` (a photo is open
 * in the viewer) keeps them waiting so the viewer's photo never changes under the guest.
 */
export const useArrivals = (photos: AlbumPhotos, always: boolean, hold: boolean): Arrivals => {
  const [revealed, setRevealed] = useState(0);
  const { liveCount, count, photoAt, showRange } = photos;
  const waiting = Math.max(0, liveCount - revealed);

  // Whether the guest is near the top of the page (updated by scrolling).
  const [atTop, setAtTop] = useState(() => window.scrollY <= AUTO_REVEAL_SCROLL_PX);
  useEffect(() => {
    const onScroll = () => setAtTop(window.scrollY <= AUTO_REVEAL_SCROLL_PX);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => window.removeEventListener('scroll', onScroll);
  }, []);
  // Adjusted while rendering (no effect round trip): at the top, arrivals slide in at once.
  if (waiting > 0 && !hold && (always || atTop)) setRevealed(liveCount);

  const reveal = useCallback(() => {
    setRevealed(liveCount);
    window.scrollTo({ top: 0, behavior: 'smooth' });
  }, [liveCount]);

  const shown = useMemo(
    () => ({
      count: count - waiting,
      liveCount: liveCount - waiting,
      photoAt: (index: number) => photoAt(index + waiting),
      showRange: (first: number, last: number) => showRange(first + waiting, last + waiting),
    }),
    [count, liveCount, waiting, photoAt, showRange],
  );
  return { shown, waiting, reveal };
};
