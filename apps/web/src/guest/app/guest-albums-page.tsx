import { lazy, Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { PageContext } from '@flashbulb/shared';
import type { AlbumKey } from '../shared/api/guest-album-photos.ts';
import { InAppContext } from '../features/album/hooks/use-in-app.ts';
import { attendeeCookie } from './attendee-cookie.ts';
import { AlbumSkeleton, AlbumState } from '../shared/components/album-states.tsx';
import { AlbumView } from '../features/album/components/album-view.tsx';
import { BuyableAlbumView } from './buyable-album-view.tsx';
import { DisplayTokenContext } from '../features/album/utils/lead-token.ts';
import type { FaceLookupKey } from '../shared/api/face-lookup.ts';
import { useFaceLookupOffered } from '../features/faces/hooks/use-face-lookup-offered.ts';
import '../shared/theme/guest-theme.css';
import '../shared/theme/albums.css';
import '../shared/theme/guest-components.css';

// Each page type's code loads with that page only (the album's first load stays small).
const AttendeeAlbumPage = lazy(() =>
  import('./attendee-album-page.tsx').then((m) => ({ default: m.AttendeeAlbumPage })),
);
const FaceLookup = lazy(() =>
  import('../features/faces/components/face-lookup.tsx').then((m) => ({ default: m.FaceLookup })),
);
const KioskAllPhotosPage = lazy(() =>
  import('./kiosk-all-photos-page.tsx').then((m) => ({ default: m.KioskAllPhotosPage })),
);
const KioskScreen = lazy(() =>
  import('../features/kiosk/components/kiosk-screen.tsx').then((m) => ({ default: m.KioskScreen })),
);
const MiniAlbumView = lazy(() =>
  import('../features/mini-album/components/mini-album-view.tsx').then((m) => ({
    default: m.MiniAlbumView,
  })),
);
const InstantPhotoPage = lazy(() =>
  import('../features/instant/components/instant-photo-page.tsx').then((m) => ({
    default: m.InstantPhotoPage,
  })),
);
// The roaming photographer's upload page loads only for its link.
const RoamerPage = lazy(() => import('../features/roamer/components/roamer-page.tsx'));
const QrRidePage = lazy(() =>
  import('./qr-ride-page.tsx').then((m) => ({ default: m.QrRidePage })),
);

/** Local storage key of the shop-kiosk flag (albums spec §3). */
export const SHOP_KIOSK_STORAGE_KEY = 'isShopKiosk';

/**
 * The page for a link's page type (albums spec §2.1): albums by key, kiosk album, stream, slide
 * show and curation, attendee albums and the kiosk pages; the spec's messages for links missing a
 * parameter.
 */
/** A link the server renders itself (the share-preview page): loaded from the server once. */
function ServerPage() {
  useEffect(() => {
    const key = `fb-server-page:${window.location.search}`;
    try {
      // Once: an older server that does not render it leaves the skeleton, not a reload loop.
      if (window.sessionStorage.getItem(key)) return;
      window.sessionStorage.setItem(key, '1');
    } catch {
      return;
    }
    window.location.reload();
  }, []);
  return <AlbumSkeleton />;
}

export default function GuestAlbumsPage({
  context,
  eventName,
}: {
  context: PageContext;
  eventName: string | null;
}) {
  const { t } = useTranslation();
  const { page, kioskMode, shopKiosk, app } = context;
  // The kiosk attendee pages (evSB2, evSB4) run on a shared screen: they remember no one.
  const kioskAttendee = page.kind === 'attendee' && page.kioskType !== null;
  const rememberAttendeeId = kioskAttendee ? null : context.rememberAttendeeId;
  const kiosk =
    kioskMode || kioskAttendee || page.kind === 'kiosk-all-photos' || page.kind === 'kiosk-qr-ride';

  useEffect(() => {
    if (rememberAttendeeId)
      document.cookie = attendeeCookie(rememberAttendeeId, window.location.hostname);
  }, [rememberAttendeeId]);

  useEffect(() => {
    if (!shopKiosk) return;
    try {
      window.localStorage.setItem(SHOP_KIOSK_STORAGE_KEY, 'true');
    } catch {
      // Storage may be disabled (private mode); the page itself works without the flag.
    }
  }, [shopKiosk]);

  const albumKey = useMemo((): AlbumKey | null => {
    if (page.kind === 'public-album' || page.kind === 'kiosk-album')
      return { keyType: 'public', keyValue: page.publicKey };
    if (page.kind === 'private-album') return { keyType: 'private', keyValue: page.privateKey };
    if (page.kind === 'curation') return { keyType: 'event_owner', keyValue: page.ownerKey };
    return null;
  }, [page]);

  // The kiosk's face lookup searches with the kiosk's private key (else the card's attendee key).
  const faceKey = useMemo((): FaceLookupKey | null => {
    if (page.kind === 'kiosk-all-photos') return { keyType: 'private', keyValue: page.privateKey };
    if (page.kind !== 'attendee' || page.kioskType === null) return null;
    return page.privateKey
      ? { keyType: 'private', keyValue: page.privateKey }
      : { keyType: 'attendee', keyValue: page.attendeeId };
  }, [page]);
  const faceOffered = useFaceLookupOffered(faceKey);

  let content;
  switch (page.kind) {
    case 'error':
      // Guests read what to do; the spec's message stays as the organiser's detail (albums §2.1).
      content = (
        <AlbumState icon="link" title={t('albums.errors.kioskLinkTitle')}>
          <p>{t('albums.errors.kioskLinkText')}</p>
          <p className="albums-state-detail" role="alert">
            {page.message === 'Query param &pvId is required'
              ? t('albums.errors.pvIdRequired')
              : t('albums.errors.attIdRequired')}
          </p>
        </AlbumState>
      );
      break;
    case 'public-album':
    case 'kiosk-album':
    case 'private-album':
    case 'curation':
      content = albumKey && (
        <BuyableAlbumView
          albumKey={albumKey}
          mode={page.kind === 'public-album' || page.kind === 'kiosk-album' ? page.mode : 'grid'}
          kiosk={kioskMode}
          curation={page.kind === 'curation'}
          eventName={eventName}
        />
      );
      break;
    case 'photo-stream':
      // The photo-stream site (albums §2.1): the event's live wall, newest first, read with the
      // public key its console link carries; `mode=qrcode` puts each photo's link in the QR code.
      content = page.publicKey ? (
        <AlbumView
          albumKey={{ keyType: 'public', keyValue: page.publicKey }}
          mode="slideshow"
          kiosk={false}
          eventName={page.eventName}
          photoQr={page.qrCode}
        />
      ) : (
        <AlbumState icon="link" title={t('albums.photoStream.missingKeyTitle')}>
          <p>{t('albums.photoStream.missingKeyText')}</p>
        </AlbumState>
      );
      break;
    case 'share-preview':
      // The server renders this page (Open Graph tags, routes/share-pages.ts); a client-side
      // visit asks it for the page.
      content = <ServerPage />;
      break;
    case 'mini-album':
      content = <MiniAlbumView token={page.token} />;
      break;
    case 'instant':
      content = <InstantPhotoPage instant={page.instant} />;
      break;
    case 'attendee':
      content = (
        <AttendeeAlbumPage
          attendeeUid={page.attendeeId}
          kiosk={kiosk}
          sendLink={kioskAttendee}
          kioskKey={page.privateKey}
          fromKiosk={page.fromKiosk}
        />
      );
      break;
    case 'attendee-legacy':
      content = (
        <AttendeeAlbumPage
          attendeeUid={page.attendeeId}
          organisationId={page.organisationId}
          kiosk={kiosk}
        />
      );
      break;
    case 'kiosk-all-photos':
      content = <KioskAllPhotosPage privateKey={page.privateKey} attendeeUid={page.attendeeId} />;
      break;
    case 'kiosk-qr-ride':
      content = <QrRidePage privateKey={page.privateKey} />;
      break;
    case 'roamer':
      content = <RoamerPage eventKey={page.eventKey} />;
      break;
    case 'webapp':
      // The web-app page has its own feature (features/webapp), mounted by the albums root.
      content = null;
      break;
    case 'console':
      // The app loads the console chunk for these links; this chunk never renders it.
      content = null;
      break;
  }
  // A guest's kiosk session (a card was scanned): countdown, idle return to the entry page.
  const guestSession =
    kioskAttendee || (page.kind === 'kiosk-all-photos' && page.attendeeId !== null);
  if (guestSession)
    content = (
      <KioskScreen
        faceLookup={faceKey && faceOffered ? <FaceLookup albumKey={faceKey} kiosk /> : null}
        faceLookupOff={!faceOffered}
        kioskKey={page.privateKey}
        attendeeUid={page.attendeeId}
        albumKey={
          page.kind === 'kiosk-all-photos'
            ? { keyType: 'private', keyValue: page.privateKey }
            : { keyType: 'attendee', keyValue: page.attendeeId }
        }
      >
        {content}
      </KioskScreen>
    );
  return (
    <InAppContext value={app !== null}>
      <div
        className={`albums-root${kiosk ? ' albums-root--kiosk' : ''}`}
        data-page-kind={page.kind}
        data-app={app ?? undefined}
      >
        <DisplayTokenContext value={context.displayToken}>
          <Suspense fallback={<AlbumSkeleton />}>{content}</Suspense>
        </DisplayTokenContext>
      </div>
    </InAppContext>
  );
}
