import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Progress, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { ownerAlbumDownload } from '@flashbulb/shared/api/albums/albums';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { downloadZip, type ZipProgress } from '../../../../lib/zip-download.ts';
import { toPhotoListFields, type AlbumFilter } from '../utils/album-filter.ts';

type Phase =
  | { kind: 'idle' }
  | { kind: 'running'; progress: ZipProgress | null; count: number }
  | { kind: 'done'; held: boolean; count: number }
  | { kind: 'mailed'; count: number }
  | { kind: 'failed'; text: string };

const megabytes = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

/**
 * The console album's "Download": the photos its filters (the hash) show, as originals in one zip
 * the server streams, with the bytes received of its length; a large album's zip is built by a
 * job and its link mailed to the operator.
 */
export function useAlbumDownload(eventId: number | undefined, filter: AlbumFilter) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    if (eventId === undefined) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'running', progress: null, count: 0 });
    try {
      const created = await callApi(ownerAlbumDownload, {
        event_id: eventId,
        ...toPhotoListFields(filter, new Date()),
      });
      const count = created.photo_count;
      if (created.mailed === 1 || !created.url) {
        setPhase({ kind: 'mailed', count });
        return;
      }
      setPhase({ kind: 'running', progress: null, count });
      const held = await downloadZip(
        created.url,
        (progress) => setPhase({ kind: 'running', progress, count }),
        controller.signal,
      );
      setPhase({ kind: 'done', held, count });
    } catch (error) {
      if (controller.signal.aborted) return;
      setPhase({ kind: 'failed', text: errorText(errorKeyOf(error)) });
    }
  };

  const running = phase.kind === 'running';
  const button = (
    <Button variant="default" loading={running} onClick={() => void start()}>
      {t('album.download.button')}
    </Button>
  );
  const progress = running ? phase.progress : null;
  const status =
    phase.kind === 'running' ? (
      <div role="status">
        <Progress
          value={progress?.total ? (100 * progress.received) / progress.total : 0}
          animated={!progress?.total}
          aria-label={t('album.download.progressLabel')}
        />
        <Text size="sm" c="dimmed">
          {progress?.total
            ? t('album.download.progress', {
                received: megabytes(progress.received),
                total: megabytes(progress.total),
              })
            : t('album.download.preparing')}
        </Text>
      </div>
    ) : phase.kind === 'done' ? (
      <Alert color="green" role="status" withCloseButton onClose={() => setPhase({ kind: 'idle' })}>
        {phase.held
          ? t('album.download.done', { count: phase.count })
          : t('album.download.byBrowser')}
      </Alert>
    ) : phase.kind === 'mailed' ? (
      <Alert color="blue" role="status" withCloseButton onClose={() => setPhase({ kind: 'idle' })}>
        {t('album.download.mailed', { count: phase.count })}
      </Alert>
    ) : phase.kind === 'failed' ? (
      <Alert color="red" role="alert" withCloseButton onClose={() => setPhase({ kind: 'idle' })}>
        {phase.text}
      </Alert>
    ) : null;
  return { button, status };
}
