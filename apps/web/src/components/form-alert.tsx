import { Alert } from '@mantine/core';
import { useErrorText } from '../lib/error-text.ts';

/** A form-level error, read out by screen readers as soon as it appears. */
export function FormAlert({ errorKey }: { errorKey: string | null | undefined }) {
  const errorText = useErrorText();
  if (!errorKey) return null;
  return (
    <Alert color="red" role="alert" data-testid="form-error">
      {errorText(errorKey)}
    </Alert>
  );
}
