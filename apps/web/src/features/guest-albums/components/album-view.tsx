import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AlbumMode, GuestPhoto as Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { useAlbumEvent, type AlbumEvent } from '../api/album-event.ts';
import {
  markCurated,
  setPhotoVisible,
  shareUrlFor,
  trackFacebookShare,
  type AlbumKey,
} from '../api/guest-album-photos.ts';
import { useAlbumPhotos } from '../hooks/use-album-photos.ts';
import { useInApp } from '../hooks/use-in-app.ts';
import { usePhotoStream } from '../hooks/use-photo-stream.ts';
import { AlbumLinkError } from './album-link-error.tsx';
import { GuestPhotoGrid, type TileAction } from './guest-photo-grid.tsx';
import { SendPhotosForm } from './send-photos-form.tsx';
import { PhotoViewer, type ViewerOptions } from './photo-viewer.tsx';
import { DEFAULT_SLIDESHOW_SECONDS, SlideShow } from './slide-show.tsx';

/** The event's empty-album text is HTML from the editor: show its text only. */
export const plainText = (html: string): string => {
  const doc = new DOMParser().parseFromString(html, 'text/html');
  return (doc.body.textContent ?? '').trim();
};

const slideshowSeconds = (event: AlbumEvent | null | undefined) => {
  const min = event?.opts.slideshowMinIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.min;
  const max = event?.opts.slideshowMaxIntervalSeconds ?? DEFAULT_SLIDESHOW_SECONDS.max;
  return max > min ? { min, max } : DEFAULT_SLIDESHOW_SECONDS;
};

/** What a page that already knows its album (attendee pages) shows instead of the event's settings. */
export interface AlbumPresentation {
  readonly title: string;
  /** The event's empty-album text (HTML from the editor; shown as text). */
  readonly emptyText: string;
}

/** Selection mode (QR ride kiosk): opening a tile toggles it instead of opening the viewer. */
export interface AlbumSelection {
  readonly isSelected: (photo: Photo) => boolean;
  readonly toggle: (photo: Photo) => void;
}

/** One album, whatever the key: grid, stream (live, newest first) or slide show. */
export function AlbumView({
  albumKey,
  mode,
  kiosk,
  curation = false,
  eventName = null,
  live: liveWanted = mode !== 'grid',
  presentation,
  canDownload: canDownloadWanted,
  tileActions: pageActions,
  selection,
  sendable: sendableWanted,
  children,
}: {
  albumKey: AlbumKey;
  mode: AlbumMode;
  kiosk: boolean;
  curation?: boolean;
  eventName?: string | null;
  /** New photos arrive while the page is open (stream and slide show always do). */
  live?: boolean;
  /** Given by pages that know their album; the event's settings are then not read by key. */
  presentation?: AlbumPresentation;
  /** Originals may be downloaded; by default only with the private and event owner keys. */
  canDownload?: boolean;
  tileActions?: readonly TileAction[];
  selection?: AlbumSelection;
  /**
   * Visitors may choose photos and send them as a mini-album link; by default on grid pages
   * without a selection of their own (not curation, not streams or slide shows).
   */
  sendable?: boolean;
  /** Page-specific notes, bars and forms between the header and the photos. */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const inApp = useInApp();
  const photos = useAlbumPhotos(albumKey);
  const event = useAlbumEvent(albumKey, eventName, presentation === undefined).data;
  const [open, setOpen] = useState<number | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const { live } = usePhotoStream(
    albumKey,
    liveWanted && photos.status === 'ready',
    photos.addLive,
  );

  // Send mode: tiles toggle into the set of photos to send instead of opening the viewer.
  const sendable = sendableWanted ?? (!curation && mode === 'grid' && selection === undefined);
  const [sending, setSending] = useState(false);
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set());
  const toggleChosen = useCallback((photo: Photo) => {
    setChosen((current) => {
      const next = new Set(current);
      if (!next.delete(photo.uid)) next.add(photo.uid);
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
    setChosen(new Set());
  }, []);

  const { replace, photoAt } = photos;
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

  const tileActions = useMemo(
    () => [...curationActions, ...(pageActions ?? [])],
    [curationActions, pageActions],
  );

  const canDownload =
    canDownloadWanted ?? (albumKey.keyType === 'private' || albumKey.keyType === 'event_owner');
  const viewerOptions = useMemo(
    (): ViewerOptions => ({
      canDownload,
      inApp,
      watermarkOverlay: event?.photo_watermark ?? null,
      shareUrl: (photo) => shareUrlFor(albumKey, photo),
      onFacebookShare: (photo) => trackFacebookShare(albumKey, photo),
    }),
    [albumKey, canDownload, inApp, event?.photo_watermark],
  );
  const closeViewer = useCallback(() => setOpen(null), []);

  if (photos.status === 'loading') {
    return (
      <p className="albums-message" role="status">
        {t('albums.loading')}
      </p>
    );
  }
  if (photos.status === 'error') return <AlbumLinkError errorKey={photos.errorKey ?? ''} />;

  const title = presentation?.title || event?.full_name || t('albums.defaultTitle');
  const emptyText = plainText(presentation?.emptyText ?? event?.empty_album_text ?? '');
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
        {sendable && photos.count > 0 && (
          <button
            type="button"
            className="albums-send-toggle"
            aria-pressed={sending}
            onClick={() => (sending ? stopSending() : setSending(true))}
          >
            {sending ? t('albums.send.cancel') : t('albums.send.open')}
          </button>
        )}
      </header>
      {sending && (
        <section aria-label={t('albums.send.title')}>
          <p className="albums-note">{t('albums.send.hint')}</p>
          <SendPhotosForm
            albumKey={albumKey}
            eventName={eventName}
            photoUids={[...chosen]}
            onSent={() => setChosen(new Set())}
          />
        </section>
      )}
      {failure && (
        <p className="albums-note" role="alert">
          {failure}
        </p>
      )}
      {children}
      {photos.count === 0 ? (
        <p className="albums-message albums-empty">{emptyText || t('albums.emptyDefault')}</p>
      ) : (
        <GuestPhotoGrid
          count={photos.count}
          photoAt={photos.photoAt}
          showRange={photos.showRange}
          onOpen={onOpen}
          focusIndex={open}
          minTile={kiosk ? 240 : 150}
          tileActions={tileActions}
          isSelected={activeSelection?.isSelected}
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
