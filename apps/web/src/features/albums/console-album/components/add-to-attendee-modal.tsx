import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useTranslation } from 'react-i18next';
import { formatAttendeeId, isAttendeeIdShape, normaliseAttendeeId } from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { attachPhotosToAttendee, unlinkPhotosFromAttendee } from '../api/attach-to-attendee.ts';

export type AttendeePhotosMode = 'add' | 'remove';

/**
 * Asks for an attendee id, then adds the selected photos to that attendee's album or removes
 * them from it (the photos stay in the event). `initialId` is the album's attendee filter, if any.
 */
export function AddToAttendeeModal({
  mode,
  eventId,
  photoUids,
  initialId = '',
  opened,
  onClose,
}: {
  mode: AttendeePhotosMode;
  eventId: number;
  photoUids: string[];
  initialId?: string;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const texts = mode === 'add' ? 'album.addToAttendee' : 'album.removeFromAttendee';
  const [attendeeUid, setAttendeeId] = useState(initialId);
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
    const uid = normaliseAttendeeId(attendeeUid);
    if (!isAttendeeIdShape(uid)) {
      setIdError(errorText('invalid_attendee_id'));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      const change = mode === 'add' ? attachPhotosToAttendee : unlinkPhotosFromAttendee;
      const count = await change(eventId, uid, photoUids);
      notifications.show({
        color: 'green',
        // The id as printed on the card, however it was typed.
        message: t(`${texts}.done`, { count, id: formatAttendeeId(uid) }),
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
      notifications.show({ color: 'red', message: t(`${texts}.failed`) });
    }
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t(`${texts}.title`, { count: photoUids.length })}
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
          <Text size="sm">{t(`${texts}.intro`)}</Text>
          <FormAlert errorKey={failure} />
          <TextInput
            label={t('album.addToAttendee.attendeeUid')}
            required
            value={attendeeUid}
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
            <Button type="submit" loading={busy} color={mode === 'remove' ? 'red' : undefined}>
              {t(`${texts}.submit`)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
