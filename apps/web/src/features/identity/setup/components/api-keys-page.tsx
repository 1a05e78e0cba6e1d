import { useState, type FormEvent } from 'react';
import { Button, Card, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useApiKeys, useCreateApiKey, useDeleteApiKey } from '../api/setup-api.ts';
import { formatDate, ShownOnceKey } from './shown-once-key.tsx';
import { CARD_TABLE } from '../../../../components/card-table.ts';

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
        <Table.ScrollContainer minWidth={300} className={CARD_TABLE.scroll}>
          <Table className={CARD_TABLE.table}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('setup.apiKeys.label')}</Table.Th>
                <Table.Th>{t('setup.apiKeys.prefix')}</Table.Th>
                <Table.Th>{t('setup.apiKeys.lastUsed')}</Table.Th>
                <Table.Th />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.data.map((key) => (
                <Table.Tr key={key.id} data-testid="api-key-row">
                  <Table.Td data-label={t('setup.apiKeys.label')}>{key.name}</Table.Td>
                  <Table.Td data-label={t('setup.apiKeys.prefix')}>
                    <code>{key.prefix}…</code>
                  </Table.Td>
                  <Table.Td data-label={t('setup.apiKeys.lastUsed')}>
                    {formatDate(key.last_used_date, t('setup.never'))}
                  </Table.Td>
                  <Table.Td>
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
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
