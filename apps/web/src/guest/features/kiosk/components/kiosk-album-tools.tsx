import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney, type GuestPhoto as Photo } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import type { printAtKiosk } from '../../../shared/api/kiosk-actions.ts';
import { enqueueKioskAction } from '../../../shared/kiosk/kiosk-outbox-actions.ts';
import { useThrottled } from '../hooks/use-kiosk-session.ts';
import type { TileAction } from '../../../shared/components/guest-photo-grid.tsx';
import { useKiosk } from '../../../shared/kiosk/kiosk-context.tsx';
import { KioskDeleteConfirm } from './kiosk-screen.tsx';
import { KioskQuestion } from './kiosk-confirm.tsx';
import { PrintListThumbs } from '../../../shared/components/print-list-thumbs.tsx';
import { AlbumLinkQr } from '../../../shared/components/album-link-qr.tsx';
import {
  checkKioskPayment,
  startKioskPrintsPayment,
  usePricingButtons,
} from '../../../shared/api/album-payments.ts';

type PrintResult = Awaited<ReturnType<typeof printAtKiosk>>;

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
  /** Where the kiosk prints: puts these photos (the favourites) in the print list in one step. */
  printPhotos: ((photos: readonly Photo[]) => void) | undefined;
} {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const kiosk = useKiosk();
  const [target, setTarget] = useState<Photo | null>(null);
  const [printList, setPrintList] = useState<readonly Photo[]>([]);
  const [printing, setPrinting] = useState(false);
  // The operator's question before printing, open for the print (or the story) asked for.
  const [confirming, setConfirming] = useState<'print' | 'story' | null>(null);
  const [note, setNote] = useState<Note | null>(null);
  const [printedNote, setPrintedNote] = useState<string | null>(null);
  const confirmText = kiosk?.printTexts?.confirm ?? '';
  const failed = useCallback(
    (error: unknown) => setNote({ ok: false, text: errorText(errorKeyOf(error)) }),
    [errorText],
  );

  const canDelete = !!kiosk?.deleteAllowed && !!kiosk.kioskKey && !!kiosk.attendeeUid;
  const canPrint = !!kiosk?.printListShown;
  const maxPrint = kiosk?.maxPrintPhotos ?? 0;
  // Read here, not in the offer: "Print" turns off in the same render as the offer's words.
  const allowance = usePrintAllowance(
    canPrint ? (kiosk?.kioskKey ?? null) : null,
    kiosk?.attendeeUid ?? null,
    printList,
  );
  const { mayPrint } = allowance;

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
    setPrintedNote(null);
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
        // The operator's "printing…" confirmation, under ours.
        setPrintedNote(kiosk.printTexts?.confirmation || null);
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
  // With the operator's confirm message, the guest is asked first; without, it prints at once.
  const ask = (story: boolean) => {
    if (!confirmText) {
      if (story) printStory();
      else print();
      return;
    }
    setNote(null);
    setPrintedNote(null);
    setConfirming(story ? 'story' : 'print');
  };
  const confirmed = () => {
    const story = confirming === 'story';
    setConfirming(null);
    if (story) printStory();
    else print();
  };

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

  // The favourites in one step: the print list becomes them (the first the list may hold), and
  // the list's Print button (its price, its confirm question) takes the guest's eye.
  const printButton = useRef<HTMLButtonElement>(null);
  const printPhotos = useMemo(
    () =>
      canPrint
        ? (photos: readonly Photo[]) => {
            setNote(
              photos.length > maxPrint
                ? { ok: true, text: t('albums.favourites.printTrimmed', { max: maxPrint }) }
                : null,
            );
            setPrintedNote(null);
            setPrintList(photos.slice(0, maxPrint));
            window.requestAnimationFrame(() => {
              printButton.current?.scrollIntoView?.({ block: 'center' });
              printButton.current?.focus();
            });
          }
        : undefined,
    [canPrint, maxPrint, t],
  );

  const panels = (
    <>
      {canPrint && (
        <section
          className="kiosk-print-list"
          aria-label={t('albums.kiosk.print.title')}
          data-kiosk-print-list
        >
          <h2>{t('albums.kiosk.print.title')}</h2>
          {kiosk?.printTexts?.header && (
            <p className="kiosk-print-text" data-kiosk-print-header>
              {kiosk.printTexts.header}
            </p>
          )}
          <PrintListThumbs
            list={printList}
            max={maxPrint}
            onRemove={(uid) => setPrintList((current) => current.filter((p) => p.uid !== uid))}
          />
          {kiosk?.kioskKey && kiosk.attendeeUid && (
            <KioskPrintOffer
              kioskKey={kiosk.kioskKey}
              attendeeUid={kiosk.attendeeUid}
              list={printList}
              allowance={allowance}
            />
          )}
          <button
            ref={printButton}
            type="button"
            className="fb-button--primary kiosk-print-go"
            disabled={printList.length === 0 || printing || !mayPrint}
            onClick={() => ask(false)}
          >
            {printing
              ? t('albums.kiosk.print.sending')
              : t('albums.kiosk.print.go', { count: printList.length })}
          </button>
          {printList.length >= 2 && (
            <button
              type="button"
              className="fb-button kiosk-print-go"
              disabled={printing || !mayPrint}
              onClick={() => ask(true)}
            >
              {t('albums.kiosk.print.story', { count: printList.length })}
            </button>
          )}
          {kiosk?.printTexts?.footer && (
            <p className="kiosk-print-text" data-kiosk-print-footer>
              {kiosk.printTexts.footer}
            </p>
          )}
        </section>
      )}
      {note && (
        <p className={note.ok ? 'albums-toast' : 'albums-note'} role={note.ok ? 'status' : 'alert'}>
          {note.text}
          {note.ok && printedNote && (
            <span className="kiosk-print-confirmation">{printedNote}</span>
          )}
        </p>
      )}
      {confirming && (
        <KioskPrintConfirm
          message={confirmText}
          onCancel={() => setConfirming(null)}
          onPrint={confirmed}
        />
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
  return { tileActions, panels, printPhotos };
}

type Sale =
  | { kind: 'idle' }
  | { kind: 'starting' }
  | { kind: 'paying'; paymentId: string; url: string }
  | { kind: 'paid' }
  | { kind: 'failed'; text: string };

/**
 * Whether the server would print `list` at this kiosk: free prints, or enough paid prints left,
 * from the kiosk's pricing buttons for that many photos (asked only with a kiosk key and an
 * attendee). Until the server answered, the print call itself decides (it refuses what is not
 * paid).
 */
function usePrintAllowance(
  kioskKey: string | null,
  attendeeUid: string | null,
  list: readonly Photo[],
) {
  const count = Math.max(1, list.length);
  const enabled = !!kioskKey && !!attendeeUid;
  const data = usePricingButtons(attendeeUid ?? '', enabled, count, kioskKey).data;
  const free = data?.prints_free === 1 || data?.is_free === 1;
  const remaining = data?.prints_remaining ?? 0;
  const buttonIndex = data?.buttons.findIndex((b) => b.prints) ?? -1;
  const button = buttonIndex >= 0 ? data?.buttons[buttonIndex] : undefined;
  const mayPrint = !data || free || remaining >= list.length;
  return { data, count, free, remaining, buttonIndex, button, mayPrint };
}

type PrintAllowance = ReturnType<typeof usePrintAllowance>;

/**
 * The print step's prices at a paid event (pricing button `prints`): "Prints are free at this
 * event", or what the list's prints cost and how many paid prints are left; when the list needs
 * more than are left, "Buy N prints" starts a payment of the kiosk's prints button for the listed
 * photos (a QR for the guest's phone) instead of a print the server would refuse. Paid, the
 * allowance is read again and "Print" spends it.
 */
function KioskPrintOffer({
  kioskKey,
  attendeeUid,
  list,
  allowance,
}: {
  kioskKey: string;
  attendeeUid: string;
  list: readonly Photo[];
  allowance: PrintAllowance;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const [sale, setSale] = useState<Sale>({ kind: 'idle' });
  const { data, count, free, remaining, buttonIndex, button, mayPrint } = allowance;

  useEffect(() => {
    if (sale.kind !== 'paying') return;
    const timer = setInterval(() => {
      checkKioskPayment(kioskKey, sale.paymentId).then(
        (status) => {
          if (status.status === 'paid') {
            setSale({ kind: 'paid' });
            void queryClient.invalidateQueries({
              queryKey: ['albums', 'attendee', attendeeUid, 'pricing-buttons'],
            });
          } else if (status.status !== 'pending')
            setSale({ kind: 'failed', text: t('albums.kiosk.print.notPaid') });
        },
        () => undefined,
      );
    }, pollTiming.printsMs);
    return () => clearInterval(timer);
  }, [sale, kioskKey, attendeeUid, queryClient, t]);

  const buy = () => {
    if (buttonIndex < 0) return;
    setSale({ kind: 'starting' });
    startKioskPrintsPayment(
      kioskKey,
      attendeeUid,
      buttonIndex,
      crypto.randomUUID(),
      list.map((p) => p.uid),
    ).then(
      (payment) =>
        setSale({ kind: 'paying', paymentId: payment.payment_id, url: payment.checkout_url }),
      (error: unknown) => setSale({ kind: 'failed', text: errorText(errorKeyOf(error)) }),
    );
  };

  if (!data) return null;
  if (free)
    return (
      <p className="kiosk-print-price" data-kiosk-print-free>
        {t('albums.kiosk.print.free')}
      </p>
    );
  return (
    <div className="kiosk-print-offer">
      {button?.amount !== null && button?.amount !== undefined && (
        <p className="kiosk-print-price">
          {t('albums.kiosk.print.price', {
            count,
            amount: formatMoney(button.amount, data.currency),
          })}
        </p>
      )}
      {remaining > 0 && <p>{t('albums.kiosk.print.remaining', { count: remaining })}</p>}
      {!button && <p>{t('albums.kiosk.print.notSold')}</p>}
      {/* Combo required: prints wait for the digital photos (bought above, in the checkout). */}
      {button?.requires_digital && !mayPrint && <p>{t('albums.paid.comboRequired')}</p>}
      {button &&
        !button.requires_digital &&
        !mayPrint &&
        list.length > 0 &&
        sale.kind !== 'paying' && (
          <button
            type="button"
            className="fb-button--primary kiosk-print-buy"
            disabled={sale.kind === 'starting'}
            onClick={buy}
          >
            {t('albums.kiosk.print.buy', { count: list.length })}
          </button>
        )}
      {sale.kind === 'paying' && (
        <div className="kiosk-print-pay">
          <p>{t('albums.kiosk.print.scanToPay')}</p>
          <AlbumLinkQr url={sale.url} alt={t('albums.kiosk.print.scanToPay')} />
        </div>
      )}
      {sale.kind === 'paid' && <p role="status">{t('albums.kiosk.print.paid')}</p>}
      {sale.kind === 'failed' && <p role="alert">{sale.text}</p>}
    </div>
  );
}

/** The operator's question before a print (`printConfirmMessage`): Print, or Not now. */
function KioskPrintConfirm({
  message,
  onCancel,
  onPrint,
}: {
  message: string;
  onCancel: () => void;
  onPrint: () => void;
}) {
  const { t } = useTranslation();
  return (
    <KioskQuestion
      title={message}
      className="kiosk-print-confirm"
      no={{ label: t('albums.kiosk.print.confirmCancel'), onClick: onCancel }}
      yes={{
        label: t('albums.kiosk.print.confirmPrint'),
        onClick: onPrint,
        className: 'fb-button--primary',
      }}
    />
  );
}
