import * as endpoints from '../../../../lib/guest-endpoints.ts';
import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import '../mini-album.css';
import { callApi } from '../../../../lib/api-client.ts';
import { PhotoListGrid } from '../../../shared/components/photo-list-grid.tsx';
import { AlbumCover } from '../../../shared/components/album-cover.tsx';
import { AlbumSkeleton, AlbumState } from '../../../shared/components/album-states.tsx';
import type { ViewerOptions } from '../../../shared/viewer/viewer-options.ts';

/** A mini-album (`?mId=<token>`): the photos someone chose and sent by e-mail or SMS. */
export function MiniAlbumView({ token }: { token: string }) {
  const { t } = useTranslation();
  const album = useQuery({
    queryKey: ['albums', 'mini', token],
    queryFn: ({ signal }) => callApi(endpoints.retrieveMiniAlbum, { token }, { signal }),
    staleTime: Infinity,
  });
  const photos = album.data?.photos;
  const developing = album.data?.developing ?? [];
  const options = useMemo(
    (): ViewerOptions => ({
      canDownload: false,
      watermarkOverlay: null,
      shareUrl: (photo) =>
        Promise.resolve(photo.urls.preview ?? photo.urls.thumbnail ?? window.location.href),
    }),
    [],
  );

  if (album.isPending) return <AlbumSkeleton />;
  if (album.isError || !photos)
    return (
      <AlbumState icon="link" role="alert" title={t('albums.states.invalidTitle')}>
        <p>{t('albums.invalidLink')}</p>
      </AlbumState>
    );
  return (
    <main className="albums-main">
      <AlbumCover
        branding={{
          title: album.data.event.full_name || t('albums.defaultTitle'),
          logo: album.data.event.logo_full_path,
          logoLink: '',
          hashTag: '',
          supportLink: '',
          date: album.data.created_date,
          utcDiffHours: 0,
        }}
        countText={t('albums.count', { count: photos.length + developing.length })}
        live={false}
      />
      {developing.length > 0 && (
        <ul className="mini-album-developing">
          {developing.map((link) => (
            <li key={link.code}>
              {/* A photo sent before it was ready: its own page fills in when it is. */}
              <a className="mini-album-developing-link" href={link.url}>
                <span className="mini-album-developing-print" aria-hidden="true" />
                <span>{t('albums.instant.developingTitle')}</span>
              </a>
            </li>
          ))}
        </ul>
      )}
      {photos.length === 0 && developing.length > 0 ? null : photos.length === 0 ? (
        <AlbumState icon="image" title={t('albums.states.emptyTitle')}>
          <p className="albums-empty">{t('albums.emptyDefault')}</p>
        </AlbumState>
      ) : (
        <PhotoListGrid photos={photos} viewerOptions={options} />
      )}
    </main>
  );
}
