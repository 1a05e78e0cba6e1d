import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { GUEST_UPLOAD_EXTENSIONS, guestUploadError } from '@flashbulb/shared';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  uploadGuestPhoto,
  type GuestUploadKey,
  type GuestUploadOutcome,
} from '../../../../lib/uploads/upload-guest-photo.ts';
import type { UploadFailure, UploadItem } from '../../../../lib/uploads/upload-queue.ts';
import { UploadList } from '../../../shared/components/upload-list.tsx';
import { useUploadQueue } from '../../../shared/hooks/use-upload-queue.ts';
import { Icon } from '../../../shared/components/icons.tsx';

/** The phone's camera and library, and the picture types guests may add. */
const ACCEPT = ['image/*', ...GUEST_UPLOAD_EXTENSIONS.map((ext) => `.${ext}`)].join(',');

interface Context {
  eventName: string;
  uploadKey: GuestUploadKey;
  onOutcome: (file: File, outcome: GuestUploadOutcome) => void;
}

/**
 * "Add your photos" on a guest album (the public album's link while the event takes guests'
 * photos, an attendee's own album while it takes attendees'): pick or take photos, see each with
 * its picture and progress, try a failed one again; photos held for the organiser's review say so.
 */
export function GuestUploadPanel({
  eventName,
  uploadKey,
  inEventAlbum,
  onClose,
}: {
  eventName: string;
  uploadKey: GuestUploadKey;
  /** The event shows guests' photos in its album (else only in the uploader's own). */
  inEventAlbum: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [outcomes, setOutcomes] = useState<ReadonlyMap<File, GuestUploadOutcome>>(new Map());
  const [refused, setRefused] = useState<string[]>([]);
  const { queue, items } = useUploadQueue<Context>(
    {
      eventName,
      uploadKey,
      onOutcome: (file, outcome) => setOutcomes((old) => new Map(old).set(file, outcome)),
    },
    async (file, step, context) => {
      context.onOutcome(
        file,
        await uploadGuestPhoto(file, step, context.eventName, context.uploadKey),
      );
    },
  );
  const held = items.some(
    (item) => item.status === 'done' && outcomes.get(item.file)?.heldForReview,
  );
  const added = items.some(
    (item) => item.status === 'done' && outcomes.get(item.file)?.heldForReview === false,
  );
  const failureText = (failure: UploadFailure | undefined) =>
    !failure
      ? ''
      : failure.kind === 'api'
        ? errorText(failure.key)
        : t('albums.guestUpload.storageFailed', { code: failure.code });
  const statusText = (item: UploadItem) =>
    item.status === 'uploading'
      ? t('albums.guestUpload.status.uploading', { percent: Math.round(item.progress * 100) })
      : item.status === 'done' && outcomes.get(item.file)?.heldForReview
        ? t('albums.guestUpload.status.held')
        : t(`albums.guestUpload.status.${item.status}`);

  return (
    <section className="albums-panel guest-upload" aria-label={t('albums.guestUpload.title')}>
      <div className="guest-upload-head">
        <h2 className="guest-upload-title">{t('albums.guestUpload.title')}</h2>
        <button type="button" className="guest-upload-close" onClick={onClose}>
          {t('albums.guestUpload.close')}
        </button>
      </div>
      <p className="albums-note">
        {inEventAlbum ? t('albums.guestUpload.introPublic') : t('albums.guestUpload.introPrivate')}
      </p>
      <label className="fb-button fb-button--primary guest-upload-pick">
        <Icon name="image" />
        <span>{t('albums.guestUpload.pick')}</span>
        <input
          type="file"
          accept={ACCEPT}
          multiple
          className="guest-upload-file"
          aria-label={t('albums.guestUpload.pick')}
          onChange={(changed) => {
            const files = Array.from(changed.target.files ?? []);
            changed.target.value = '';
            const ok = files.filter((file) => guestUploadError(file.name, null) === null);
            setRefused(files.filter((file) => !ok.includes(file)).map((file) => file.name));
            if (ok.length) queue.add(ok);
          }}
        />
      </label>
      {refused.length > 0 && (
        <p className="albums-note guest-upload-refused" role="alert">
          {t('albums.guestUpload.refused', { names: refused.join(', ') })}
        </p>
      )}
      {items.length === 0 ? (
        <p className="guest-upload-empty">{t('albums.guestUpload.empty')}</p>
      ) : (
        <UploadList
          items={items}
          statusText={statusText}
          failureText={failureText}
          retryLabel={t('albums.guestUpload.retry')}
          onRetry={(id) => queue.retry(id)}
          previews
        />
      )}
      {held && (
        <p className="guest-upload-notice" role="status">
          {t('albums.guestUpload.held')}
        </p>
      )}
      {added && !held && (
        <p className="guest-upload-notice" role="status">
          {inEventAlbum
            ? t('albums.guestUpload.addedPublic')
            : t('albums.guestUpload.addedPrivate')}
        </p>
      )}
    </section>
  );
}
