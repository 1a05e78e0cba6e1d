import { useState } from 'react';
import { Anchor, Button, Modal, Stack, Text, TextInput } from '@mantine/core';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { recoveryCodeSchema, type SignInResult } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { respondToChallenge } from '../api/auth-api.ts';
import { refuseMfaCode, useMfaCodeForm, type MfaCodeValues } from '../hooks/use-mfa-code-form.ts';
import { MfaCodeField } from './mfa-code-field.tsx';

export interface MfaCodeModalProps {
  /** The SOFTWARE_TOKEN_MFA challenge's session; it stays valid across wrong codes. */
  readonly session: string;
  readonly onResult: (result: SignInResult) => Promise<void>;
  readonly onRestart: (errorKey: string | null) => void;
}

type Answer = { code: string } | { recovery_code: string };

/** Sign-in step 3: the code from the authenticator app, or one of the saved recovery codes. */
export function MfaCodeModal({ session, onResult, onRestart }: MfaCodeModalProps) {
  const { t } = useTranslation();
  const [useRecovery, setUseRecovery] = useState(false);
  const [errorKey, setErrorKey] = useState<string | null>(null);

  /** Answers the challenge; a field error key comes back for the form to show. */
  const answer = async (body: Answer): Promise<string | null> => {
    setErrorKey(null);
    let result: SignInResult;
    try {
      result = await respondToChallenge({ challenge_name: 'SOFTWARE_TOKEN_MFA', session, ...body });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'invalid_session') onRestart(key);
      else if (FIELD_ERRORS.has(key)) return key;
      else setErrorKey(key);
      return null;
    }
    await onResult(result);
    return null;
  };

  return (
    <Modal
      opened
      onClose={() => onRestart(null)}
      title={t('mfaCode.title')}
      closeOnClickOutside={false}
      centered
    >
      {useRecovery ? (
        <RecoveryCodeForm answer={answer} errorKey={errorKey} />
      ) : (
        <AuthenticatorCodeForm answer={answer} errorKey={errorKey} />
      )}
      <Anchor
        component="button"
        type="button"
        size="sm"
        mt="md"
        onClick={() => {
          setErrorKey(null);
          setUseRecovery((on) => !on);
        }}
      >
        {useRecovery ? t('mfaCode.useAuthenticator') : t('mfaCode.useRecoveryCode')}
      </Anchor>
    </Modal>
  );
}

/** What the server says about the typed code itself: shown on the field, which is emptied. */
const FIELD_ERRORS = new Set([
  'code_mismatch',
  'code_format',
  'recovery_code_mismatch',
  'recovery_code_format',
]);

interface FormProps {
  readonly answer: (body: Answer) => Promise<string | null>;
  readonly errorKey: string | null;
}

function AuthenticatorCodeForm({ answer, errorKey }: FormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { errors, isSubmitting },
  } = useMfaCodeForm();

  const submit = async ({ code }: MfaCodeValues) => {
    const fieldError = await answer({ code });
    if (!fieldError) return;
    refuseMfaCode({ setValue, setError, setFocus }, fieldError);
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('mfaCode.title')}>
      <Stack gap="md">
        <Text size="sm">{t('mfaCode.intro')}</Text>
        <FormAlert errorKey={errorKey} />
        <MfaCodeField
          label={t('common.code')}
          error={errors.code?.message && errorText(errors.code.message)}
          {...register('code')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('mfaCode.submit')}
        </Button>
      </Stack>
    </form>
  );
}

const recoveryFormSchema = z.object({ recovery_code: recoveryCodeSchema });

function RecoveryCodeForm({ answer, errorKey }: FormProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors, isSubmitting },
  } = useForm<z.input<typeof recoveryFormSchema>, unknown, z.output<typeof recoveryFormSchema>>({
    resolver: zodResolver(recoveryFormSchema),
    defaultValues: { recovery_code: '' },
  });

  const submit = async (values: z.output<typeof recoveryFormSchema>) => {
    const fieldError = await answer({ recovery_code: values.recovery_code });
    if (!fieldError) return;
    setError('recovery_code', { message: fieldError });
    setFocus('recovery_code');
  };

  return (
    <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('mfaCode.title')}>
      <Stack gap="md">
        <Text size="sm">{t('mfaCode.recoveryIntro')}</Text>
        <FormAlert errorKey={errorKey} />
        <TextInput
          label={t('mfaCode.recoveryCode')}
          autoComplete="off"
          autoCapitalize="none"
          spellCheck={false}
          data-autofocus
          placeholder="abcde-fgh0k"
          error={errors.recovery_code?.message && errorText(errors.recovery_code.message)}
          {...register('recovery_code')}
        />
        <Button type="submit" loading={isSubmitting} fullWidth>
          {t('mfaCode.submit')}
        </Button>
      </Stack>
    </form>
  );
}
