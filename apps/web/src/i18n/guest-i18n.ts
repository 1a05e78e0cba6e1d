import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import { enErrors } from '@flashbulb/shared/i18n/en';
import { enAlbums } from './en-albums.ts';
import { enApp, enCommon, enWebErrors } from './en-common.ts';
import { enWebapp } from './en-webapp.ts';

/**
 * The guest build's texts (album, kiosk, slide show and web-app pages): only the namespaces those
 * pages read, so the console's texts never reach a guest's phone. Same keys and
 * options as `i18n.ts`.
 */
void i18next.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: {
    en: {
      translation: { app: enApp, common: enCommon, albums: enAlbums, webapp: enWebapp },
      errors: { ...enErrors, ...enWebErrors },
    },
  },
  ns: ['translation', 'errors'],
  defaultNS: 'translation',
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
  showSupportNotice: false,
});
