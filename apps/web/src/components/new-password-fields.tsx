import { PasswordInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useErrorText } from '../lib/error-text.ts';

/**
 * A new password and its confirmation, as every form that sets one asks for them (the first
 * admin, a forgotten password, a temporary one replaced, the user's own change): the rule as a
 * hint, the browser told it is a new password. The errors are the form's error keys.
 */
export function NewPasswordFields<N extends string>({
  label,
  autoFocus,
  name,
  register,
  errors,
}: {
  readonly label: string;
  readonly autoFocus?: boolean;
  /** The new password's field; its confirmation is the field `confirm`. */
  readonly name: N;
  readonly register: (field: N | 'confirm') => UseFormRegisterReturn;
  readonly errors: Partial<Record<N | 'confirm', { message?: string }>>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const passwordError = errors[name]?.message;
  const confirmError = errors.confirm?.message;
  return (
    <>
      <PasswordInput
        label={label}
        description={t('newPassword.hint')}
        autoComplete="new-password"
        autoFocus={autoFocus}
        error={passwordError && errorText(passwordError)}
        {...register(name)}
      />
      <PasswordInput
        label={t('common.confirmPassword')}
        autoComplete="new-password"
        error={confirmError && errorText(confirmError)}
        {...register('confirm')}
      />
    </>
  );
}
