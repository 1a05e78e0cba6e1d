// Over ~350 lines as four small components of one flow (Find me: camera or chosen selfie,
// consent, results); none is over ~140 lines.
import { isGuestLanguage, translatedText } from '@flashbulb/shared/i18n/languages';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import {
  addFoundToAlbum,
  consentVersionOf,
  fileToSelfieJpeg,
  lookUpByFace,
  toSelfieJpeg,
  type FaceLookupKey,
  type FaceLookupResult,
  type FoundPhoto,
} from '../../../shared/api/face-lookup.ts';
import type { ViewerOptions } from '../../../shared/viewer/viewer-options.ts';

import { faceLookupOffered } from '../hooks/use-face-lookup-offered.ts';
// The album grid's layout (rows placed by the virtualiser): also on the web-app page, which loads
// no album styles of its own.
import '../../../shared/theme/albums.css';
import '../face-lookup.css';
import { useFrontCamera } from '../../../shared/hooks/use-front-camera.ts';
import { PhotoListGrid } from '../../../shared/components/photo-list-grid.tsx';

export { faceLookupOffered, useFaceLookupOffered } from '../hooks/use-face-lookup-offered.ts';

/** Seconds counted down on the kiosk before the picture is taken. */
export const COUNTDOWN_SECONDS = 3;

/**
 * How the page that composes "Find me" shows it (the web-app page's settings): whether a photo
 * found opens in the viewer, the height of its rows, and the organiser's texts around the
 * guest's own picture — the hint by the selfie buttons, while it uploads, while it is searched.
 * Each text left empty keeps ours.
 */
export interface FaceLookupDisplay {
  linkPhotos?: boolean;
  rowHeight?: number;
  hint?: string;
  uploadMessage?: string;
  processMessage?: string;
}

type Stage =
  | { kind: 'closed' }
  | { kind: 'consent' }
  | { kind: 'refused' }
  | { kind: 'camera' }
  | { kind: 'countdown'; left: number }
  | { kind: 'choose' }
  | { kind: 'searching'; phase: 'uploading' | 'processing' }
  | { kind: 'results'; found: FaceLookupResult }
  | { kind: 'failed'; message: string };

/**
 * "Find me" (albums spec §2.4): the guest accepts the event's face-recognition text
 * (nothing is taken or sent before), takes a selfie — on the kiosk with the camera preview and a
 * 3-2-1 countdown, on a phone with the camera or a file — and sees the photos of them in the album
 * grid. Hidden when the event has face recognition off or selfies disabled.
 *
 * - `kiosk`: opened by the kiosk's 'Look up my images by face' (the kiosk screen's '< Back to
 *   album' unmounts it, which stops the camera).
 * - otherwise (attendee album, public album, web-app page): a "Find me" button opens it above
 *   the album.
 *
 * The results lead somewhere: each opens in the viewer; an attendee key adds the photos found
 * outside the album to it; `onChoose` (a paid album) takes them as the photos to buy or print.
 */
