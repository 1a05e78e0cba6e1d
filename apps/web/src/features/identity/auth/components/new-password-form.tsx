import { useState } from 'react';
import { Button, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { newPasswordSchema, type SignInResult } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { showApiError } from '../../../../lib/form-api-error.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { NewPasswordFields } from '../../../../components/new-password-fields.tsx';
import { confirmationMatches } from '../../../../lib/password-confirmation.ts';
import { respondToChallenge } from '../api/auth-api.ts';

const newPasswordFormSchema = z
  .object({ new_password: newPasswordSchema, confirm: z.string() })
  .superRefine(confirmationMatches('new_password'));
type NewPasswordValues = z.infer<typeof newPasswordFormSchema>;

export interface NewPasswordFormProps {
  readonly session: string;
  readonly onResult: (result: SignInResult) => Promise<void>;
  readonly onRestart: (errorKey: string | null) => void;
}

/** Answers NEW_PASSWORD_REQUIRED: the temporary password must be replaced before anything else. */
export function NewPasswordForm({ session, onResult, onRestart }: NewPasswordFormProps) {
  const { t } = useTranslation();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<NewPasswordValues>({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { new_password: '', confirm: '' },
  });

  const submit = async (values: NewPasswordValues) => {
    setErrorKey(null);
    let result: SignInResult;
    try {
      result = await respondToChallenge({
        challenge_name: 'NEW_PASSWORD_REQUIRED',
        session,
        new_password: values.new_password,
      });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'invalid_session') onRestart(key);
      else showApiError(error, ['new_password'], setError, setErrorKey);
      return;
    }
    await onResult(result);
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('newPassword.title')}>
      <Stack gap="md">
        <FormAlert errorKey={errorKey} />
        <NewPasswordFields
          label={t('common.newPassword')}
          autoFocus
          name="new_password"
          register={register}
          errors={errors}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('newPassword.submit')}
        </Button>
      </Stack>
    </form>
  );
}
