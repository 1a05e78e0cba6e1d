import { useState, type Dispatch, type SetStateAction } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { publicPrintWithQueue } from '@flashbulb/shared/api/printing/printing';
import { callApi, errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { AlbumKey } from '../../../shared/api/guest-album-photos.ts';
import { kioskKeyFields } from '../../../shared/api/kiosk-key.ts';
import { PrintListThumbs } from '../../../shared/components/print-list-thumbs.tsx';
import { PrinterPoolOptions } from '../../../shared/components/printer-pool-options.tsx';

/**
 * The print image list's panel on a private or owner album (albums §4, see `useAlbumPrintList`):
 * the pool when the event has several, the chosen photos, and "Print" sending the list with
 * `/photo/print-with-queue` once per request id.
 */
export function AlbumPrintPanel({
  albumKey,
  list,
  setList,
  max,
  pools,
}: {
  albumKey: AlbumKey;
  list: readonly Photo[];
  setList: Dispatch<SetStateAction<readonly Photo[]>>;
  max: number;
  pools: readonly string[];
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [pool, setPool] = useState('');
  const [sending, setSending] = useState(false);
  // A note belongs to the list it was written for: adding a photo (a new list) hides it.
  const [note, setNote] = useState<{
    ok: boolean;
    text: string;
    list: readonly Photo[];
  } | null>(null);
  const chosenPool = pools.length > 1 ? pool : (pools[0] ?? '');

  const send = async () => {
    const uids = list.map((p) => p.uid);
    setSending(true);
    setNote(null);
    try {
      const result = await callApi(publicPrintWithQueue, {
        ...kioskKeyFields(albumKey.keyValue),
        printable_photo_uid_array: uids,
        printing_count: 1,
        ...(chosenPool ? { printer_pool_name: chosenPool } : {}),
        client_request_id: crypto.randomUUID(),
      });
      const emptied: readonly Photo[] = [];
      setList(emptied);
      setNote({
        list: emptied,
        ok: true,
        text: t('albums.kiosk.print.sent', { count: uids.length, pool: result.printer_pool_name }),
      });
    } catch (error) {
      setNote({ ok: false, text: errorText(errorKeyOf(error)), list });
    } finally {
      setSending(false);
    }
  };

  return (
    <section className="kiosk-print-list" aria-label={t('albums.kiosk.print.title')}>
      <h2>{t('albums.kiosk.print.title')}</h2>
      {pools.length > 1 && (
        <label className="album-print-pool">
          {t('albums.kiosk.printPool')}{' '}
          <select value={pool} onChange={(e) => setPool(e.target.value)}>
            <PrinterPoolOptions pools={pools} />
          </select>
        </label>
      )}
      <PrintListThumbs
        list={list}
        max={max}
        onRemove={(uid) => setList((current) => current.filter((p) => p.uid !== uid))}
      />
      <button
        type="button"
        className="fb-button--primary kiosk-print-go"
        disabled={list.length === 0 || sending || (pools.length > 1 && !pool)}
        onClick={() => void send()}
      >
        {sending
          ? t('albums.kiosk.print.sending')
          : t('albums.kiosk.print.go', { count: list.length })}
      </button>
      {note?.list === list && (
        <p className={note.ok ? 'albums-toast' : 'albums-note'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      )}
    </section>
  );
}
