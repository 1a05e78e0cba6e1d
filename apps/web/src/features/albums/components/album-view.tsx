import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlbumMode, Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { useAlbumEvent, type AlbumEvent } from '../api/album-event.ts';
import {
  markCurated,
  setPhotoVisible,
  shareUrlFor,
  trackFacebookShare,
  type AlbumKey,
} from '../api/album-photos.ts';
import { useAlbumPhotos } from '../hooks/use-album-photos.ts';
import { usePhotoStream } from '../hooks/use-photo-stream.ts';
import { PhotoGrid, type TileAction } from './photo-grid.tsx';
import { PhotoViewer, type ViewerOptions } from './photo-viewer.tsx';
import { DEFAULT_SLIDESHOW_SECONDS, SlideShow } from './slide-show.tsx';

/** Keys that cannot open an album; the page shows one clear message and no photos. */
const INVALID_LINK_KEYS = new Set([
  'invalid_key',
  'unauthorized_user',
  'event_not_found',
  'not_found',
]);

/** The event's empty-album text is HTML from the editor: show its text only. */
const plainText = (html: string): string => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').trim();
};

const slideshowSeconds = (event: AlbumEvent | null | undefined) => {
  const min = event?.opts.slideshowMinIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.min;
  const max = event?.opts.slideshowMaxIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.max;
  return max > min ? { min, max } : DEFAULT_SLIDESHOW_SECONDS;
};

/** One album, whatever the key: grid, stream (live, newest first) or slide show. */
export function AlbumView({
  albumKey,
  mode,
  kiosk,
  curation,
  eventName,
}: {
  albumKey: AlbumKey;
  mode: AlbumMode;
  kiosk: boolean;
  curation: boolean;
  eventName: string | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const photos = useAlbumPhotos(albumKey);
  const event = useAlbumEvent(albumKey, eventName).data;
  const [open, setOpen] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { live } = usePhotoStream(
    albumKey,
    mode !== 'grid' && photos.status === 'ready',
    photos.addLive,
  );

  const { replace } = photos;
  const tileActions = useMemo((): TileAction[] => {
    if (!curation) return [];
    const run = (change: Promise<Photo>) => {
      setFailure(null);
      change.then(replace, (error: unknown) =>
        setFailure(`${t('albums.curationFailed')} ${errorText(errorKeyOf(error))}`),
      );
    };
    const actions: TileAction[] = [
      {
        label: (photo) => (photo.is_curated ? t('albums.curated') : t('albums.curate')),
        run: (photo) => run(markCurated(albumKey, photo.id)),
      },
    ];
    actions.unshift({
      label: (photo) => (photo.is_visible ? t('albums.hide') : t('albums.show')),
      run: (photo) => run(setPhotoVisible(albumKey, photo.id, photo.is_visible === 0)),
    });
    return actions;
  }, [curation, albumKey, replace, t, errorText]);

  const viewerOptions = useMemo(
    (): ViewerOptions => ({
      canDownload: albumKey.keyType === 'private' || albumKey.keyType === 'event_owner',
      watermarkOverlay: event?.photo_watermark ?? null,
      shareUrl: (photo) => shareUrlFor(albumKey, photo),
      onFacebookShare: (photo) => trackFacebookShare(albumKey, photo),
    }),
    [albumKey, event?.photo_watermark],
  );
  const closeViewer = useCallback(() => setOpen(null), []);

  if (photos.status === 'loading') {
    return (
      <p className="albums-message" role="status">
        {t('albums.loading')}
      </p>
    );
  }
  if (photos.status === 'error') {
    const invalid = INVALID_LINK_KEYS.has(photos.errorKey ?? '');
    return (
      <div className="albums-message" role="alert">
        <p>{invalid ? t('albums.invalidLink') : t('albums.loadError')}</p>
      </div>
    );
  }

  const title = event?.full_name || t('albums.defaultTitle');
  if (mode === 'slideshow' && photos.count > 0) {
    const seconds = slideshowSeconds(event);
    return (
      <SlideShow
        count={photos.count}
        photoAt={photos.photoAt}
        showRange={photos.showRange}
        minSeconds={seconds.min}
        maxSeconds={seconds.max}
        background={event?.opts.slideshowBg ?? ''}
      />
    );
  }
  return (
    <main className="albums-main">
      <header className="albums-header">
        <h1>{curation ? `${title} — ${t('albums.curationTitle')}` : title}</h1>
        <span className="albums-count">
          {t('albums.count', { count: photos.count })}
          {live && <span className="albums-live"> · {t('albums.live')}</span>}
        </span>
      </header>
      {failure && (
        <p className="albums-note" role="alert">
          {failure}
        </p>
      )}
      {photos.count === 0 ? (
        <p className="albums-message albums-empty">
          {(event && plainText(event.empty_album_text)) || t('albums.emptyDefault')}
        </p>
      ) : (
        <PhotoGrid
          count={photos.count}
          photoAt={photos.photoAt}
          showRange={photos.showRange}
          onOpen={setOpen}
          focusIndex={open}
          minTile={kiosk ? 240 : 150}
          tileActions={tileActions}
        />
      )}
      {open !== null && (
        <PhotoViewer
          index={open}
          count={photos.count}
          photoAt={photos.photoAt}
          onIndex={setOpen}
          onClose={closeViewer}
          options={viewerOptions}
        />
      )}
    </main>
  );
}
