import { useState } from 'react';
import { Button, Group, Modal, PasswordInput, Stack, Text } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { newPasswordSchema, passwordInputSchema } from '@flashbulb/shared';
import { showApiError } from '../../../../lib/form-api-error.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { NewPasswordFields } from '../../../../components/new-password-fields.tsx';
import { confirmationMatches } from '../../../../lib/password-confirmation.ts';
import { changePassword } from '../api/change-password-api.ts';

const changePasswordFormSchema = z
  .object({
    previous_password: passwordInputSchema,
    proposed_password: newPasswordSchema,
    confirm: z.string(),
  })
  .superRefine(confirmationMatches('proposed_password'));
type ChangePasswordValues = z.infer<typeof changePasswordFormSchema>;

/**
 * The signed-in user's new password: the current one, the new one twice. The shared rules check
 * before the call; the server's errors land on their field. Other sessions end on success.
 */
export function ChangePasswordModal({
  opened,
  onClose,
}: {
  readonly opened: boolean;
  readonly onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [done, setDone] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<ChangePasswordValues>({
    resolver: zodResolver(changePasswordFormSchema),
    defaultValues: { previous_password: '', proposed_password: '', confirm: '' },
  });

  const close = () => {
    reset();
    setErrorKey(null);
    setDone(false);
    onClose();
  };

  const submit = async (values: ChangePasswordValues) => {
    setErrorKey(null);
    try {
      await changePassword({
        previous_password: values.previous_password,
        proposed_password: values.proposed_password,
      });
    } catch (error) {
      showApiError(error, ['previous_password', 'proposed_password'], setError, setErrorKey);
      return;
    }
    reset();
    setDone(true);
  };

  return (
    <Modal opened={opened} onClose={close} title={t('console.changePassword.title')}>
      {done ? (
        <Stack gap="md">
          <Text role="status">{t('console.changePassword.done')}</Text>
          <Button onClick={close}>{t('console.changePassword.close')}</Button>
        </Stack>
      ) : (
        <form onSubmit={handleSubmit(submit)} noValidate>
          <Stack gap="md">
            <FormAlert errorKey={errorKey} />
            <PasswordInput
              label={t('console.changePassword.current')}
              autoComplete="current-password"
              error={
                errors.previous_password?.message && errorText(errors.previous_password.message)
              }
              {...register('previous_password')}
            />
            <NewPasswordFields
              label={t('common.newPassword')}
              name="proposed_password"
              register={register}
              errors={errors}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={isSubmitting}>
                {t('console.changePassword.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
