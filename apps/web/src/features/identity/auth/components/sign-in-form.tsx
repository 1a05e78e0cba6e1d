import { Anchor, Button, PasswordInput, Stack } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { passwordInputSchema, usernameSchema } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { AccountEmailInput } from './account-email-input.tsx';

const signInSchema = z.object({ username: usernameSchema, password: passwordInputSchema });
type SignInInput = z.input<typeof signInSchema>;
type SignInValues = z.output<typeof signInSchema>;

export interface SignInFormProps {
  readonly defaultUsername?: string;
  readonly errorKey: string | null;
  readonly onSubmit: (values: SignInValues) => Promise<void>;
}

export function SignInForm({ defaultUsername = '', errorKey, onSubmit }: SignInFormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInInput, unknown, SignInValues>({
    resolver: zodResolver(signInSchema),
    defaultValues: { username: defaultUsername, password: '' },
  });

  return (
    <form onSubmit={handleSubmit(onSubmit)} noValidate aria-label={t('signIn.title')}>
      <Stack gap="md">
        <FormAlert errorKey={errorKey} />
        <AccountEmailInput
          autoFocus
          errorKey={errors.username?.message}
          {...register('username')}
        />
        <PasswordInput
          label={t('common.password')}
          autoComplete="current-password"
          error={errors.password?.message && errorText(errors.password.message)}
          {...register('password')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('signIn.submit')}
        </Button>
        <Anchor component={Link} to="/forgot-password" size="sm" ta="center">
          {t('signIn.forgotPassword')}
        </Anchor>
      </Stack>
    </form>
  );
}
