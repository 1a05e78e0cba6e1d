import { useState } from 'react';
import {
  Autocomplete,
  Button,
  Group,
  SegmentedControl,
  Select,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import {
  NOTIFICATION_TOPIC_KEYS,
  normaliseTopicKey,
  type NotificationChannel,
  type NotificationTopic,
  type NotificationTopicKey,
} from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';

type EmailChannel = Extract<NotificationChannel, { type: 'email' }>;
type SmsChannel = Extract<NotificationChannel, { type: 'sms' }>;

/** Albums spec §5: key required and unique among the other topics; the first failure is shown. */
export const topicProblem = (key: string, others: readonly NotificationTopic[]): string | null => {
  const trimmed = key.trim();
  if (!trimmed) return 'topic_key_required';
  if (others.some((topic) => topic.key.trim() === trimmed)) return 'topic_key_exists';
  return null;
};

/** Albums spec §5: name required and unique; subject and body (e-mail) or message (SMS). */
export const channelProblem = (
  channel: NotificationChannel,
  others: readonly NotificationChannel[],
): string | null => {
  const name = channel.name.trim();
  if (!name) return 'channel_name_required';
  if (others.some((other) => other.name.trim() === name)) return 'channel_name_exists';
  if (channel.type === 'email') {
    if (!channel.subject.trim()) return 'channel_email_subject_required';
    if (!channel.body.trim()) return 'channel_email_body_required';
  } else if (!channel.message.trim()) return 'channel_sms_message_required';
  return null;
};

export function TopicForm({
  initial,
  others,
  channels,
  onSave,
  onCancel,
}: {
  initial: NotificationTopic;
  others: readonly NotificationTopic[];
  channels: readonly NotificationChannel[];
  onSave: (topic: NotificationTopic) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [key, setKey] = useState(initial.key);
  const [emailId, setEmailId] = useState<string | null>(initial.emailChannel?.id ?? null);
  const [smsId, setSmsId] = useState<string | null>(initial.smsChannel?.id ?? null);
  const [problem, setProblem] = useState<string | null>(null);
  const emailChannels = channels.filter((c): c is EmailChannel => c.type === 'email');
  const smsChannels = channels.filter((c): c is SmsChannel => c.type === 'sms');
  const none = t('events.printing.noneSelected');

  const save = () => {
    const found = topicProblem(key, others);
    setProblem(found);
    if (found) return;
    onSave({
      ...initial,
      key: key.trim(),
      emailChannel: emailChannels.find((c) => c.id === emailId) ?? null,
      smsChannel: smsChannels.find((c) => c.id === smsId) ?? null,
    });
  };

  return (
    <Stack gap="sm" data-testid="topic-form">
      <FormAlert errorKey={problem} />
      {/* The keys the product sends offered with what each is for; another key (a pickup
          location's topic) may still be typed. */}
      <Autocomplete
        label={t('events.notifications.topicKey')}
        description={t('events.notifications.topicKeyHelp')}
        data={[...NOTIFICATION_TOPIC_KEYS]}
        value={key}
        // Typed or pasted spaces become underscores (albums spec §5).
        onChange={(value) => setKey(normaliseTopicKey(value))}
        renderOption={({ option }) => (
          <Stack gap={0}>
            <Text size="sm">{option.value}</Text>
            <Text size="xs" c="dimmed">
              {t(`events.notifications.topicKeys.${option.value as NotificationTopicKey}`)}
            </Text>
          </Stack>
        )}
        comboboxProps={{ zIndex: 400 }}
      />
      <Select
        label={t('events.notifications.emailChannel')}
        data={emailChannels.map((c) => ({ value: c.id, label: c.name }))}
        value={emailId}
        onChange={setEmailId}
        placeholder={none}
        clearable
        comboboxProps={{ zIndex: 400 }}
      />
      <Select
        label={t('events.notifications.smsChannel')}
        data={smsChannels.map((c) => ({ value: c.id, label: c.name }))}
        value={smsId}
        onChange={setSmsId}
        placeholder={none}
        clearable
        comboboxProps={{ zIndex: 400 }}
      />
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button onClick={save}>{t('events.notifications.saveTopic')}</Button>
      </Group>
    </Stack>
  );
}

export function ChannelForm({
  initial,
  others,
  onSave,
  onCancel,
}: {
  initial: NotificationChannel;
  others: readonly NotificationChannel[];
  onSave: (channel: NotificationChannel) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(initial.name);
  const [type, setType] = useState<NotificationChannel['type']>(initial.type);
  const [subject, setSubject] = useState(initial.type === 'email' ? initial.subject : '');
  const [body, setBody] = useState(initial.type === 'email' ? initial.body : '');
  const [message, setMessage] = useState(initial.type === 'sms' ? initial.message : '');
  const [problem, setProblem] = useState<string | null>(null);

  const save = () => {
    const channel: NotificationChannel =
      type === 'email'
        ? { id: initial.id, name: name.trim(), type, subject, body }
        : { id: initial.id, name: name.trim(), type, message };
    const found = channelProblem(channel, others);
    setProblem(found);
    if (!found) onSave(channel);
  };

  return (
    <Stack gap="sm" data-testid="channel-form">
      <FormAlert errorKey={problem} />
      <TextInput
        label={t('events.notifications.channelName')}
        value={name}
        onChange={(e) => setName(e.currentTarget.value)}
      />
      <SegmentedControl
        aria-label={t('events.notifications.channelType')}
        value={type}
        onChange={(value) => setType(value === 'sms' ? 'sms' : 'email')}
        data={[
          { value: 'email', label: t('events.notifications.typeEmail') },
          { value: 'sms', label: t('events.notifications.typeSms') },
        ]}
      />
      {type === 'email' ? (
        <>
          <TextInput
            label={t('events.notifications.subject')}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
          />
          <Textarea
            label={t('events.notifications.body')}
            autosize
            minRows={3}
            value={body}
            onChange={(e) => setBody(e.currentTarget.value)}
          />
        </>
      ) : (
        <Textarea
          label={t('events.notifications.message')}
          autosize
          minRows={2}
          value={message}
          onChange={(e) => setMessage(e.currentTarget.value)}
        />
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button onClick={save}>{t('events.notifications.saveChannel')}</Button>
      </Group>
    </Stack>
  );
}
