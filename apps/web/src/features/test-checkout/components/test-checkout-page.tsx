import { useState, type FormEvent } from 'react';
import { Alert, Button, Stack, Text, TextInput } from '@mantine/core';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { endpoints, type PaymentStatusName } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { AuthLayout } from '../../../components/auth-layout.tsx';

type State =
  | { kind: 'form'; errorKey: string | null }
  | { kind: 'sending' }
  | { kind: 'done'; status: PaymentStatusName };

/**
 * The built-in test provider's checkout page (issue 10), opened from the QR code a kiosk shows
 * ("pay on your phone"): takes a test card number and posts it to the provider's form endpoint;
 * the provider then reports to the server through its signed webhook. Test cards:
 * 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined.
 */
export function TestCheckoutPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { paymentId = '' } = useParams();
  const [card, setCard] = useState('');
  const [state, setState] = useState<State>({ kind: 'form', errorKey: null });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (state.kind === 'sending') return;
    setState({ kind: 'sending' });
    callApi(endpoints.testProviderPay, { payment_id: paymentId, card_number: card }).then(
      (result) => setState({ kind: 'done', status: result.status }),
      (error: unknown) => setState({ kind: 'form', errorKey: errorKeyOf(error) }),
    );
  };

  return (
    <AuthLayout title={t('testCheckout.title')}>
      {state.kind === 'done' ? (
        <Alert color={state.status === 'paid' ? 'green' : 'red'} role="status">
          {t(`testCheckout.result.${state.status}`)}
        </Alert>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <Text size="sm">{t('testCheckout.intro')}</Text>
            <TextInput
              label={t('testCheckout.cardNumber')}
              inputMode="numeric"
              autoComplete="cc-number"
              value={card}
              onChange={(e) => setCard(e.currentTarget.value)}
              error={
                state.kind === 'form' && state.errorKey ? errorText(state.errorKey) : undefined
              }
            />
            <Button type="submit" loading={state.kind === 'sending'}>
              {t('testCheckout.pay')}
            </Button>
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
