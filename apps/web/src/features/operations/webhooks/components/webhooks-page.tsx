import { useState, type FormEvent } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  WEBHOOK_EVENT_TYPES,
  type WebhookEndpoint,
  type WebhookEventType,
} from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  useCreateWebhook,
  useDeleteWebhook,
  useReplayWebhook,
  useSetWebhookEnabled,
  useWebhookDeliveries,
  useWebhooks,
} from '../api/webhooks-api.ts';

/** The delivery log of one endpoint, with replay. */
function DeliveryLog({ endpoint, onClose }: { endpoint: WebhookEndpoint; onClose: () => void }) {
  const { t } = useTranslation();
  const deliveries = useWebhookDeliveries(endpoint.id);
  const replay = useReplayWebhook();
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('webhooks.deliveries.title', { url: endpoint.url })}</Title>
          <Button size="xs" variant="default" onClick={onClose}>
            {t('webhooks.deliveries.close')}
          </Button>
        </Group>
        {deliveries.data?.length === 0 && <Text>{t('webhooks.deliveries.empty')}</Text>}
        {deliveries.data && deliveries.data.length > 0 && (
          <Table aria-label={t('webhooks.deliveries.tableLabel')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('webhooks.deliveries.columns.created')}</Table.Th>
                <Table.Th>{t('webhooks.deliveries.columns.type')}</Table.Th>
                <Table.Th>{t('webhooks.deliveries.columns.status')}</Table.Th>
                <Table.Th>{t('webhooks.deliveries.columns.attempts')}</Table.Th>
                <Table.Th>{t('webhooks.deliveries.columns.answer')}</Table.Th>
                <Table.Th>{t('webhooks.deliveries.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.map((delivery) => (
                <Table.Tr key={delivery.id}>
                  <Table.Td>{new Date(delivery.created_date).toLocaleString()}</Table.Td>
                  <Table.Td>{delivery.event_type}</Table.Td>
                  <Table.Td>{delivery.status}</Table.Td>
                  <Table.Td>{delivery.attempts}</Table.Td>
                  <Table.Td>
                    {[delivery.last_status_code, delivery.last_error].filter(Boolean).join(' · ')}
                  </Table.Td>
                  <Table.Td>
                    <Button
                      size="xs"
                      variant="light"
                      disabled={endpoint.enabled !== 1}
                      loading={replay.isPending && replay.variables === delivery.id}
                      onClick={() =>
                        replay.mutate(delivery.id, { onSuccess: () => void deliveries.refetch() })
                      }
                    >
                      {t('webhooks.deliveries.replay')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </Stack>
    </Card>
  );
}

/**
 * The organisation's outgoing webhooks: add an endpoint (its signing secret shown once), enable or
 * disable it (a disabled one shows why), delete it, read its delivery log and replay a delivery.
 */
export default function WebhooksPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const list = useWebhooks();
  const create = useCreateWebhook();
  const setEnabled = useSetWebhookEnabled();
  const remove = useDeleteWebhook();
  const [url, setUrl] = useState('');
  const [types, setTypes] = useState<WebhookEventType[]>([...WEBHOOK_EVENT_TYPES]);
  const [shown, setShown] = useState<{ url: string; secret: string } | null>(null);
  const [open, setOpen] = useState<number | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(null);
    create.mutate(
      { url, event_types: types },
      {
        onSuccess: (created) => {
          setShown({ url: created.endpoint.url, secret: created.secret });
          setUrl('');
        },
      },
    );
  };
  const opened = list.data?.find((endpoint) => endpoint.id === open);

  return (
    <Stack gap="md">
      <Title order={2}>{t('webhooks.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('webhooks.hint')}
      </Text>
      <Card withBorder component="form" onSubmit={submit} aria-label={t('webhooks.add.title')}>
        <Stack gap="sm">
          <Title order={3}>{t('webhooks.add.title')}</Title>
          <TextInput
            label={t('webhooks.add.url')}
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={create.error ? errorText(errorKeyOf(create.error)) : undefined}
          />
          <Checkbox.Group
            label={t('webhooks.add.events')}
            value={types}
            onChange={(value) => setTypes(value as WebhookEventType[])}
          >
            <Group gap="md" mt="xs">
              {WEBHOOK_EVENT_TYPES.map((type) => (
                <Checkbox key={type} value={type} label={type} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group>
            <Button type="submit" loading={create.isPending}>
              {t('webhooks.add.submit')}
            </Button>
          </Group>
        </Stack>
      </Card>
      {shown && (
        <Alert color="yellow" title={t('webhooks.secret.title', { url: shown.url })}>
          <Stack gap="xs">
            <Text size="sm">{t('webhooks.secret.hint')}</Text>
            <Code data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
              {shown.secret}
            </Code>
          </Stack>
        </Alert>
      )}
      {list.isError && <Alert color="red">{t('webhooks.loadError')}</Alert>}
      {list.data?.length === 0 && <Text>{t('webhooks.empty')}</Text>}
      {list.data && list.data.length > 0 && (
        <Table aria-label={t('webhooks.tableLabel')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('webhooks.columns.url')}</Table.Th>
              <Table.Th>{t('webhooks.columns.events')}</Table.Th>
              <Table.Th>{t('webhooks.columns.status')}</Table.Th>
              <Table.Th>{t('webhooks.columns.actions')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.data.map((endpoint) => (
              <Table.Tr key={endpoint.id}>
                <Table.Td>{endpoint.url}</Table.Td>
                <Table.Td>{endpoint.event_types.join(', ')}</Table.Td>
                <Table.Td>
                  <Badge color={endpoint.enabled ? 'green' : 'red'}>
                    {endpoint.enabled ? t('webhooks.enabled') : t('webhooks.disabled')}
                  </Badge>
                  {endpoint.disabled_reason && (
                    <Text size="xs" c="dimmed">
                      {endpoint.disabled_reason}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Group gap="xs">
                    <Button size="xs" variant="light" onClick={() => setOpen(endpoint.id)}>
                      {t('webhooks.log')}
                    </Button>
                    <Button
                      size="xs"
                      variant="default"
                      onClick={() =>
                        setEnabled.mutate({ id: endpoint.id, enabled: endpoint.enabled ? 0 : 1 })
                      }
                    >
                      {endpoint.enabled ? t('webhooks.disable') : t('webhooks.enable')}
                    </Button>
                    <Button
                      size="xs"
                      color="red"
                      variant="light"
                      onClick={() => remove.mutate(endpoint.id)}
                    >
                      {t('webhooks.remove')}
                    </Button>
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {opened && <DeliveryLog endpoint={opened} onClose={() => setOpen(null)} />}
    </Stack>
  );
}
