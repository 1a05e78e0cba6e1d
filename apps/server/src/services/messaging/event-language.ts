import type { EventOpts } from '@flashbulb/shared';
import {
  DEFAULT_GUEST_LANGUAGE,
  isGuestLanguage,
  type GuestLanguage,
} from '@flashbulb/shared/i18n/languages';

/**
 * The language an event's guests get their mail and text messages in (`opts.guestLanguage`, set
 * in the editor's General tab): a message is sent later, to no browser that could say otherwise.
 */
export const eventLanguage = (event: { opts: Pick<EventOpts, 'guestLanguage'> }): GuestLanguage =>
  isGuestLanguage(event.opts.guestLanguage) ? event.opts.guestLanguage : DEFAULT_GUEST_LANGUAGE;
