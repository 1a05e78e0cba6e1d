import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { displayDate, viewerSource } from '../utils/photo-image.ts';

/** Event opts defaults (shared event settings): 3 s while new photos wait, 8 s otherwise. */
export const DEFAULT_SLIDESHOW_SECONDS = { min: 3, max: 8 };

/** `slideshowBg` is a colour (`#123`, `rgb(…)`, a name) or an image address. */
export const slideshowBackground = (
  bg: string,
): { backgroundColor?: string; backgroundImage?: string } => {
  const value = bg.trim();
  if (!value) return {};
  if (/^(#|rgb|hsl)|^[a-z]+$/i.test(value)) return { backgroundColor: value };
  return { backgroundImage: `url("${value.replace(/["\\\n]/g, '')}")` };
};

/**
 * Full-screen slide show: photos newest first, one after another. New photos jump the queue and
 * move at the short interval until they have all been shown; then the long interval applies.
 */
export function SlideShow({
  count,
  photoAt,
  showRange,
  minSeconds,
  maxSeconds,
  background,
}: {
  count: number;
  photoAt: (index: number) => Photo | undefined;
  showRange: (first: number, last: number) => void;
  minSeconds: number;
  maxSeconds: number;
  background: string;
}) {
  const { t } = useTranslation();
  const rootRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ index: 0, pending: 0, count });

  // Photos arrive at the front: keep showing the same photo, and queue the new ones.
  if (count !== state.count) {
    const added = Math.max(0, count - state.count);
    setState({
      index: Math.min(state.index + added, Math.max(0, count - 1)),
      pending: state.pending + added,
      count,
    });
  }

  const seconds = state.pending > 0 ? minSeconds : maxSeconds;
  useEffect(() => {
    if (count <= 1 && state.pending === 0) return undefined;
    const timer = setTimeout(() => {
      setState((s) =>
        s.pending > 0
          ? { ...s, index: s.pending - 1, pending: s.pending - 1 }
          : { ...s, index: s.count > 0 ? (s.index + 1) % s.count : 0 },
      );
    }, seconds * 1000);
    return () => clearTimeout(timer);
  }, [state, seconds, count]);

  useEffect(() => {
    showRange(state.index, Math.min(count - 1, state.index + 1));
  }, [state.index, count, showRange]);

  const photo = photoAt(state.index);
  const source = photo ? viewerSource(photo) : null;
  return (
    <div
      ref={rootRef}
      className="albums-slideshow"
      role="region"
      aria-label={t('albums.slideshow.label')}
      style={slideshowBackground(background)}
    >
      {photo && source && (
        <img
          key={photo.id}
          src={source}
          alt={t('albums.photoAlt', {
            name: photo.file_name,
            date: displayDate(photo.created_date),
          })}
          data-photo-id={photo.id}
        />
      )}
      {document.fullscreenEnabled && (
        <button
          type="button"
          className="albums-slideshow-fullscreen"
          onClick={() => void rootRef.current?.requestFullscreen().catch(() => undefined)}
        >
          {t('albums.slideshow.fullScreen')}
        </button>
      )}
    </div>
  );
}
