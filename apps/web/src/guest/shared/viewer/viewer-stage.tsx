import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { useTranslation } from 'react-i18next';
import { needsWatermarkOverlay, playsOnItsOwn, videoSource } from '../utils/photo-image.ts';
import type { useViewerGestures } from './use-viewer-gestures.ts';
import type { ViewerZoom } from './use-viewer-zoom.ts';

/**
 * The photo or video, fitted to the screen and zoomed as the gestures say, with the event's
 * watermark laid over photos that have no watermarked derivative.
 */
export function ViewerStage({
  photo,
  source,
  alt,
  watermarkOverlay,
  zoom: { zoom, zoomed, toggle },
  gestures,
}: {
  photo: Photo | undefined;
  source: string | null;
  alt: string;
  watermarkOverlay: string | null;
  zoom: ViewerZoom;
  gestures: ReturnType<typeof useViewerGestures>;
}) {
  const { t } = useTranslation();
  return (
    <div
      className={`albums-viewer-stage${zoomed ? ' albums-viewer-stage--zoomed' : ''}`}
      onTouchStart={gestures.onTouchStart}
      onTouchMove={gestures.onTouchMove}
      onTouchEnd={gestures.onTouchEnd}
      onDoubleClick={toggle}
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
      {photo && needsWatermarkOverlay(photo, watermarkOverlay) && (
        <img className="albums-viewer-watermark" src={watermarkOverlay ?? undefined} alt="" />
      )}
    </div>
  );
}
