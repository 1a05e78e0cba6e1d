import { errorCatalogue, type ErrorKey } from '../errors.ts';

/** English texts for every error key, as an i18next resource (namespace `errors`). */
export const enErrors: Record<ErrorKey, string> = Object.fromEntries(
  Object.entries(errorCatalogue).map(([key, value]) => [key, value.text]),
) as Record<ErrorKey, string>;
