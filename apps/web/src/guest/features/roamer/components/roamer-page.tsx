import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PHOTO_EXTENSIONS } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import { uploadPhoto } from '../../../../lib/uploads/upload-photo.ts';
import type { UploadFailure, UploadItem } from '../../../../lib/uploads/upload-queue.ts';
import { useAlbumEvent } from '../../../shared/api/album-event.ts';
import { AlbumState } from '../../../shared/components/album-states.tsx';
import { Icon } from '../../../shared/components/icons.tsx';
import { UploadList } from '../../../shared/components/upload-list.tsx';
import { useUploadQueue } from '../../../shared/hooks/use-upload-queue.ts';

/** The phone's camera and library (image/*, video/*) and every extension the server takes. */
const ACCEPT = ['image/*', 'video/*', ...PHOTO_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

/** Keeps the key in the address (a reload, or the link saved to the home screen, keeps it). */
const rememberKey = (key: string) => {
  const url = new URL(window.location.href);
  url.searchParams.set('eventKey', key);
  window.history.replaceState(null, '', url);
};

/**
 * The roamer page (albums spec §2.1, `?roamer[&eventKey=…]`): a roaming photographer's phone
 * page. The event's owner key (the link in the event's Links) opens the event; photos taken or
 * chosen on the phone go into its album through the robot's upload path — grant, direct POST to
 * storage with progress, completion — two at a time, each retried on request when it fails.
 * Without a key in the link the page asks for it.
 */
export default function RoamerPage({ eventKey }: { eventKey: string | null }) {
  const { t } = useTranslation();
  const [key, setKey] = useState(eventKey?.trim() ?? '');
  const [typed, setTyped] = useState('');
  const inputId = useId();
  const event = useAlbumEvent({ keyType: 'event_owner', keyValue: key }, null, key !== '');

  const open = (submitted: FormEvent) => {
    submitted.preventDefault();
    const value = typed.trim();
    if (!value) return;
    rememberKey(value);
    setKey(value);
  };

  if (!key)
    return (
      <main className="albums-main roamer">
        <header className="roamer-header">
          <h1 className="albums-cover-title">{t('albums.roamer.title')}</h1>
          <p className="albums-cover-meta">{t('albums.roamer.askKey')}</p>
        </header>
        <form className="roamer-key-form" onSubmit={open}>
          <label htmlFor={inputId}>{t('albums.roamer.keyLabel')}</label>
          <input
            id={inputId}
            value={typed}
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            onChange={(changed) => setTyped(changed.target.value)}
          />
          <button type="submit" className="fb-button--primary" disabled={!typed.trim()}>
            {t('albums.roamer.open')}
          </button>
        </form>
      </main>
    );
  if (event.isPending) return <main className="albums-main roamer" aria-busy="true" />;
  if (event.isError || !event.data)
    return (
      <main className="albums-main roamer">
        <AlbumState icon="alert" title={t('albums.roamer.badKeyTitle')} role="alert">
          <p>{t('albums.roamer.badKeyText')}</p>
        </AlbumState>
      </main>
    );
  return <RoamerUploads eventKey={key} event={event.data} />;
}

function RoamerUploads({
  eventKey,
  event,
}: {
  eventKey: string;
  event: { name: string; full_name?: string | null; logo_full_path?: string | null };
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const { queue, items, refused } = useUploadQueue(
    { eventKey, eventName: event.name },
    async (file, step, context) => {
      await uploadPhoto(file, step, context.eventName, {
        key_type: 'event_owner',
        key_value: context.eventKey,
      });
    },
  );
  const sent = items.filter((item) => item.status === 'done').length;
  const failed = items.filter((item) => item.status === 'failed').length;
  const failureText = (failure: UploadFailure | undefined) =>
    !failure
      ? ''
      : failure.kind === 'api'
        ? errorText(failure.key)
        : t('albums.roamer.storageFailed', { code: failure.code });
  const statusText = (item: UploadItem) =>
    item.status === 'uploading'
      ? t('albums.roamer.status.uploading', { percent: Math.round(item.progress * 100) })
      : t(`albums.roamer.status.${item.status}`);

  return (
    <main className="albums-main roamer">
      <header className="roamer-header">
        {event.logo_full_path ? (
          <img className="albums-cover-logo" src={event.logo_full_path} alt="" />
        ) : null}
        <h1 className="albums-cover-title">{event.full_name || event.name}</h1>
        <p className="albums-cover-meta">{t('albums.roamer.intro')}</p>
      </header>
      <label className="fb-button fb-button--primary roamer-add">
        <Icon name="image" />
        <span>{t('albums.roamer.add')}</span>
        <input
          type="file"
          accept={ACCEPT}
          multiple
          className="roamer-file"
          onChange={(changed) => {
            const files = Array.from(changed.target.files ?? []);
            changed.target.value = '';
            if (files.length) queue.add(files);
          }}
        />
      </label>
      {items.length > 0 && (
        <p className="roamer-summary" role="status">
          {t('albums.roamer.summary', { sent, total: items.length })}
          {failed > 0 ? ` · ${t('albums.roamer.failedCount', { count: failed })}` : ''}
        </p>
      )}
      {refused.length > 0 && (
        <p className="albums-note" role="alert">
          {t('albums.roamer.refused', { names: refused.join(', ') })}
        </p>
      )}
      {items.length === 0 ? (
        <p className="roamer-empty">{t('albums.roamer.empty')}</p>
      ) : (
        <UploadList
          items={items}
          statusText={statusText}
          failureText={failureText}
          retryLabel={t('albums.roamer.retry')}
          onRetry={(id) => queue.retry(id)}
        />
      )}
      {sent > 0 && (
        <button type="button" onClick={() => queue.clearFinished()}>
          {t('albums.roamer.clear')}
        </button>
      )}
    </main>
  );
}
