import { useState } from 'react';
import { Button, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { SignInResult } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { respondToChallenge } from '../api/auth-api.ts';
import { useMfaCodeForm, type MfaCodeValues } from '../hooks/use-mfa-code-form.ts';
import { MfaCodeField } from './mfa-code-field.tsx';

export interface MfaCodeModalProps {
  /** The SOFTWARE_TOKEN_MFA challenge's session; it stays valid across wrong codes. */
  readonly session: string;
  readonly onResult: (result: SignInResult) => Promise<void>;
  readonly onRestart: (errorKey: string | null) => void;
}

/** Sign-in step 3: the code from the authenticator app. */
export function MfaCodeModal({ session, onResult, onRestart }: MfaCodeModalProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { errors, isSubmitting },
  } = useMfaCodeForm();

  const submit = async ({ code }: MfaCodeValues) => {
    setErrorKey(null);
    let result: SignInResult;
    try {
      result = await respondToChallenge({ challenge_name: 'SOFTWARE_TOKEN_MFA', session, code });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'invalid_session') {
        onRestart(key);
      } else if (key === 'code_mismatch' || key === 'code_format') {
        // Let the user type the next code straight away.
        setValue('code', '');
        setError('code', { message: key });
        setFocus('code');
      } else {
        setErrorKey(key);
      }
      return;
    }
    await onResult(result);
  };

  return (
    <Modal
      opened
      onClose={() => onRestart(null)}
      title={t('mfaCode.title')}
      closeOnClickOutside={false}
      centered
    >
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
    </Modal>
  );
}
