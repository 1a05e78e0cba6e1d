import { memo, type MouseEvent } from 'react';
import {
  ActionIcon,
  Badge,
  Box,
  Center,
  Checkbox,
  Group,
  Loader,
  Stack,
  Text,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Photo } from '@flashbulb/shared';
import { Icon } from '../../../../design/icons.tsx';
import { icon } from '../../../../design/tokens.ts';

export interface TileGesture {
  readonly shift: boolean;
  readonly toggle: boolean;
}

export const gestureOf = (event: MouseEvent): TileGesture => ({
  shift: event.shiftKey,
  toggle: event.ctrlKey || event.metaKey,
});

export const CAPTION_HEIGHT = 24;

/**
 * One photo of the grid at a fixed size (no layout shift): its box selects (shift for a range),
 * the picture previews (Ctrl/Cmd-click toggles, shift-click selects a range), the eye hides or
 * shows. Processing photos show a spinner until their thumbnail exists.
 */
export const PhotoTile = memo(function PhotoTile({
  photo,
  size,
  position,
  total,
  selected,
  onSelect,
  onOpen,
  onToggleVisibility,
}: {
  photo: Photo;
  size: number;
  position: number;
  total: number;
  selected: boolean;
  onSelect: (id: number, gesture: TileGesture) => void;
  onOpen: (id: number) => void;
  onToggleVisibility: (photo: Photo) => void;
}) {
  const { t } = useTranslation();
  const name = photo.file_name;
  const hidden = photo.is_visible === 0;
  const visibilityLabel = hidden ? t('album.grid.show', { name }) : t('album.grid.hide', { name });
  const thumbnail = photo.status === 'ready' ? photo.urls.thumbnail : null;

  return (
    <Box
      role="listitem"
      aria-posinset={position}
      aria-setsize={total}
      data-photo-id={photo.id}
      data-selected={selected || undefined}
      w={size}
      style={{ flex: `0 0 ${size}px` }}
    >
      <Box
        pos="relative"
        w={size}
        h={size}
        bg="gray.1"
        style={{
          borderRadius: 6,
          overflow: 'hidden',
          outline: selected ? '3px solid var(--mantine-color-indigo-6)' : undefined,
          outlineOffset: -3,
        }}
      >
        <button
          type="button"
          aria-label={t('album.grid.open', { name })}
          onClick={(event) => {
            const gesture = gestureOf(event);
            if (gesture.shift || gesture.toggle) onSelect(photo.id, gesture);
            else onOpen(photo.id);
          }}
          style={{
            all: 'unset',
            display: 'block',
            width: size,
            height: size,
            cursor: 'pointer',
          }}
        >
          {thumbnail ? (
            <img
              src={thumbnail}
              alt={name}
              width={size}
              height={size}
              loading="lazy"
              decoding="async"
              style={{
                width: size,
                height: size,
                objectFit: 'cover',
                display: 'block',
                opacity: hidden ? 0.45 : 1,
              }}
            />
          ) : (
            <Center w={size} h={size}>
              {photo.status === 'processing' ? (
                <Stack align="center" gap={4}>
                  <Loader size="sm" aria-hidden="true" />
                  <Text size="xs" c="dimmed">
                    {t('album.grid.processing')}
                  </Text>
                </Stack>
              ) : (
                <Text size="xs" c={photo.status === 'failed' ? 'red' : 'dimmed'}>
                  {photo.status === 'failed'
                    ? t('album.grid.failed')
                    : photo.media_type === 'video'
                      ? t('album.grid.video')
                      : name}
                </Text>
              )}
            </Center>
          )}
        </button>
        <Checkbox
          aria-label={t('album.grid.select', { name })}
          checked={selected}
          onChange={() => undefined}
          onClick={(event) => onSelect(photo.id, { shift: event.shiftKey, toggle: true })}
          pos="absolute"
          top={6}
          left={6}
          size="md"
        />
        <Group pos="absolute" bottom={6} left={6} gap={4}>
          {hidden && (
            <Badge color="dark" size="sm">
              {t('album.grid.hidden')}
            </Badge>
          )}
          {photo.is_curated === 1 && (
            <Badge color="yellow" size="sm" data-testid="curated-badge">
              {t('album.grid.curated')}
            </Badge>
          )}
          {photo.original_photo_id !== null && (
            <Badge
              color="indigo"
              size="sm"
              title={t('album.grid.editedOf', { id: photo.original_photo_id })}
            >
              {t('album.grid.edited')}
            </Badge>
          )}
        </Group>
        <ActionIcon
          pos="absolute"
          top={6}
          right={6}
          variant="white"
          color="dark"
          aria-label={visibilityLabel}
          title={visibilityLabel}
          onClick={() => onToggleVisibility(photo)}
        >
          <Icon name={hidden ? 'eyeOff' : 'eye'} size={icon.console} />
        </ActionIcon>
      </Box>
      <Text size="xs" truncate="end" h={CAPTION_HEIGHT} lh={`${CAPTION_HEIGHT}px`} title={name}>
        {name}
      </Text>
    </Box>
  );
});
