import { useEffect, useRef, useState } from 'react';
import { Alert, Anchor, Loader, Stack } from '@mantine/core';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { endpoints } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';

type State =
  { kind: 'checking' } | { kind: 'verified'; address: string } | { kind: 'failed'; key: string };

/** Opened from the verification e-mail sent when an event's from address changes. */
export function VerifyFromAddressPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [state, setState] = useState<State>({ kind: 'checking' });
  // The link works once: never send it twice (React StrictMode runs effects twice).
  const sent = useRef(false);

  useEffect(() => {
    if (sent.current) return;
    sent.current = true;
    callApi(endpoints.verifyFromAddress, { token }).then(
      (result) => setState({ kind: 'verified', address: result.email_from_address }),
      (error: unknown) => setState({ kind: 'failed', key: errorKeyOf(error) }),
    );
  }, [token]);

  return (
    <AuthLayout title={t('verifyFromAddress.title')}>
      <Stack gap="md">
        {state.kind === 'checking' ? (
          <Loader aria-label={t('app.loading')} />
        ) : state.kind === 'verified' ? (
          <Alert color="green" role="status">
            {t('verifyFromAddress.verified', { address: state.address })}
          </Alert>
        ) : (
          <Alert color="red" role="alert">
            {errorText(state.key)}
          </Alert>
        )}
        <Anchor component={Link} to="/" size="sm" ta="center">
          {t('verifyFromAddress.toConsole')}
        </Anchor>
      </Stack>
    </AuthLayout>
  );
}
