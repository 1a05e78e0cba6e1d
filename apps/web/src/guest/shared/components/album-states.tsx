import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon, type IconName } from './icons.tsx';

/** A whole-page message for guests: an icon, a headline, a sentence, maybe an action. */
export function AlbumState({
  icon,
  title,
  children,
  role = 'status',
  action,
}: {
  icon: IconName;
  title: string;
  children?: ReactNode;
  role?: 'status' | 'alert';
  action?: ReactNode;
}) {
  return (
    <div className="albums-state">
      <span className="albums-state-icon">
        <Icon name={icon} />
      </span>
      <h1 className="albums-state-title">{title}</h1>
      {/* The role sits on the sentence: announced once, and what tests and readers quote. */}
      {children && (
        <div className="albums-state-text" role={role}>
          {children}
        </div>
      )}
      {action}
    </div>
  );
}

/** While the first page loads: the cover's place and grey rows where photos will be. */
export function AlbumSkeleton() {
  const { t } = useTranslation();
  const widths = [38, 24, 38, 30, 40, 30, 26, 36, 38];
  return (
    <main className="albums-main" aria-busy="true">
      <p className="fb-visually-hidden" role="status">
        {t('albums.loading')}
      </p>
      <div className="albums-skeleton-cover" aria-hidden="true">
        <span className="albums-skeleton-line albums-skeleton-line--title" />
        <span className="albums-skeleton-line" />
      </div>
      <div className="albums-skeleton-grid" aria-hidden="true">
        {widths.map((width, i) => (
          <span key={i} className="albums-skeleton-tile" style={{ flexGrow: width }} />
        ))}
      </div>
    </main>
  );
}
