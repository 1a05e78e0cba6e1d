import { PasswordInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../lib/error-text.ts';

/**
 * A new password and its confirmation, as every form that sets one asks for them (the first
 * admin, a forgotten password, a temporary one replaced, the user's own change): the rule as a
 * hint, the browser told it is a new password. The errors are the form's error keys.
 */
export function NewPasswordFields({
  label,
  autoFocus,
  password,
  confirm,
  passwordError,
  confirmError,
}: {
  readonly label: string;
  readonly autoFocus?: boolean;
  readonly password: UseFormRegisterReturn;
  readonly confirm: UseFormRegisterReturn;
  readonly passwordError: string | undefined;
  readonly confirmError: string | undefined;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <>
      <PasswordInput
        label={label}
        description={t('newPassword.hint')}
        autoComplete="new-password"
        autoFocus={autoFocus}
        error={passwordError && errorText(passwordError)}
        {...password}
      />
      <PasswordInput
        label={t('common.confirmPassword')}
        autoComplete="new-password"
        error={confirmError && errorText(confirmError)}
        {...confirm}
      />
    </>
  );
}
