import { AppError } from '../../lib/app-error.ts';

/**
 * A list filter's date (`start_date`, `end_date`) as the calls take it: ISO 8601, or the
 * console's `YYYY-MM-DD HH:mm` read as UTC; absent is no bound, anything else `invalid_value` on
 * its field. Photo lists and the face search read their dates alike.
 */
export const parseFilterDate = (value: string | undefined, field: string): Date | undefined => {
  if (!value) return undefined;
  const normalised = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/.test(value)
    ? `${value.replace(' ', 'T')}:00Z`
    : value;
  const date = new Date(normalised);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_value', field);
  return date;
};
