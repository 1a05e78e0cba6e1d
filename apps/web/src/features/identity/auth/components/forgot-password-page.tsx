import { useState } from 'react';
import { Alert, Anchor, Button, Group, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { usernameSchema } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { forgotPassword } from '../api/auth-api.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';
import { AccountEmailInput } from './account-email-input.tsx';

const schema = z.object({ username: usernameSchema });
type Input = z.input<typeof schema>;
type Values = z.output<typeof schema>;

export function ForgotPasswordPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<Input, unknown, Values>({
    resolver: zodResolver(schema),
    defaultValues: { username: '' },
  });

  const submit = async (values: Values) => {
    setErrorKey(null);
    try {
      await forgotPassword(values);
      // The same answer whether or not the account exists, so nobody can probe for accounts.
      setSentTo(values.username);
    } catch (error) {
      setErrorKey(errorKeyOf(error));
    }
  };

  return (
    <AuthLayout
      title={t('forgotPassword.title')}
      intro={sentTo ? undefined : t('forgotPassword.intro')}
    >
      {sentTo ? (
        <Stack gap="md">
          <Alert color="green" role="status">
            {t('forgotPassword.sent')}
          </Alert>
          <Button
            onClick={() => void navigate('/forgot-password/confirm', { state: { email: sentTo } })}
          >
            {t('forgotPassword.haveCode')}
          </Button>
          <Anchor component={Link} to="/" size="sm" ta="center">
            {t('common.backToSignIn')}
          </Anchor>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('forgotPassword.title')}>
          <Stack gap="md">
            <FormAlert errorKey={errorKey} />
            <AccountEmailInput
              autoFocus
              errorKey={errors.username?.message}
              {...register('username')}
            />
            <Button type="submit" loading={isSubmitting} fullWidth>
              {t('forgotPassword.submit')}
            </Button>
            <Group justify="space-between">
              <Anchor component={Link} to="/" size="sm">
                {t('common.backToSignIn')}
              </Anchor>
              <Anchor component={Link} to="/forgot-password/confirm" size="sm">
                {t('forgotPassword.haveCode')}
              </Anchor>
            </Group>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
