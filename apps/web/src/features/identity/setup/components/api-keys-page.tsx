import { useState, type FormEvent } from 'react';
import { Button, Card, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useApiKeys, useCreateApiKey, useDeleteApiKey } from '../api/setup-api.ts';
import { formatDate, ShownOnceKey } from './shown-once-key.tsx';
import { CardTable } from '../../../../components/card-table-view.tsx';

/** The signed-in user's API keys: create with a label (key shown once), last used, revoke. */
export function ApiKeysPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const keys = useApiKeys();
  const create = useCreateApiKey();
  const revoke = useDeleteApiKey();
  const [label, setLabel] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setShown(null);
    create.mutate(label, {
      onSuccess: (key) => {
        setShown({ name: key.name, key: key.api_key });
        setLabel('');
      },
    });
  };

  return (
    <Stack gap="md">
      <Title order={2}>{t('setup.apiKeys.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('setup.apiKeys.intro')}
      </Text>
      <Card withBorder component="form" onSubmit={submit}>
        <Group align="flex-end" wrap="wrap">
          <TextInput
            label={t('setup.apiKeys.newLabel')}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={create.error ? errorText(errorKeyOf(create.error)) : undefined}
            style={{ flex: '1 1 220px' }}
          />
          <Button type="submit" loading={create.isPending}>
            {t('setup.apiKeys.create')}
          </Button>
        </Group>
      </Card>
      {shown && (
        <ShownOnceKey title={t('setup.apiKeys.keyFor', { name: shown.name })} value={shown.key} />
      )}
      {keys.data?.length === 0 && <Text>{t('setup.apiKeys.none')}</Text>}
      {keys.data && keys.data.length > 0 && (
        <CardTable
          minWidth={300}
          rows={keys.data}
          rowKey={(key) => key.id}
          rowTestId="api-key-row"
          columns={[
            { label: t('setup.apiKeys.label'), cell: (key) => key.name },
            { label: t('setup.apiKeys.prefix'), cell: (key) => <code>{key.prefix}…</code> },
            {
              label: t('setup.apiKeys.lastUsed'),
              cell: (key) => formatDate(key.last_used_date, t('setup.never')),
            },
            {
              actions: true,
              cell: (key) => (
                <Button
                  size="xs"
                  color="red"
                  variant="light"
                  loading={revoke.isPending && revoke.variables === key.id}
                  onClick={() => revoke.mutate(key.id)}
                  aria-label={`${t('setup.apiKeys.revoke')} ${key.name}`}
                >
                  {t('setup.apiKeys.revoke')}
                </Button>
              ),
            },
          ]}
        />
      )}
    </Stack>
  );
}
