import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  Group,
  Image,
  Loader,
  Modal,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
  Textarea,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import type { FlashbulbEvent, Photo } from '@flashbulb/shared';
import { CARD_TABLE } from '../../../../components/card-table.ts';
import { RouteEventGate } from '../../../../components/event-page-state.tsx';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  decidePhotos,
  moderationKeys,
  useModerationLog,
  useModerationQueue,
  type QueueFilter,
} from '../api/moderation-api.ts';
import { queueKeyAction } from '../utils/queue-keys.ts';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

/** A tile's width in the grid (px): the arrow keys move by the columns that fit. */
const TILE = 168;
const GAP = 12;

/**
 * `/events/:code/moderation`: the photos waiting for moderation (the event's `moderationEnabled`),
 * approved or rejected in bulk with the mouse or the keyboard, filtered by booth and by tag, and
 * the log of decisions (who, when, why). The server decides who may moderate and what a waiting
 * photo reaches.
 */
export default function ModerationPage() {
  return <RouteEventGate texts="moderation" page={EventModeration} />;
}

function EventModeration({ event }: { event: FlashbulbEvent }) {
  const { t } = useTranslation();
  const [filter, setFilter] = useState<QueueFilter>({ robotId: null, tag: null });
  const queue = useModerationQueue(event.id, filter);
  const count = queue.data?.total_count ?? 0;
  return (
    <Stack gap="md">
      <EventPageHeader
        backLabel={t('moderation.backToEvents')}
        title={t('moderation.title', { name: event.full_name })}
        subtitle={t('moderation.hint')}
      />
      {event.opts.moderationEnabled !== 1 && <Alert color="yellow">{t('moderation.off')}</Alert>}
      <Tabs defaultValue="queue" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="queue">{t('moderation.queueTab', { count })}</Tabs.Tab>
          <Tabs.Tab value="log">{t('moderation.logTab')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="queue" pt="md">
          <QueuePanel event={event} filter={filter} onFilter={setFilter} />
        </Tabs.Panel>
        <Tabs.Panel value="log" pt="md">
          <LogPanel eventId={event.id} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function QueuePanel({
  event,
  filter,
  onFilter,
}: {
  event: FlashbulbEvent;
  filter: QueueFilter;
  onFilter: (filter: QueueFilter) => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const client = useQueryClient();
  const queue = useModerationQueue(event.id, filter);
  const photos = useMemo(() => queue.data?.photos ?? [], [queue.data]);
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [focusAt, setFocus] = useState(0);
  const [rejecting, setRejecting] = useState<number[] | null>(null);
  const [busy, setBusy] = useState(false);
  const [columns, setColumns] = useState(1);
  const gridRef = useRef<HTMLDivElement>(null);

  // Only photos still listed count as selected; the focus stays on the grid.
  const selectedIds = photos.filter((p) => selected.has(p.id)).map((p) => p.id);
  const focus = Math.max(0, Math.min(focusAt, photos.length - 1));

  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const width = entry?.contentRect.width ?? 0;
      setColumns(Math.max(1, Math.floor((width + GAP) / (TILE + GAP))));
    });
    observer.observe(grid);
    return () => observer.disconnect();
  }, []);

  const allSelected = photos.length > 0 && selectedIds.length === photos.length;
  const toggle = (id: number) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  /** The selection, or the photo in focus when nothing is selected. */
  const targets = (): number[] => {
    if (selectedIds.length > 0) return selectedIds;
    const focused = photos[focus];
    return focused ? [focused.id] : [];
  };

  const decide = async (ids: number[], decision: 'approve' | 'reject', reason?: string) => {
    if (ids.length === 0 || busy) return false;
    setBusy(true);
    try {
      const result = await decidePhotos(event.id, ids, decision, reason);
      notifications.show({
        color: 'green',
        message:
          decision === 'approve'
            ? t('moderation.approved', { count: result.approved })
            : t('moderation.rejected', { count: result.rejected }),
      });
      setSelected(new Set());
      await client.invalidateQueries({ queryKey: moderationKeys.all(event.id) });
      return true;
    } catch (error) {
      notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const action = queueKeyAction(e, focus, photos.length, columns);
    if (!action) return;
    e.preventDefault();
    switch (action.kind) {
      case 'approve':
        void decide(targets(), 'approve');
        return;
      case 'reject': {
        const ids = targets();
        if (ids.length > 0) setRejecting(ids);
        return;
      }
      case 'toggle': {
        const focused = photos[focus];
        if (focused) toggle(focused.id);
        return;
      }
      case 'selectAll':
        setSelected(new Set(photos.map((p) => p.id)));
        return;
      case 'move':
        setFocus(action.to);
        document
          .getElementById(tileId(photos[action.to]) ?? '')
          ?.scrollIntoView?.({ block: 'nearest' });
        return;
    }
  };

  const robots = queue.data?.robots ?? [];
  const tags = queue.data?.tags ?? [];
  return (
    <Stack gap="sm">
      <Group gap="sm" align="end" wrap="wrap">
        <Select
          label={t('moderation.booth')}
          placeholder={t('moderation.anyBooth')}
          data={robots.map((r) => ({ value: String(r.id), label: r.name }))}
          value={filter.robotId === null ? null : String(filter.robotId)}
          onChange={(v) => onFilter({ ...filter, robotId: v === null ? null : Number(v) })}
          clearable
          w={200}
        />
        <Select
          label={t('moderation.tag')}
          placeholder={t('moderation.anyTag')}
          data={tags}
          value={filter.tag}
          onChange={(v) => onFilter({ ...filter, tag: v })}
          clearable
          searchable
          w={200}
        />
      </Group>
      <Group gap="sm" wrap="wrap">
        <Checkbox
          label={t('moderation.selectAll')}
          checked={allSelected}
          indeterminate={selectedIds.length > 0 && !allSelected}
          disabled={photos.length === 0}
          onChange={() => setSelected(allSelected ? new Set() : new Set(photos.map((p) => p.id)))}
        />
        <Text size="sm" c="dimmed">
          {t('moderation.selected', { count: selectedIds.length })}
        </Text>
        <Button
          size="compact-md"
          color="green"
          disabled={selectedIds.length === 0}
          loading={busy}
          onClick={() => void decide(targets(), 'approve')}
        >
          {t('moderation.approve')}
        </Button>
        <Button
          size="compact-md"
          color="red"
          variant="light"
          disabled={selectedIds.length === 0 || busy}
          onClick={() => setRejecting(targets())}
        >
          {t('moderation.reject')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('moderation.shortcuts')}
      </Text>
      {queue.isPending ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('app.loading')} />
        </Group>
      ) : queue.isError ? (
        <Alert color="red">{errorText(errorKeyOf(queue.error))}</Alert>
      ) : photos.length === 0 ? (
        <Text c="dimmed">{t('moderation.empty')}</Text>
      ) : null}
      <Box
        ref={gridRef}
        role="listbox"
        aria-label={t('moderation.grid')}
        aria-multiselectable="true"
        aria-activedescendant={photos[focus] ? tileId(photos[focus]) : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        style={{
          display: photos.length === 0 ? 'none' : 'grid',
          gridTemplateColumns: `repeat(auto-fill, minmax(${TILE}px, 1fr))`,
          gap: GAP,
          outline: 'none',
        }}
      >
        {photos.map((photo, index) => (
          <QueueTile
            key={photo.id}
            photo={photo}
            robot={robots.find((r) => r.id === photo.robot_id)?.name ?? null}
            selected={selected.has(photo.id)}
            focused={index === focus}
            onClick={() => {
              setFocus(index);
              toggle(photo.id);
            }}
          />
        ))}
      </Box>
      <RejectModal
        ids={rejecting}
        busy={busy}
        onClose={() => setRejecting(null)}
        onReject={async (ids, reason) => {
          if (await decide(ids, 'reject', reason)) setRejecting(null);
        }}
      />
    </Stack>
  );
}

