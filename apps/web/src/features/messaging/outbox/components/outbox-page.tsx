import { useState } from 'react';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Loader,
  Modal,
  SegmentedControl,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FlashbulbEvent, OutboxMessage } from '@flashbulb/shared';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  outboxQueryKeys,
  resendMessage,
  useOutboxList,
  type OutboxChannelFilter,
  type OutboxScope,
} from '../api/outbox-api.ts';
import { CARD_TABLE } from '../../../../components/card-table.ts';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

const STATUS_COLOR: Record<OutboxMessage['status'], string> = {
  outbox: 'gray',
  queued: 'blue',
  sending: 'blue',
  sent: 'green',
  delivered: 'green',
  failed: 'red',
  undelivered: 'red',
};

/**
 * The event's Outbox: every mail and SMS sent for the event — recipient, topic,
 * status, attempts, the provider's answer — with its text readable (also when no provider is
 * configured and messages are held here) and a resend per message. Text is shown as text.
 */
export default function OutboxPage() {
  const { eventCode } = useParams();
  return eventCode ? <RouteEventGate texts="outbox" page={EventOutbox} /> : <PlatformOutbox />;
}

/** `/events/:code/outbox`: the event's messages. */
function EventOutbox({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  return (
    <OutboxMessages
      scope={event.id}
      title={t('outbox.title', { name: event.full_name || event.name })}
      hint={t('outbox.hint')}
    />
  );
}

/**
 * `/outbox` (super users): the messages of no event — sign-in codes, invitations, password
 * resets. With the embedded default (no SMTP) this is where they are read.
 */
function PlatformOutbox() {
  const { t } = useTranslation();
  return (
    <OutboxMessages
      scope={null}
      title={t('outbox.platformTitle')}
      hint={t('outbox.platformHint')}
    />
  );
}

function OutboxMessages({
  scope,
  title,
  hint,
}: {
  scope: OutboxScope;
  title: string;
  hint: string;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const [channel, setChannel] = useState<OutboxChannelFilter>('all');
  const [reading, setReading] = useState<OutboxMessage | null>(null);
  const [resending, setResending] = useState<number | null>(null);
  const list = useOutboxList(scope, channel);

  const resend = async (message: OutboxMessage) => {
    setResending(message.id);
    try {
      await resendMessage(scope, message.id);
      notifications.show({
        color: 'green',
        message: t('outbox.resent', { to: message.recipient }),
      });
      await client.invalidateQueries({ queryKey: outboxQueryKeys.lists(scope) });
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) });
    } finally {
      setResending(null);
    }
  };

  const messages = list.data?.messages;
  return (
    <Stack gap="sm">
      <EventPageHeader
        backLabel={scope !== null ? t('outbox.backToEvents') : undefined}
        title={title}
        subtitle={hint}
        actions={
          <Group gap="xs">
            <SegmentedControl
              aria-label={t('outbox.channel')}
              value={channel}
              onChange={(v) => setChannel(v as OutboxChannelFilter)}
              data={[
                { value: 'all', label: t('outbox.channels.all') },
                { value: 'mail', label: t('outbox.channels.mail') },
                { value: 'sms', label: t('outbox.channels.sms') },
              ]}
            />
            <Button variant="default" onClick={() => void list.refetch()}>
              {t('outbox.refresh')}
            </Button>
          </Group>
        }
      />
      {list.isError && !messages ? (
        <Alert color="red" role="alert">
          {errorText(errorKeyOf(list.error))}
        </Alert>
      ) : !messages ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('app.loading')} />
        </Group>
      ) : messages.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl">
          {t('outbox.empty')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={900} className={CARD_TABLE.scroll}>
          <Table
            className={CARD_TABLE.table}
            striped
            aria-label={t('outbox.tableLabel')}
            verticalSpacing="xs"
          >
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('outbox.columns.created')}</Table.Th>
                <Table.Th>{t('outbox.columns.channel')}</Table.Th>
                <Table.Th>{t('outbox.columns.topic')}</Table.Th>
                <Table.Th>{t('outbox.columns.recipient')}</Table.Th>
                <Table.Th>{t('outbox.columns.status')}</Table.Th>
                <Table.Th>{t('outbox.columns.attempts')}</Table.Th>
                <Table.Th>{t('outbox.columns.answer')}</Table.Th>
                <Table.Th>{t('outbox.columns.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {messages.map((m) => (
                <Table.Tr key={m.id} data-testid="outbox-row">
                  <Table.Td data-label={t('outbox.columns.created')}>
                    {new Date(m.created_date).toLocaleString()}
                  </Table.Td>
                  <Table.Td data-label={t('outbox.columns.channel')}>
                    {t(`outbox.channels.${m.channel}`)}
                  </Table.Td>
                  <Table.Td data-label={t('outbox.columns.topic')}>{m.topic ?? m.kind}</Table.Td>
                  <Table.Td
                    data-label={t('outbox.columns.recipient')}
                    style={{ wordBreak: 'break-all' }}
                  >
                    {m.recipient}
                  </Table.Td>
                  <Table.Td data-label={t('outbox.columns.status')}>
                    <Badge color={STATUS_COLOR[m.status]} variant="light">
                      {t(`outbox.statuses.${m.status}`)}
                    </Badge>
                  </Table.Td>
                  <Table.Td data-label={t('outbox.columns.attempts')}>{m.attempts}</Table.Td>
                  <Table.Td data-label={t('outbox.columns.answer')}>
                    <Text size="sm" c={m.last_error ? 'red' : 'dimmed'}>
                      {m.last_error ?? m.provider_message_id ?? '—'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Group gap={4} wrap="nowrap">
                      <Button
                        size="compact-sm"
                        variant="light"
                        onClick={() => setReading(m)}
                        aria-label={t('outbox.readNamed', { to: m.recipient })}
                      >
                        {t('outbox.read')}
                      </Button>
                      <Button
                        size="compact-sm"
                        variant="default"
                        loading={resending === m.id}
                        onClick={() => void resend(m)}
                        aria-label={t('outbox.resendNamed', { to: m.recipient })}
                      >
                        {t('outbox.resend')}
                      </Button>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Modal
        opened={reading !== null}
        onClose={() => setReading(null)}
        title={reading?.subject ?? t('outbox.smsTitle')}
        size="lg"
      >
        {reading && (
          <Stack gap="xs">
            <Text size="sm">
              {t('outbox.toFrom', {
                to: reading.recipient,
                from: reading.sender ?? t('outbox.platform'),
              })}
            </Text>
            <Code
              block
              style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="outbox-text"
            >
              {reading.text}
            </Code>
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
