import { useTranslation } from 'react-i18next';
import { GUEST_LANGUAGES, isGuestLanguage, LANGUAGE_NAMES } from '@flashbulb/shared/i18n/languages';
import { rememberLanguage, switchGuestLanguage } from '../../../i18n/guest-language.ts';

/**
 * The guest's language picker: every language by its own name; the choice is remembered on this
 * device (the server's pages follow it too) and wins over the browser's and the event's.
 */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation();
  const current = isGuestLanguage(i18n.language) ? i18n.language : 'en';
  return (
    <label className="fb-language">
      <span className="fb-visually-hidden">{t('albums.language')}</span>
      <select
        value={current}
        onChange={(event) => {
          const language = event.target.value;
          if (!isGuestLanguage(language)) return;
          rememberLanguage(language);
          void switchGuestLanguage(language);
        }}
      >
        {GUEST_LANGUAGES.map((code) => (
          <option key={code} value={code} lang={code}>
            {LANGUAGE_NAMES[code]}
          </option>
        ))}
      </select>
    </label>
  );
}
