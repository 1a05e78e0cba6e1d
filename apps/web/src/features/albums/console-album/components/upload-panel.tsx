import { useRef, useState } from 'react';
import {
  Alert,
  Button,
  Card,
  CloseButton,
  Group,
  List,
  Progress,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PHOTO_EXTENSIONS } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import type {
  UploadFailure,
  UploadItem,
  UploadSnapshot,
} from '../../../../lib/uploads/upload-queue.ts';

const ACCEPT = PHOTO_EXTENSIONS.map((ext) => `.${ext}`).join(',');

function FailureText({ failure }: { failure: UploadFailure }) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  return (
    <Text size="xs" c="red" role="alert">
      {failure.kind === 'api'
        ? errorText(failure.key)
        : t('album.upload.storageError', { code: failure.code, message: failure.message })}
    </Text>
  );
}

function UploadRow({ item, onRetry }: { item: UploadItem; onRetry: (id: number) => void }) {
  const { t } = useTranslation();
  const name = item.file.name;
  return (
    <Stack gap={4} data-testid="upload-item">
      <Group justify="space-between" wrap="nowrap" gap="xs">
        <Text size="sm" truncate="end">
          {name}
        </Text>
        <Group gap="xs" wrap="nowrap">
          <Text size="xs" c={item.status === 'failed' ? 'red' : 'dimmed'}>
            {t(`album.upload.status.${item.status}`)}
          </Text>
          {item.status === 'failed' && (
            <Button
              size="compact-xs"
              variant="light"
              onClick={() => onRetry(item.id)}
              aria-label={t('album.upload.retry', { name })}
            >
              ↻
            </Button>
          )}
        </Group>
      </Group>
      <Progress
        value={Math.round(item.progress * 100)}
        color={item.status === 'failed' ? 'red' : item.status === 'done' ? 'green' : 'indigo'}
        size="sm"
        aria-label={t('album.upload.progress', { name })}
        animated={item.status === 'uploading'}
      />
      {item.failure && <FailureText failure={item.failure} />}
    </Stack>
  );
}

/**
 * Upload from the console: a drop zone and a file picker; refused files are listed with the
 * spec's unsupported-format text; each accepted file has its progress and, on failure, a retry.
 */
export function UploadPanel({
  snapshot,
  onFiles,
  onRetry,
  onClearFinished,
  onClose,
}: {
  snapshot: UploadSnapshot;
  onFiles: (files: File[]) => void;
  onRetry: (id: number) => void;
  onClearFinished: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const input = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { items, refused } = snapshot;
  const done = items.filter((item) => item.status === 'done').length;
  const active = items.some((item) => item.status !== 'done' && item.status !== 'failed');

  return (
    <Card withBorder component="section" aria-labelledby="album-upload-title" padding="sm">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3} size="h5" id="album-upload-title">
            {t('album.upload.title')}
          </Title>
          <CloseButton aria-label={t('album.upload.close')} onClick={onClose} disabled={active} />
        </Group>
        <div
          data-testid="upload-drop-zone"
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={(event) => {
            event.preventDefault();
            setDragging(false);
            onFiles([...event.dataTransfer.files]);
          }}
          style={{
            border: `2px dashed var(--mantine-color-${dragging ? 'indigo-6' : 'gray-4'})`,
            borderRadius: 8,
            padding: 24,
            textAlign: 'center',
            background: dragging ? 'var(--mantine-color-indigo-0)' : undefined,
          }}
        >
          <Stack align="center" gap="xs">
            <Text size="sm">{t('album.upload.drop')}</Text>
            <Button variant="light" onClick={() => input.current?.click()}>
              {t('album.upload.choose')}
            </Button>
            <input
              ref={input}
              type="file"
              multiple
              accept={ACCEPT}
              aria-label={t('album.upload.choose')}
              style={{ display: 'none' }}
              onChange={(event) => {
                onFiles([...(event.currentTarget.files ?? [])]);
                event.currentTarget.value = '';
              }}
            />
          </Stack>
        </div>
        {refused.length > 0 && (
          <Alert color="red" role="alert" title={errorText('unsupported_picture_format')}>
            <Text size="sm">{t('album.upload.refused')}</Text>
            <List size="sm">
              {refused.map((name) => (
                <List.Item key={name}>{name}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {items.length > 0 && (
          <>
            <Group justify="space-between">
              <Text size="sm" aria-live="polite">
                {t('album.upload.summary', { done, count: items.length })}
              </Text>
              <Button size="xs" variant="subtle" onClick={onClearFinished}>
                {t('album.upload.clear')}
              </Button>
            </Group>
            <Stack gap="xs" mah={260} style={{ overflowY: 'auto' }}>
              {items.map((item) => (
                <UploadRow key={item.id} item={item} onRetry={onRetry} />
              ))}
            </Stack>
          </>
        )}
      </Stack>
    </Card>
  );
}
