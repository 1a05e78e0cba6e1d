import { useEffect } from 'react';
import type { EventLanguageSettings } from '@flashbulb/shared/i18n/languages';
import { guestLanguageFor, switchGuestLanguage } from '../../../i18n/guest-language.ts';

/**
 * Puts the page in the guest's language once the event is known (`undefined`: still loading):
 * their choice, else their browser's when the event lets it decide, else the event's language.
 * A kiosk screen follows the event (and its entry screen's choice), never its browser.
 */
export const useGuestLanguage = (
  opts: EventLanguageSettings | null | undefined,
  kiosk: boolean,
): void => {
  const language = opts === undefined ? null : guestLanguageFor(opts, kiosk);
  useEffect(() => {
    if (language) void switchGuestLanguage(language);
  }, [language]);
};
