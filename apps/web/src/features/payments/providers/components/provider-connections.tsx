import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  PasswordInput,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { ConnectionProvider, PaymentConnection } from '@flashbulb/shared';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  connectProvider,
  disconnectProvider,
  paymentQueryKeys,
  testConnection,
  type Org,
} from '../api/payments-api.ts';

/**
 * One provider's connection for the organisation: write-only secret (connected, last four), a
 * credentials test whose failure is the provider's own words, and disconnect.
 */
function ConnectionCard({
  connection,
  organisationId,
}: {
  connection: PaymentConnection;
  organisationId: Org;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const provider = connection.provider;
  const [secret, setSecret] = useState('');
  const [shop, setShop] = useState('');
  const [busy, setBusy] = useState<'save' | 'test' | 'remove' | null>(null);
  const [problem, setProblem] = useState<{ text: string; field: string | null } | null>(null);

  const run = async (kind: 'save' | 'test' | 'remove', call: () => Promise<unknown>) => {
    setBusy(kind);
    setProblem(null);
    try {
      await call();
      await client.invalidateQueries({ queryKey: paymentQueryKeys.connections });
    } catch (error) {
      const field = isApiError(error) ? (error.field ?? null) : null;
      setProblem({ text: errorText(errorKeyOf(error)), field });
    } finally {
      setBusy(null);
    }
  };

  const connect = (event: FormEvent) => {
    event.preventDefault();
    void run('save', async () => {
      await connectProvider(
        organisationId,
        provider,
        secret,
        provider === 'shopify' ? shop : undefined,
      );
      setSecret('');
    });
  };
  const fieldError = (field: string) =>
    problem && problem.field === field ? problem.text : undefined;

  return (
    <Card withBorder data-testid={`connection-${provider}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          <Title order={4}>{t(`payments.connections.${provider}.name`)}</Title>
          {connection.connected ? (
            <Badge color="green" variant="light" data-testid="connection-state">
              {t('payments.connections.connected')}
            </Badge>
          ) : (
            <Badge color="gray" variant="light" data-testid="connection-state">
              {t('payments.connections.notConnected')}
            </Badge>
          )}
        </Group>
        <Text size="sm" c="dimmed">
          {t(`payments.connections.${provider}.help`)}
        </Text>
        {connection.connected === 1 && (
          <Text size="sm" data-testid="connection-summary">
            {connection.last_four
              ? t('payments.connections.endsWith', { lastFour: connection.last_four })
              : t('payments.connections.saved')}
            {connection.shop ? ` · ${connection.shop}` : ''}
          </Text>
        )}
        {connection.test_ok === 1 && (
          <Alert color="green" py={6} data-testid="test-result">
            {t('payments.connections.testPassed')}
          </Alert>
        )}
        {connection.test_ok === 0 && (
          <Alert
            color="red"
            py={6}
            title={t('payments.connections.testFailed')}
            data-testid="test-result"
          >
            {connection.test_error}
          </Alert>
        )}
        {problem && !problem.field && (
          <Alert color="red" py={6} role="alert">
            {problem.text}
          </Alert>
        )}
        <Stack gap="xs" component="form" onSubmit={connect}>
          {provider === 'shopify' && (
            <TextInput
              label={t('payments.connections.shopify.shop')}
              placeholder="my-shop.myshopify.com"
              value={shop}
              onChange={(e) => setShop(e.currentTarget.value)}
              error={fieldError('shop')}
              autoComplete="off"
            />
          )}
          <PasswordInput
            label={t(`payments.connections.${provider}.secret`)}
            value={secret}
            onChange={(e) => setSecret(e.currentTarget.value)}
            error={fieldError('secret')}
            autoComplete="off"
          />
          <Group gap="xs">
            <Button type="submit" size="xs" loading={busy === 'save'}>
              {connection.connected
                ? t('payments.connections.replace')
                : t('payments.connections.connect')}
            </Button>
            {connection.connected === 1 && (
              <>
                <Button
                  size="xs"
                  variant="light"
                  loading={busy === 'test'}
                  onClick={() => void run('test', () => testConnection(organisationId, provider))}
                >
                  {t('payments.connections.test')}
                </Button>
                <Button
                  size="xs"
                  variant="subtle"
                  color="red"
                  loading={busy === 'remove'}
                  onClick={() =>
                    void run('remove', () => disconnectProvider(organisationId, provider))
                  }
                >
                  {t('payments.connections.disconnect')}
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </Stack>
    </Card>
  );
}

const ORDER: ConnectionProvider[] = ['square', 'stripe', 'shopify'];

/** The organisation's provider connections (Square, Stripe, Shopify). */
export function ProviderConnections({
  connections,
  organisationId,
}: {
  connections: PaymentConnection[];
  organisationId: Org;
}) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md">
      {ORDER.map((provider) => {
        const connection = connections.find((c) => c.provider === provider);
        return connection ? (
          <ConnectionCard key={provider} connection={connection} organisationId={organisationId} />
        ) : null;
      })}
    </SimpleGrid>
  );
}
