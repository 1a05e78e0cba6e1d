import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';

/**
 * Delete photos with a reason (albums spec §7.2: photo list delete {photo_id_array,
 * delete_reason}); a blank reason is refused here before anything is sent.
 */
export function DeletePhotosModal({
  count,
  opened,
  onClose,
  onDelete,
}: {
  count: number;
  opened: boolean;
  onClose: () => void;
  onDelete: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [reason, setReason] = useState('');
  const [reasonError, setReasonError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const close = () => {
    setReason('');
    setReasonError(null);
    setFailure(null);
    onClose();
  };

  const submit = async () => {
    if (!reason.trim()) {
      setReasonError(errorText('delete_reason_required'));
      return;
    }
    setBusy(true);
    setFailure(null);
    try {
      await onDelete(reason.trim());
      close();
    } catch (error) {
      const key = errorKeyOf(error);
      if (isApiError(error) && error.field === 'delete_reason') setReasonError(errorText(key));
      else setFailure(key);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={t('album.delete.title', { count })} centered>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="sm">
          <Text size="sm">{t('album.delete.intro')}</Text>
          <FormAlert errorKey={failure} />
          <Textarea
            label={t('album.delete.reason')}
            required
            autosize
            minRows={2}
            maxLength={500}
            value={reason}
            error={reasonError}
            onChange={(event) => {
              setReason(event.currentTarget.value);
              setReasonError(null);
            }}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="red" loading={busy}>
              {t('album.delete.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
