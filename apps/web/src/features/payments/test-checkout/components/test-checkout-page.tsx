import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Divider,
  Group,
  Loader,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useParams, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { endpoints, formatMoney, type PaymentStatusName } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { AuthLayout } from '../../../../components/auth-layout.tsx';

/**
 * The album the guest came from (`return`, set by the album page on the same site): a path of
 * this site only, never another origin, so the link cannot send the guest elsewhere.
 */
export const returnPathOf = (value: string | null): string | null =>
  value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\')
    ? value
    : null;

type State =
  | { kind: 'form'; errorKey: string | null }
  | { kind: 'sending' }
  | { kind: 'done'; status: PaymentStatusName };

/** Card digits in groups of four as they are typed (what a card form shows). */
export const groupCardDigits = (raw: string): string =>
  raw
    .replace(/\D/g, '')
    .slice(0, 19)
    .replace(/(\d{4})(?=\d)/g, '$1 ');

/**
 * The built-in test provider's checkout page, opened from the QR code a kiosk shows
 * ("pay on your phone"): shows what is charged (amount, what is bought, the event), takes a test
 * card number and posts it to the provider's form endpoint; the provider then reports to the
 * server through its signed webhook. Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is
 * declined. A link already paid, declined, closed or expired shows that instead of the form.
 */
export function TestCheckoutPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { paymentId = '' } = useParams();
  const [search] = useSearchParams();
  const backTo = returnPathOf(search.get('return'));
  const [card, setCard] = useState('');
  const [state, setState] = useState<State>({ kind: 'form', errorKey: null });
  const summary = useQuery({
    queryKey: ['test-checkout', paymentId],
    queryFn: ({ signal }) =>
      callApi(endpoints.testProviderCheckout, { payment_id: paymentId }, { signal }),
    retry: false,
    staleTime: Infinity,
  });

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (state.kind === 'sending') return;
    setState({ kind: 'sending' });
    callApi(endpoints.testProviderPay, { payment_id: paymentId, card_number: card }).then(
      (result) => setState({ kind: 'done', status: result.status }),
      (error: unknown) => setState({ kind: 'form', errorKey: errorKeyOf(error) }),
    );
  };

  if (summary.isPending)
    return (
      <AuthLayout title={t('testCheckout.title')}>
        <Group justify="center" py="lg">
          <Loader aria-label={t('testCheckout.loading')} />
        </Group>
      </AuthLayout>
    );
  if (summary.isError)
    return (
      <AuthLayout title={t('testCheckout.title')}>
        <Alert color="red" role="alert">
          {errorKeyOf(summary.error) === 'not_found'
            ? t('testCheckout.unknown')
            : errorText(errorKeyOf(summary.error))}
        </Alert>
      </AuthLayout>
    );

  const order = summary.data;
  // A link opened again after the payment ended says how it ended.
  const status = state.kind === 'done' ? state.status : order.status;
  const amount = formatMoney(order.amount, order.currency);
  return (
    <AuthLayout title={t('testCheckout.title')}>
      <Stack gap={4} data-testid="checkout-summary">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Text size="sm" c="dimmed" lineClamp={2}>
            {order.merchant}
          </Text>
          <Badge color="orange" variant="light" style={{ flexShrink: 0 }}>
            {t('testCheckout.testMode')}
          </Badge>
        </Group>
        <Title order={2} size="h1" data-testid="checkout-amount">
          {amount}
        </Title>
        <Text size="sm">{order.description}</Text>
      </Stack>
      <Divider />
      {status !== 'pending' ? (
        <Stack gap="md">
          <Alert color={status === 'paid' ? 'green' : 'red'} role="status">
            {t(`testCheckout.result.${status}`)}
          </Alert>
          {backTo && (
            <Button component="a" href={backTo} size="md" fullWidth>
              {t('testCheckout.back')}
            </Button>
          )}
        </Stack>
      ) : (
        <form onSubmit={submit} noValidate>
          <Stack gap="md">
            <TextInput
              label={t('testCheckout.cardNumber')}
              description={t('testCheckout.intro')}
              placeholder="4242 4242 4242 4242"
              inputMode="numeric"
              autoComplete="cc-number"
              size="md"
              value={card}
              onChange={(e) => setCard(groupCardDigits(e.currentTarget.value))}
              error={
                state.kind === 'form' && state.errorKey ? errorText(state.errorKey) : undefined
              }
            />
            <Button type="submit" size="md" fullWidth loading={state.kind === 'sending'}>
              {t('testCheckout.pay', { amount })}
            </Button>
            <Text size="xs" c="dimmed" ta="center">
              {t('testCheckout.noCharge')}
            </Text>
            {backTo && (
              <Button component="a" href={backTo} variant="subtle" size="md" fullWidth>
                {t('testCheckout.backUnpaid')}
              </Button>
            )}
          </Stack>
        </form>
      )}
    </AuthLayout>
  );
}
