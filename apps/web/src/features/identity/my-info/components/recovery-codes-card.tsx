import { useState } from 'react';
import {
  Alert,
  Button,
  Card,
  Group,
  Modal,
  PasswordInput,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { passwordInputSchema } from '@flashbulb/shared';
import { showApiError } from '../../../../lib/form-api-error.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { RecoveryCodesList } from '../../../../components/recovery-codes-list.tsx';
import { fetchRecoveryCodesStatus, regenerateRecoveryCodes } from '../api/recovery-codes-api.ts';

const STATUS_KEY = ['recovery-codes-status'];
/** At or under this many left, the card asks for a new set. */
const LOW = 3;

/**
 * The signed-in user's recovery codes: how many are left (never the codes), when one was last
 * used, and a new set behind the password, shown once.
 */
export function RecoveryCodesCard() {
  const { t, i18n } = useTranslation();
  const [regenerating, setRegenerating] = useState(false);
  const status = useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => fetchRecoveryCodesStatus(signal),
  });
  const data = status.data;
  return (
    <Card withBorder radius="md" component="section" aria-labelledby="recovery-codes-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="recovery-codes-title">
          {t('recoveryCodes.cardTitle')}
        </Title>
        {data ? (
          <>
            <Text data-testid="recovery-codes-remaining" fw={600}>
              {data.total === 0
                ? t('recoveryCodes.none')
                : t('recoveryCodes.remaining', { remaining: data.remaining, total: data.total })}
            </Text>
            {data.last_used_at ? (
              <Text size="sm" c="dimmed" data-testid="recovery-codes-last-used">
                {t('recoveryCodes.lastUsed', {
                  time: new Date(data.last_used_at).toLocaleString(i18n.language),
                })}
              </Text>
            ) : null}
            {data.total > 0 && data.remaining <= LOW ? (
              <Alert color="orange" variant="light" p="xs">
                {t('recoveryCodes.low')}
              </Alert>
            ) : null}
          </>
        ) : null}
        <Group>
          <Button variant="default" onClick={() => setRegenerating(true)}>
            {t('recoveryCodes.regenerate')}
          </Button>
        </Group>
      </Stack>
      <RegenerateModal opened={regenerating} onClose={() => setRegenerating(false)} />
    </Card>
  );
}

const passwordFormSchema = z.object({ password: passwordInputSchema });
type PasswordValues = z.infer<typeof passwordFormSchema>;

function RegenerateModal({
  opened,
  onClose,
}: {
  readonly opened: boolean;
  readonly onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const [codes, setCodes] = useState<readonly string[] | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordValues>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { password: '' },
  });

  const close = () => {
    reset();
    setErrorKey(null);
    setCodes(null);
    onClose();
  };

  const submit = async (values: PasswordValues) => {
    setErrorKey(null);
    try {
      const made = await regenerateRecoveryCodes({ password: values.password });
      setCodes(made.recovery_codes);
      reset();
      await queryClient.invalidateQueries({ queryKey: STATUS_KEY });
    } catch (error) {
      showApiError(error, ['password'], setError, setErrorKey);
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={codes ? t('recoveryCodes.title') : t('recoveryCodes.regenerateTitle')}
      closeOnClickOutside={!codes}
    >
      {codes ? (
        <Stack gap="md">
          <Text size="sm">{t('recoveryCodes.intro')}</Text>
          <RecoveryCodesList codes={codes} />
          <Button onClick={close}>{t('recoveryCodes.done')}</Button>
        </Stack>
      ) : (
        <form
          onSubmit={handleSubmit(submit)}
          noValidate
          aria-label={t('recoveryCodes.regenerateTitle')}
        >
          <Stack gap="md">
            <Text size="sm">{t('recoveryCodes.regenerateIntro')}</Text>
            <FormAlert errorKey={errorKey} />
            <PasswordInput
              label={t('console.changePassword.current')}
              autoComplete="current-password"
              data-autofocus
              error={errors.password?.message && errorText(errors.password.message)}
              {...register('password')}
            />
            <Button type="submit" loading={isSubmitting}>
              {t('recoveryCodes.regenerateSubmit')}
            </Button>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
