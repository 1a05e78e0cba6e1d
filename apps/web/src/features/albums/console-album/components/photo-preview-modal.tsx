import { useEffect, useRef, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Center,
  Group,
  Loader,
  Modal,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { endpoints, type Photo } from '@flashbulb/shared';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { formatBytes, formatDateTime } from '../utils/format.ts';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div">
        {children}
      </Text>
    </Stack>
  );
}

/**
 * The attendee albums that hold the photo (uploaded for the attendee or attached), each a link
 * to the album filtered to that attendee.
 */
function PhotoAttendees({ photoUid, eventCode }: { photoUid: string; eventCode: string }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const attendees = useQuery({
    queryKey: ['photo-attendees', photoUid],
    queryFn: ({ signal }) =>
      callApi(endpoints.attendeesByPhotos, { photo_uids: [photoUid] }, { signal }),
    select: (rows) => rows.find((row) => row.photo_uid === photoUid)?.attendee_uids ?? [],
  });
  if (attendees.isPending) return <Loader size="xs" aria-label={t('album.preview.attendees')} />;
  if (attendees.isError) return <>{errorText(errorKeyOf(attendees.error))}</>;
  if (attendees.data.length === 0) return <>{t('album.preview.noAttendees')}</>;
  return (
    <Group gap="xs">
      {attendees.data.map((uid) => (
        <Anchor
          key={uid}
          component={Link}
          to={`/events/${encodeURIComponent(eventCode)}/album#ai=${encodeURIComponent(uid)}`}
          size="sm"
        >
          {uid}
        </Anchor>
      ))}
    </Group>
  );
}

/**
 * Full-screen preview (albums spec §2.5): the preview picture (or the video), left/right keys and
 * buttons to move through the loaded photos, Escape closes; the photo's details and a download
 * link for the original.
 */
export function PhotoPreviewModal({
  photos,
  index,
  total,
  onMove,
  onClose,
}: {
  photos: readonly Photo[];
  index: number | null;
  total: number;
  onMove: (index: number) => void;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const { eventCode } = useParams();
  const photo = index === null ? undefined : photos[index];
  const hasPrevious = index !== null && index > 0;
  const hasNext = index !== null && index < photos.length - 1;
  const previous = () => {
    if (hasPrevious) onMove(index - 1);
  };
  const next = () => {
    if (hasNext) onMove(index + 1);
  };
  const moveBy = useRef((_step: number) => undefined as void);
  useEffect(() => {
    moveBy.current = (step) => (step < 0 ? previous() : next());
  });

  const open = photo !== undefined;
  // Keys anywhere in the open preview (focus may be on the close button or a link).
  useEffect(() => {
    if (!open) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
      if (event.key === 'ArrowLeft') {
        event.preventDefault();
        moveBy.current(-1);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        moveBy.current(1);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [open]);

  const picture = photo?.urls.preview ?? photo?.urls.thumbnail ?? null;
  const video = photo?.media_type === 'video' ? photo.urls.original : null;

  return (
    <Modal
      opened={photo !== undefined}
      onClose={onClose}
      fullScreen
      title={photo?.file_name ?? t('album.preview.title')}
      aria-describedby="album-preview-details"
      styles={{ body: { height: 'calc(100dvh - 70px)' } }}
    >
      {photo && index !== null && (
        <Stack h="100%" gap="sm">
          <Group justify="space-between" wrap="nowrap">
            <Button variant="default" onClick={previous} disabled={!hasPrevious}>
              ‹ {t('album.preview.previous')}
            </Button>
            <Text size="sm" c="dimmed">
              {t('album.preview.position', { index: index + 1, count: total })}
            </Text>
            <Button variant="default" onClick={next} disabled={!hasNext}>
              {t('album.preview.next')} ›
            </Button>
          </Group>
          <Center style={{ flex: 1, minHeight: 0 }} bg="dark.8">
            {video ? (
              <video
                key={photo.id}
                src={video}
                controls
                aria-label={photo.file_name}
                style={{ maxWidth: '100%', maxHeight: '100%' }}
              />
            ) : picture && photo.status === 'ready' ? (
              <img
                key={photo.id}
                src={picture}
                alt={photo.file_name}
                style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
              />
            ) : (
              <Stack align="center" gap="xs">
                {photo.status === 'processing' && <Loader color="gray" aria-hidden="true" />}
                <Text c="gray.3">
                  {photo.status === 'failed' ? t('album.grid.failed') : t('album.preview.notReady')}
                </Text>
              </Stack>
            )}
          </Center>
          <Box id="album-preview-details">
            <Group gap="xl" wrap="wrap" align="flex-start">
              <Detail label={t('album.preview.fileName')}>{photo.file_name}</Detail>
              <Detail label={t('album.preview.date')}>
                {formatDateTime(photo.created_date, i18n.language)}
              </Detail>
              <Detail label={t('album.preview.size')}>{formatBytes(photo.size_bytes, t)}</Detail>
              {photo.width !== null && photo.height !== null && (
                <Detail label={t('album.preview.dimensions')}>
                  {photo.width} × {photo.height}
                </Detail>
              )}
              <Detail label={t('album.preview.status')}>{t(`album.status.${photo.status}`)}</Detail>
              {eventCode && (
                <Detail label={t('album.preview.attendees')}>
                  <PhotoAttendees photoUid={photo.uid} eventCode={eventCode} />
                </Detail>
              )}
              <Detail label={t('album.preview.visibility')}>
                <Badge color={photo.is_visible ? 'green' : 'dark'} variant="light">
                  {photo.is_visible ? t('album.preview.visible') : t('album.preview.hidden')}
                </Badge>
              </Detail>
              {photo.media_type === 'image' && photo.status === 'ready' && eventCode && (
                <Anchor
                  component={Link}
                  to={`/imageEdit/index.html?event=${encodeURIComponent(eventCode)}&photo=${photo.id}`}
                  size="sm"
                >
                  {t('album.preview.edit')}
                </Anchor>
              )}
              {photo.urls.original && (
                <Anchor href={photo.urls.original} download={photo.file_name} size="sm">
                  {t('album.preview.download')}
                </Anchor>
              )}
            </Group>
          </Box>
        </Stack>
      )}
    </Modal>
  );
}
