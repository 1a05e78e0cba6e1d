import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { eventWallClock, type EventClock } from '@flashbulb/shared/rules/event-time';
import { formatDay } from '@flashbulb/shared/i18n/format';
import { LanguageSwitcher } from './language-switcher.tsx';
import { httpLink } from '../utils/http-link.ts';

/** What the cover shows of the event (all optional: attendee and mini-album pages know less). */
export interface CoverBranding {
  readonly title: string;
  readonly logo: string | null;
  /** The operator's link behind the logo (owner console §3 `logo_link`). */
  readonly logoLink: string;
  /** `#summerparty` or `summerparty`; shown with one leading #. */
  readonly hashTag: string;
  /** The organiser's support page (`opts.supportLink`). */
  readonly supportLink: string;
  /** A date to show under the title (the newest photo's day), ISO. */
  readonly date: string | null;
  /** Hours to add to UTC for the event's local day (`date_utc_diff_hours`). */
  readonly utcDiffHours: number;
  /** The event's IANA zone; when set it wins over `utcDiffHours` (daylight saving included). */
  readonly timeZone?: string;
}

/** `November 21, 2026` in the event's local day, written the way `language` writes a date. */
export const coverDate = (
  iso: string,
  utcDiffHours: number | EventClock,
  language = 'en',
): string => {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  // The event's zone (daylight saving included) when it has one, else its fixed hours.
  const wall =
    typeof utcDiffHours === 'number'
      ? new Date(time + utcDiffHours * 3_600_000)
      : eventWallClock(utcDiffHours, new Date(time));
  return formatDay(wall, language);
};

/**
 * The album's cover: the event's logo (linked to its `logo_link`), title, day, photo
 * count, hash tag and support link, with the page's actions (share, select, send) beside it.
 */
export function AlbumCover({
  branding,
  countText,
  live,
  actions,
  kiosk = false,
}: {
  branding: CoverBranding;
  /** A shared screen: no links that would take the kiosk away from the album. */
  kiosk?: boolean;
  countText: string;
  /** Live now; `'soon'`: the page is opening its stream (the badge's room is kept, hidden). */
  live: boolean | 'soon';
  actions?: ReactNode;
}) {
  const { t, i18n } = useTranslation();
  const logoHref = branding.logoLink && !kiosk ? httpLink(branding.logoLink) : null;
  const support = branding.supportLink && !kiosk ? httpLink(branding.supportLink) : null;
  const tag = branding.hashTag.trim().replace(/^#+/, '');
  const logo = branding.logo && (
    <img
      className="albums-cover-logo"
      src={branding.logo}
      alt={t('albums.cover.logoAlt', { title: branding.title })}
    />
  );
  return (
    <header className="albums-cover">
      {logo &&
        (logoHref ? (
          <a className="albums-cover-logo-link" href={logoHref} target="_blank" rel="noopener">
            {logo}
          </a>
        ) : (
          logo
        ))}
      <div className="albums-cover-text">
        <h1 className="albums-cover-title">{branding.title}</h1>
        <p className="albums-cover-meta">
          {branding.date && (
            <span>
              {coverDate(
                branding.date,
                {
                  time_zone: branding.timeZone ?? '',
                  date_utc_diff_hours: branding.utcDiffHours,
                },
                i18n.language,
              )}
            </span>
          )}
          {countText && <span className="albums-count">{countText}</span>}
          {tag && <span className="albums-cover-tag">#{tag}</span>}
          {live === 'soon' && (
            <span className="albums-live-slot" aria-hidden="true">
              <span className="albums-live-dot" />
              {t('albums.live')}
            </span>
          )}
          {live === true && (
            <span className="albums-live">
              <span className="albums-live-dot" aria-hidden="true" />
              {t('albums.live')}
            </span>
          )}
        </p>
        {support && (
          <a className="albums-cover-support" href={support} target="_blank" rel="noopener">
            {t('albums.cover.support')}
          </a>
        )}
      </div>
      {/* A shared kiosk screen changes language on its entry screen, not here. */}
      {(actions || !kiosk) && (
        <div className="albums-cover-actions">
          {actions}
          {!kiosk && <LanguageSwitcher />}
        </div>
      )}
    </header>
  );
}
