import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageContext } from '@flashbulb/shared';
import type { AlbumKey } from '../api/album-photos.ts';
import { attendeeCookie } from '../utils/attendee-cookie.ts';
import { AlbumView } from './album-view.tsx';
import { MiniAlbumView } from './mini-album-view.tsx';
import '../albums.css';

/**
 * The page for a link's page type (albums spec §2.1): albums by key, kiosk album, stream, slide
 * show and curation; the spec's messages for links missing a parameter.
 */
export default function AlbumsPage({
  context,
  eventName,
}: {
  context: PageContext;
  eventName: string | null;
}) {
  const { t } = useTranslation();
  const { page, kioskMode, rememberAttendeeId } = context;

  useEffect(() => {
    if (rememberAttendeeId)
      document.cookie = attendeeCookie(rememberAttendeeId, window.location.hostname);
  }, [rememberAttendeeId]);

  const albumKey = useMemo((): AlbumKey | null => {
    if (page.kind === 'public-album' || page.kind === 'kiosk-album')
      return { keyType: 'public', keyValue: page.publicKey };
    if (page.kind === 'private-album') return { keyType: 'private', keyValue: page.privateKey };
    if (page.kind === 'curation') return { keyType: 'event_owner', keyValue: page.ownerKey };
    return null;
  }, [page]);

  let content;
  switch (page.kind) {
    case 'error':
      content = (
        <p className="albums-message" role="alert">
          {page.message === 'Query param &pvId is required'
            ? t('albums.errors.pvIdRequired')
            : t('albums.errors.attIdRequired')}
        </p>
      );
      break;
    case 'public-album':
    case 'kiosk-album':
    case 'private-album':
    case 'curation':
      content = albumKey && (
        <AlbumView
          albumKey={albumKey}
          mode={page.kind === 'public-album' || page.kind === 'kiosk-album' ? page.mode : 'grid'}
          kiosk={kioskMode}
          curation={page.kind === 'curation'}
          eventName={eventName}
        />
      );
      break;
    case 'mini-album':
      content = <MiniAlbumView token={page.token} />;
      break;
    case 'attendee':
    case 'attendee-legacy':
    case 'kiosk-all-photos':
    case 'kiosk-qr-ride':
    case 'console':
      content = (
        <div className="albums-message" role="alert">
          <h1>{t('albums.notAvailable.title')}</h1>
          <p>{t('albums.notAvailable.body', { kind: page.kind })}</p>
        </div>
      );
      break;
  }
  return (
    <div
      className={`albums-root${kioskMode ? ' albums-root--kiosk' : ''}`}
      data-page-kind={page.kind}
    >
      {content}
    </div>
  );
}
