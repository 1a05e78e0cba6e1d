import type { StockImageTile } from '@flashbulb/shared';
import { useTranslation } from 'react-i18next';

/**
 * The event's stock images shown now (albums spec §3, §4: the server applies the date window and
 * tag policy): a row of thumbnails above the photos, each opening its full image.
 */
export function StockImageStrip({ images }: { images: readonly StockImageTile[] }) {
  const { t } = useTranslation();
  if (images.length === 0) return null;
  return (
    <section className="albums-stock" aria-label={t('albums.stock.label')}>
      <ul className="albums-stock-list">
        {images.map((image, i) => (
          <li key={image.uid} className="albums-stock-item" data-testid="stock-image">
            <a href={image.url} target="_blank" rel="noopener noreferrer">
              <img
                src={image.thumbnail_url}
                alt={t('albums.stock.imageAlt', { index: i + 1 })}
                loading="lazy"
              />
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}
