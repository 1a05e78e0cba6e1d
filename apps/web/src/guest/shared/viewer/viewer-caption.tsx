import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { useTranslation } from 'react-i18next';
import { usePhotoTimeWithZone } from '../utils/event-clock.ts';

const megabytes = (bytes: number) => `${(bytes / 1_048_576).toFixed(1)} MB`;

/** "3 of 40" (announced as it changes), with the file name when the operator shows them. */
export function ViewerPosition({
  index,
  count,
  fileName,
}: {
  index: number;
  count: number;
  fileName: string | null;
}) {
  const { t } = useTranslation();
  return (
    <span className="albums-viewer-position" aria-live="polite">
      {t('albums.viewer.position', { position: index + 1, count })}
      {fileName !== null && <span className="albums-viewer-name"> · {fileName}</span>}
    </span>
  );
}

/** The info panel: when the photo was taken, its size, and its file name when shown. */
export function ViewerInfo({ photo, showFileNames }: { photo: Photo; showFileNames: boolean }) {
  const { t } = useTranslation();
  const photoTime = usePhotoTimeWithZone();
  return (
    <dl className="albums-viewer-panel albums-viewer-info">
      <dt>{t('albums.viewer.taken')}</dt>
      <dd>{photoTime(photo.created_date)}</dd>
      {photo.width && photo.height ? (
        <>
          <dt>{t('albums.viewer.size')}</dt>
          <dd>
            {photo.width} × {photo.height} · {megabytes(photo.size_bytes)}
          </dd>
        </>
      ) : null}
      {showFileNames && (
        <>
          <dt>{t('albums.viewer.fileName')}</dt>
          <dd>{photo.file_name}</dd>
        </>
      )}
    </dl>
  );
}
