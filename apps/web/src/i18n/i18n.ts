import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enErrors } from '@flashbulb/shared';
import { en, enWebErrors } from './en.ts';

export const resources = {
  en: {
    translation: en,
    errors: { ...enErrors, ...enWebErrors },
  },
} as const;

// Synchronous init (resources are bundled) so the first render already has texts.
void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources,
  ns: ['translation', 'errors'],
  defaultNS: 'translation',
  // Error keys are sentences like "Internal Error"; never split them.
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});

export { i18next };
