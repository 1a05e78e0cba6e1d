import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { toSelfieJpeg } from '../../../shared/api/face-lookup.ts';
import { customPhotoUpload, profilePhotoUpload } from '../../../shared/api/kiosk-actions.ts';
import { useThrottled } from '../hooks/use-kiosk-session.ts';
import { enqueueKioskAction } from '../../../shared/kiosk/kiosk-outbox-actions.ts';
import { keepPicture, pictureKey } from '../../../shared/kiosk/kiosk-pictures.ts';
import { useKiosk } from '../../../shared/kiosk/kiosk-context.tsx';
import { KioskProfilePhotos } from './kiosk-profile-photos.tsx';
import { useFrontCamera } from '../../../shared/hooks/use-front-camera.ts';

/** Seconds of 3-2-1 before the picture is taken (time to smile). */
const COUNTDOWN = 3;

type Shot =
  | { kind: 'live' }
  | { kind: 'counting'; left: number }
  | { kind: 'taken'; picture: Blob; url: string }
  | { kind: 'sent'; text: string; waiting: boolean }
  | { kind: 'failed'; text: string };

/**
 * The kiosk camera (albums §4 "video elements receive a media stream and autoplay once metadata
 * loads", §7.1 custom photo and profile photo uploads): a live preview, a 3-2-1
 * countdown, the picture taken, then "Add to my album" (a custom photo under `/kioskMedia`, in the
 * guest's album once processed) or "Use as my profile photo" (at most 1280 px wide, within §9's
 * 1500). Uploads go through the kiosk's outbox: offline, they wait and are sent in order.
 */