const tileId = (photo: Photo | undefined) => (photo ? `moderation-photo-${photo.id}` : undefined);

function QueueTile({
  photo,
  robot,
  selected,
  focused,
  onClick,
}: {
  photo: Photo;
  robot: string | null;
  selected: boolean;
  focused: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  const thumbnail = photo.urls.thumbnail;
  return (
    <Box
      id={tileId(photo)}
      role="option"
      aria-selected={selected}
      aria-label={t('moderation.photoLabel', { name: photo.file_name })}
      onClick={onClick}
      style={{
        cursor: 'pointer',
        borderRadius: 8,
        padding: 4,
        border: `3px solid ${selected ? 'var(--mantine-color-blue-6)' : 'transparent'}`,
        boxShadow: focused ? '0 0 0 2px var(--mantine-color-orange-5)' : undefined,
        background: 'var(--mantine-color-gray-0)',
      }}
    >
      {thumbnail ? (
        <Image src={thumbnail} alt="" h={TILE - 40} fit="cover" radius="sm" />
      ) : (
        <Group h={TILE - 40} justify="center">
          <Text size="xs" c="dimmed">
            {t('moderation.processing')}
          </Text>
        </Group>
      )}
      <Text size="xs" truncate="end" mt={4}>
        {photo.file_name}
      </Text>
      {robot && (
        <Badge size="xs" variant="light">
          {robot}
        </Badge>
      )}
    </Box>
  );
}

function RejectModal({
  ids,
  busy,
  onClose,
  onReject,
}: {
  ids: number[] | null;
  busy: boolean;
  onClose: () => void;
  onReject: (ids: number[], reason: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const count = ids?.length ?? 0;
  return (
    <Modal
      opened={ids !== null}
      onClose={onClose}
      title={t('moderation.rejectTitle', { count })}
      centered
    >
      {/* Mounted per opening: each rejection starts with an empty reason. */}
      {ids && <RejectForm ids={ids} busy={busy} onClose={onClose} onReject={onReject} />}
    </Modal>
  );
}

function RejectForm({
  ids,
  busy,
  onClose,
  onReject,
}: {
  ids: number[];
  busy: boolean;
  onClose: () => void;
  onReject: (ids: number[], reason: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        if (!reason.trim()) {
          setError(t('moderation.reasonRequired'));
          return;
        }
        void onReject(ids, reason.trim());
      }}
    >
      <Stack gap="sm">
        <Text size="sm">{t('moderation.rejectHint')}</Text>
        <Textarea
          label={t('moderation.reason')}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          error={error}
          maxLength={500}
          autosize
          minRows={2}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('moderation.cancel')}
          </Button>
          <Button type="submit" color="red" loading={busy}>
            {t('moderation.reject')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function LogPanel({ eventId }: { eventId: number }) {
  const { t, i18n } = useTranslation();
  const errorText = useErrorText();
  const log = useModerationLog(eventId);
  if (log.isPending)
    return (
      <Group justify="center" p="xl">
        <Loader aria-label={t('app.loading')} />
      </Group>
    );
  if (log.isError) return <Alert color="red">{errorText(errorKeyOf(log.error))}</Alert>;
  if (log.data.entries.length === 0) return <Text c="dimmed">{t('moderation.logEmpty')}</Text>;
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Table.ScrollContainer minWidth={700} className={CARD_TABLE.scroll}>
      <Table aria-label={t('moderation.logTable')} className={CARD_TABLE.table} striped>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{t('moderation.when')}</Table.Th>
            <Table.Th>{t('moderation.decision')}</Table.Th>
            <Table.Th>{t('moderation.photo')}</Table.Th>
            <Table.Th>{t('moderation.who')}</Table.Th>
            <Table.Th>{t('moderation.why')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {log.data.entries.map((entry) => (
            <Table.Tr key={entry.id}>
              <Table.Td data-label={t('moderation.when')}>
                {when.format(new Date(entry.created_at))}
              </Table.Td>
              <Table.Td data-label={t('moderation.decision')}>
                <Badge color={entry.decision === 'approve' ? 'green' : 'red'} variant="light">
                  {entry.decision === 'approve'
                    ? t('moderation.decisionApprove')
                    : t('moderation.decisionReject')}
                </Badge>
              </Table.Td>
              <Table.Td data-label={t('moderation.photo')}>{entry.file_name}</Table.Td>
              <Table.Td data-label={t('moderation.who')}>
                {entry.user_email ?? t('moderation.unknownUser')}
              </Table.Td>
              <Table.Td data-label={t('moderation.why')}>{entry.reason ?? ''}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
