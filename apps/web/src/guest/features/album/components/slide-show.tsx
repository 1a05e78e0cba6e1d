import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { videoSource, viewerSource } from '../../../shared/utils/photo-image.ts';
import { usePhotoTime } from '../../../shared/utils/event-clock.ts';
import { AlbumLinkQr } from '../../../shared/components/album-link-qr.tsx';
import { IconButton } from '../../../shared/components/icon-button.tsx';
import { httpLink } from '../../../shared/utils/http-link.ts';

export { DEFAULT_SLIDESHOW_SECONDS } from '../utils/slideshow-seconds.ts';

/** `slideshowBg` is a colour (`#123`, `rgb(…)`, a name) or an image address. */
export const slideshowBackground = (
  bg: string,
): { backgroundColor?: string; backgroundImage?: string } => {
  const value = bg.trim();
  if (!value) return {};
  if (/^(#|rgb|hsl)|^[a-z]+$/i.test(value)) return { backgroundColor: value };
  return { backgroundImage: `url("${value.replace(/["\\\n]/g, '')}")` };
};

/** What the slide show shows of the event besides the photos. */
export interface SlideShowBranding {
  readonly title: string;
  readonly logo: string | null;
  /** The operator's link behind the logo (owner console §3 `logo_link`); http(s) only. */
  readonly logoLink?: string | null;
  readonly hashTag: string;
  /** The album's public link for the QR code; none for links that are keys. */
  readonly albumUrl: string | null;
  /**
   * The photo-stream site's `mode=qrcode`: the QR code names the photo on screen (its
   * share-preview link) instead of the album.
   */
  readonly photoUrl?: ((photo: Photo) => string) | null;
}

/** A photo close enough to the screen's shape fills it (cover); others fit over a blurred copy. */
const COVER_WHEN_RATIO_WITHIN = 0.18;

const fitFor = (photo: Photo): 'cover' | 'contain' => {
  if (!photo.width || !photo.height) return 'contain';
  const photoRatio = photo.width / photo.height;
  const screenRatio = window.innerWidth / Math.max(1, window.innerHeight);
  return Math.abs(photoRatio / screenRatio - 1) <= COVER_WHEN_RATIO_WITHIN ? 'cover' : 'contain';
};

/**
 * Full-screen slide show and live wall: photos newest first, one after another, with a
 * cross-fade; a photo of the screen's shape fills it, others fit over a blurred copy of themselves.
 * New photos jump the queue and move at the short interval until they have all been shown; then
 * the long interval applies. The event's logo, title and hash tag and a QR code to the album sit
 * in the corners. Only the outgoing and the incoming photo are in the page, so it runs for hours.
 */
export function SlideShow({
  count,
  photoAt,
  showRange,
  minSeconds,
  maxSeconds,
  background,
  branding,
  style,
}: {
  count: number;
  photoAt: (index: number) => Photo | undefined;
  showRange: (first: number, last: number) => void;
  minSeconds: number;
  maxSeconds: number;
  background: string;
  branding?: SlideShowBranding;
  style?: CSSProperties;
}) {
  const { t } = useTranslation();
  const rootRef = useRef<HTMLDivElement>(null);
  const [state, setState] = useState({ index: 0, pending: 0, count });

  // Photos arrive at the front: keep showing the same photo, and queue the new ones.
  if (count !== state.count) {
    const added = Math.max(0, count - state.count);
    setState({
      index: Math.min(state.index + added, Math.max(0, count - 1)),
      pending: state.pending + added,
      count,
    });
  }

  // A clip plays to its end before the next slide (a second's grace for the start).
  const current = photoAt(state.index);
  const clipSeconds =
    current && videoSource(current) && current.media_type === 'video' && current.duration_ms
      ? current.duration_ms / 1000 + 1
      : 0;
  const seconds = Math.max(clipSeconds, state.pending > 0 ? minSeconds : maxSeconds);
  useEffect(() => {
    if (count <= 1 && state.pending === 0) return undefined;
    const timer = setTimeout(() => {
      setState((s) =>
        s.pending > 0
          ? { ...s, index: s.pending - 1, pending: s.pending - 1 }
          : { ...s, index: s.count > 0 ? (s.index + 1) % s.count : 0 },
      );
    }, seconds * 1000);
    return () => clearTimeout(timer);
  }, [state, seconds, count]);

  useEffect(() => {
    showRange(state.index, Math.min(count - 1, state.index + 1));
  }, [state.index, count, showRange]);

  // The slide under the incoming one, until the fade is over.
  const photo = photoAt(state.index);
  const [previous, setPrevious] = useState<{ current: Photo | null; before: Photo | null }>({
    current: photo ?? null,
    before: null,
  });
  if (photo && photo.id !== previous.current?.id)
    setPrevious({ current: photo, before: previous.current });

  const tag = branding?.hashTag.trim().replace(/^#+/, '') ?? '';
  const logoHref = httpLink(branding?.logoLink);
  const logo = branding?.logo ? (
    <img
      className="albums-slideshow-logo"
      src={branding.logo}
      alt={t('albums.cover.logoAlt', { title: branding.title })}
    />
  ) : null;
  const qrUrl =
    photo && branding?.photoUrl ? branding.photoUrl(photo) : (branding?.albumUrl ?? null);
  return (
    <div
      ref={rootRef}
      className="albums-slideshow fb-dark"
      role="region"
      aria-label={t('albums.slideshow.label')}
      style={{ ...style, ...slideshowBackground(background) }}
    >
      {previous.before && previous.before.id !== photo?.id && (
        <Slide key={`before-${previous.before.id}`} photo={previous.before} entering={false} />
      )}
      {photo && <Slide key={photo.id} photo={photo} entering />}
      {branding && (
        <div className="albums-slideshow-brand">
          {logo &&
            (logoHref ? (
              <a
                href={logoHref}
                target="_blank"
                rel="noopener"
                className="albums-slideshow-logo-link"
              >
                {logo}
              </a>
            ) : (
              logo
            ))}
          <div>
            <p className="albums-slideshow-title">{branding.title}</p>
            {tag && <p className="albums-slideshow-tag">#{tag}</p>}
          </div>
        </div>
      )}
      {qrUrl && (
        <div
          className={`albums-slideshow-qr${branding?.photoUrl ? ' albums-slideshow-qr--photo' : ''}`}
          data-qr-url={qrUrl}
        >
          <AlbumLinkQr
            url={qrUrl}
            alt={t(branding?.photoUrl ? 'albums.slideshow.photoQrAlt' : 'albums.slideshow.qrAlt')}
          />
          <p>
            {t(
              branding?.photoUrl ? 'albums.slideshow.photoQrCaption' : 'albums.slideshow.qrCaption',
            )}
          </p>
        </div>
      )}
      {document.fullscreenEnabled && (
        <IconButton
          icon="fullscreen"
          label={t('albums.slideshow.fullScreen')}
          variant="on-photo"
          className="albums-slideshow-fullscreen"
          onClick={() => void rootRef.current?.requestFullscreen().catch(() => undefined)}
        />
      )}
    </div>
  );
}

/** One slide: the photo over a blurred copy of itself (when it does not fill the screen). */
function Slide({ photo, entering }: { photo: Photo; entering: boolean }) {
  const { t } = useTranslation();
  const photoTime = usePhotoTime();
  const source = viewerSource(photo);
  if (!source) return null;
  const fit = fitFor(photo);
  return (
    <div className={`albums-slide${entering ? ' albums-slide--in' : ''}`} aria-hidden={!entering}>
      {fit === 'contain' && (
        <img className="albums-slide-backdrop" src={photo.urls.thumbnail ?? source} alt="" />
      )}
      {videoSource(photo) && entering ? (
        <video
          className={`albums-slide-photo albums-slide-photo--${fit}`}
          src={videoSource(photo) ?? undefined}
          poster={source}
          autoPlay
          muted
          playsInline
          loop={photo.media_type === 'image'}
          aria-label={t('albums.photoAlt', {
            name: photo.file_name,
            date: photoTime(photo.created_date),
          })}
          data-photo-id={photo.id}
        />
      ) : (
        <img
          className={`albums-slide-photo albums-slide-photo--${fit}`}
          src={source}
          alt={
            entering
              ? t('albums.photoAlt', {
                  name: photo.file_name,
                  date: photoTime(photo.created_date),
                })
              : ''
          }
          data-photo-id={entering ? photo.id : undefined}
        />
      )}
    </div>
  );
}
