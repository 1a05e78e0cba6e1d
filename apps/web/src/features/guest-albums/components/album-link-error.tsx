import { useTranslation } from 'react-i18next';
import { useErrorText } from '../../../lib/error-text.ts';

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
  return (
    <div className="albums-message" role="alert">
      <p>
        {INVALID_LINK_KEYS.has(errorKey)
          ? t('albums.invalidLink')
          : CLOSED_ALBUM_KEYS.has(errorKey)
            ? errorText(errorKey)
            : t('albums.loadError')}
      </p>
    </div>
  );
}