export function KioskPhotoBooth() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const kiosk = useKiosk();
  const videoRef = useRef<HTMLVideoElement>(null);
  const [ready, setReady] = useState(false);
  const [noCamera, setNoCamera] = useState(() => !navigator.mediaDevices?.getUserMedia);
  const [shot, setShot] = useState<Shot>({ kind: 'live' });
  // A profile photo saved: the list below is read again.
  const [profileVersion, setProfileVersion] = useState(0);
  // The kiosk re-renders each second (its countdown): the timer below must not restart with it.
  const errorTextRef = useRef(errorText);
  useEffect(() => {
    errorTextRef.current = errorText;
  });

  // No camera API at all: said at once (the initial state above).
  useFrontCamera(videoRef, () => setNoCamera(true));

  // 3-2-1, then the frame.
  useEffect(() => {
    if (shot.kind !== 'counting') return;
    const timer = window.setTimeout(() => {
      if (shot.left > 1) {
        setShot({ kind: 'counting', left: shot.left - 1 });
        return;
      }
      const video = videoRef.current;
      if (!video || !video.videoWidth) {
        setNoCamera(true);
        setShot({ kind: 'live' });
        return;
      }
      toSelfieJpeg(video, { width: video.videoWidth, height: video.videoHeight }).then(
        (picture) => setShot({ kind: 'taken', picture, url: URL.createObjectURL(picture) }),
        (error: unknown) =>
          setShot({ kind: 'failed', text: errorTextRef.current(errorKeyOf(error)) }),
      );
    }, 1000);
    return () => window.clearTimeout(timer);
  }, [shot]);

  // The taken picture's preview URL is released when it leaves the screen.
  useEffect(() => {
    if (shot.kind !== 'taken') return;
    return () => URL.revokeObjectURL(shot.url);
  }, [shot]);

  const send = useThrottled((as: 'album' | 'profile') => {
    if (shot.kind !== 'taken' || !kiosk?.kioskKey || !kiosk.attendeeUid) return;
    const { outbox, kioskKey, attendeeUid } = kiosk;
    const upload =
      as === 'album'
        ? customPhotoUpload(kioskKey, attendeeUid, shot.picture, crypto.randomUUID())
        : profilePhotoUpload(kioskKey, attendeeUid, shot.picture);
    const run = async (): Promise<void> => {
      await upload();
    };
    const done = as === 'album' ? t('albums.kiosk.camera.added') : t('albums.kiosk.camera.profile');
    setShot({ kind: 'sent', text: t('albums.kiosk.camera.sending'), waiting: true });
    const kind = as === 'album' ? 'camera-photo' : 'profile-photo';
    // Kept in IndexedDB (per kiosk key) while it waits, so a reload sends it; without IndexedDB it
    // waits in memory.
    const key = pictureKey(kioskKey, crypto.randomUUID());
    void keepPicture(key, shot.picture)
      .then((kept) =>
        kept
          ? enqueueKioskAction(outbox, kind, { kioskKey, attendeeId: attendeeUid, picture: key })
          : outbox.enqueue(kind, run),
      )
      .then(
        () => {
          setShot({ kind: 'sent', text: done, waiting: false });
          if (as === 'profile') setProfileVersion((v) => v + 1);
        },
        (error: unknown) => setShot({ kind: 'failed', text: errorText(errorKeyOf(error)) }),
      );
  });

  return (
    <section className="kiosk-booth" aria-label={t('albums.kiosk.camera.title')} data-kiosk-booth>
      <h2 className="kiosk-booth-title">{t('albums.kiosk.camera.title')}</h2>
      <div className="face-camera-frame kiosk-booth-frame">
        <video
          ref={videoRef}
          className="face-camera-video"
          muted
          playsInline
          hidden={shot.kind === 'taken'}
          aria-label={t('albums.kiosk.camera.preview')}
          onLoadedMetadata={(event) => {
            // Autoplay once the stream's size is known (§4).
            void event.currentTarget.play().then(
              () => setReady(true),
              () => setReady(true),
            );
          }}
        />
        {shot.kind === 'taken' && (
          <img
            className="kiosk-booth-picture"
            src={shot.url}
            alt={t('albums.kiosk.camera.taken')}
          />
        )}
        {shot.kind === 'counting' && (
          <span className="face-camera-countdown" aria-live="assertive" data-countdown={shot.left}>
            {shot.left}
          </span>
        )}
      </div>
      {noCamera && (
        <p className="albums-note" role="alert">
          {t('albums.faces.noCamera')}
        </p>
      )}
      {shot.kind === 'taken' ? (
        <div className="kiosk-booth-actions">
          <button type="button" className="fb-button--primary" onClick={() => send('album')}>
            {t('albums.kiosk.camera.addToAlbum')}
          </button>
          <button type="button" onClick={() => send('profile')}>
            {t('albums.kiosk.camera.useAsProfile')}
          </button>
          <button type="button" onClick={() => setShot({ kind: 'live' })}>
            {t('albums.kiosk.camera.retake')}
          </button>
        </div>
      ) : shot.kind === 'sent' || shot.kind === 'failed' ? (
        <div className="kiosk-booth-actions">
          <p
            className={shot.kind === 'failed' ? 'albums-note' : 'albums-toast'}
            role={shot.kind === 'failed' ? 'alert' : 'status'}
            data-kiosk-booth-result={shot.kind === 'sent' && shot.waiting ? 'sending' : shot.kind}
          >
            {shot.text}
          </p>
          {/* Back to the album is the kiosk bar's '< Back to album' (one per screen, §2.4). */}
          <button type="button" onClick={() => setShot({ kind: 'live' })}>
            {t('albums.kiosk.camera.another')}
          </button>
        </div>
      ) : (
        <div className="kiosk-booth-actions">
          <button
            type="button"
            className="fb-button--primary kiosk-booth-shoot"
            disabled={!ready || shot.kind === 'counting'}
            onClick={() => setShot({ kind: 'counting', left: COUNTDOWN })}
          >
            {t('albums.kiosk.camera.shoot')}
          </button>
        </div>
      )}
      {kiosk?.kioskKey && kiosk.attendeeUid ? (
        <KioskProfilePhotos
          kioskKey={kiosk.kioskKey}
          attendeeUid={kiosk.attendeeUid}
          version={profileVersion}
        />
      ) : null}
    </section>
  );
}
