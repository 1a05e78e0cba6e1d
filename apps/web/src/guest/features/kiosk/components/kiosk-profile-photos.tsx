import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ProfilePhoto } from '@flashbulb/shared';
import { errorKeyOf, isAbortError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  deleteProfilePhotoAtKiosk,
  profilePhotosAtKiosk,
} from '../../../shared/api/kiosk-actions.ts';

/**
 * The guest's profile photos at the kiosk (§7.2 profile-photo list and delete): each one shown
 * with a button that deletes it. `version` changes when a new one was saved, to read the list again.
 */
export function KioskProfilePhotos({
  kioskKey,
  attendeeUid,
  version,
}: {
  kioskKey: string;
  attendeeUid: string;
  version: number;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [photos, setPhotos] = useState<ProfilePhoto[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<number | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    profilePhotosAtKiosk(kioskKey, attendeeUid, controller.signal).then(
      (list) => {
        setPhotos(list);
        setFailure(null);
      },
      (error: unknown) => {
        if (!isAbortError(error)) setFailure(errorKeyOf(error));
      },
    );
    return () => controller.abort();
  }, [kioskKey, attendeeUid, version]);

  const remove = async (id: number) => {
    setDeleting(id);
    setFailure(null);
    try {
      await deleteProfilePhotoAtKiosk(kioskKey, attendeeUid, id);
      setPhotos((list) => list?.filter((p) => p.id !== id) ?? null);
    } catch (error) {
      setFailure(errorKeyOf(error));
    } finally {
      setDeleting(null);
    }
  };

  if (photos === null && failure === null) return null;
  return (
    <section className="kiosk-profile-photos" aria-label={t('albums.kiosk.profilePhotos.title')}>
      <h3 className="kiosk-booth-title">{t('albums.kiosk.profilePhotos.title')}</h3>
      {failure ? (
        <p className="albums-note" role="alert">
          {errorText(failure)}
        </p>
      ) : null}
      {photos && photos.length === 0 ? (
        <p className="albums-note">{t('albums.kiosk.profilePhotos.none')}</p>
      ) : null}
      {photos && photos.length > 0 ? (
        <ul className="kiosk-profile-photo-list">
          {photos.map((photo, i) => (
            <li key={photo.id} className="kiosk-profile-photo" data-profile-photo={photo.id}>
              <img src={photo.url} alt={t('albums.kiosk.profilePhotos.photo', { n: i + 1 })} />
              <button
                type="button"
                disabled={deleting !== null}
                aria-label={t('albums.kiosk.profilePhotos.deleteOf', { n: i + 1 })}
                onClick={() => void remove(photo.id)}
              >
                {t('albums.kiosk.profilePhotos.delete')}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