export function FaceLookup({
  albumKey,
  kiosk = false,
  display = {},
  onChoose,
}: {
  albumKey: FaceLookupKey;
  kiosk?: boolean;
  display?: FaceLookupDisplay;
  /** Chooses these photos for a purchase (a paid album's photo choice); the panel closes. */
  onChoose?: ((uids: string[]) => void) | undefined;
}) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const event = useAlbumEvent(albumKey, null);
  const [stage, setStage] = useState<Stage>(() =>
    kiosk ? { kind: 'consent' } : { kind: 'closed' },
  );
  const [consent, setConsent] = useState<string | null>(null);
  const headingId = useId();

  // The consent in the guest's language when the operator gave one; its version stays the
  // setting's own (a translation says the same thing).
  const consentText = translatedText(
    event.data?.opts.faceRecognitionText ?? '',
    event.data?.opts.textTranslations,
    'faceRecognitionText',
    isGuestLanguage(i18n.language) ? i18n.language : 'en',
  ).trim();
  const version = consentVersionOf(event.data?.opts.faceRecognitionText);

  const search = useCallback(
    async (selfie: () => Promise<Blob>) => {
      if (!consent) return;
      setStage({ kind: 'searching', phase: 'uploading' });
      try {
        const found = await lookUpByFace(albumKey, consent, await selfie(), () =>
          setStage({ kind: 'searching', phase: 'processing' }),
        );
        setStage({ kind: 'results', found });
      } catch (error) {
        setStage({ kind: 'failed', message: errorText(errorKeyOf(error)) });
      }
    },
    [albumKey, consent, errorText],
  );

  if (!faceLookupOffered(event.data)) return null;

  const restart = () => setStage(kiosk ? { kind: 'camera' } : { kind: 'choose' });

  if (stage.kind === 'closed') {
    return (
      <div className="face-lookup face-lookup--closed">
        <button
          type="button"
          className="face-lookup-button face-lookup-primary face-lookup-open"
          onClick={() => setStage(consent ? { kind: 'choose' } : { kind: 'consent' })}
        >
          {t('albums.faces.findMe')}
        </button>
      </div>
    );
  }

  return (
    <section
      className={`face-lookup${kiosk ? ' face-lookup--kiosk' : ''}`}
      aria-labelledby={headingId}
      data-face-lookup={stage.kind}
    >
      <div className="face-lookup-head">
        <h2 id={headingId}>{t('albums.faces.title')}</h2>
        {!kiosk && (
          <button
            type="button"
            className="face-lookup-button face-lookup-close"
            onClick={() => setStage({ kind: 'closed' })}
          >
            {t('albums.faces.close')}
          </button>
        )}
      </div>
      {stage.kind === 'consent' && (
        <div className="face-lookup-consent">
          <p className="face-lookup-text">{consentText || t('albums.faces.defaultConsent')}</p>
          <div className="face-lookup-buttons">
            <button
              type="button"
              className="face-lookup-button face-lookup-primary"
              onClick={() => {
                setConsent(version);
                setStage(kiosk ? { kind: 'camera' } : { kind: 'choose' });
              }}
            >
              {t('albums.faces.accept')}
            </button>
            <button
              type="button"
              className="face-lookup-button"
              onClick={() => setStage({ kind: 'refused' })}
            >
              {t('albums.faces.refuse')}
            </button>
          </div>
        </div>
      )}
      {stage.kind === 'refused' && (
        <div className="face-lookup-consent">
          <p role="status">{t('albums.faces.refused')}</p>
          <button
            type="button"
            className="face-lookup-button"
            onClick={() => setStage({ kind: 'consent' })}
          >
            {t('albums.faces.reconsider')}
          </button>
        </div>
      )}
      {(stage.kind === 'camera' || stage.kind === 'countdown') && (
        <KioskCamera
          countdown={stage.kind === 'countdown' ? stage.left : null}
          onStart={() => setStage({ kind: 'countdown', left: COUNTDOWN_SECONDS })}
          onTick={(left) => setStage({ kind: 'countdown', left })}
          onCapture={(frame) => void search(frame)}
          onFailed={(message) => setStage({ kind: 'failed', message })}
        />
      )}
      {stage.kind === 'choose' && (
        <ChooseSelfie
          hint={display.hint?.trim() || t('albums.faces.chooseHint')}
          onChosen={(file) => void search(() => fileToSelfieJpeg(file))}
        />
      )}
      {stage.kind === 'searching' && (
        <p className="albums-message" role="status" data-search-phase={stage.phase}>
          {(stage.phase === 'uploading'
            ? display.uploadMessage?.trim()
            : display.processMessage?.trim()) || t('albums.faces.searching')}
        </p>
      )}
      {stage.kind === 'failed' && (
        <div className="face-lookup-consent">
          <p role="alert">{stage.message}</p>
          <button
            type="button"
            className="face-lookup-button face-lookup-primary"
            onClick={restart}
          >
            {t('albums.faces.tryAgain')}
          </button>
        </div>
      )}
      {stage.kind === 'results' && (
        <FaceResults
          found={stage.found}
          onAgain={restart}
          linkPhotos={display.linkPhotos ?? true}
          rowHeight={display.rowHeight ?? (kiosk ? 260 : 180)}
          onAdd={
            albumKey.keyType === 'attendee' && consent
              ? (uids) => addFoundToAlbum(albumKey, consent, stage.found.selfieKey, uids)
              : undefined
          }
          onChoose={
            onChoose
              ? (uids) => {
                  onChoose(uids);
                  setStage({ kind: 'closed' });
                }
              : undefined
          }
        />
      )}
    </section>
  );
}

/**
 * The kiosk camera: the live preview (`getUserMedia`, played once its metadata is in), a button
 * that starts the 3-2-1 countdown, and the frame taken at zero. The camera stops when this leaves
 * the page (back to album, results, idle timeout).
 */
function KioskCamera({
  countdown,
  onStart,
  onTick,
  onCapture,
  onFailed,
}: {
  countdown: number | null;
  onStart: () => void;
  onTick: (left: number) => void;
  onCapture: (frame: () => Promise<Blob>) => void;
  onFailed: (message: string) => void;
}) {
  const { t } = useTranslation();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  // The parent's callbacks change every render; the timers read the latest ones.
  const handlers = useRef({ onTick, onCapture, onFailed });
  useEffect(() => {
    handlers.current = { onTick, onCapture, onFailed };
  });

  useFrontCamera(videoRef, () => handlers.current.onFailed(t('albums.faces.noCamera')));

  // 3-2-1, then the frame.
  useEffect(() => {
    if (countdown === null) return;
    const timer = window.setTimeout(() => {
      if (countdown > 1) {
        handlers.current.onTick(countdown - 1);
        return;
      }
      const video = videoRef.current;
      if (!video || !video.videoWidth) {
        handlers.current.onFailed(t('albums.faces.noCamera'));
        return;
      }
      const frame = toSelfieJpeg(video, { width: video.videoWidth, height: video.videoHeight });
      handlers.current.onCapture(() => frame);
    }, 1000);
    return () => window.clearTimeout(timer);
  }, [countdown, t]);

  return (
    <div className="face-camera">
      <div className="face-camera-frame">
        <video
          ref={videoRef}
          className="face-camera-video"
          muted
          playsInline
          aria-label={t('albums.faces.preview')}
          onLoadedMetadata={(event) => {
            // Autoplay once the stream's size is known (some browsers ignore the attribute).
            void event.currentTarget.play().then(
              () => setReady(true),
              () => setReady(true),
            );
          }}
        />
        {countdown !== null && (
          <span className="face-camera-countdown" aria-live="assertive" data-countdown={countdown}>
            {countdown}
          </span>
        )}
      </div>
      <p className="face-camera-hint">{t('albums.faces.cameraHint')}</p>
      <button
        type="button"
        className="face-lookup-button face-lookup-primary face-camera-shoot"
        disabled={!ready || countdown !== null}
        onClick={onStart}
      >
        {t('albums.faces.takePhoto')}
      </button>
    </div>
  );
}

