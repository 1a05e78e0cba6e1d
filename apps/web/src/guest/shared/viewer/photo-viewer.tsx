import { useEffect, useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { classifyTouch, isDoubleTap } from '../utils/gestures.ts';
import { displayDate, playsOnItsOwn, videoSource, viewerSource } from '../utils/photo-image.ts';
import { canUseShareSheet, downloadFile, downloadName } from '../utils/share-download.ts';
import { IconButton } from '../components/icon-button.tsx';
import { Icon } from '../components/icons.tsx';
import { httpLink } from '../utils/http-link.ts';

const FOCUSABLE =
  'button:not([disabled]), a[href], video[controls], [tabindex]:not([tabindex="-1"])';

/** Pinch zoom bounds; a double tap toggles between 1 and DOUBLE_TAP_SCALE. */
export const ZOOM = { min: 1, max: 4, doubleTap: 2.5 };

/** What the viewer may offer for a photo; decided by the page from its key type. */
export interface ViewerOptions {
  readonly canDownload: boolean;
  /** A free event's public album may save the picture it shows (not the original). */
  readonly canSavePreview?: boolean;
  /**
   * In the mobile app's web view (`app=ios|android`) the `download` attribute is ignored: the file
   * opens in the same window instead, where the app's own viewer saves it.
   */
  readonly inApp?: boolean;
  /** A shared kiosk screen: no share or copy-link actions. */
  readonly kiosk?: boolean;
  /** The operator shows file names to guests (`opts.guestShowFileNames`). */
  readonly showFileNames?: boolean;
  /** The album's title (share sheet title, neutral download names). */
  readonly title?: string;
  /** The event's logo in the top bar, linked to its `logo_link` (none on kiosk screens). */
  readonly logo?: { readonly src: string; readonly link: string | null } | null;
  /** The event's watermark image, laid over photos that have no watermarked derivative. */
  readonly watermarkOverlay: string | null;
  /** The link to share for a photo (share page when the server makes one, else the preview). */
  readonly shareUrl: (photo: Photo) => Promise<string>;
  /** Called after the Facebook dialog opens (activity tracking, when the server has it). */
  readonly onFacebookShare?: (photo: Photo) => void;
  /** Send this photo as a mini-album link (pages that can send). */
  readonly onSend?: (photo: Photo) => void;
}

interface Zoom {
  readonly scale: number;
  readonly x: number;
  readonly y: number;
}
const NO_ZOOM: Zoom = { scale: 1, x: 0, y: 0 };

const distance = (touches: TouchEvent['touches']) => {
  const a = touches[0];
  const b = touches[1];
  return a && b ? Math.hypot(a.clientX - b.clientX, a.clientY - b.clientY) : 0;
};

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/**
 * Full-screen image or video preview (albums spec §2.5): the photo fits the screen; an icon
 * toolbar (close, previous, next, download, share, send, info); arrows and swipes move, Esc and
 * the vertical swipe close (§9 bounds), a double tap zooms and two fingers pinch; the neighbours
 * are preloaded; focus stays inside while it is open and returns to the page afterwards.
 */
export function PhotoViewer({
  index,
  count,
  photoAt,
  onIndex,
  onClose,
  options,
}: {
  index: number;
  count: number;
  photoAt: (index: number) => Photo | undefined;
  onIndex: (index: number) => void;
  onClose: () => void;
  options: ViewerOptions;
}) {
  const { t } = useTranslation();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  const touchStart = useRef<{ x: number; y: number; time: number } | null>(null);
  const pinch = useRef<{ distance: number; scale: number } | null>(null);
  const pan = useRef<{ x: number; y: number; zoom: Zoom } | null>(null);
  const moved = useRef(false);
  const lastTap = useRef<number | null>(null);
  // Zoom, panels and notices belong to one photo: keyed by its index, they reset when it moves.
  const [zoomAt, setZoomAt] = useState<{ index: number; zoom: Zoom } | null>(null);
  const [noticeAt, setNoticeAt] = useState<{ index: number; text: string } | null>(null);
  const [panel, setPanel] = useState<{ index: number; kind: 'info' | 'share' } | null>(null);
  const zoom = zoomAt?.index === index ? zoomAt.zoom : NO_ZOOM;
  const setZoom = (next: Zoom) => setZoomAt({ index, zoom: next });
  const zoomed = zoom.scale > 1;
  const notice = noticeAt?.index === index ? noticeAt.text : null;
  const setNotice = (text: string) => setNoticeAt({ index, text });
  const openPanel = panel?.index === index ? panel.kind : null;
  const togglePanel = (kind: 'info' | 'share') =>
    setPanel(openPanel === kind ? null : { index, kind });
  const photo = photoAt(index);

  useEffect(() => {
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    closeRef.current?.focus();
    const overflow = document.body.style.overflow;
    document.body.style.overflow = 'hidden';
    return () => {
      document.body.style.overflow = overflow;
      previous?.focus();
    };
  }, []);

  // Preload the neighbours, so the next swipe shows a picture at once.
  const before = photoAt(index - 1);
  const after = photoAt(index + 1);
  useEffect(() => {
    for (const neighbour of [after, before]) {
      const source = neighbour && neighbour.media_type === 'image' ? viewerSource(neighbour) : null;
      if (source) new Image().src = source;
    }
  }, [after, before]);

  const go = (to: number) => {
    if (to >= 0 && to < count) onIndex(to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      if (openPanel) setPanel(null);
      else onClose();
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      go(index + 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      go(index - 1);
    } else if (event.key === 'Tab') {
      // Keep focus inside the dialog.
      const focusable = Array.from(
        dialogRef.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [],
      );
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (!first || !last) return;
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    }
  };

  const onTouchStart = (event: TouchEvent) => {
    const touch = event.touches[0];
    moved.current = false;
    if (event.touches.length === 2) {
      pinch.current = { distance: distance(event.touches), scale: zoom.scale };
      touchStart.current = null;
      return;
    }
    touchStart.current =
      touch && event.touches.length === 1
        ? { x: touch.clientX, y: touch.clientY, time: Date.now() }
        : null;
    pan.current = touch && zoomed ? { x: touch.clientX, y: touch.clientY, zoom } : null;
  };
  const onTouchMove = (event: TouchEvent) => {
    if (pinch.current && event.touches.length === 2) {
      moved.current = true;
      const ratio = distance(event.touches) / (pinch.current.distance || 1);
      const scale = Math.min(ZOOM.max, Math.max(ZOOM.min, pinch.current.scale * ratio));
      setZoom({ scale, x: scale === 1 ? 0 : zoom.x, y: scale === 1 ? 0 : zoom.y });
      return;
    }
    const touch = event.touches[0];
    if (pan.current && touch) {
      moved.current = true;
      setZoom({
        scale: pan.current.zoom.scale,
        x: pan.current.zoom.x + touch.clientX - pan.current.x,
        y: pan.current.zoom.y + touch.clientY - pan.current.y,
      });
    }
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    if (event.touches.length === 0) pinch.current = null;
    touchStart.current = null;
    pan.current = null;
    // A pinch or a pan is not a swipe.
    if (!start || !touch || moved.current) return;
    const now = Date.now();
    const gesture = classifyTouch({
      startX: start.x,
      startY: start.y,
      startTime: start.time,
      endX: touch.clientX,
      endY: touch.clientY,
      endTime: now,
    });
    if (gesture === 'close') onClose();
    else if (gesture === 'next') go(index + 1);
    else if (gesture === 'previous') go(index - 1);
    else if (gesture === 'tap') {
      if (isDoubleTap(lastTap.current, now)) {
        setZoom(zoomed ? NO_ZOOM : { scale: ZOOM.doubleTap, x: 0, y: 0 });
        lastTap.current = null;
      } else lastTap.current = now;
    }
  };

  const copyLink = async (target: Photo) => {
    try {
      await navigator.clipboard.writeText(await options.shareUrl(target));
      setNotice(t('albums.viewer.linkCopied'));
    } catch {
      setNotice(t('albums.viewer.copyFailed'));
    }
  };

  const shareOnFacebook = async (target: Photo) => {
    // Open the window during the click (popup blockers), then point it at the share dialog.
    const popup = window.open('', '_blank', 'width=640,height=480');
    if (popup) popup.opener = null;
    const url = `https://www.facebook.com/sharer/sharer.php?u=${encodeURIComponent(await options.shareUrl(target))}`;
    if (popup) popup.location.href = url;
    else window.open(url, '_blank', 'noopener,noreferrer');
    options.onFacebookShare?.(target);
  };

  /** The system share sheet where there is one; else the menu (copy link, Facebook). */
  const share = async (target: Photo) => {
    if (!canUseShareSheet()) {
      togglePanel('share');
      return;
    }
    try {
      await navigator.share({ url: await options.shareUrl(target), title: options.title });
    } catch (error) {
      if (!(error instanceof DOMException && error.name === 'AbortError')) togglePanel('share');
    }
  };

  const source = photo ? viewerSource(photo) : null;
  const alt = photo
    ? t('albums.photoAlt', { name: photo.file_name, date: displayDate(photo.created_date) })
    : '';
  const position = t('albums.viewer.position', { position: index + 1, count });
  const savable = photo && !options.canDownload && options.canSavePreview && source;
  return (
    <div
      ref={dialogRef}
      className="albums-viewer fb-dark"
      role="dialog"
      aria-modal="true"
      aria-label={t('albums.viewer.label', { position: index + 1, count })}
      onKeyDown={onKeyDown}
    >
      <div
        className={`albums-viewer-stage${zoomed ? ' albums-viewer-stage--zoomed' : ''}`}
        onTouchStart={onTouchStart}
        onTouchMove={onTouchMove}
        onTouchEnd={onTouchEnd}
        onDoubleClick={() => setZoom(zoomed ? NO_ZOOM : { scale: ZOOM.doubleTap, x: 0, y: 0 })}
        data-testid="viewer-stage"
      >
        {!photo || !source ? (
          <p className="albums-viewer-loading">{t('albums.loadingPhoto')}</p>
        ) : videoSource(photo) ? (
          // Short clips and animated GIFs play on their own, muted and looping; longer clips wait
          // for the guest (controls). The poster is what the tile showed.
          <video
            key={photo.id}
            src={videoSource(photo) ?? undefined}
            poster={source}
            controls={photo.media_type === 'video'}
            playsInline
            autoPlay={playsOnItsOwn(photo)}
            muted={playsOnItsOwn(photo)}
            loop={playsOnItsOwn(photo)}
            preload="metadata"
            aria-label={alt}
            data-testid="viewer-video"
          />
        ) : (
          <img
            key={photo.id}
            src={source}
            alt={alt}
            draggable={false}
            style={
              zoomed
                ? {
                    transform: `translate(${zoom.x}px, ${zoom.y}px) scale(${zoom.scale})`,
                  }
                : undefined
            }
          />
        )}
        {photo && !photo.urls.photo_watermark && options.watermarkOverlay && (
          <img className="albums-viewer-watermark" src={options.watermarkOverlay} alt="" />
        )}
      </div>
      <div className="albums-viewer-top">
        <IconButton
          ref={closeRef}
          icon="close"
          label={t('albums.viewer.close')}
          variant="on-photo"
          onClick={onClose}
        />
        {options.logo && <ViewerLogo logo={options.logo} title={options.title ?? ''} />}
        <span className="albums-viewer-position" aria-live="polite">
          {position}
          {options.showFileNames && photo && (
            <span className="albums-viewer-name"> · {photo.file_name}</span>
          )}
        </span>
        <div className="albums-viewer-tools">
          <IconButton
            icon="info"
            label={t('albums.viewer.info')}
            variant="on-photo"
            aria-expanded={openPanel === 'info'}
            onClick={() => togglePanel('info')}
          />
          {photo && photo.is_360 === 1 && source && (
            // The 360° page (owner console §2: url, closeable, wm=111 for a watermark).
            <a
              className="fb-button albums-viewer-360"
              href={`/share/viewer?url=${encodeURIComponent(source)}&closeable=1${options.watermarkOverlay || photo.urls.photo_watermark ? '&wm=111' : ''}`}
              data-testid="viewer-360"
            >
              {t('albums.open360')}
            </a>
          )}
          {photo && !options.kiosk && (
            <IconButton
              icon="share"
              label={t('albums.viewer.share')}
              variant="on-photo"
              aria-expanded={openPanel === 'share'}
              onClick={() => void share(photo)}
            />
          )}
          {photo && options.onSend && (
            <IconButton
              icon="send"
              label={t('albums.viewer.send')}
              variant="on-photo"
              onClick={() => options.onSend?.(photo)}
            />
          )}
          {photo && options.canDownload && photo.urls.original && (
            <a
              className="fb-button fb-icon-button fb-icon-button--on-photo"
              href={photo.urls.original}
              aria-label={t('albums.viewer.download')}
              title={t('albums.viewer.download')}
              {...(options.inApp ? { target: '_self' } : { download: photo.file_name })}
            >
              <Icon name="download" />
            </a>
          )}
          {savable && (
            <IconButton
              icon="download"
              label={t('albums.viewer.save')}
              variant="on-photo"
              onClick={() =>
                void downloadFile(
                  source,
                  downloadName(
                    photo.file_name,
                    index,
                    options.title ?? '',
                    options.showFileNames === true,
                  ),
                )
              }
            />
          )}
        </div>
      </div>
      <IconButton
        className="albums-viewer-nav albums-viewer-nav--previous"
        icon="previous"
        label={t('albums.viewer.previous')}
        variant="on-photo"
        onClick={() => go(index - 1)}
        disabled={index <= 0}
      />
      <IconButton
        className="albums-viewer-nav albums-viewer-nav--next"
        icon="next"
        label={t('albums.viewer.next')}
        variant="on-photo"
        onClick={() => go(index + 1)}
        disabled={index >= count - 1}
      />
      {openPanel === 'share' && photo && (
        <div className="albums-viewer-panel" role="group" aria-label={t('albums.viewer.share')}>
          <button type="button" onClick={() => void copyLink(photo)}>
            <Icon name="link" />
            {t('albums.viewer.copyLink')}
          </button>
          <button type="button" onClick={() => void shareOnFacebook(photo)}>
            <Icon name="facebook" />
            {t('albums.viewer.facebook')}
          </button>
        </div>
      )}
      {openPanel === 'info' && photo && (
        <dl className="albums-viewer-panel albums-viewer-info">
          <dt>{t('albums.viewer.taken')}</dt>
          <dd>{displayDate(photo.created_date)}</dd>
          {photo.width && photo.height ? (
            <>
              <dt>{t('albums.viewer.size')}</dt>
              <dd>
                {photo.width} × {photo.height} · {megabytes(photo.size_bytes)}
              </dd>
            </>
          ) : null}
          {options.showFileNames && (
            <>
              <dt>{t('albums.viewer.fileName')}</dt>
              <dd>{photo.file_name}</dd>
            </>
          )}
        </dl>
      )}
      {notice && (
        <span role="status" className="albums-viewer-notice">
          {notice}
        </span>
      )}
    </div>
  );
}

/** The event's logo in the viewer's top bar, linked to the operator's `logo_link`. */
function ViewerLogo({
  logo,
  title,
}: {
  logo: { readonly src: string; readonly link: string | null };
  title: string;
}) {
  const { t } = useTranslation();
  const href = httpLink(logo.link);
  const image = (
    <img className="albums-viewer-logo" src={logo.src} alt={t('albums.cover.logoAlt', { title })} />
  );
  return href ? (
    <a className="albums-viewer-logo-link" href={href} target="_blank" rel="noopener">
      {image}
    </a>
  ) : (
    image
  );
}
