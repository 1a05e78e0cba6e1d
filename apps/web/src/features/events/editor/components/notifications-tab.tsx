import { useState } from 'react';
import { Alert, Button, Group, Stack, Table, Text } from '@mantine/core';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  computeCachedTopicsData,
  syncTopicsWithChannels,
  type NotificationChannel,
  type NotificationData,
  type NotificationTopic,
} from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { EventFormValues } from '../utils/event-form-values.ts';
import { newChannelId } from '../utils/random-codes.ts';
import { TextField } from './form-fields.tsx';
import { ChannelForm, TopicForm } from './notification-forms.tsx';
import { SectionTitle } from './toggled-fields.tsx';

/** Which form replaces which table; null = the tables. */
type View =
  | { kind: 'topic'; topic: NotificationTopic; isNew: boolean }
  | { kind: 'channel'; channel: NotificationChannel; isNew: boolean }
  | null;

const emptyTopic = (): NotificationTopic => ({
  id: newChannelId(),
  key: '',
  emailChannel: null,
  smsChannel: null,
});
const emptyChannel = (): NotificationChannel => ({
  id: newChannelId(),
  name: '',
  type: 'email',
  subject: '',
  body: '',
});

/** Error keys set on notification paths by the save checks or the server. */
const collectErrorKeys = (node: unknown, out: string[] = []): string[] => {
  if (!node || typeof node !== 'object') return out;
  const record = node as Record<string, unknown>;
  if (typeof record.message === 'string' && 'type' in record) out.push(record.message);
  for (const [key, value] of Object.entries(record))
    if (key !== 'ref') collectErrorKeys(value, out);
  return out;
};

/**
 * Notification topics and channels (albums spec §2.6, §3, §4, §5). A channel edited here is
 * updated inside every topic that uses it; a removed channel is cleared from them; the cached
 * topic texts follow.
 */
export function NotificationsTab() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const {
    control,
    setValue,
    clearErrors,
    formState: { errors },
  } = useFormContext<EventFormValues>();
  const data = useWatch({ control, name: 'notification_data' });
  const [view, setView] = useState<View>(null);
  const { topics, channels } = data;
  const problems = [...new Set(collectErrorKeys(errors.notification_data))];

  const write = (next: Pick<NotificationData, 'topics' | 'channels'>) => {
    setValue(
      'notification_data',
      { ...data, ...next, cachedTopicsData: computeCachedTopicsData(next.topics) },
      { shouldDirty: true },
    );
    clearErrors('notification_data');
    setView(null);
  };

  const saveTopic = (topic: NotificationTopic, isNew: boolean) =>
    write({
      channels,
      topics: isNew ? [topic, ...topics] : topics.map((x) => (x.id === topic.id ? topic : x)),
    });
  const saveChannel = (channel: NotificationChannel, isNew: boolean) => {
    const nextChannels = isNew
      ? [channel, ...channels]
      : channels.map((x) => (x.id === channel.id ? channel : x));
    write({ channels: nextChannels, topics: syncTopicsWithChannels(topics, nextChannels) });
  };
  const removeChannel = (id: string) => {
    const nextChannels = channels.filter((x) => x.id !== id);
    write({ channels: nextChannels, topics: syncTopicsWithChannels(topics, nextChannels) });
  };

  if (view?.kind === 'topic') {
    return (
      <TopicForm
        initial={view.topic}
        others={topics.filter((x) => x.id !== view.topic.id)}
        channels={channels}
        onSave={(topic) => saveTopic(topic, view.isNew)}
        onCancel={() => setView(null)}
      />
    );
  }
  if (view?.kind === 'channel') {
    return (
      <ChannelForm
        initial={view.channel}
        others={channels.filter((x) => x.id !== view.channel.id)}
        onSave={(channel) => saveChannel(channel, view.isNew)}
        onCancel={() => setView(null)}
      />
    );
  }

  return (
    <Stack gap="sm">
      {problems.length > 0 ? (
        <Alert color="red" role="alert">
          {problems.map((key) => (
            <Text size="sm" key={key}>
              {errorText(key)}
            </Text>
          ))}
        </Alert>
      ) : null}
      <Group justify="space-between">
        <SectionTitle>{t('events.notifications.topics')}</SectionTitle>
        <Button
          size="xs"
          variant="default"
          onClick={() => setView({ kind: 'topic', topic: emptyTopic(), isNew: true })}
        >
          {t('events.notifications.newTopic')}
        </Button>
      </Group>
      <Table withTableBorder striped aria-label={t('events.notifications.topics')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('events.notifications.topicKey')}</Table.Th>
            <Table.Th>{t('events.notifications.channels')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {topics.map((topic) => (
            <Table.Tr key={topic.id}>
              <Table.Td>{topic.key}</Table.Td>
              <Table.Td>
                {[
                  topic.emailChannel ? t('events.notifications.typeEmail') : null,
                  topic.smsChannel ? t('events.notifications.typeSms') : null,
                ]
                  .filter(Boolean)
                  .join(', ')}
              </Table.Td>
              <Table.Td>
                <RowActions
                  name={topic.key}
                  onEdit={() => setView({ kind: 'topic', topic, isNew: false })}
                  onRemove={() =>
                    write({ channels, topics: topics.filter((x) => x.id !== topic.id) })
                  }
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="space-between">
        <SectionTitle>{t('events.notifications.channels')}</SectionTitle>
        <Button
          size="xs"
          variant="default"
          onClick={() => setView({ kind: 'channel', channel: emptyChannel(), isNew: true })}
        >
          {t('events.notifications.newChannel')}
        </Button>
      </Group>
      <Table withTableBorder striped aria-label={t('events.notifications.channels')}>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('events.notifications.channelName')}</Table.Th>
            <Table.Th>{t('events.notifications.channelType')}</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {channels.map((channel) => (
            <Table.Tr key={channel.id}>
              <Table.Td>{channel.name}</Table.Td>
              <Table.Td>
                {channel.type === 'email'
                  ? t('events.notifications.typeEmail')
                  : t('events.notifications.typeSms')}
              </Table.Td>
              <Table.Td>
                <RowActions
                  name={channel.name}
                  onEdit={() => setView({ kind: 'channel', channel, isNew: false })}
                  onRemove={() => removeChannel(channel.id)}
                />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <TextField
        name="notification_data.smsSettings.from"
        label={t('events.notifications.smsFrom')}
        maxLength={50}
      />
      <TextField
        name="opts.pickupLocationNotificationTopic"
        label={t('events.notifications.pickupTopic')}
      />
    </Stack>
  );
}

/** Edit and remove buttons of one topic or channel row. */
function RowActions({
  name,
  onEdit,
  onRemove,
}: {
  name: string;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Button
        size="compact-xs"
        variant="subtle"
        aria-label={t('events.notifications.editNamed', { name })}
        onClick={onEdit}
      >
        {t('events.notifications.edit')}
      </Button>
      <Button
        size="compact-xs"
        variant="subtle"
        color="red"
        aria-label={t('events.notifications.removeNamed', { name })}
        onClick={onRemove}
      >
        {t('events.notifications.remove')}
      </Button>
    </Group>
  );
}
