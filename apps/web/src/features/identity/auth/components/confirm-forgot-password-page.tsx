import { useState } from 'react';
import { Anchor, Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useLocation, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { newPasswordSchema, resetCodeSchema, usernameSchema } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { showApiError } from '../../../../lib/form-api-error.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { NewPasswordFields } from '../../../../components/new-password-fields.tsx';
import { confirmationMatches } from '../../../../lib/password-confirmation.ts';
import { confirmForgotPassword } from '../api/auth-api.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';
import { AccountEmailInput } from './account-email-input.tsx';
import type { SignInLocationState } from './sign-in-page.tsx';

const schema = z
  .object({
    username: usernameSchema,
    code: resetCodeSchema,
    new_password: newPasswordSchema,
    confirm: z.string(),
  })
  .superRefine(confirmationMatches('new_password'));
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

const emailFromState = (state: unknown): string => {
  if (
    typeof state === 'object' &&
    state !== null &&
    'email' in state &&
    typeof state.email === 'string'
  )
    return state.email;
  return '';
};

export function ConfirmForgotPasswordPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const location = useLocation();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: {
      username: emailFromState(location.state),
      code: '',
      new_password: '',
      confirm: '',
    },
  });

  const submit = async ({ username, code, new_password }: Values) => {
    setErrorKey(null);
    try {
      await confirmForgotPassword({ username, code, new_password });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'code_mismatch' || key === 'expired_code')
        setError('code', { message: key }, { shouldFocus: true });
      else showApiError(error, ['username', 'code', 'new_password'], setError, setErrorKey);
      return;
    }
    const state: SignInLocationState = { info: 'passwordResetDone', email: username };
    void navigate('/', { state });
  };

  return (
    <AuthLayout title={t('confirmForgotPassword.title')} intro={t('confirmForgotPassword.intro')}>
      <form
        onSubmit={handleSubmit(submit)}
        noValidate
        aria-label={t('confirmForgotPassword.title')}
      >
        <Stack gap="md">
          <FormAlert errorKey={errorKey} />
          <AccountEmailInput errorKey={errors.username?.message} {...register('username')} />
          <TextInput
            label={t('confirmForgotPassword.resetCode')}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus
            error={errors.code?.message && errorText(errors.code.message)}
            {...register('code')}
          />
          <NewPasswordFields
            label={t('common.newPassword')}
            name="new_password"
            register={register}
            errors={errors}
          />
          <Button type="submit" loading={isSubmitting} fullWidth>
            {t('confirmForgotPassword.submit')}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            {t('common.backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </AuthLayout>
  );
}
