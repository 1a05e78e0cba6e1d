import { useCallback, useMemo, useState } from 'react';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import type { AlbumSelection } from '../features/album/components/album-view.tsx';
import type { PhotoChoice } from '../features/checkout/components/paid-album-panel.tsx';

/**
 * The photos a guest chose for a per-photo purchase (paid albums): one rule for the
 * phone album and the kiosk pages. While choosing, tiles toggle instead of opening the viewer;
 * switching between "the whole album" and "choose photos" starts with nothing chosen. The server
 * prices and checks the chosen photos; this only holds the choice.
 */
export const usePhotoChoice = (): {
  choice: PhotoChoice;
  selection: AlbumSelection | undefined;
  /** Starts choosing with these photos chosen (favourites or face results, bought in one step). */
  choose: (uids: readonly string[]) => void;
} => {
  const [choosing, setChoosingState] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const setChoosing = useCallback((on: boolean) => {
    setChoosingState(on);
    setChosen(new Set());
  }, []);
  // Photos chosen elsewhere (favourites, the face lookup's results): choosing, with exactly those.
  const choose = useCallback((uids: readonly string[]) => {
    setChoosingState(true);
    setChosen(new Set(uids));
  }, []);
  const toggle = useCallback((photo: Photo) => {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(photo.uid)) next.add(photo.uid);
      return next;
    });
  }, []);
  const selection = useMemo(
    () => (choosing ? { isSelected: (photo: Photo) => chosen.has(photo.uid), toggle } : undefined),
    [choosing, chosen, toggle],
  );
  const choice = useMemo(
    (): PhotoChoice => ({ choosing, chosen: [...chosen], setChoosing, choose }),
    [choosing, chosen, setChoosing, choose],
  );
  return { choice, selection, choose };
};
