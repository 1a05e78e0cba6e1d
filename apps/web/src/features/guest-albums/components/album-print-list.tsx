import { useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { publicPrintWithQueue } from '@flashbulb/shared/api/printing';
import { showPrintImageList } from '@flashbulb/shared/rules/kiosk';
import { callApi, errorKeyOf } from '../../../lib/api-client.ts';
import { useErrorText } from '../../../lib/error-text.ts';
import type { AlbumEvent } from '../api/album-event.ts';
import type { AlbumKey } from '../api/guest-album-photos.ts';
import type { TileAction } from './guest-photo-grid.tsx';
import { PrintListThumbs } from './print-list-thumbs.tsx';

/** The printing fields a private or event-owner key reads (PRIVATE_EVENT_FIELDS). */
interface PrintingFields {
  is_photo_printer_active: number;
  print_from_all_albums: number;
  is_printer_pool_enabled: number;
  printer_pool_name_list: string[] | null;
  max_print_photos_count: number | null;
}

const printingOf = (event: AlbumEvent | null | undefined): PrintingFields | null =>
  event && 'is_photo_printer_active' in event ? event : null;

/**
 * The print image list on an album page outside a kiosk (albums §4; the kiosk has its own in
 * kiosk-album-tools.tsx). Only keys that may print have it: the private album (`pvId`) and the
 * owner's curation page (`eId`, the owner-album type). §4's rule decides whether it is shown:
 * hidden when not an owner album and `printFromAllAlbums` is 1 (the query parameter, else the
 * event's setting), or when not an owner album and the event has more than one printer pool.
 * The owner's page with several pools picks one. "Print" on a tile adds the photo; the list is
 * sent with `/photo/print-with-queue` once per request id.
 */
export function useAlbumPrintList(input: {
  albumKey: AlbumKey;
  event: AlbumEvent | null | undefined;
  kiosk: boolean;
  curation: boolean;
}): { tileActions: TileAction[]; panel: ReactNode } {
  const { albumKey, event, kiosk, curation } = input;
  const { t } = useTranslation();
  const errorText = useErrorText();
  const [list, setList] = useState<readonly Photo[]>([]);
  const [pool, setPool] = useState('');
  const [sending, setSending] = useState(false);
  const [note, setNote] = useState<{ ok: boolean; text: string } | null>(null);

  const printing = printingOf(event);
  const pools =
    printing?.is_printer_pool_enabled === 1
      ? [...new Set(printing.printer_pool_name_list ?? [])]
      : [];
  const printFromAllAlbums = Number(
    new URLSearchParams(window.location.search).get('printFromAllAlbums') ??
      printing?.print_from_all_albums ??
      0,
  );
  const keyMayPrint = albumKey.keyType === 'private' || albumKey.keyType === 'event_owner';
  const shown =
    !kiosk &&
    keyMayPrint &&
    printing?.is_photo_printer_active === 1 &&
    showPrintImageList({
      kioskMode: false,
      ownerAlbum: curation,
      printFromAllAlbums,
      printerPoolCount: pools.length,
    });
  const max = printing?.max_print_photos_count || 20;
  const chosenPool = pools.length > 1 ? pool : (pools[0] ?? '');

  const tileActions = useMemo(
    (): TileAction[] =>
      shown
        ? [
            {
              label: (photo) =>
                list.some((p) => p.uid === photo.uid)
                  ? t('albums.kiosk.print.inList')
                  : t('albums.kiosk.print.add'),
              pressed: (photo) => list.some((p) => p.uid === photo.uid),
              run: (photo) => {
                setNote(null);
                setList((current) =>
                  current.length >= max || current.some((p) => p.uid === photo.uid)
                    ? current
                    : [...current, photo],
                );
              },
            },
          ]
        : [],
    [shown, list, max, t],
  );

  const send = async () => {
    const uids = list.map((p) => p.uid);
    setSending(true);
    setNote(null);
    try {
      const result = await callApi(publicPrintWithQueue, {
        key_type: albumKey.keyType,
        key_value: albumKey.keyValue,
        printable_photo_uid_array: uids,
        printing_count: 1,
        ...(chosenPool ? { printer_pool_name: chosenPool } : {}),
        client_request_id: crypto.randomUUID(),
      });
      setList([]);
      setNote({
        ok: true,
        text: t('albums.kiosk.print.sent', { count: uids.length, pool: result.printer_pool_name }),
      });
    } catch (error) {
      setNote({ ok: false, text: errorText(errorKeyOf(error)) });
    } finally {
      setSending(false);
    }
  };

  const panel = shown ? (
    <section className="kiosk-print-list" aria-label={t('albums.kiosk.print.title')}>
      <h2>{t('albums.kiosk.print.title')}</h2>
      {pools.length > 1 && (
        <label className="album-print-pool">
          {t('albums.kiosk.printPool')}{' '}
          <select value={pool} onChange={(e) => setPool(e.target.value)}>
            <option value="">{t('albums.kiosk.noneSelected')}</option>
            {pools.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
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
      {note && (
        <p className={note.ok ? 'albums-toast' : 'albums-note'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      )}
    </section>
  ) : null;
  return { tileActions, panel };
}
