import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../../lib/error-text.ts';
import { AlbumState } from '../../../shared/components/album-states.tsx';

/** Keys that cannot open an album; the page shows one clear message and no photos. */
const INVALID_LINK_KEYS: ReadonlySet<string> = new Set([
  'invalid_key',
  'invalid_attendee_id',
  'unauthorized_user',
  'event_not_found',
  'not_found',
]);

/** Attendee albums the organiser closed: the catalogue's own words say why. */
const CLOSED_ALBUM_KEYS: ReadonlySet<string> = new Set(['attendee_locked', 'attendee_expired']);

/** Why an album link shows nothing: not valid, closed by the organiser, or not loaded. */
export function AlbumLinkError({ errorKey }: { errorKey: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  if (INVALID_LINK_KEYS.has(errorKey))
    return (
      <AlbumState icon="link" role="alert" title={t('albums.states.invalidTitle')}>
        <p>{t('albums.invalidLink')}</p>
      </AlbumState>
    );
  if (CLOSED_ALBUM_KEYS.has(errorKey))
    return (
      <AlbumState icon="clock" role="alert" title={t('albums.states.closedTitle')}>
        <p>{errorText(errorKey)}</p>
      </AlbumState>
    );
  return (
    <AlbumState
      icon="alert"
      role="alert"
      title={t('albums.states.errorTitle')}
      action={
        <button
          type="button"
          className="fb-button--primary"
          onClick={() => window.location.reload()}
        >
          {t('albums.retry')}
        </button>
      }
    >
      <p>{t('albums.loadError')}</p>
    </AlbumState>
  );
}
