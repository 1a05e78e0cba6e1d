import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import {
  ALBUM_DOWNLOAD_MAIL_THRESHOLD,
  type AlbumDownloadSize,
} from '@flashbulb/shared/api/albums/albums';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  albumZipStatus,
  createAlbumZip,
  trackInsight,
  type AlbumKey,
} from '../../../shared/api/guest-album-photos.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import { IconButton } from '../../../shared/components/icon-button.tsx';
import { EmailSuggestions } from '../../../shared/components/email-suggestions.tsx';
import { downloadZip, type ZipProgress } from '../../../../lib/zip-download.ts';

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ZipProgress | null }
  | { kind: 'done'; held: boolean }
  | { kind: 'mailed'; email: string; token: string | null; url: string | null }
  | { kind: 'failed'; text: string };

const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * The album's download: the size (web or original, where the key may have originals), then the
 * zip with a real progress bar (bytes received of the zip's length). A whole album above the mail
 * threshold asks for an e-mail address instead: a job builds the zip and mails its link.
 */
export function DownloadPanel({
  albumKey,
  photoIds,
  count,
  offerOriginal,
  emailEnds = [],
  onClose,
}: {
  albumKey: AlbumKey;
  /** The chosen photos, or null for the whole album. */
  photoIds: number[] | null;
  count: number;
  /** Whether originals may be had (the server decides each file again). */
  offerOriginal: boolean;
  emailEnds?: readonly string[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [size, setSize] = useState<AlbumDownloadSize>(offerOriginal ? 'original' : 'web');
  const [email, setEmail] = useState('');
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const mailed = photoIds === null && count > ALBUM_DOWNLOAD_MAIL_THRESHOLD;

  const start = async (event: FormEvent) => {
    event.preventDefault();
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: null });
    try {
      const created = await createAlbumZip(albumKey, photoIds, {
        size,
        ...(mailed ? { email } : {}),
      });
      // One download for the event's insight, whether streamed or mailed.
      trackInsight(albumKey, 'download');
      if (created.mailed === 1 || !created.url) {
        setPhase({ kind: 'mailed', email, token: created.status_token ?? null, url: null });
        return;
      }
      const held = await downloadZip(
        created.url,
        (progress) => setPhase({ kind: 'running', progress }),
        controller.signal,
      );
      setPhase({ kind: 'done', held });
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({ kind: 'failed', text: errorText(errorKeyOf(error)) });
    }
  };

  // A zip the job builds: ask now and then (waits doubling) while the page is open, and show its
  // link here too once it is stored.
  const waitingToken = phase.kind === 'mailed' && !phase.url ? phase.token : null;
  useEffect(() => {
    if (!waitingToken) return undefined;
    let live = true;
    let timer: number | undefined;
    const ask = (wait: number) => {
      timer = window.setTimeout(() => {
        albumZipStatus(albumKey, waitingToken)
          .then((status) => {
            if (!live) return;
            if (status.ready === 1 && status.url)
              setPhase((now) => (now.kind === 'mailed' ? { ...now, url: status.url } : now));
            else ask(Math.min(wait * 2, pollTiming.zipReadyMaxMs));
          })
          .catch(() => {
            // The mail still brings the link; keep asking, less often.
            if (live) ask(Math.min(wait * 2, pollTiming.zipReadyMaxMs));
          });
      }, wait);
    };
    ask(pollTiming.zipReadyMs);
    return () => {
      live = false;
      window.clearTimeout(timer);
    };
  }, [albumKey, waitingToken]);

  const running = phase.kind === 'running';
  const progress = running ? phase.progress : null;
  return (
    <form
      className="albums-download-dialog"
      aria-label={t('albums.download.title')}
      onSubmit={(event) => void start(event)}
    >
      <p className="albums-note">{t('albums.download.count', { count })}</p>
      {offerOriginal && (
        <fieldset disabled={running}>
          <legend className="albums-note">{t('albums.download.size')}</legend>
          <label>
            <input
              type="radio"
              name="album-download-size"
              value="original"
              checked={size === 'original'}
              onChange={() => setSize('original')}
            />
            {t('albums.download.original')}
          </label>
          <label>
            <input
              type="radio"
              name="album-download-size"
              value="web"
              checked={size === 'web'}
              onChange={() => setSize('web')}
            />
            {t('albums.download.web')}
          </label>
        </fieldset>
      )}
      {mailed && (
        <label className="albums-field">
          {t('albums.download.mailHint')}
          <input
            type="email"
            required
            autoComplete="email"
            value={email}
            list="album-download-email-ends"
            onChange={(event) => setEmail(event.target.value)}
          />
          <EmailSuggestions id="album-download-email-ends" value={email} endings={emailEnds} />
        </label>
      )}
      {running && (
        <div role="status">
          <progress
            max={progress?.total ?? undefined}
            value={progress?.total ? progress.received : undefined}
            aria-label={t('albums.download.progressLabel')}
          />
          <p className="albums-note">
            {progress?.total
              ? t('albums.download.progress', {
                  received: megabytes(progress.received),
                  total: megabytes(progress.total),
                })
              : t('albums.download.preparing')}
          </p>
        </div>
      )}
      {phase.kind === 'done' && (
        <p className="albums-note" role="status">
          {phase.held ? t('albums.download.done') : t('albums.download.byBrowser')}
        </p>
      )}
      {phase.kind === 'mailed' && (
        <p className="albums-note" role="status">
          {phase.url ? (
            <>
              {t('albums.download.ready')}{' '}
              <a href={phase.url} download rel="noopener">
                {t('albums.download.readyLink')}
              </a>
            </>
          ) : (
            t('albums.download.mailed', { email: phase.email })
          )}
        </p>
      )}
      {phase.kind === 'failed' && (
        <p className="albums-note" role="alert">
          {phase.text}
        </p>
      )}
      <div className="albums-favourites-bar">
        <IconButton
          icon="download"
          type="submit"
          variant="primary"
          showLabel
          label={mailed ? t('albums.download.mailButton') : t('albums.download.start')}
          disabled={running}
        />
        <button type="button" onClick={onClose}>
          {t('albums.download.close')}
        </button>
      </div>
    </form>
  );
}
