import type { FieldPath, FieldValues, UseFormSetError } from 'react-hook-form';
import { errorKeyOf, isApiError } from './api-client.ts';

/**
 * Where a refused call's error shows in a form: on the field the server named, when the form has
 * that field (focused, so the user sees what to fix), or else as the form's alert.
 */
export function showApiError<T extends FieldValues>(
  error: unknown,
  fields: readonly FieldPath<T>[],
  setError: UseFormSetError<T>,
  setErrorKey: (key: string) => void,
): void {
  const key = errorKeyOf(error);
  const named = isApiError(error) && error.type === 'field' ? error.field : undefined;
  const field = fields.find((f) => f === named);
  if (field !== undefined) setError(field, { message: key }, { shouldFocus: true });
  else setErrorKey(key);
}
