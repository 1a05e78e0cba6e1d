import type { EventRow } from '../../repositories/events/event.repository.ts';
import { httpUrlOrNull, type MailBrand } from './mail-layout.ts';

// The event's look in mail, shared by every mail the product sends (album, share, notification,
// receipt, event mail): its own module, so the services that send those mails do not import
// each other for it.

export type BrandEvent = Pick<EventRow, 'logo_full_path' | 'logo_link' | 'opts'>;

/**
 * The event's look in mail: its logo (`logo_full_path`: an http(s) URL as given, a storage key
 * through public storage) linked to `logo_link`, and its guest accent colour.
 */
export const mailBrand = (
  event: BrandEvent,
  publicMediaUrl: (key: string) => string,
): MailBrand => {
  const path = event.logo_full_path?.trim() ?? '';
  const logoUrl = !path
    ? null
    : /^[a-z][a-z0-9+.-]*:/i.test(path)
      ? httpUrlOrNull(path)
      : httpUrlOrNull(publicMediaUrl(path.replace(/^\/+/, '')));
  return {
    logoUrl,
    logoLink: httpUrlOrNull(event.logo_link),
    accent: event.opts.guestAccentColor || null,
  };
};
