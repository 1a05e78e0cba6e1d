import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { GuestPhoto as Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import type { printAtKiosk } from '../../../shared/api/kiosk-actions.ts';
import { enqueueKioskAction } from '../../../shared/kiosk/kiosk-outbox-actions.ts';

type PrintResult = Awaited<ReturnType<typeof printAtKiosk>>;
import { useThrottled } from '../hooks/use-kiosk-session.ts';
import type { TileAction } from '../../../shared/components/guest-photo-grid.tsx';
import { useKiosk } from '../../../shared/kiosk/kiosk-context.tsx';
import { KioskDeleteConfirm } from './kiosk-screen.tsx';
import { PrintListThumbs } from '../../../shared/components/print-list-thumbs.tsx';

type Note = { ok: boolean; text: string };

/**
 * The kiosk's tools on a guest's album (albums §4, §6): "Delete" on each photo where the kiosk
 * allows it (Keep/Delete, then `/photo/kiosk-delete`, recorded as deleted at the kiosk), and the
 * print image list where §4's display rule shows it ("Print" on each photo, then the list is
 * printed on the stories print pool). Both go through the kiosk's outbox. Outside a kiosk session
 * nothing is added. `onDeleted` reloads the album.
 */
export function useKioskAlbumTools(onDeleted: () => void): {
  tileActions: TileAction[];
  panels: ReactNode;
} {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const kiosk = useKiosk();
  const [target, setTarget] = useState<Photo | null>(null);
  const [printList, setPrintList] = useState<readonly Photo[]>([]);
  const [printing, setPrinting] = useState(false);
  const [note, setNote] = useState<Note | null>(null);
  const failed = useCallback(
    (error: unknown) => setNote({ ok: false, text: errorText(errorKeyOf(error)) }),
    [errorText],
  );

  const canDelete = !!kiosk?.deleteAllowed && !!kiosk.kioskKey && !!kiosk.attendeeUid;
  const canPrint = !!kiosk?.printListShown;
  const maxPrint = kiosk?.maxPrintPhotos ?? 0;

  const remove = useThrottled(() => {
    if (!kiosk?.kioskKey || !kiosk.attendeeUid || !target) return;
    const { kioskKey, attendeeUid, outbox } = kiosk;
    const photo = target;
    setTarget(null);
    setNote(null);
    enqueueKioskAction(outbox, 'delete', {
      kioskKey,
      attendeeId: attendeeUid,
      photoUid: photo.uid,
    }).then(() => {
      setPrintList((list) => list.filter((p) => p.uid !== photo.uid));
      setNote({ ok: true, text: t('albums.kiosk.deleted', { name: photo.file_name }) });
      onDeleted();
    }, failed);
  });

  const send = (story: boolean) => {
    if (!kiosk?.kioskKey || !kiosk.attendeeUid || printList.length === 0) return;
    const { kioskKey, attendeeUid, outbox, printPool } = kiosk;
    const uids = printList.map((p) => p.uid);
    setPrinting(true);
    setNote(null);
    // The stored action's id is the print request's: a retry after a lost answer (or a reload)
    // queues nothing more.
    enqueueKioskAction<'print' | 'print-story', PrintResult>(
      outbox,
      story ? 'print-story' : 'print',
      {
        kioskKey,
        attendeeId: attendeeUid,
        photoUids: uids,
        pool: printPool,
      },
    )
      .then((result) => {
        setPrintList([]);
        setNote({
          ok: true,
          text: story
            ? t('albums.kiosk.print.storySent', { pool: result.printer_pool_name })
            : t('albums.kiosk.print.sent', {
                count: uids.length,
                pool: result.printer_pool_name,
              }),
        });
      }, failed)
      .finally(() => setPrinting(false));
  };
  const print = useThrottled(() => send(false));
  const printStory = useThrottled(() => send(true));

  const tileActions = useMemo((): TileAction[] => {
    const actions: TileAction[] = [];
    if (canPrint)
      actions.push({
        label: (photo) =>
          printList.some((p) => p.uid === photo.uid)
            ? t('albums.kiosk.print.inList')
            : t('albums.kiosk.print.add'),
        pressed: (photo) => printList.some((p) => p.uid === photo.uid),
        run: (photo) => {
          setNote(null);
          setPrintList((list) =>
            list.length >= maxPrint || list.some((p) => p.uid === photo.uid)
              ? list
              : [...list, photo],
          );
        },
      });
    if (canDelete)
      actions.push({
        label: () => t('albums.kiosk.deletePhoto'),
        run: (photo) => setTarget(photo),
      });
    return actions;
  }, [canPrint, canDelete, printList, maxPrint, t]);

  const panels = (
    <>
      {canPrint && (
        <section
          className="kiosk-print-list"
          aria-label={t('albums.kiosk.print.title')}
          data-kiosk-print-list
        >
          <h2>{t('albums.kiosk.print.title')}</h2>
          <PrintListThumbs
            list={printList}
            max={maxPrint}
            onRemove={(uid) => setPrintList((current) => current.filter((p) => p.uid !== uid))}
          />
          <button
            type="button"
            className="fb-button--primary kiosk-print-go"
            disabled={printList.length === 0 || printing}
            onClick={print}
          >
            {printing
              ? t('albums.kiosk.print.sending')
              : t('albums.kiosk.print.go', { count: printList.length })}
          </button>
          {printList.length >= 2 && (
            <button
              type="button"
              className="fb-button kiosk-print-go"
              disabled={printing}
              onClick={printStory}
            >
              {t('albums.kiosk.print.story', { count: printList.length })}
            </button>
          )}
        </section>
      )}
      {note && (
        <p className={note.ok ? 'albums-toast' : 'albums-note'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
        </p>
      )}
      {target && (
        <KioskDeleteConfirm
          photoName={target.file_name}
          onKeep={() => setTarget(null)}
          onDelete={remove}
        />
      )}
    </>
  );
  return { tileActions, panels };
}