/** A phone: the front camera through the file input, or a photo from the library. */
function ChooseSelfie({ hint, onChosen }: { hint: string; onChosen: (file: File) => void }) {
  const { t } = useTranslation();
  const cameraId = useId();
  const fileId = useId();
  const hintId = useId();
  const picked = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (file) onChosen(file);
  };
  return (
    <div className="face-lookup-choose">
      <p className="face-camera-hint" id={hintId}>
        {hint}
      </p>
      <div className="face-lookup-buttons">
        <label htmlFor={cameraId} className="face-lookup-primary face-lookup-file">
          {t('albums.faces.takeSelfie')}
        </label>
        <input
          id={cameraId}
          className="face-lookup-input"
          type="file"
          accept="image/*"
          capture="user"
          aria-describedby={hintId}
          onChange={(event) => picked(event.currentTarget)}
        />
        <label htmlFor={fileId} className="face-lookup-file">
          {t('albums.faces.choosePhoto')}
        </label>
        <input
          id={fileId}
          className="face-lookup-input"
          type="file"
          accept="image/*"
          aria-describedby={hintId}
          onChange={(event) => picked(event.currentTarget)}
        />
      </div>
    </div>
  );
}

/**
 * The photos of the guest, in the album grid; each opens in the viewer unless the page links none.
 * An attendee adds the ones found outside their album to it; a paid album chooses them to buy or
 * print.
 */
function FaceResults({
  found,
  onAgain,
  linkPhotos,
  rowHeight,
  onAdd,
  onChoose,
}: {
  found: FaceLookupResult;
  onAgain: () => void;
  linkPhotos: boolean;
  rowHeight: number;
  onAdd?: ((uids: string[]) => Promise<number>) | undefined;
  onChoose?: ((uids: string[]) => void) | undefined;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [photos, setPhotos] = useState<FoundPhoto[]>(found.photos);
  const [adding, setAdding] = useState<'idle' | 'busy' | 'done'>('idle');
  const [addError, setAddError] = useState<string | null>(null);
  const options = useMemo(
    (): ViewerOptions => ({
      canDownload: false,
      watermarkOverlay: null,
      shareUrl: (photo) => Promise.resolve(photo.urls.preview ?? ''),
    }),
    [],
  );
  const outside = photos.filter((photo) => photo.in_album === 0).map((photo) => photo.uid);
  // An attendee buys from their album: only what is in it can be chosen.
  const choosable = photos.filter((photo) => photo.in_album !== 0).map((photo) => photo.uid);
  const add = async () => {
    if (!onAdd) return;
    setAdding('busy');
    setAddError(null);
    try {
      await onAdd(outside);
      const added = new Set(outside);
      setPhotos((current) =>
        current.map((photo) => (added.has(photo.uid) ? { ...photo, in_album: 1 } : photo)),
      );
      setAdding('done');
    } catch (error) {
      setAdding('idle');
      setAddError(errorText(errorKeyOf(error)));
    }
  };
  return (
    <div className="face-results" data-face-results={photos.length}>
      <div className="face-results-bar">
        <p role="status">
          {photos.length === 0
            ? t('albums.faces.none')
            : t('albums.faces.found', { count: photos.length })}
        </p>
        <div className="face-lookup-buttons">
          {onAdd && outside.length > 0 && (
            <button
              type="button"
              className="face-lookup-button face-lookup-primary"
              disabled={adding === 'busy'}
              onClick={() => void add()}
            >
              {t('albums.faces.addToAlbum', { count: outside.length })}
            </button>
          )}
          {onChoose && choosable.length > 0 && (
            <button
              type="button"
              className="face-lookup-button face-lookup-primary"
              onClick={() => onChoose(choosable)}
            >
              {t('albums.faces.chooseToBuy', { count: choosable.length })}
            </button>
          )}
          <button type="button" className="face-lookup-button" onClick={onAgain}>
            {t('albums.faces.again')}
          </button>
        </div>
      </div>
      {adding === 'done' && (
        <p className="face-results-note" role="status">
          {t('albums.faces.added')}
        </p>
      )}
      {addError && <p role="alert">{addError}</p>}
      {photos.length > 0 && (
        <PhotoListGrid
          photos={photos}
          viewerOptions={options}
          rowHeight={rowHeight}
          openable={linkPhotos}
        />
      )}
    </div>
  );
}
