import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { viewerSource } from '../utils/photo-image.ts';
import { usePhotoTime } from '../utils/event-clock.ts';
import { IconButton } from '../components/icon-button.tsx';
import { useShareActions } from './use-share-actions.ts';
import { useViewerGestures } from './use-viewer-gestures.ts';
import { useModalFocus, useViewerKeys } from './use-viewer-keys.ts';
import { useViewerZoom } from './use-viewer-zoom.ts';
import { ViewerInfo } from './viewer-caption.tsx';
import type { ViewerOptions, ViewerPanel } from './viewer-options.ts';
import { ViewerStage } from './viewer-stage.tsx';
import { ViewerSharePanel, ViewerTopBar } from './viewer-toolbar.tsx';

/**
 * Full-screen image or video preview (albums spec §2.5): the photo fits the screen; an icon
 * toolbar (close, previous, next, download, share, send, info); arrows and swipes move, Esc and
 * the vertical swipe close (§9 bounds), a double tap zooms and two fingers pinch; the neighbours
 * are preloaded; focus stays inside while it is open and returns to the page afterwards.
 * Its parts: keys and focus (`use-viewer-keys`), touch (`use-viewer-gestures`), zoom
 * (`use-viewer-zoom`), share actions (`use-share-actions`), the stage, the top bar and the
 * caption.
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
  const photoTime = usePhotoTime();
  const dialogRef = useRef<HTMLDivElement>(null);
  const closeRef = useRef<HTMLButtonElement>(null);
  // Zoom, panels and notices belong to one photo: keyed by its index, they reset when it moves.
  const zoom = useViewerZoom(index);
  const [noticeAt, setNoticeAt] = useState<{ index: number; text: string } | null>(null);
  const [panel, setPanel] = useState<{ index: number; kind: ViewerPanel } | null>(null);
  const notice = noticeAt?.index === index ? noticeAt.text : null;
  const setNotice = (text: string) => setNoticeAt({ index, text });
  const openPanel = panel?.index === index ? panel.kind : null;
  const togglePanel = (kind: ViewerPanel) => setPanel(openPanel === kind ? null : { index, kind });
  const photo = photoAt(index);

  useModalFocus(closeRef);

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
  const onKeyDown = useViewerKeys({
    dialogRef,
    index,
    go,
    panelOpen: openPanel !== null,
    closePanel: () => setPanel(null),
    onClose,
  });
  const gestures = useViewerGestures({ index, go, onClose, zoom });
  const { copyLink, copyText, shareOnFacebook, share } = useShareActions({
    options,
    setNotice,
    togglePanel,
  });

  const source = photo ? viewerSource(photo) : null;
  const alt = photo
    ? t('albums.photoAlt', { name: photo.file_name, date: photoTime(photo.created_date) })
    : '';
  return (
    <div
      ref={dialogRef}
      className="albums-viewer fb-dark"
      role="dialog"
      aria-modal="true"
      aria-label={t('albums.viewer.label', { position: index + 1, count })}
      onKeyDown={onKeyDown}
    >
      <ViewerStage
        photo={photo}
        source={source}
        alt={alt}
        watermarkOverlay={options.watermarkOverlay}
        zoom={zoom}
        gestures={gestures}
      />
      <ViewerTopBar
        closeRef={closeRef}
        onClose={onClose}
        photo={photo}
        source={source}
        index={index}
        count={count}
        options={options}
        openPanel={openPanel}
        togglePanel={togglePanel}
        share={share}
      />
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
        <ViewerSharePanel
          photo={photo}
          shareText={options.shareText}
          copyLink={copyLink}
          copyText={copyText}
          shareOnFacebook={shareOnFacebook}
        />
      )}
      {openPanel === 'info' && photo && (
        <ViewerInfo photo={photo} showFileNames={options.showFileNames === true} />
      )}
      {notice && (
        <span role="status" className="albums-viewer-notice">
          {notice}
        </span>
      )}
    </div>
  );
}
