import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { isAttendeeIdShape, normaliseAttendeeId } from '@flashbulb/shared';
import { FormAlert } from '../../../components/form-alert.tsx';
import { errorKeyOf, isApiError } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import { attachPhotosToAttendee } from '../api/attach-to-attendee.ts';

/** Asks for an attendee id and adds the selected photos to that attendee's album. */
export function AddToAttendeeModal({
  eventId,
  photoUids,
  opened,
  onClose,
}: {
  eventId: number;
  photoUids: string[];
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [attendeeId, setAttendeeId] = useState('');
  const [idError, setIdError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    if (busy) return;
    setAttendeeId('');
    setIdError(null);
    setFailure(null);
    onClose();
  };

  const submit = async () => {
    const uid = normaliseAttendeeId(attendeeId);
    if (!isAttendeeIdShape(uid)) {
      setIdError(errorText('invalid_attendee_id'));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const added = await attachPhotosToAttendee(eventId, uid, photoUids);
      notifications.show({
        color: 'green',
        message: t('album.addToAttendee.done', { count: added, id: attendeeId.trim() }),
      });
      setBusy(false);
      setAttendeeId('');
      onClose();
    } catch (error) {
      setBusy(false);
      const key = errorKeyOf(error);
      if (isApiError(error) && (key === 'invalid_attendee_id' || error.field === 'attendee_uid'))
        setIdError(errorText(key));
      else setFailure(key);
      notifications.show({ color: 'red', message: t('album.addToAttendee.failed') });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('album.addToAttendee.title', { count: photoUids.length })}
      centered
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('album.addToAttendee.intro')}</Text>
          <FormAlert errorKey={failure} />
          <TextInput
            label={t('album.addToAttendee.attendeeId')}
            required
            value={attendeeId}
            error={idError}
            autoComplete="off"
            onChange={(event) => {
              setAttendeeId(event.currentTarget.value);
              setIdError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={busy}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {t('album.addToAttendee.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
