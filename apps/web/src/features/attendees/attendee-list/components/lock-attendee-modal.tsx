import { useState } from 'react';
import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Attendee } from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';

/** Asks before an album is locked (its link stops opening) or reopened. */
export function LockAttendeeModal({
  attendee,
  onClose,
  onConfirm,
}: {
  attendee: Attendee | null;
  onClose: () => void;
  onConfirm: (attendee: Attendee, lock: boolean) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const lock = attendee ? attendee.is_locked === 0 : true;
  const id = attendee?.display_uid ?? '';

  const close = () => {
    if (busy) return;
    setFailure(null);
    onClose();
  };
  const confirm = async () => {
    if (!attendee) return;
    setBusy(true);
    setFailure(null);
    try {
      await onConfirm(attendee, lock);
      onClose();
    } catch (error) {
      setFailure(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened={attendee !== null}
      onClose={close}
      title={lock ? t('attendees.lock.lockTitle') : t('attendees.lock.reopenTitle')}
      centered
    >
      <Stack gap="sm">
        <Text size="sm">
          {lock ? t('attendees.lock.lockIntro', { id }) : t('attendees.lock.reopenIntro', { id })}
        </Text>
        <FormAlert errorKey={failure} />
        <Group justify="flex-end">
          <Button variant="default" onClick={close} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button
            color={lock ? 'red' : undefined}
            loading={busy}
            onClick={() => void confirm()}
            data-autofocus
          >
            {lock ? t('attendees.lock.lockSubmit') : t('attendees.lock.reopenSubmit')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
