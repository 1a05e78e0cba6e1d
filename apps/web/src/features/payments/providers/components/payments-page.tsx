import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Card,
  Code,
  Group,
  List,
  Select,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { CardReader } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  checkCardReader,
  paymentQueryKeys,
  removeCardReader,
  saveCardReader,
  useCardReaders,
  usePaymentConnections,
  usePaymentOrganisations,
  type Org,
} from '../api/payments-api.ts';
import { exampleKioskLink } from '../api/square-pairing-api.ts';
import { CardReaderPairing } from './card-reader-pairing.tsx';
import { ProviderConnections } from './provider-connections.tsx';

/** One stored reader: its pairing state, a re-check while unpaired, remove, the kiosk link. */
function ReaderRow({ reader, organisationId }: { reader: CardReader; organisationId: Org }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [busy, setBusy] = useState<'check' | 'remove' | null>(null);
  const [note, setNote] = useState<{ text: string; color: string } | null>(null);

  const run = async (kind: 'check' | 'remove', call: () => Promise<void>) => {
    setBusy(kind);
    setNote(null);
    try {
      await call();
      await client.invalidateQueries({ queryKey: paymentQueryKeys.readers });
    } catch (error) {
      setNote({ text: errorText(errorKeyOf(error)), color: 'red' });
    } finally {
      setBusy(null);
    }
  };
  const recheck = () =>
    void run('check', async () => {
      const reply = await checkCardReader(organisationId, reader.id);
      if (reply.error_message) setNote({ text: reply.error_message, color: 'red' });
      else if (!reply.reader.paired)
        setNote({ text: t('payments.readers.stillUnpaired'), color: 'yellow' });
    });

  return (
    <Table.Tr data-testid="reader-row">
      <Table.Td>{reader.name}</Table.Td>
      <Table.Td>{reader.location_name}</Table.Td>
      <Table.Td>
        {reader.paired ? (
          <Badge color="green" variant="light">
            {t('payments.readers.paired')}
          </Badge>
        ) : (
          <Badge color="yellow" variant="light">
            {t('payments.readers.unpaired')}
          </Badge>
        )}
      </Table.Td>
      <Table.Td>
        {reader.paired ? (
          <Stack gap={2}>
            <Code data-testid="reader-device-id">{reader.device_id}</Code>
            <Code
              block
              style={{ wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
              data-testid="reader-kiosk-link"
            >
              {exampleKioskLink(window.location.origin, reader.device_id)}
            </Code>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('payments.readers.waiting')}
          </Text>
        )}
        {note && (
          <Alert color={note.color} py={4} mt={4} data-testid="reader-note">
            {note.text}
          </Alert>
        )}
      </Table.Td>
      <Table.Td>
        <Group gap={4} wrap="nowrap">
          {!reader.paired && (
            <Button size="xs" variant="light" loading={busy === 'check'} onClick={recheck}>
              {t('payments.readers.recheck')}
            </Button>
          )}
          <Button
            size="xs"
            variant="subtle"
            color="red"
            loading={busy === 'remove'}
            onClick={() =>
              void run('remove', async () => {
                await removeCardReader(organisationId, reader.id);
              })
            }
          >
            {t('payments.readers.remove')}
          </Button>
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}

/**
 * The console's Payments section: the organisation's provider connections
 * (Square, Stripe, Shopify: write-only secrets, a credentials test, disconnect) and its card
 * readers paired from here, with their pairing state. Super users and the organisation's admins
 * manage them; others are told so by the server.
 */
export default function PaymentsPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [adding, setAdding] = useState(false);
  const organisations = usePaymentOrganisations();
  const [chosen, setChosen] = useState<Org>(null);
  // Admins have their own organisation only; super users choose (the first by default).
  const organisationId: Org = chosen ?? organisations.data?.[0]?.id ?? null;
  const ready = organisations.isSuccess && organisationId !== null;
  const connections = usePaymentConnections(organisationId, ready);
  const readers = useCardReaders(organisationId, ready);
  const squareConnected =
    connections.data?.connections.find((c) => c.provider === 'square')?.connected === 1;
  const list = readers.data?.readers ?? [];

  const refreshReaders = () => client.invalidateQueries({ queryKey: paymentQueryKeys.readers });

  return (
    <Stack gap="md">
      <Title order={2}>{t('payments.title')}</Title>
      <Text size="sm" c="dimmed">
        {t('payments.intro')}
      </Text>
      {organisations.data && organisations.data.length > 1 && (
        <Select
          label={t('payments.organisation')}
          data={organisations.data.map((o) => ({ value: String(o.id), label: o.name }))}
          value={organisationId === null ? null : String(organisationId)}
          onChange={(value) => setChosen(value ? Number(value) : null)}
          allowDeselect={false}
          maw={360}
        />
      )}
      {organisations.isSuccess && organisations.data.length === 0 && (
        <Alert color="yellow">{t('payments.noOrganisation')}</Alert>
      )}
      <Stack gap="xs">
        <Title order={3} size="h4">
          {t('payments.connections.title')}
        </Title>
        <Text size="sm">{t('payments.connections.precedence')}</Text>
        {connections.isError && (
          <Alert color="red" data-testid="connections-error">
            {errorText(errorKeyOf(connections.error))}
          </Alert>
        )}
        {connections.data && (
          <ProviderConnections
            connections={connections.data.connections}
            organisationId={organisationId}
          />
        )}
      </Stack>
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
          {readers.isError && <Alert color="red">{errorText(errorKeyOf(readers.error))}</Alert>}
          {readers.isSuccess && list.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('payments.readers.none')}
            </Text>
          ) : (
            list.length > 0 && (
              <Table.ScrollContainer minWidth={640}>
                <Table verticalSpacing="sm">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('payments.readers.name')}</Table.Th>
                      <Table.Th>{t('payments.readers.location')}</Table.Th>
                      <Table.Th>{t('payments.readers.state')}</Table.Th>
                      <Table.Th>{t('payments.readers.deviceAndLink')}</Table.Th>
                      <Table.Th aria-label={t('payments.readers.actions')} />
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {list.map((reader) => (
                      <ReaderRow key={reader.id} reader={reader} organisationId={organisationId} />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )
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
        organisationId={organisationId}
        squareConnected={squareConnected}
        onClose={() => setAdding(false)}
        onReader={async (reader) => {
          // Saved unpaired when the code is made, then paired: the list shows either state.
          try {
            await saveCardReader(organisationId, reader);
          } finally {
            await refreshReaders();
          }
        }}
      />
    </Stack>
  );
}
