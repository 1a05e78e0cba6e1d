import { useEffect, useState } from 'react';
import { Alert, Button, Code, List, Loader, Modal, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { SignInResult } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { RecoveryCodesList } from '../../../../components/recovery-codes-list.tsx';
import {
  associateSoftwareToken,
  respondToChallenge,
  verifySoftwareToken,
} from '../api/auth-api.ts';
import { refuseMfaCode, useMfaCodeForm, type MfaCodeValues } from '../hooks/use-mfa-code-form.ts';
import { MfaCodeField } from './mfa-code-field.tsx';
import { QrCodeImage } from './qr-code-image.tsx';

export interface MfaSetupModalProps {
  /** The MFA_SETUP challenge's session. */
  readonly session: string;
  readonly onResult: (result: SignInResult) => Promise<void>;
  readonly onRestart: (errorKey: string | null) => void;
}

/** Sign-in step 4: a new authenticator secret as QR code, confirmed with a first code. */
export function MfaSetupModal({ session, onResult, onRestart }: MfaSetupModalProps) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [errorKey, setErrorKey] = useState<string | null>(null);
  // Once verify succeeded, a retry (e.g. after a network failure) must only respond: the code is spent.
  const [verifiedSession, setVerifiedSession] = useState<string | null>(null);
  // The recovery codes the verify answered: shown once, before sign-in goes on.
  const [recoveryCodes, setRecoveryCodes] = useState<readonly string[] | null>(null);
  const [continuing, setContinuing] = useState(false);

  // A query, not an effect: it runs once per challenge session even when React mounts twice.
  const secret = useQuery({
    queryKey: ['associate-software-token', session],
    queryFn: () => associateSoftwareToken(session),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  const {
    register,
    handleSubmit,
    setError,
    setValue,
    setFocus,
    formState: { errors, isSubmitting },
  } = useMfaCodeForm();

  // The modal opens on a loader, so its own autofocus lands on the close button: once the secret
  // is there, put the cursor where the user types next.
  useEffect(() => {
    if (secret.data) setFocus('code');
  }, [secret.data, setFocus]);

  /** After the codes were seen: the challenge is answered and sign-in goes on. */
  const respond = async (continueWith: string) => {
    setErrorKey(null);
    setContinuing(true);
    let result: SignInResult;
    try {
      result = await respondToChallenge({ challenge_name: 'MFA_SETUP', session: continueWith });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'invalid_session') onRestart(key);
      else setErrorKey(key);
      setContinuing(false);
      return;
    }
    await onResult(result);
  };

  const submit = async ({ code }: MfaCodeValues) => {
    if (!secret.data) return;
    setErrorKey(null);
    let result: SignInResult;
    try {
      let continueWith = verifiedSession;
      if (!continueWith) {
        const verified = await verifySoftwareToken(secret.data.session ?? session, code);
        continueWith = verified.session ?? secret.data.session ?? session;
        setVerifiedSession(continueWith);
        if (verified.recovery_codes.length > 0) {
          setRecoveryCodes(verified.recovery_codes);
          return;
        }
      }
      result = await respondToChallenge({ challenge_name: 'MFA_SETUP', session: continueWith });
    } catch (error) {
      const key = errorKeyOf(error);
      if (key === 'invalid_session') {
        onRestart(key);
      } else if (key === 'code_mismatch' || key === 'code_format') {
        refuseMfaCode({ setValue, setError, setFocus }, key);
      } else {
        setErrorKey(key);
      }
      return;
    }
    await onResult(result);
  };

  const associateError = secret.error ? errorKeyOf(secret.error) : null;

  return (
    <Modal
      opened
      onClose={() => onRestart(null)}
      title={t('mfaSetup.title')}
      closeOnClickOutside={false}
      size="md"
      centered
    >
      {secret.isPending ? (
        <Stack align="center" py="lg">
          <Loader />
          <Text size="sm">{t('mfaSetup.preparing')}</Text>
        </Stack>
      ) : associateError ? (
        <Stack>
          <FormAlert errorKey={associateError} />
          <Button variant="default" onClick={() => onRestart(associateError)}>
            {t('common.backToSignIn')}
          </Button>
        </Stack>
      ) : recoveryCodes && verifiedSession ? (
        <Stack gap="md" data-testid="recovery-codes-step">
          <Text fw={600}>{t('recoveryCodes.title')}</Text>
          <Text size="sm">{t('recoveryCodes.intro')}</Text>
          <RecoveryCodesList codes={recoveryCodes} />
          <FormAlert errorKey={errorKey} />
          <Button loading={continuing} onClick={() => void respond(verifiedSession)} fullWidth>
            {t('recoveryCodes.continue')}
          </Button>
        </Stack>
      ) : secret.data ? (
        <form onSubmit={handleSubmit(submit)} noValidate aria-label={t('mfaSetup.title')}>
          <Stack gap="md">
            <List type="ordered" size="sm" spacing="xs">
              <List.Item>{t('mfaSetup.step1')}</List.Item>
              <List.Item>{t('mfaSetup.step2')}</List.Item>
              <List.Item>{t('mfaSetup.step3')}</List.Item>
            </List>
            <Stack align="center" gap={4}>
              <QrCodeImage
                value={secret.data.otpauth_uri}
                alt={t('mfaSetup.qrAlt')}
                testId="mfa-qr"
              />
            </Stack>
            <Alert variant="light" color="gray" p="xs">
              <Text size="sm">{t('mfaSetup.manualKey')}</Text>
              <Code block data-testid="mfa-secret" style={{ wordBreak: 'break-all' }}>
                {secret.data.secret_code}
              </Code>
            </Alert>
            <FormAlert errorKey={errorKey} />
            <MfaCodeField
              label={t('common.code')}
              error={errors.code?.message && errorText(errors.code.message)}
              {...register('code')}
            />
            <Button type="submit" loading={isSubmitting} fullWidth>
              {t('mfaSetup.submit')}
            </Button>
          </Stack>
        </form>
      ) : null}
    </Modal>
  );
}
