import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';

/**
 * The print image list's photos (albums §4), each with a remove button, or the hint when the list
 * is empty: the same on the kiosk (kiosk-album-tools.tsx) and the album page (album-print-list.tsx).
 */
export function PrintListThumbs({
  list,
  max,
  onRemove,
}: {
  list: readonly Photo[];
  max: number;
  onRemove: (uid: string) => void;
}) {
  const { t } = useTranslation();
  if (list.length === 0)
    return <p className="albums-note">{t('albums.kiosk.print.hint', { max })}</p>;
  return (
    <ul className="kiosk-print-thumbs">
      {list.map((photo) => (
        <li key={photo.uid}>
          <img src={photo.urls.thumbnail ?? ''} alt={photo.file_name} />
          <button
            type="button"
            aria-label={t('albums.kiosk.print.remove', { name: photo.file_name })}
            onClick={() => onRemove(photo.uid)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  );
}
