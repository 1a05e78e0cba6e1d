import { useEffect, useRef, useState, type KeyboardEvent, type TouchEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { classifyTouch, isDoubleTap } from '../utils/gestures.ts';
import { displayDate, viewerSource } from '../utils/photo-image.ts';

const FOCUSABLE =
  'button:not([disabled]), a[href], video[controls], [tabindex]:not([tabindex="-1"])';

/** What the viewer may offer for a photo; decided by the page from its key type. */
export interface ViewerOptions {
  readonly canDownload: boolean;
  /**
   * In the mobile app's web view (`app=ios|android`) the `download` attribute is ignored: the file
   * opens in the same window instead, where the app's own viewer saves it.
   */
  readonly inApp?: boolean;
  /** The event's watermark image, laid over photos that have no watermarked derivative. */
  readonly watermarkOverlay: string | null;
  /** The link to share for a photo (share page when the server makes one, else the preview). */
  readonly shareUrl: (photo: Photo) => Promise<string>;
  /** Called after the Facebook dialog opens (activity tracking, when the server has it). */
  readonly onFacebookShare?: (photo: Photo) => void;
}

/**
 * Full-screen image or video preview (albums spec §2.5): arrows and swipes move, Esc and the
 * vertical swipe close, a double tap zooms; focus stays inside while it is open and returns to the
 * page afterwards.
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
  const lastTap = useRef<number | null>(null);
  // Zoom and notices belong to one photo: keyed by its index, they reset when the viewer moves.
  const [zoomedAt, setZoomedAt] = useState<number | null>(null);
  const [noticeAt, setNoticeAt] = useState<{ index: number; text: string } | null>(null);
  const zoomed = zoomedAt === index;
  const notice = noticeAt?.index === index ? noticeAt.text : null;
  const setNotice = (text: string) => setNoticeAt({ index, text });
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

  const go = (to: number) => {
    if (to >= 0 && to < count) onIndex(to);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
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
    touchStart.current =
      touch && event.touches.length === 1
        ? { x: touch.clientX, y: touch.clientY, time: Date.now() }
        : null;
  };
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current;
    const touch = event.changedTouches[0];
    touchStart.current = null;
    if (!start || !touch) return;
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
        setZoomedAt(zoomed ? null : index);
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

  const source = photo ? viewerSource(photo) : null;
  const alt = photo
    ? t('albums.photoAlt', { name: photo.file_name, date: displayDate(photo.created_date) })
    : '';
  return (
    <div
      ref={dialogRef}
      className="albums-viewer"
      role="dialog"
      aria-modal="true"
      aria-label={t('albums.viewer.label', { position: index + 1, count })}
      onKeyDown={onKeyDown}
    >
      <div
        className={`albums-viewer-stage${zoomed ? ' albums-viewer-stage--zoomed' : ''}`}
        onTouchStart={onTouchStart}
        onTouchEnd={onTouchEnd}
        data-testid="viewer-stage"
      >
        {!photo || !source ? (
          <p className="albums-viewer-loading">
            {t('albums.viewer.label', { position: index + 1, count })}
          </p>
        ) : photo.media_type === 'video' ? (
          <video
            key={photo.id}
            src={photo.urls.preview ?? photo.urls.original ?? undefined}
            poster={photo.urls.thumbnail ?? undefined}
            controls
            playsInline
            aria-label={alt}
          />
        ) : (
          <img key={photo.id} src={source} alt={alt} draggable={false} />
        )}
        {photo && !photo.urls.photo_watermark && options.watermarkOverlay && (
          <img className="albums-viewer-watermark" src={options.watermarkOverlay} alt="" />
        )}
      </div>
      <div className="albums-viewer-bar">
        <button ref={closeRef} type="button" onClick={onClose}>
          {t('albums.viewer.close')}
        </button>
        <button type="button" onClick={() => go(index - 1)} disabled={index <= 0}>
          {t('albums.viewer.previous')}
        </button>
        <span className="albums-viewer-position" aria-live="polite">
          {photo ? alt : t('albums.loadingPhoto')}
        </span>
        <button type="button" onClick={() => go(index + 1)} disabled={index >= count - 1}>
          {t('albums.viewer.next')}
        </button>
        {photo && options.canDownload && photo.urls.original && (
          <a
            href={photo.urls.original}
            {...(options.inApp ? { target: '_self' } : { download: photo.file_name })}
          >
            {t('albums.viewer.download')}
          </a>
        )}
        {photo && (
          <>
            <button type="button" onClick={() => void copyLink(photo)}>
              {t('albums.viewer.copyLink')}
            </button>
            <button type="button" onClick={() => void shareOnFacebook(photo)}>
              {t('albums.viewer.facebook')}
            </button>
          </>
        )}
        {notice && (
          <span role="status" className="albums-viewer-notice">
            {notice}
          </span>
        )}
      </div>
    </div>
  );
}
