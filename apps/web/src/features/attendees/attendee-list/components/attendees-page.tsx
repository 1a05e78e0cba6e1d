import { useState } from 'react';
import { Alert, Button, Group, Loader, Pagination, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { Attendee, FlashbulbEvent } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  ATTENDEE_PAGE_SIZE,
  attendeeQueryKeys,
  eraseAttendeeData,
  exportAttendeeData,
  setAttendeeLocked,
  useAttendeeList,
} from '../api/attendees-api.ts';
import { AttendeesTable } from './attendees-table.tsx';
import { GenerateAttendeesModal } from './generate-attendees-modal.tsx';
import { LockAttendeeModal } from './lock-attendee-modal.tsx';
import { PrivacyModal } from './privacy-modal.tsx';
import { KioskLinksPanel } from './kiosk-links-panel.tsx';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

/** Typing pauses this long before the search asks the server. */
const SEARCH_DELAY_MS = 300;

/**
 * The attendees of one event (owner-console §5; albums spec §3): generate ids for cards or
 * wristbands, list them newest first, open or copy an album link, lock or reopen an album.
 */
export default function AttendeesPage() {
  return <RouteEventGate texts="attendees" page={EventAttendees} />;
}

function EventAttendees({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();

  const [page, setPage] = useState(1);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const [generateOpen, setGenerateOpen] = useState(false);
  const [lockTarget, setLockTarget] = useState<Attendee | null>(null);
  const [privacyTarget, setPrivacyTarget] = useState<Attendee | null>(null);

  const list = useAttendeeList(event.id, page, debouncedSearch);

  const refreshList = () =>
    void client.invalidateQueries({ queryKey: attendeeQueryKeys.lists(event.id) });

  const data = list.data;
  const total = data?.total_count ?? 0;
  const pages = Math.max(1, Math.ceil(total / ATTENDEE_PAGE_SIZE));
  const lockAttendee = async (attendee: Attendee, lock: boolean) => {
    await setAttendeeLocked(event.id, attendee.uid, lock);
    const id = attendee.display_uid;
    notifications.show({
      color: 'green',
      message: lock ? t('attendees.lock.locked', { id }) : t('attendees.lock.reopened', { id }),
    });
    refreshList();
  };
  const eraseAttendee = async (attendee: Attendee) => {
    const result = await eraseAttendeeData(attendee.uid);
    notifications.show({
      color: 'green',
      message: t('attendees.privacy.erased', {
        id: attendee.display_uid,
        deleted: result.deleted_photos,
        detached: result.detached_photos,
      }),
    });
    refreshList();
  };

  return (
    <Stack gap="sm">
      <EventPageHeader
        backLabel={t('attendees.backToEvents')}
        title={t('attendees.title', { name: event.full_name || event.name })}
        subtitle={t('attendees.eventCode', { code: event.name })}
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => void list.refetch()}>
              {t('attendees.refresh')}
            </Button>
            <Button onClick={() => setGenerateOpen(true)}>{t('attendees.generate.open')}</Button>
          </Group>
        }
      />
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <TextInput
          label={t('attendees.search')}
          description={t('attendees.searchHint')}
          type="search"
          value={search}
          onChange={(e) => {
            setSearch(e.currentTarget.value);
            setPage(1);
          }}
          w={320}
        />
        {data && (
          <Text size="sm" fw={600} data-testid="attendee-total" aria-live="polite">
            {t('attendees.total', { count: total })}
          </Text>
        )}
      </Group>
      {list.isError && !data ? (
        <Alert color="red" role="alert">
          {errorText(errorKeyOf(list.error))}
        </Alert>
      ) : !data ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('app.loading')} />
        </Group>
      ) : data.attendees.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl">
          {debouncedSearch
            ? t('attendees.emptySearch', { search: debouncedSearch })
            : t('attendees.empty')}
        </Text>
      ) : (
        <>
          <AttendeesTable
            eventCode={event.name}
            attendees={data.attendees}
            onLock={setLockTarget}
            onPrivacy={setPrivacyTarget}
          />
          {pages > 1 && (
            <Group justify="center">
              <Pagination
                total={pages}
                value={page}
                onChange={setPage}
                aria-label={t('attendees.pagination')}
                getControlProps={(control) =>
                  control === 'next'
                    ? { 'aria-label': t('attendees.nextPage') }
                    : control === 'previous'
                      ? { 'aria-label': t('attendees.previousPage') }
                      : {}
                }
              />
            </Group>
          )}
        </>
      )}
      <KioskLinksPanel
        privateKey={event.private_api_key}
        displayToken={event.display_token}
        attendees={data?.attendees ?? []}
      />
      <GenerateAttendeesModal
        opened={generateOpen}
        eventId={event.id}
        eventCode={event.name}
        onClose={() => setGenerateOpen(false)}
        onGenerated={() => {
          setPage(1);
          refreshList();
        }}
      />
      <PrivacyModal
        attendee={privacyTarget}
        onClose={() => setPrivacyTarget(null)}
        onExport={(attendee) => exportAttendeeData(attendee.uid)}
        onErase={eraseAttendee}
      />
      <LockAttendeeModal
        attendee={lockTarget}
        onClose={() => setLockTarget(null)}
        onConfirm={lockAttendee}
      />
    </Stack>
  );
}
