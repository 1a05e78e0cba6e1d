import { useState } from 'react';
import { Button, Stack, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { emailSchema, newPasswordSchema } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { showApiError } from '../../../../lib/form-api-error.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { NewPasswordFields } from '../../../../components/new-password-fields.tsx';
import { confirmationMatches } from '../../../../lib/password-confirmation.ts';
import { createFirstAdmin } from '../api/auth-api.ts';
import { SETUP_STATUS_QUERY_KEY } from '../hooks/use-setup-status.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';
import { AccountEmailInput } from './account-email-input.tsx';
import type { SignInLocationState } from './sign-in-page.tsx';

const schema = z
  .object({
    setup_token: z.string().trim().optional(),
    email: emailSchema,
    password: newPasswordSchema,
    confirm: z.string(),
  })
  .superRefine(confirmationMatches('password'));
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

/**
 * First visit of a fresh installation: nobody can sign in until an administrator exists. From
 * another machine than the server's, the server asks for the set-up token it printed in its log.
 */
export function FirstAdminPage({ needsSetupToken = false }: { needsSetupToken?: boolean }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: { setup_token: '', email: '', password: '', confirm: '' },
  });

  const submit = async ({ email, password, setup_token }: Values) => {
    setErrorKey(null);
    try {
      const created = await createFirstAdmin({
        email,
        password,
        ...(needsSetupToken && setup_token ? { setup_token } : {}),
      });
      const state: SignInLocationState = { info: 'firstAdminCreated', email: created.email };
      queryClient.setQueryData(SETUP_STATUS_QUERY_KEY, { needs_first_admin: false });
      void navigate('/', { state, replace: true });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'setup_already_done') {
        // Someone else was quicker: the sign-in page is where this user belongs now.
        setErrorKey(key);
        await queryClient.invalidateQueries({ queryKey: SETUP_STATUS_QUERY_KEY });
      } else {
        const fields = needsSetupToken
          ? (['email', 'password', 'setup_token'] as const)
          : (['email', 'password'] as const);
        showApiError(error, fields, setError, setErrorKey);
      }
    }
  };

  return (
    <AuthLayout title={t('firstAdmin.title')} intro={t('firstAdmin.intro')}>
      <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('firstAdmin.title')}>
        <Stack gap="md">
          <FormAlert errorKey={errorKey} />
          {needsSetupToken && (
            <TextInput
              label={t('firstAdmin.setupToken')}
              description={t('firstAdmin.setupTokenHint')}
              autoComplete="off"
              autoFocus
              error={errors.setup_token?.message && errorText(errors.setup_token.message)}
              {...register('setup_token')}
            />
          )}
          <AccountEmailInput
            autoFocus={!needsSetupToken}
            errorKey={errors.email?.message}
            {...register('email')}
          />
          <NewPasswordFields
            label={t('common.password')}
            name="password"
            register={register}
            errors={errors}
          />
          <Button type="submit" loading={isSubmitting} fullWidth>
            {t('firstAdmin.submit')}
          </Button>
        </Stack>
      </form>
    </AuthLayout>
  );
}
