// Over ~350 lines on purpose: AlbumView owns the album page's one state (list and live stream,
// viewer index, choice, download, lead token, notices) that its parts read together; each part it
// shows (grid, viewer, slide show, print list, send form, lead gate) is already its own file.
import {
  lazy,
  Suspense,
  use,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import type { AlbumMode, GuestPhoto as Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import type { GuestUploadKey } from '../../../../lib/uploads/upload-guest-photo.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import { useQuery } from '@tanstack/react-query';
import {
  fetchPhotosByIds,
  markCurated,
  setPhotoVisible,
  GUEST_PAGE_SIZE,
  sharesFor,
  trackFacebookShare,
  trackInsight,
  type AlbumKey,
} from '../../../shared/api/guest-album-photos.ts';
import { useAlbumPhotos } from '../../../shared/hooks/use-album-photos.ts';
import { useFavourites } from '../../../shared/hooks/use-favourites.ts';
import { useInApp } from '../hooks/use-in-app.ts';
import { usePhotoStream } from '../../../shared/hooks/use-photo-stream.ts';
import { useArrivals } from '../../../shared/hooks/use-arrivals.ts';
import { accentStyle } from '../../../shared/theme/accent.ts';
import { shareLink } from '../../../shared/utils/share-download.ts';
import { screenPhotoMapper, screenPictures } from '../../../shared/utils/photo-image.ts';
import { useAlbumPrintList } from './album-print-list.tsx';
import { AlbumCover } from '../../../shared/components/album-cover.tsx';
import { useGuestLanguage } from '../../../shared/hooks/use-guest-language.ts';
import { AlbumLinkError } from './album-link-error.tsx';
import { AlbumSkeleton, AlbumState } from '../../../shared/components/album-states.tsx';
import {
  GALLERY_ROW_HEIGHT,
  GuestPhotoGrid,
  type TileAction,
} from '../../../shared/components/guest-photo-grid.tsx';
import { IconButton } from '../../../shared/components/icon-button.tsx';
import { Icon } from '../../../shared/components/icons.tsx';
import { StockImageStrip } from './stock-image-strip.tsx';
import { DisplayTokenContext, leadTokenOf } from '../utils/lead-token.ts';
import type { ViewerOptions } from '../../../shared/viewer/viewer-options.ts';
import { slideshowSeconds } from '../utils/slideshow-seconds.ts';
import type { EventClock } from '@flashbulb/shared/rules/event-time';
import { EventClockContext } from '../../../shared/utils/event-clock.ts';

// Loaded when first used, not with the album (the first load stays under 150 KB).
const PhotoViewer = lazy(() =>
  import('../../../shared/viewer/photo-viewer.tsx').then((m) => ({ default: m.PhotoViewer })),
);
const SlideShow = lazy(() => import('./slide-show.tsx').then((m) => ({ default: m.SlideShow })));
const SendPhotosForm = lazy(() =>
  import('./send-photos-form.tsx').then((m) => ({ default: m.SendPhotosForm })),
);
const GuestUploadPanel = lazy(() =>
  import('./guest-upload-panel.tsx').then((m) => ({ default: m.GuestUploadPanel })),
);
const DownloadPanel = lazy(() =>
  import('./download-panel.tsx').then((m) => ({ default: m.DownloadPanel })),
);
// Only events that collect leads show the gate (with the leads contract it sends).
const LeadGate = lazy(() => import('./lead-gate.tsx').then((m) => ({ default: m.LeadGate })));

/** The event's empty-album text is HTML from the editor: show its text only. */
export const plainText = (html: string): string => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').trim();
};

/** The favourites are one loaded list: nothing to page in. */
const noRange = () => undefined;

/** Kiosk screens are read from a step away: taller rows. */
const KIOSK_ROW_HEIGHT = 280;

/** The public album's own link (the slide show's QR code points guests there). */
const publicAlbumUrl = (publicKey: string): string =>
  `${window.location.origin}/?pId=${encodeURIComponent(publicKey)}`;

/** What a page that already knows its album (attendee pages) shows instead of the event's settings. */
export interface AlbumPresentation {
  readonly title: string;
  /** The event's empty-album text (HTML from the editor; shown as text). */
  readonly emptyText: string;
  /** The event's logo (the attendee's event), in the cover beside the title. */
  readonly logo?: string | null;
  /** The event's brand colour (the attendee's event, `#rrggbb` or empty). */
  readonly accent?: string;
  /** The event's clock (the attendee's event): photo times read in its local time. */
  readonly clock?: EventClock | null;
}

/** Selection mode (QR ride kiosk): opening a tile toggles it instead of opening the viewer. */
export interface AlbumSelection {
  readonly isSelected: (photo: Photo) => boolean;
  readonly toggle: (photo: Photo) => void;
}

/** One album, whatever the key: grid, stream (live, newest first) or slide show. */
export function AlbumView({
  albumKey: linkKey,
  mode,
  kiosk,
  curation = false,
  eventName = null,
  live: liveWanted = mode !== 'grid' || !curation,
  presentation,
  canDownload: canDownloadWanted,
  canDownloadAll: canDownloadAllWanted,
  tileActions: pageActions,
  selection,
  kioskStreamScreen = true,
  sendable: sendableWanted,
  photoQr = false,
  buyChosen,
  printChosen,
  children,
}: {
  albumKey: AlbumKey;
  mode: AlbumMode;
  kiosk: boolean;
  curation?: boolean;
  eventName?: string | null;
  /** New photos arrive while the page is open (all but curation; a grid shows them behind the pill). */
  live?: boolean;
  /** Given by pages that know their album; the event's settings are then not read by key. */
  presentation?: AlbumPresentation;
  /** Originals may be downloaded; by default only with the private and event owner keys. */
  canDownload?: boolean;
  /**
   * Every photo's original may be downloaded, so "Download all" works (by default as
   * `canDownload`); an album with only some photos bought offers them one by one.
   */
  canDownloadAll?: boolean;
  tileActions?: readonly TileAction[];
  selection?: AlbumSelection;
  /**
   * A kiosk's live stream is the kiosk stream the event offers or not (opts.kioskStreamEnabled);
   * false for screens of their own that show the live photos (the QR ride kiosk).
   */
  kioskStreamScreen?: boolean;
  /**
   * Visitors may choose photos and send them as a mini-album link; by default on grid pages
   * without a selection of their own (not curation, not streams or slide shows).
   */
  sendable?: boolean;
  /** The photo-stream site's `mode=qrcode`: the slide show's QR code names each photo. */
  photoQr?: boolean;
  /** A paid album: buys these photos (the guest's favourites) in one step. */
  buyChosen?: (photos: readonly Photo[]) => void;
  /**
   * Where the page prints (a kiosk's print list): puts these photos (the guest's favourites) in
   * the print list in one step; the list's own rules (limit, paid prints, confirm) then apply.
   */
  printChosen?: (photos: readonly Photo[]) => void;
  /** Page-specific notes, bars and forms between the header and the photos. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inApp = useInApp();
  // The lead gate (collect_leads): the organiser's screens (kiosk, stream, slide show) send the
  // event's display token their link carries, and the server asks them no lead; curation reads
  // with the owner key, which no gate asks. Anything else (a guest's `display=1`) gives a lead.
  const pageToken = use(DisplayTokenContext);
  const [givenToken, setGivenToken] = useState<string | null>(null);
  // A lead given here wins over a screen token the server refused (a stale or made-up link).
  const screenToken =
    (kiosk || mode !== 'grid') && !givenToken ? (linkKey.display ?? pageToken) : null;
  const event = useAlbumEvent(linkKey, eventName, presentation === undefined).data;
  // The event's language (or the guest's own); a page that presents the album (a kiosk session)
  // decides it itself.
  useGuestLanguage(presentation === undefined ? event?.opts : undefined, kiosk);
  const leadToken =
    curation || screenToken
      ? null
      : (givenToken ?? leadTokenOf(linkKey.keyValue, event?.name ?? eventName));
  const albumKey = useMemo(
    (): AlbumKey => ({
      ...linkKey,
      ...(screenToken ? { display: screenToken } : { display: undefined, leadToken }),
    }),
    [linkKey, screenToken, leadToken],
  );
  const photos = useAlbumPhotos(albumKey);
  // A guest's view counts once per page and key for the event's insight (not the organiser's
  // screens or curation); sent after the page showed, off the album's own path.
  const viewCounted = useRef<string | null>(null);
  const countsViews = !kiosk && !curation && mode === 'grid';
  useEffect(() => {
    if (!countsViews || viewCounted.current === linkKey.keyValue) return;
    viewCounted.current = linkKey.keyValue;
    trackInsight(linkKey, 'view');
  }, [countsViews, linkKey]);
  const [open, setOpen] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  // The gate shows until this browser gave a lead (its token opens the list on the server), or
  // when the server refuses what was sent: a deleted lead, a screen link without the event's
  // display token (a guest's `display=1`).
  const leadGate =
    event?.collect_leads === 1 &&
    !curation &&
    ((!screenToken && !leadToken) ||
      (photos.status === 'error' && photos.errorKey === 'lead_required'));
  const { live } = usePhotoStream(
    albumKey,
    liveWanted && photos.status === 'ready',
    photos.addLive,
    // The newest photo shown: live arrivals first, else the newest at opening.
    (photos.liveCount > 0 ? photos.photoAt(0)?.created_date : null) ?? photos.newestAtOpening,
  );

  // Send mode: tiles toggle into the set of photos to send instead of opening the viewer.
  const sendable = sendableWanted ?? (!curation && mode === 'grid' && selection === undefined);
  const [sending, setSending] = useState(false);
  const [chosen, setChosen] = useState<ReadonlyMap<string, number>>(new Map());
  const toggleChosen = useCallback((photo: Photo) => {
    setChosen((current) => {
      const next = new Map(current);
      if (!next.delete(photo.uid)) next.set(photo.uid, photo.id);
      return next;
    });
  }, []);
  const sendSelection = useMemo(
    (): AlbumSelection | undefined =>
      sending ? { isSelected: (photo) => chosen.has(photo.uid), toggle: toggleChosen } : undefined,
    [sending, chosen, toggleChosen],
  );
  const activeSelection = selection ?? sendSelection;
  const stopSending = useCallback(() => {
    setSending(false);
    setChosen(new Map());
  }, []);

  // Zip downloads: the panel asks the size, then shows the zip's progress (or mails its link).
  const [downloadAsk, setDownloadAsk] = useState<{ ids: number[] | null; count: number } | null>(
    null,
  );

  // Favourites: a heart on each photo, kept on the device (and with an attendee's album); the
  // "My favourites" filter shows them alone, to download, send, buy or print together. A kiosk
  // keeps them for its session only (a shared screen), the QR ride kiosk not at all (its taps
  // choose photos).
  const favouritesShown = !curation && mode === 'grid' && !leadGate && kioskStreamScreen;
  const favourites = useFavourites(albumKey, event?.name ?? eventName, { device: !kiosk });
  const [onlyFavourites, setOnlyFavourites] = useState(false);
  const favouritePhotos = useQuery({
    queryKey: ['albums', 'favourites', albumKey.keyType, albumKey.keyValue, favourites.ids],
    queryFn: () => fetchPhotosByIds(albumKey, favourites.ids),
    enabled: favouritesShown && onlyFavourites,
    placeholderData: (previous) => previous,
  });
  const favouriteList = useMemo(() => favouritePhotos.data ?? [], [favouritePhotos.data]);
  const showingFavourites = favouritesShown && onlyFavourites;

  const { replace } = photos;
  const photoAt = useMemo(
    () => (showingFavourites ? (index: number) => favouriteList[index] : photos.photoAt),
    [showingFavourites, favouriteList, photos.photoAt],
  );
  const onOpen = useMemo(
    () =>
      activeSelection
        ? (index: number) => {
            const photo = photoAt(index);
            if (photo) activeSelection.toggle(photo);
          }
        : setOpen,
    [activeSelection, photoAt],
  );
  const curationActions = useMemo((): TileAction[] => {
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

  const printList = useAlbumPrintList({ albumKey, event, kiosk, curation });
  const printFavourites = printChosen ?? printList.printPhotos;
  const tileActions = useMemo(
    () => [...curationActions, ...printList.tileActions, ...(pageActions ?? [])],
    [curationActions, printList.tileActions, pageActions],
  );

  const canDownload =
    canDownloadWanted ?? (albumKey.keyType === 'private' || albumKey.keyType === 'event_owner');
  // "Download all" only where every original opens: the private key of a paid (not unlocked)
  // event gets previews only, so its zip would be refused.
  const canDownloadAll =
    canDownloadAllWanted ??
    canDownloadWanted ??
    (albumKey.keyType === 'event_owner' ||
      (albumKey.keyType === 'private' && !!event && (event.is_free === 1 || event.unlocked === 1)));
  // A free (or unlocked) event's public album may save what it shows, unless the operator turned
  // it off (opts.guestDownloadEnabled); never on a shared kiosk screen. Originals stay the server's call.
  const canSavePreview =
    !kiosk &&
    canDownloadWanted !== false &&
    albumKey.keyType === 'public' &&
    !!event &&
    (event.is_free === 1 || event.unlocked === 1) &&
    event.opts.guestDownloadEnabled !== 0;
  // A zip of a selection or of everything, for the same keys (never on a shared kiosk screen).
  const zipAllowed = !kiosk && !curation && (canDownloadAll || canSavePreview);
  // Originals for the zip: keys that download every original, and a free event's guests for
  // photos without the event's watermark unless the operator limits them to the web size.
  const offerOriginal =
    canDownloadAll ||
    (canSavePreview && !event?.photo_watermark && event?.opts.guestDownloadWebOnly !== 1);
  // "Add your photos": the public album's guests while the event takes their photos
  // (opts.enablePhotoUpl), an attendee in their own album while it takes attendees'
  // (opts.enableAttendeePhotoUpl); never on a kiosk screen, in curation or behind the lead gate.
  const uploadKey = useMemo((): GuestUploadKey | null => {
    if (!event || kiosk || curation || leadGate || mode !== 'grid') return null;
    if (albumKey.keyType === 'public' && event.opts.enablePhotoUpl === 1)
      return { key_type: 'public', key_value: albumKey.keyValue };
    if (albumKey.keyType === 'attendee' && event.opts.enableAttendeePhotoUpl === 1)
      return { key_type: 'attendee', key_value: albumKey.keyValue };
    return null;
  }, [event, kiosk, curation, leadGate, mode, albumKey.keyType, albumKey.keyValue]);
  const [uploading, setUploading] = useState(false);
  const title = presentation?.title || event?.full_name || t('albums.defaultTitle');
  // One share call per photo and key: its link and text serve the menu, the copy and the sheet.
  const shareOf = useMemo(() => sharesFor(albumKey), [albumKey]);
  const viewerOptions = useMemo(
    (): ViewerOptions => ({
      canDownload,
      canSavePreview,
      inApp,
      kiosk,
      showFileNames: event?.opts.guestShowFileNames === 1,
      title,
      logo: event?.logo_full_path
        ? { src: event.logo_full_path, link: kiosk ? null : event.logo_link || null }
        : null,
      watermarkOverlay: event?.photo_watermark ?? null,
      shareUrl: async (photo) => (await shareOf(photo)).url,
      shareText: async (photo) => (await shareOf(photo)).text,
      onFacebookShare: (photo) => trackFacebookShare(albumKey, photo),
      onDownload: (photo) => trackInsight(albumKey, 'download', photo),
      favourites: favouritesShown ? favourites : undefined,
      onSend: sendable
        ? (photo) => {
            setOpen(null);
            setSending(true);
            setChosen(new Map([[photo.uid, photo.id]]));
          }
        : undefined,
    }),
    [
      albumKey,
      canDownload,
      canSavePreview,
      inApp,
      kiosk,
      title,
      event,
      sendable,
      shareOf,
      favouritesShown,
      favourites,
    ],
  );
  const closeViewer = useCallback(() => setOpen(null), []);
  const arrivals = useArrivals(photos, mode !== 'grid', open !== null);
  const [shareNotice, setShareNotice] = useState<string | null>(null);
  const accentColor = presentation?.accent ?? event?.opts.guestAccentColor ?? '';
  const accent = useMemo(() => accentStyle(accentColor), [accentColor]);
  // Every photo time of the album (grid, viewer, slide show) in the event's local time.
  const clock = useMemo(
    (): EventClock | null =>
      presentation?.clock ??
      (event
        ? { time_zone: event.time_zone, date_utc_diff_hours: event.date_utc_diff_hours }
        : null),
    [presentation, event],
  );
  // Live views show the live-view watermark, a kiosk with kioskWatermarkEnable watermarked
  // pictures throughout (photo-image.ts); each photo is mapped once, so tiles stay memoised.
  const kioskWatermark = event?.opts.kioskWatermarkEnable === 1;
  const pictures = useMemo(
    () => screenPictures({ mode, kiosk, kioskWatermark }),
    [mode, kiosk, kioskWatermark],
  );
  const onScreen = useMemo(() => screenPhotoMapper(pictures), [pictures]);

  // The kiosk stream is a screen the event offers or not (opts.kioskStreamEnabled): switched off,
  // its link shows no photos but says so.
  if (
    kiosk &&
    mode === 'stream' &&
    kioskStreamScreen &&
    event &&
    event.opts.kioskStreamEnabled !== 1
  )
    return (
      <AlbumState icon="link" title={t('albums.kioskStreamOff.title')}>
        <p>{t('albums.kioskStreamOff.text')}</p>
      </AlbumState>
    );
  if (photos.status === 'loading' && !leadGate) return <AlbumSkeleton />;
  if (photos.status === 'error' && !leadGate)
    return photos.errorKey === 'lead_required' && !event ? (
      <AlbumSkeleton />
    ) : (
      <AlbumLinkError errorKey={photos.errorKey ?? ''} />
    );

  const emptyText = plainText(presentation?.emptyText ?? event?.empty_album_text ?? '');
  if (mode === 'slideshow' && photos.count > 0) {
    const seconds = slideshowSeconds(event?.opts);
    return (
      <EventClockContext value={clock}>
        <Suspense fallback={<div className="albums-slideshow-loading" />}>
          <SlideShow
            count={photos.count}
            photoAt={(index) => onScreen(photos.photoAt(index))}
            showRange={photos.showRange}
            minSeconds={seconds.min}
            maxSeconds={seconds.max}
            background={event?.opts.slideshowBg ?? ''}
            branding={{
              title,
              logo: event?.logo_full_path ?? null,
              logoLink: kiosk ? null : (event?.logo_link ?? null),
              hashTag: event?.hash_tag ?? '',
              albumUrl: albumKey.keyType === 'public' ? publicAlbumUrl(albumKey.keyValue) : null,
              // The photo-stream site's QR codes: each photo's share-preview page (albums §2.1).
              photoUrl:
                photoQr && event
                  ? (photo) =>
                      `${window.location.origin}/?${new URLSearchParams({
                        photoId: photo.uid,
                        eName: event.name,
                      }).toString()}`
                  : null,
            }}
            style={accent}
          />
        </Suspense>
      </EventClockContext>
    );
  }
  const shown = showingFavourites
    ? { count: favouriteList.length, liveCount: 0, photoAt, showRange: noRange }
    : arrivals.shown;
  const shownAt = (index: number) => onScreen(shown.photoAt(index));
  // Only a public link is for passing on; private and owner links are keys, kiosks are shared screens.
  const shareable = albumKey.keyType === 'public' && !kiosk && !curation;
  const shareAlbum = async () => {
    const outcome = await shareLink(window.location.href, title);
    setShareNotice(
      outcome === 'copied'
        ? t('albums.viewer.linkCopied')
        : outcome === 'failed'
          ? t('albums.viewer.copyFailed')
          : null,
    );
  };
  return (
    <EventClockContext value={clock}>
      <main className="albums-main" style={accent}>
        <AlbumCover
          branding={{
            title: curation ? `${title} — ${t('albums.curationTitle')}` : title,
            logo: presentation?.logo ?? event?.logo_full_path ?? null,
            logoLink: event?.logo_link ?? '',
            hashTag: event?.hash_tag ?? '',
            supportLink: event?.opts.supportLink ?? '',
            date: photos.photoAt(0)?.created_date ?? null,
            utcDiffHours: clock?.date_utc_diff_hours ?? 0,
            timeZone: clock?.time_zone ?? '',
          }}
          // Behind the lead gate the album's size is not known (the server answers no list yet).
          countText={
            leadGate
              ? ''
              : photos.countAtLeast
                ? t('albums.countAtLeast', { number: photos.count })
                : t('albums.count', { count: photos.count })
          }
          // A grid keeps the badge's room until its stream opens: the photos below never move.
          live={live || (liveWanted && mode === 'grid' ? 'soon' : false)}
          kiosk={kiosk}
          actions={
            <>
              {uploadKey && (
                <button
                  type="button"
                  className="albums-upload-toggle"
                  aria-pressed={uploading}
                  onClick={() => setUploading(!uploading)}
                >
                  <Icon name="image" />
                  <span>{t('albums.guestUpload.open')}</span>
                </button>
              )}
              {shareable && (
                <IconButton
                  icon="share"
                  label={t('albums.shareAlbum')}
                  showLabel
                  onClick={() => void shareAlbum()}
                />
              )}
              {zipAllowed && photos.count > 0 && (
                <IconButton
                  icon="download"
                  label={t('albums.download.all')}
                  showLabel
                  onClick={() => setDownloadAsk({ ids: null, count: photos.count })}
                />
              )}
              {favouritesShown && (favourites.ids.length > 0 || onlyFavourites) && (
                <button
                  type="button"
                  className="albums-favourites-toggle"
                  aria-pressed={onlyFavourites}
                  onClick={() => {
                    setOpen(null);
                    setOnlyFavourites(!onlyFavourites);
                  }}
                >
                  {onlyFavourites
                    ? t('albums.favourites.showAll')
                    : t('albums.favourites.show', { count: favourites.ids.length })}
                </button>
              )}
              {sendable && photos.count > 0 && (
                <button
                  type="button"
                  className={`albums-send-toggle${sending ? '' : ' fb-button--primary'}`}
                  aria-pressed={sending}
                  onClick={() => (sending ? stopSending() : setSending(true))}
                >
                  {sending ? t('albums.send.cancel') : t('albums.send.open')}
                </button>
              )}
            </>
          }
        />
        {shareNotice && (
          <p className="albums-toast" role="status">
            {shareNotice}
          </p>
        )}
        {uploading && uploadKey && event && (
          <Suspense fallback={null}>
            <GuestUploadPanel
              eventName={event.name}
              uploadKey={uploadKey}
              inEventAlbum={event.opts.guestUploadsPublic !== 0}
              onClose={() => setUploading(false)}
            />
          </Suspense>
        )}
        {sending && (
          <section className="albums-panel" aria-label={t('albums.send.title')}>
            <p className="albums-note">{t('albums.send.hint')}</p>
            {zipAllowed && (
              <IconButton
                icon="download"
                showLabel
                className="albums-download-chosen"
                label={t('albums.download.chosen', { count: chosen.size })}
                disabled={chosen.size === 0}
                onClick={() => setDownloadAsk({ ids: [...chosen.values()], count: chosen.size })}
              />
            )}
            <Suspense fallback={null}>
              <SendPhotosForm
                albumKey={albumKey}
                eventName={eventName}
                photoUids={[...chosen.keys()]}
                onSent={() => setChosen(new Map())}
              />
            </Suspense>
          </section>
        )}
        {showingFavourites && (
          <section className="albums-favourites-bar" aria-label={t('albums.favourites.showAll')}>
            {zipAllowed && favouriteList.length > 0 && (
              <IconButton
                icon="download"
                showLabel
                variant="primary"
                label={t('albums.favourites.download', { count: favouriteList.length })}
                onClick={() =>
                  setDownloadAsk({
                    ids: favouriteList.map((photo) => photo.id),
                    count: favouriteList.length,
                  })
                }
              />
            )}
            {printFavourites && favouriteList.length > 0 && (
              <button
                type="button"
                className="fb-button--primary albums-favourites-print"
                onClick={() => printFavourites(favouriteList)}
              >
                {t('albums.favourites.print')}
              </button>
            )}
            {buyChosen && favouriteList.length > 0 && (
              <button
                type="button"
                className="fb-button--primary"
                onClick={() => buyChosen(favouriteList)}
              >
                {t('albums.favourites.buy')}
              </button>
            )}
          </section>
        )}
        {downloadAsk && (
          <Suspense fallback={null}>
            <DownloadPanel
              key={downloadAsk.ids?.join(',') ?? 'all'}
              albumKey={albumKey}
              photoIds={downloadAsk.ids}
              count={downloadAsk.count}
              offerOriginal={offerOriginal}
              emailEnds={event?.opts.emailEnds}
              onClose={() => setDownloadAsk(null)}
            />
          </Suspense>
        )}
        {failure && (
          <p className="albums-note" role="alert">
            {failure}
          </p>
        )}
        {children}
        {printList.panel}
        <StockImageStrip images={photos.stockImages} />
        {arrivals.waiting > 0 && (
          <button
            type="button"
            className="albums-new-pill fb-button--primary"
            onClick={arrivals.reveal}
          >
            <Icon name="arrowUp" />
            {t('albums.newPhotos', { count: arrivals.waiting })}
          </button>
        )}
        {leadGate && event ? (
          <Suspense fallback={null}>
            <LeadGate
              albumKey={albumKey}
              eventName={event.name}
              params={event.lead_params}
              emailEnds={event.opts.emailEnds}
              onDone={setGivenToken}
            />
          </Suspense>
        ) : showingFavourites && shown.count === 0 ? (
          <AlbumState icon="image" title={t('albums.favourites.showAll')}>
            <p className="albums-empty">
              {favouritePhotos.isFetching
                ? t('albums.favourites.loading')
                : t('albums.favourites.empty')}
            </p>
          </AlbumState>
        ) : shown.count === 0 ? (
          <AlbumState icon="image" title={t('albums.states.emptyTitle')}>
            <p className="albums-empty">{emptyText || t('albums.emptyDefault')}</p>
          </AlbumState>
        ) : (
          <GuestPhotoGrid
            count={shown.count}
            liveCount={shown.liveCount}
            pageSize={GUEST_PAGE_SIZE}
            photoAt={shownAt}
            showRange={shown.showRange}
            onOpen={onOpen}
            focusIndex={open}
            rowHeight={kiosk ? KIOSK_ROW_HEIGHT : GALLERY_ROW_HEIGHT}
            tileActions={tileActions}
            isSelected={activeSelection?.isSelected}
            favourites={favouritesShown ? favourites : undefined}
          />
        )}
        {open !== null && (
          <Suspense fallback={null}>
            <PhotoViewer
              index={open}
              count={shown.count}
              photoAt={shownAt}
              onIndex={setOpen}
              onClose={closeViewer}
              options={viewerOptions}
            />
          </Suspense>
        )}
      </main>
    </EventClockContext>
  );
}
