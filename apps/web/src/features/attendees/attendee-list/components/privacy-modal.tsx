import { useState } from 'react';
import { Anchor, Button, Divider, Group, List, Modal, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Attendee, PrivacyCounts } from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';

/**
 * A privacy request about one attendee: export everything kept about them (a ZIP link), or erase
 * it after a confirm step that says what goes and what stays.
 */
export function PrivacyModal({
  attendee,
  onClose,
  onExport,
  onErase,
}: {
  attendee: Attendee | null;
  onClose: () => void;
  onExport: (attendee: Attendee) => Promise<{ url: string; counts: PrivacyCounts }>;
  onErase: (attendee: Attendee) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [exported, setExported] = useState<{ url: string; counts: PrivacyCounts } | null>(null);
  const [confirming, setConfirming] = useState(false);
  const id = attendee?.display_uid ?? '';

  const close = () => {
    if (busy) return;
    setFailure(null);
    setExported(null);
    setConfirming(false);
    onClose();
  };
  const run = async (work: () => Promise<void>) => {
    setBusy(true);
    setFailure(null);
    try {
      await work();
    } catch (error) {
      setFailure(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };
  const exportData = () =>
    run(async () => {
      if (attendee) setExported(await onExport(attendee));
    });
  const erase = () =>
    run(async () => {
      if (!attendee) return;
      await onErase(attendee);
      setExported(null);
      setConfirming(false);
      onClose();
    });

  return (
    <Modal
      opened={attendee !== null}
      onClose={close}
      title={t('attendees.privacy.title', { id })}
      centered
      size="lg"
    >
      <Stack gap="sm">
        <Text size="sm">{t('attendees.privacy.exportIntro')}</Text>
        <Group>
          <Button variant="default" loading={busy && !confirming} onClick={() => void exportData()}>
            {t('attendees.privacy.exportSubmit')}
          </Button>
        </Group>
        {exported && (
          <Stack gap={4}>
            <Text size="sm">{t('attendees.privacy.exported', exported.counts)}</Text>
            <Anchor href={exported.url} download>
              {t('attendees.privacy.download')}
            </Anchor>
            <Text size="xs" c="dimmed">
              {t('attendees.privacy.downloadHint')}
            </Text>
          </Stack>
        )}
        <Divider />
        <Title order={3} size="h5">
          {t('attendees.privacy.eraseTitle')}
        </Title>
        <Text size="sm">{t('attendees.privacy.eraseIntro', { id })}</Text>
        <List size="sm" spacing={2}>
          <List.Item>
            {t('attendees.privacy.erasePhotos', { count: attendee?.photo_count ?? 0 })}
          </List.Item>
          <List.Item>{t('attendees.privacy.eraseFaces')}</List.Item>
          <List.Item>{t('attendees.privacy.eraseLeads')}</List.Item>
          <List.Item>{t('attendees.privacy.eraseProfile')}</List.Item>
        </List>
        <Text size="sm">{t('attendees.privacy.eraseOrders')}</Text>
        <FormAlert errorKey={failure} />
        {confirming ? (
          <Stack gap="xs">
            <Text size="sm" fw={600} c="red">
              {t('attendees.privacy.eraseConfirm', { id })}
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setConfirming(false)} disabled={busy}>
                {t('common.cancel')}
              </Button>
              <Button color="red" loading={busy} onClick={() => void erase()} data-autofocus>
                {t('attendees.privacy.eraseSubmit')}
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button color="red" variant="light" onClick={() => setConfirming(true)} disabled={busy}>
              {t('attendees.privacy.eraseStart')}
            </Button>
          </Group>
        )}
      </Stack>
    </Modal>
  );
}
