import * as endpoints from '../../../../lib/guest-endpoints.ts';
import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  API_BASE,
  INSTANT_STREAM_EVENT,
  INSTANT_STREAM_PATH,
  parseInstantParam,
  type InstantState,
} from '@flashbulb/shared';
import { callApi } from '../../../../lib/api-client.ts';
import { AlbumSkeleton, AlbumState } from '../../../shared/components/album-states.tsx';
import { IconButton } from '../../../shared/components/icon-button.tsx';
import { PhotoCodeForm } from '../../../shared/components/photo-code-form.tsx';
import { useGuestLanguage } from '../../../shared/hooks/use-guest-language.ts';
import { downloadFile, downloadName, shareLink } from '../../../shared/utils/share-download.ts';
import '../instant.css';

/** The instant link's live state on this origin (server-sent events). */
export const instantStreamUrl = (instant: string): string =>
  `${API_BASE}${INSTANT_STREAM_PATH}?${new URLSearchParams({ instant }).toString()}`;

/**
 * While the page says "developing": the server's stream tells each change (the photo ready, the
 * upload refused, the grant's end without a photo). EventSource reconnects by itself.
 */
const useInstantStream = (
  instant: string,
  developing: boolean,
  onState: (state: InstantState) => void,
) => {
  useEffect(() => {
    if (!developing || typeof EventSource === 'undefined') return undefined;
    const source = new EventSource(instantStreamUrl(instant));
    source.addEventListener(INSTANT_STREAM_EVENT, (event: MessageEvent<string>) => {
      const state = JSON.parse(event.data) as InstantState;
      onState(state);
      if (state.state !== 'developing') source.close();
    });
    return () => source.close();
  }, [instant, developing, onState]);
};

/**
 * An instant link (`?instant=<event>-<code>`): the page a booth's QR code opens before the photo
 * is uploaded. "Developing" (an animated print) until the photo is ready, then the photo as the
 * event's guests see it, with saving and sharing as the event allows; a refused or missing upload
 * is said plainly instead of waiting forever.
 */
export function InstantPhotoPage({ instant: linked }: { instant: string }) {
  const { t } = useTranslation();
  // The link's photo, or the one whose code the guest typed on the not-found page.
  const [instant, setInstant] = useState(linked);
  // No event settings reach this page: the guest's choice, else their browser's language.
  useGuestLanguage(null, false);
  const [live, setLive] = useState<InstantState | null>(null);
  const [shared, setShared] = useState<string | null>(null);
  const query = useQuery({
    queryKey: ['albums', 'instant', instant],
    queryFn: ({ signal }) => callApi(endpoints.retrieveInstantPhoto, { instant }, { signal }),
    staleTime: Infinity,
    retry: false,
  });
  const state = live ?? query.data ?? null;
  useInstantStream(instant, state?.state === 'developing', setLive);

  if (query.isPending) return <AlbumSkeleton />;
  if (!state) {
    const eventName = parseInstantParam(instant)?.eventName;
    return (
      <AlbumState
        icon="link"
        role="alert"
        title={t('albums.instant.notFoundTitle')}
        action={
          eventName && (
            <PhotoCodeForm
              eventName={eventName}
              onFound={(found) => {
                // The typed code's own link in the address bar (kept, shared, reloaded).
                window.history.pushState(null, '', `?instant=${encodeURIComponent(found)}`);
                setLive(null);
                setInstant(found);
              }}
            />
          )
        }
      >
        <p>{t('albums.instant.notFoundText')}</p>
      </AlbumState>
    );
  }
  if (state.state === 'failed')
    return (
      <AlbumState
        icon="alert"
        role="alert"
        title={t('albums.instant.failedTitle')}
        action={<p className="instant-code">{t('albums.instant.code', { code: state.code })}</p>}
      >
        <p>{t('albums.instant.failedText')}</p>
      </AlbumState>
    );
  if (state.state === 'developing' || !state.photo || !state.event)
    return (
      <main className="albums-main instant-page" aria-busy="true">
        <div className="instant-print instant-print--developing" aria-hidden="true">
          <span className="instant-print-picture" />
        </div>
        <h1 className="instant-title">{t('albums.instant.developingTitle')}</h1>
        <p className="instant-text" role="status">
          {t('albums.instant.developingText')}
        </p>
        <p className="instant-code">{t('albums.instant.code', { code: state.code })}</p>
      </main>
    );

  const { photo, event } = state;
  const picture = photo.urls.preview ?? photo.urls.thumbnail;
  const title = event.full_name || t('albums.defaultTitle');
  const share = async () => {
    const outcome = await shareLink(window.location.href, title);
    setShared(outcome === 'copied' ? t('albums.instant.copied') : null);
  };
  return (
    <main className="albums-main instant-page">
      <p className="instant-event">{title}</p>
      <div className="instant-print instant-print--ready">
        {photo.media_type === 'video' && photo.urls.video ? (
          <video
            className="instant-print-media"
            src={photo.urls.video}
            poster={picture ?? undefined}
            controls
            playsInline
            loop
          />
        ) : (
          picture && (
            <img className="instant-print-media" src={picture} alt={t('albums.instant.photoAlt')} />
          )
        )}
      </div>
      <h1 className="fb-visually-hidden">{t('albums.instant.readyTitle')}</h1>
      <div className="instant-actions">
        {event.download_enabled === 1 && picture && (
          <IconButton
            icon="download"
            label={t('albums.instant.download')}
            showLabel
            variant="primary"
            onClick={() =>
              // Named after the event, not the booth's file (file names are the operator's to show).
              void downloadFile(
                photo.urls.original ?? picture,
                downloadName(photo.file_name, 0, title, false),
              )
            }
          />
        )}
        <IconButton
          icon="share"
          label={t('albums.instant.share')}
          showLabel
          onClick={() => void share()}
        />
      </div>
      {shared && (
        <p className="instant-text" role="status">
          {shared}
        </p>
      )}
    </main>
  );
}
