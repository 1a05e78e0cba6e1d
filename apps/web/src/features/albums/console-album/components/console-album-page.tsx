// Over ~350 lines on purpose: the console album's page state (filter, selection, the open modal,
// uploads) that its parts share; grid, tiles, filter bar and each modal are their own files.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation, useNavigate, useParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { EventPageState } from '../../../../components/event-page-state.tsx';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useEventByCode } from '../../../../lib/event-by-code.ts';
import {
  albumQueryKeys,
  deletePhotos,
  flattenPages,
  markPhotosCurated,
  reprocessPhotos,
  refreshFirstPage,
  setPhotosVisibility,
  useAlbumPhotos,
  usePhotoCounts,
  type PhotoChanges,
} from '../api/console-album-api.ts';
import { usePhotoSelection } from '../hooks/use-photo-selection.ts';
import { useLiveAlbum } from '../hooks/use-live-album.ts';
import { useUploads } from '../hooks/use-uploads.ts';
import { formatAlbumHash, parseAlbumHash, type AlbumFilter } from '../utils/album-filter.ts';
import { AddToAttendeeModal, type AttendeePhotosMode } from './add-to-attendee-modal.tsx';
import { AlbumFilterBar } from './album-filter-bar.tsx';
import { useAlbumDownload } from './album-download.tsx';
import { DeletePhotosModal } from './delete-photos-modal.tsx';
import { ConsolePhotoGrid } from './console-photo-grid.tsx';
import { PhotoPreviewModal } from './photo-preview-modal.tsx';
import { PrintPhotosModal } from './print-photos-modal.tsx';
import { ReprocessPhotosModal } from './reprocess-photos-modal.tsx';
import type { TileGesture } from './photo-tile.tsx';
import { SelectionToolbar } from './selection-toolbar.tsx';
import { UploadPanel } from './upload-panel.tsx';
import { EventPageHeader } from '../../../../components/event-page-header.tsx';

/** While a photo is processing or files are uploading, look for news this often. */
const POLL_MS = 3000;

/**
 * The console album of one event (owner console; albums spec §2.2 filter in the URL hash, §2.5
 * preview, §7.1 upload, §7.2 photo calls).
 */
