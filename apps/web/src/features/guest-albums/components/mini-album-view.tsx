import { useCallback, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { endpoints, type GuestPhoto as Photo } from '@flashbulb/shared';
import { callApi } from '../../../lib/api-client.ts';
import { GuestPhotoGrid } from './guest-photo-grid.tsx';
import { PhotoViewer, type ViewerOptions } from './photo-viewer.tsx';

const noop = () => undefined;

/** A mini-album (`?mId=<token>`): the photos someone chose and sent by e-mail or SMS. */
export function MiniAlbumView({ token }: { token: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const album = useQuery({
    queryKey: ['albums', 'mini', token],
    queryFn: ({ signal }) => callApi(endpoints.retrieveMiniAlbum, { token }, { signal }),
    staleTime: Infinity,
  });
  const photos = album.data?.photos;
  const photoAt = useCallback((index: number): Photo | undefined => photos?.[index], [photos]);
  const options = useMemo(
    (): ViewerOptions => ({
      canDownload: false,
      watermarkOverlay: null,
      shareUrl: (photo) =>
        Promise.resolve(photo.urls.preview ?? photo.urls.thumbnail ?? window.location.href),
    }),
    [],
  );
  const close = useCallback(() => setOpen(null), []);

  if (album.isPending)
    return (
      <p className="albums-message" role="status">
        {t('albums.loading')}
      </p>
    );
  if (album.isError || !photos)
    return (
      <p className="albums-message" role="alert">
        {t('albums.invalidLink')}
      </p>
    );
  return (
    <main className="albums-main">
      <header className="albums-header">
        <h1>{album.data.event.full_name || t('albums.defaultTitle')}</h1>
        <span className="albums-count">{t('albums.count', { count: photos.length })}</span>
      </header>
      {photos.length === 0 ? (
        <p className="albums-message albums-empty">{t('albums.emptyDefault')}</p>
      ) : (
        <GuestPhotoGrid
          count={photos.length}
          photoAt={photoAt}
          showRange={noop}
          onOpen={setOpen}
          focusIndex={open}
          minTile={150}
        />
      )}
      {open !== null && (
        <PhotoViewer
          index={open}
          count={photos.length}
          photoAt={photoAt}
          onIndex={setOpen}
          onClose={close}
          options={options}
        />
      )}
    </main>
  );
}
