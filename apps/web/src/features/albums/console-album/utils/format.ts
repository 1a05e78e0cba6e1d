import type { TFunction } from 'i18next';

/** Sizes as KB below a megabyte, MB above (albums spec §9 shows image sizes in KB). */
export const formatBytes = (bytes: number, t: TFunction): string =>
  bytes < 1024 * 1024
    ? t('album.size.kb', { value: Math.max(1, Math.round(bytes / 1024)) })
    : t('album.size.mb', { value: (bytes / (1024 * 1024)).toFixed(1) });

/** A date and time in the operator's locale and time zone. */
export const formatDateTime = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(iso),
  );
