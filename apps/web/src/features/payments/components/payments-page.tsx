import { useState } from 'react';
import { Badge, Button, Card, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { CardReaderPairing, type PairedReader } from './card-reader-pairing.tsx';

/**
 * The console's Payments section (issue 11 item 6): card readers paired from here (Square
 * Terminal API; nothing about them is stored by Flashbulb, albums spec §4), and where each
 * provider's credentials live.
 */
export default function PaymentsPage() {
  const { t } = useTranslation();
  const [adding, setAdding] = useState(false);
  const [readers, setReaders] = useState<PairedReader[]>([]);

  return (
    <Stack gap="md">
      <Title order={2}>{t('payments.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('payments.intro')}
      </Text>
      <Card withBorder>
        <Stack gap="sm">
          <Group justify="space-between" wrap="wrap">
            <Title order={3} size="h4">
              {t('payments.readers.title')}
            </Title>
            <Button onClick={() => setAdding(true)} disabled={adding} data-testid="add-reader">
              {t('payments.readers.add')}
            </Button>
          </Group>
          <Text size="sm">{t('payments.readers.help')}</Text>
          {readers.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('payments.readers.none')}
            </Text>
          ) : (
            <Table.ScrollContainer minWidth={420}>
              <Table>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('payments.readers.name')}</Table.Th>
                    <Table.Th>{t('payments.readers.location')}</Table.Th>
                    <Table.Th>{t('payments.readers.deviceId')}</Table.Th>
                    <Table.Th>{t('payments.readers.state')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {readers.map((reader) => (
                    <Table.Tr key={reader.deviceId} data-testid="reader-row">
                      <Table.Td>{reader.name}</Table.Td>
                      <Table.Td>{reader.locationName}</Table.Td>
                      <Table.Td>
                        <code>{reader.deviceId}</code>
                      </Table.Td>
                      <Table.Td>
                        <Badge color="green" variant="light">
                          {t('payments.readers.paired')}
                        </Badge>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      </Card>
      <Card withBorder>
        <Stack gap="xs">
          <Title order={3} size="h4">
            {t('payments.providers.title')}
          </Title>
          <List size="sm" spacing={4}>
            <List.Item>{t('payments.providers.stripe')}</List.Item>
            <List.Item>{t('payments.providers.square')}</List.Item>
            <List.Item>{t('payments.providers.paypal')}</List.Item>
            <List.Item>{t('payments.providers.terminal')}</List.Item>
            <List.Item>{t('payments.providers.shopify')}</List.Item>
          </List>
        </Stack>
      </Card>
      <CardReaderPairing
        opened={adding}
        onClose={() => setAdding(false)}
        onPaired={(reader) =>
          setReaders((list) => [...list.filter((r) => r.deviceId !== reader.deviceId), reader])
        }
      />
    </Stack>
  );
}
