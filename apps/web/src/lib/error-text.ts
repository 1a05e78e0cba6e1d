import { useTranslation } from 'react-i18next';
import { isErrorKey } from '@flashbulb/shared';
import { enWebErrors } from '../i18n/en-common.ts';
import { INTERNAL_ERROR } from './api-client.ts';

const isWebErrorKey = (key: string): key is keyof typeof enWebErrors =>
  Object.prototype.hasOwnProperty.call(enWebErrors, key);

/** Turns message keys into text; a key outside the catalogue reads as the generic Internal Error. */
export const useErrorText = (): ((key: string) => string) => {
  const { t } = useTranslation('errors');
  return (key: string) => {
    if (isErrorKey(key) || isWebErrorKey(key)) return t(key);
    return t(INTERNAL_ERROR);
  };
};