export default function ConsoleAlbumPage() {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { eventCode = '' } = useParams();
  const code = eventCode.toUpperCase();
  const location = useLocation();
  const navigate = useNavigate();
  const client = useQueryClient();

  // ---- filter <-> hash: the hash is the only state; its canonical form keys the listing.
  const filter = useMemo(() => parseAlbumHash(location.hash), [location.hash]);
  const hash = formatAlbumHash(filter);
  const setFilter = useCallback(
    (next: AlbumFilter) => {
      const nextHash = formatAlbumHash(next);
      void navigate(
        {
          pathname: location.pathname,
          search: location.search,
          hash: nextHash ? `#${nextHash}` : '',
        },
        { replace: true },
      );
    },
    [navigate, location.pathname, location.search],
  );
  const filtered = hash !== '';

  // ---- data
  const eventQuery = useEventByCode(code);
  const event = eventQuery.data;
  const eventId = event?.id;
  const list = useAlbumPhotos(eventId, filter, hash);
  const counts = usePhotoCounts(eventId);
  // The album's Download: what the filters show, as originals (a mailed link when large).
  const albumDownload = useAlbumDownload(eventId, filter);
  const photos = useMemo(() => flattenPages(list.data), [list.data]);
  const order = useMemo(() => photos.map((photo) => photo.id), [photos]);
  const total = list.data?.pages[0]?.totalCount ?? photos.length;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);

  const refreshHead = useCallback(async () => {
    if (eventId === undefined) return;
    await refreshFirstPage(client, eventId, hash).catch(() => undefined);
    await client.invalidateQueries({ queryKey: albumQueryKeys.counts(eventId) });
  }, [client, eventId, hash]);

  // ---- upload
  const [uploadOpen, setUploadOpen] = useState(false);
  const refreshTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const onUploaded = useCallback(() => {
    // Photos arrive in bursts of three: one refresh for a burst is enough.
    refreshTimer.current ??= setTimeout(() => {
      refreshTimer.current = null;
      void refreshHead();
    }, 300);
  }, [refreshHead]);
  useEffect(
    () => () => {
      if (refreshTimer.current) clearTimeout(refreshTimer.current);
    },
    [],
  );
  const uploads = useUploads(code, onUploaded);
  // Photos from robots and kiosks arrive through the live stream (one refresh per burst, too).
  const live = useLiveAlbum(event?.owner_api_key, onUploaded);
  const uploading = uploads.items.some(
    (item) => item.status !== 'done' && item.status !== 'failed',
  );

  // ---- poll while something is on its way
  const processing = photos.some((photo) => photo.status === 'processing');
  useEffect(() => {
    if (!processing && !uploading) return;
    const timer = setInterval(() => void refreshHead(), POLL_MS);
    return () => clearInterval(timer);
  }, [processing, uploading, refreshHead]);

  // ---- selection
  const selection = usePhotoSelection(order);
  const { toggle, selectRange } = selection;
  const onSelect = useCallback(
    (id: number, gesture: TileGesture) => (gesture.shift ? selectRange(id) : toggle(id)),
    [selectRange, toggle],
  );
  const [previewIndex, setPreviewIndex] = useState<number | null>(null);
  const [deleteIds, setDeleteIds] = useState<number[] | null>(null);
  const [reprocessIds, setReprocessIds] = useState<number[] | null>(null);
  const [printUids, setPrintUids] = useState<string[] | null>(null);
  const [attendeePhotos, setAttendeePhotos] = useState<{
    mode: AttendeePhotosMode;
    uids: string[];
  } | null>(null);
  const modalOpen =
    previewIndex !== null || deleteIds !== null || reprocessIds !== null || attendeePhotos !== null;
  const clearSelection = selection.clear;
  useEffect(() => {
    if (modalOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') clearSelection();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [modalOpen, clearSelection]);

  const onOpen = useCallback((id: number) => setPreviewIndex(order.indexOf(id)), [order]);
  const onMove = (index: number) => {
    setPreviewIndex(index);
    if (hasNextPage && !isFetchingNextPage && index >= photos.length - 3) loadMore();
  };

  // ---- changes
  const [busy, setBusy] = useState(false);
  const changes: PhotoChanges | null =
    eventId === undefined
      ? null
      : { client, eventId, filtersVisibility: filter.visible !== undefined };
  const report = (error: unknown) =>
    notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) });

  const run = async (work: () => Promise<string>) => {
    setBusy(true);
    try {
      notifications.show({ color: 'green', message: await work() });
    } catch (error) {
      report(error);
    } finally {
      setBusy(false);
    }
  };

  const setVisibility = (ids: number[], visible: 0 | 1) => {
    if (!changes || ids.length === 0) return;
    void run(async () => {
      await setPhotosVisibility(changes, ids, visible);
      return visible
        ? t('album.selection.shown', { count: ids.length })
        : t('album.selection.hidden', { count: ids.length });
    });
  };
  const onToggleVisibility = useCallback(
    (photo: Photo) => {
      if (eventId === undefined) return;
      setPhotosVisibility(
        { client, eventId, filtersVisibility: filter.visible !== undefined },
        [photo.id],
        photo.is_visible ? 0 : 1,
      ).catch((error: unknown) =>
        notifications.show({ color: 'red', message: errorText(errorKeyOf(error)) }),
      );
    },
    [client, eventId, filter.visible, errorText],
  );
  const selectedIds = [...selection.selected];
  const selectedUids = () =>
    photos.filter((photo) => selection.selected.has(photo.id)).map((photo) => photo.uid);

  // ---- render
  if (eventQuery.isPending || !event) {
    return (
      <EventPageState
        pending={eventQuery.isPending}
        error={eventQuery.error}
        backLabel={t('album.backToEvents')}
        fallback={t('album.loadError')}
      />
    );
  }

  const c = counts.data;
  return (
    <Stack gap="sm">
      <EventPageHeader
        backLabel={t('album.backToEvents')}
        title={t('album.title', { name: event.full_name || event.name })}
        subtitle={
          <>
            {t('album.eventCode', { code: event.name })}
            {live && (
              <Text span c="green.8" fw={600} data-testid="album-live">
                {' · '}
                {t('album.live')}
              </Text>
            )}
          </>
        }
        actions={
          <Group gap="xs">
            <Button variant="default" onClick={() => void list.refetch()}>
              {t('album.refresh')}
            </Button>
            {albumDownload.button}
            <Button onClick={() => setUploadOpen(true)}>{t('album.upload.open')}</Button>
          </Group>
        }
      />
      {albumDownload.status}
      {c && (
        <Group
          gap="md"
          aria-label={t('album.counts.label')}
          role="group"
          data-testid="album-counts"
        >
          <Text size="sm" fw={600} data-testid="album-count-total">
            {t('album.counts.total', { count: c.total })}
          </Text>
          <Text size="sm">{t('album.counts.visible', { count: c.visible })}</Text>
          <Text size="sm">{t('album.counts.hidden', { count: c.hidden })}</Text>
          {c.processing > 0 && (
            <Text size="sm">{t('album.counts.processing', { count: c.processing })}</Text>
          )}
          <Text size="sm">{t('album.counts.printed', { count: c.printed })}</Text>
          {filtered && list.data && (
            <Text size="sm" fw={600} c="indigo" data-testid="album-count-matching">
              {t('album.counts.matching', { count: total })}
            </Text>
          )}
        </Group>
      )}
      <AlbumFilterBar filter={filter} onChange={setFilter} />
      {(uploadOpen || uploads.items.length > 0) && (
        <UploadPanel
          snapshot={uploads}
          onFiles={(files) => uploads.queue.add(files)}
          onRetry={(id) => uploads.queue.retry(id)}
          onClearFinished={() => uploads.queue.clearFinished()}
          onClose={() => {
            uploads.queue.clearFinished();
            setUploadOpen(false);
          }}
        />
      )}
      <SelectionToolbar
        count={selectedIds.length}
        busy={busy}
        onHide={() => setVisibility(selectedIds, 0)}
        onShow={() => setVisibility(selectedIds, 1)}
        onCurate={() => {
          if (!changes) return;
          void run(async () => {
            await markPhotosCurated(changes, selectedIds);
            return t('album.selection.curatedDone', { count: selectedIds.length });
          });
        }}
        onReprocess={() => setReprocessIds(selectedIds)}
        onDelete={() => setDeleteIds(selectedIds)}
        onAddToAttendee={() => setAttendeePhotos({ mode: 'add', uids: selectedUids() })}
        onRemoveFromAttendee={() => setAttendeePhotos({ mode: 'remove', uids: selectedUids() })}
        onPrint={
          event.is_photo_printer_active === 1 ? () => setPrintUids(selectedUids()) : undefined
        }
        onClear={selection.clear}
      />
      {list.isError && !list.data ? (
        <Alert color="red" role="alert">
          {errorText(errorKeyOf(list.error))}
        </Alert>
      ) : list.isPending ? (
        <Group justify="center" p="xl">
          <Loader aria-label={t('app.loading')} />
        </Group>
      ) : photos.length === 0 ? (
        <Text c="dimmed" ta="center" p="xl">
          {filtered ? t('album.grid.emptyFiltered') : t('album.grid.empty')}
        </Text>
      ) : (
        <>
          <Group justify="space-between">
            <Button size="xs" variant="subtle" onClick={selection.selectAll}>
              {t('album.grid.selectAll', { count: photos.length })}
            </Button>
          </Group>
          <ConsolePhotoGrid
            photos={photos}
            selected={selection.selected}
            total={total}
            hasMore={hasNextPage}
            loadingMore={isFetchingNextPage}
            onLoadMore={loadMore}
            onSelect={onSelect}
            onOpen={onOpen}
            onToggleVisibility={onToggleVisibility}
          />
        </>
      )}
      <PhotoPreviewModal
        photos={photos}
        index={previewIndex}
        total={total}
        onMove={onMove}
        onClose={() => setPreviewIndex(null)}
      />
      {attendeePhotos && (
        <AddToAttendeeModal
          mode={attendeePhotos.mode}
          eventId={event.id}
          photoUids={attendeePhotos.uids}
          initialId={filter.attendeeUid ?? ''}
          opened
          onClose={() => setAttendeePhotos(null)}
        />
      )}
      {printUids && (
        <PrintPhotosModal
          event={event}
          photoUids={printUids}
          attendeeUid={filter.attendeeUid}
          onClose={() => setPrintUids(null)}
        />
      )}
      <ReprocessPhotosModal
        count={reprocessIds?.length ?? 0}
        opened={reprocessIds !== null}
        onClose={() => setReprocessIds(null)}
        onReprocess={async (onDone) => {
          if (!changes || !reprocessIds) return;
          await reprocessPhotos(changes, reprocessIds, onDone);
          notifications.show({
            color: 'green',
            message: t('album.reprocess.done', { count: reprocessIds.length }),
          });
        }}
      />
      <DeletePhotosModal
        count={deleteIds?.length ?? 0}
        opened={deleteIds !== null}
        onClose={() => setDeleteIds(null)}
        onDelete={async (reason) => {
          if (!changes || !deleteIds) return;
          await deletePhotos(changes, deleteIds, reason);
          notifications.show({
            color: 'green',
            message: t('album.delete.done', { count: deleteIds.length }),
          });
        }}
      />
    </Stack>
  );
}
