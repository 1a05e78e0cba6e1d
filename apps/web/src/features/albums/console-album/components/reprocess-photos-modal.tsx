import { useState } from 'react';
import { Button, Group, Modal, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';

/**
 * "Make derivatives again" for the selected photos (albums spec §7.2 curation reprocess): after
 * the event's watermarks or image processes changed, the previews and watermarked copies are made
 * anew from the originals. Asked first, since the photos show as processing meanwhile; the
 * progress counts the photos sent back so far.
 */
export function ReprocessPhotosModal({
  count,
  opened,
  onClose,
  onReprocess,
}: {
  count: number;
  opened: boolean;
  onClose: () => void;
  /** Sends the photos back; calls `onDone` with how many went so far. */
  onReprocess: (onDone: (done: number) => void) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [done, setDone] = useState(0);
  const [running, setRunning] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);

  const close = () => {
    if (running) return;
    setDone(0);
    setFailure(null);
    onClose();
  };

  const start = async () => {
    setRunning(true);
    setFailure(null);
    setDone(0);
    try {
      await onReprocess(setDone);
      setRunning(false);
      setDone(0);
      onClose();
    } catch (error) {
      setRunning(false);
      setFailure(errorKeyOf(error));
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('album.reprocess.title', { count })}
      centered
      closeOnEscape={!running}
      closeOnClickOutside={!running}
      withCloseButton={!running}
    >
      <Stack gap="sm">
        <Text size="sm">{t('album.reprocess.intro')}</Text>
        <FormAlert errorKey={failure} />
        {(running || failure) && (
          <Stack gap={4}>
            <Progress value={count === 0 ? 0 : (done / count) * 100} aria-hidden />
            <Text size="sm" role="status" data-testid="reprocess-progress">
              {t('album.reprocess.progress', { done, count })}
            </Text>
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={running}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void start()} loading={running}>
            {t('album.reprocess.submit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
