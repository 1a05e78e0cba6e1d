import { useState } from 'react';
import {
  Anchor,
  Button,
  Checkbox,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  Stack,
  Text,
} from '@mantine/core';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PRINTER_POOL, endpoints, type FlashbulbEvent } from '@flashbulb/shared';
import { FormAlert } from '../../../../components/form-alert.tsx';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';

/** The pools a print may name: the event's list when pools are on, and always `Default`. */
export const printPoolsOf = (event: FlashbulbEvent): string[] => [
  ...new Set([
    ...(event.is_printer_pool_enabled === 1 ? (event.printer_pool_name_list ?? []) : []),
    DEFAULT_PRINTER_POOL,
  ]),
];

/**
 * Print the selected photos (albums spec §7.2 print-with-queue): copies 1..the event's maximum
 * and a pool of the event. The server checks every limit (photos per request, a multiple of the
 * placeholder count…) and answers a key shown here. One request id per opening of the dialog,
 * so a double click or a retry after a lost answer prints once.
 */
export function PrintPhotosModal({
  event,
  photoUids,
  attendeeUid,
  onClose,
}: {
  event: FlashbulbEvent;
  photoUids: string[];
  /**
   * The attendee the album is filtered to: at a paid event the owner may unlock that attendee's
   * album and print its chosen photos in one step (the owner's unlock-and-print).
   */
  attendeeUid?: string | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const pools = printPoolsOf(event);
  const [pool, setPool] = useState(pools[0]!);
  const [copies, setCopies] = useState<number>(1);
  const [requestId] = useState(() => crypto.randomUUID());
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [queued, setQueued] = useState<{ sheets: number; pool: string } | null>(null);
  const canUnlock = event.is_free === 0 && Boolean(attendeeUid);
  const [unlock, setUnlock] = useState(false);
  const [unlocked, setUnlocked] = useState<number | null>(null);
  // Two or more photos may print as one story sheet (the event's story template).
  const canStory = photoUids.length >= 2;
  const [story, setStory] = useState(false);
  const max = event.max_print_copies_count;

  const submit = async () => {
    setBusy(true);
    setFailure(null);
    try {
      if (unlock && attendeeUid) {
        const result = await callApi(endpoints.ownerUnlockAndPrint, {
          event_id: event.id,
          attendee_uid: attendeeUid,
          photo_uid_array: photoUids,
          printing_count: copies,
          client_request_id: requestId,
        });
        setUnlocked(result.photo_count);
        return;
      }
      const result = await callApi(story ? endpoints.printStory : endpoints.printWithQueue, {
        event_id: event.id,
        printable_photo_uid_array: photoUids,
        printing_count: copies,
        // A story goes to the event's stories pool (the server's default for it).
        ...(story ? {} : { printer_pool_name: pool }),
        client_request_id: requestId,
      });
      setQueued({ sheets: result.sheet_count, pool: result.printer_pool_name });
    } catch (error) {
      setFailure(errorKeyOf(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('album.print.title', { count: photoUids.length })}
      centered
    >
      {queued || unlocked !== null ? (
        <Stack gap="sm">
          <Text role="status">
            {queued
              ? t('album.print.queued', { count: queued.sheets, pool: queued.pool, copies })
              : t('album.print.unlockedAndQueued', { count: unlocked ?? 0, id: attendeeUid })}
          </Text>
          <Group justify="space-between">
            <Anchor component={Link} to={`/print-desk?event=${encodeURIComponent(event.name)}`}>
              {t('album.print.openDesk')}
            </Anchor>
            <Button onClick={onClose}>{t('album.print.done')}</Button>
          </Group>
        </Stack>
      ) : (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void submit();
          }}
        >
          <Stack gap="sm">
            <FormAlert errorKey={failure} />
            <NumberInput
              label={t('album.print.copies')}
              description={t('album.print.copiesHint', { max })}
              min={1}
              max={max}
              clampBehavior="strict"
              allowDecimal={false}
              value={copies}
              onChange={(value) => setCopies(typeof value === 'number' ? value : 1)}
              data-autofocus
            />
            {canUnlock && (
              <Checkbox
                label={t('album.print.unlockFirst', { id: attendeeUid })}
                description={t('album.print.unlockFirstHint')}
                checked={unlock}
                onChange={(e) => {
                  setUnlock(e.currentTarget.checked);
                  if (e.currentTarget.checked) setStory(false);
                }}
              />
            )}
            {canStory && !unlock && (
              <Checkbox
                label={t('album.print.story')}
                description={t('album.print.storyHint')}
                checked={story}
                onChange={(e) => setStory(e.currentTarget.checked)}
              />
            )}
            {pools.length > 1 && !unlock && !story && (
              <NativeSelect
                label={t('album.print.pool')}
                data={pools}
                value={pool}
                onChange={(e) => setPool(e.currentTarget.value)}
              />
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={busy}>
                {t('album.print.submit')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
