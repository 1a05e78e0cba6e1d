import { useEffect, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { IconButton } from '../components/icon-button.tsx';
import { Icon } from '../components/icons.tsx';
import { httpLink } from '../utils/http-link.ts';
import { downloadFile, downloadName } from '../utils/share-download.ts';
import type { ShareActions } from './use-share-actions.ts';
import { ViewerPosition } from './viewer-caption.tsx';
import type { ViewerOptions, ViewerPanel } from './viewer-options.ts';

/**
 * The viewer's top bar: close, the event's logo, the position, and the photo's actions (info,
 * 360° page, share, send, download the original or save the preview) as the options allow.
 */
export function ViewerTopBar({
  closeRef,
  onClose,
  photo,
  source,
  index,
  count,
  options,
  openPanel,
  togglePanel,
  share,
}: {
  closeRef: RefObject<HTMLButtonElement | null>;
  onClose: () => void;
  photo: Photo | undefined;
  source: string | null;
  index: number;
  count: number;
  options: ViewerOptions;
  openPanel: ViewerPanel | null;
  togglePanel: (kind: ViewerPanel) => void;
  share: ShareActions['share'];
}) {
  const { t } = useTranslation();
  const savable = photo && !options.canDownload && options.canSavePreview && source;
  return (
    <div className="albums-viewer-top">
      <IconButton
        ref={closeRef}
        icon="close"
        label={t('albums.viewer.close')}
        variant="on-photo"
        onClick={onClose}
      />
      {options.logo && <ViewerLogo logo={options.logo} title={options.title ?? ''} />}
      <ViewerPosition
        index={index}
        count={count}
        fileName={options.showFileNames && photo ? photo.file_name : null}
      />
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
        {photo && options.favourites && (
          <IconButton
            icon="heart"
            className="albums-viewer-heart"
            label={t('albums.favourites.viewerToggle')}
            variant="on-photo"
            aria-pressed={options.favourites.isFavourite(photo)}
            onClick={() => options.favourites?.toggle(photo)}
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
            onClick={() => options.onDownload?.(photo)}
          >
            <Icon name="download" />
          </a>
        )}
        {savable && (
          <IconButton
            icon="download"
            label={t('albums.viewer.save')}
            variant="on-photo"
            onClick={() => {
              options.onDownload?.(photo);
              void downloadFile(
                source,
                downloadName(
                  photo.file_name,
                  index,
                  options.title ?? '',
                  options.showFileNames === true,
                ),
              );
            }}
          />
        )}
      </div>
    </div>
  );
}

/**
 * The share menu where there is no system share sheet: the event's share text (shown as text,
 * never as links or markup) to copy, the link to copy, or Facebook.
 */
export function ViewerSharePanel({
  photo,
  shareText,
  copyLink,
  copyText,
  shareOnFacebook,
}: {
  photo: Photo;
  shareText?: (photo: Photo) => Promise<string>;
  copyLink: ShareActions['copyLink'];
  copyText: ShareActions['copyText'];
  shareOnFacebook: ShareActions['shareOnFacebook'];
}) {
  const { t } = useTranslation();
  const [text, setText] = useState<{ uid: string; text: string } | null>(null);
  useEffect(() => {
    if (!shareText) return;
    let live = true;
    void shareText(photo).then((value) => {
      if (live) setText({ uid: photo.uid, text: value.trim() });
    });
    return () => {
      live = false;
    };
  }, [photo, shareText]);
  const shown = text?.uid === photo.uid && text.text ? text.text : null;
  return (
    <div className="albums-viewer-panel" role="group" aria-label={t('albums.viewer.share')}>
      {shown && (
        <>
          <p className="albums-viewer-share-text">{shown}</p>
          <button type="button" onClick={() => void copyText(shown)}>
            <Icon name="link" />
            {t('albums.viewer.copyText')}
          </button>
        </>
      )}
      <button type="button" onClick={() => void copyLink(photo)}>
        <Icon name="link" />
        {t('albums.viewer.copyLink')}
      </button>
      <button type="button" onClick={() => void shareOnFacebook(photo)}>
        <Icon name="facebook" />
        {t('albums.viewer.facebook')}
      </button>
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
