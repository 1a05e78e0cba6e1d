// Over ~350 lines as four small components of one flow (Find me: camera or chosen selfie,
// consent, results); none is over ~140 lines.
import { isGuestLanguage, translatedText } from '@flashbulb/shared/i18n/languages';
import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import {
  consentVersionOf,
  fileToSelfieJpeg,
  lookUpByFace,
  toSelfieJpeg,
  type FaceLookupKey,
} from '../../../shared/api/face-lookup.ts';
import { GuestPhotoGrid } from '../../../shared/components/guest-photo-grid.tsx';
import { PhotoViewer } from '../../../shared/viewer/photo-viewer.tsx';
import type { ViewerOptions } from '../../../shared/viewer/viewer-options.ts';

import { faceLookupOffered } from '../hooks/use-face-lookup-offered.ts';

export { faceLookupOffered, useFaceLookupOffered } from '../hooks/use-face-lookup-offered.ts';

/** Seconds counted down on the kiosk before the picture is taken. */
export const COUNTDOWN_SECONDS = 3;

type Stage =
  | { kind: 'closed' }
  | { kind: 'consent' }
  | { kind: 'refused' }
  | { kind: 'camera' }
  | { kind: 'countdown'; left: number }
  | { kind: 'choose' }
  | { kind: 'searching' }
  | { kind: 'results'; photos: GuestPhoto[] }
  | { kind: 'failed'; message: string };

/**
 * "Find me" (albums spec §2.4): the guest accepts the event's face-recognition text
 * (nothing is taken or sent before), takes a selfie — on the kiosk with the camera preview and a
 * 3-2-1 countdown, on a phone with the camera or a file — and sees the photos of them in the album
 * grid. Hidden when the event has face recognition off or selfies disabled.
 *
 * - `kiosk`: opened by the kiosk's 'Look up my images by face' (the kiosk screen's '< Back to
 *   album' unmounts it, which stops the camera).
 * - otherwise (attendee album, web-app page): a "Find me" button opens it above the album.
 */
export function FaceLookup({
  albumKey,
  kiosk = false,
}: {
  albumKey: FaceLookupKey;
  kiosk?: boolean;
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
      setStage({ kind: 'searching' });
      try {
        const photos = await lookUpByFace(albumKey, consent, await selfie());
        setStage({ kind: 'results', photos });
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
          className="face-lookup-open"
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
            className="face-lookup-close"
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
              className="face-lookup-primary"
              onClick={() => {
                setConsent(version);
                setStage(kiosk ? { kind: 'camera' } : { kind: 'choose' });
              }}
            >
              {t('albums.faces.accept')}
            </button>
            <button type="button" onClick={() => setStage({ kind: 'refused' })}>
              {t('albums.faces.refuse')}
            </button>
          </div>
        </div>
      )}
      {stage.kind === 'refused' && (
        <div className="face-lookup-consent">
          <p role="status">{t('albums.faces.refused')}</p>
          <button type="button" onClick={() => setStage({ kind: 'consent' })}>
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
        <ChooseSelfie onChosen={(file) => void search(() => fileToSelfieJpeg(file))} />
      )}
      {stage.kind === 'searching' && (
        <p className="albums-message" role="status">
          {t('albums.faces.searching')}
        </p>
      )}
      {stage.kind === 'failed' && (
        <div className="face-lookup-consent">
          <p role="alert">{stage.message}</p>
          <button type="button" className="face-lookup-primary" onClick={restart}>
            {t('albums.faces.tryAgain')}
          </button>
        </div>
      )}
      {stage.kind === 'results' && (
        <FaceResults photos={stage.photos} kiosk={kiosk} onAgain={restart} />
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

  useEffect(() => {
    let stream: MediaStream | null = null;
    let cancelled = false;
    const video = videoRef.current;
    if (!navigator.mediaDevices?.getUserMedia) {
      handlers.current.onFailed(t('albums.faces.noCamera'));
      return;
    }
    navigator.mediaDevices
      .getUserMedia({ video: { facingMode: 'user', width: { ideal: 1280 } }, audio: false })
      .then(
        (media) => {
          if (cancelled) {
            for (const track of media.getTracks()) track.stop();
            return;
          }
          stream = media;
          if (video) video.srcObject = media;
        },
        () => handlers.current.onFailed(t('albums.faces.noCamera')),
      );
    return () => {
      cancelled = true;
      for (const track of stream?.getTracks() ?? []) track.stop();
      if (video) video.srcObject = null;
    };
  }, [t]);

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
        className="face-lookup-primary face-camera-shoot"
        disabled={!ready || countdown !== null}
        onClick={onStart}
      >
        {t('albums.faces.takePhoto')}
      </button>
    </div>
  );
}

/** A phone: the front camera through the file input, or a photo from the library. */
function ChooseSelfie({ onChosen }: { onChosen: (file: File) => void }) {
  const { t } = useTranslation();
  const cameraId = useId();
  const fileId = useId();
  const picked = (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (file) onChosen(file);
  };
  return (
    <div className="face-lookup-choose">
      <p className="face-camera-hint">{t('albums.faces.chooseHint')}</p>
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
          onChange={(event) => picked(event.currentTarget)}
        />
      </div>
    </div>
  );
}

/** The photos of the guest, in the album grid; each opens in the viewer. */
function FaceResults({
  photos,
  kiosk,
  onAgain,
}: {
  photos: GuestPhoto[];
  kiosk: boolean;
  onAgain: () => void;
}) {
  const { t } = useTranslation();
  const [open, setOpen] = useState<number | null>(null);
  const photoAt = useCallback((index: number) => photos[index], [photos]);
  const showRange = useCallback(() => undefined, []);
  const options = useMemo(
    (): ViewerOptions => ({
      canDownload: false,
      watermarkOverlay: null,
      shareUrl: (photo) => Promise.resolve(photo.urls.preview ?? ''),
    }),
    [],
  );
  return (
    <div className="face-results" data-face-results={photos.length}>
      <div className="face-results-bar">
        <p role="status">
          {photos.length === 0
            ? t('albums.faces.none')
            : t('albums.faces.found', { count: photos.length })}
        </p>
        <button type="button" onClick={onAgain}>
          {t('albums.faces.again')}
        </button>
      </div>
      {photos.length > 0 && (
        <GuestPhotoGrid
          count={photos.length}
          photoAt={photoAt}
          showRange={showRange}
          onOpen={setOpen}
          focusIndex={open}
          rowHeight={kiosk ? 260 : 180}
        />
      )}
      {open !== null && (
        <PhotoViewer
          index={open}
          count={photos.length}
          photoAt={photoAt}
          onIndex={setOpen}
          onClose={() => setOpen(null)}
          options={options}
        />
      )}
    </div>
  );
}
