import { useId, useRef, useState, type FormEvent } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { errorKeyOf, isApiError } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  unlockAndPrintAtDesk,
  unlockAtDesk,
  usePricingButtons,
} from '../../../shared/api/album-payments.ts';
import { enqueueKioskAction } from '../../../shared/kiosk/kiosk-outbox-actions.ts';
import { useKiosk } from '../../../shared/kiosk/kiosk-context.tsx';
import { PaidAlbumPanel, type PhotoChoice } from './paid-album-panel.tsx';
import { ShopifyCheckout } from './shopify-checkout.tsx';
import { SquareReaderCheckout } from './square-reader-checkout.tsx';
import { TerminalCheckout } from './terminal-checkout.tsx';

/** The paired Square reader's device id from the kiosk link (`sqDeviceId`), or null. */
const squareDeviceOfLink = (): string | null =>
  new URLSearchParams(window.location.search).get('sqDeviceId')?.trim() || null;

type UnlockPrintResult = Awaited<ReturnType<typeof unlockAndPrintAtDesk>>;

type DeskState =
  | { kind: 'idle' }
  | { kind: 'sending' }
  | { kind: 'done'; printed: number | null }
  | { kind: 'failed'; text: string };

/**
 * Checkout on a kiosk (the shop kiosk `kType=evSB4` and the attendee kiosk pages; item
 * 5): the same QR checkout as the phone album ("pay on your phone"), and — when the kiosk's link
 * carries its private key and the staff controls are open (staff gesture and PIN) — the desk form
 * where an employee types their unlock code to unlock the
 * album after a cash sale, or to unlock and print the photos the guest chose (without a choice,
 * only "Unlock" is offered). Nothing unlocks on this page's word:
 * the server checks the code and answers; the album then reloads its photos.
 */
export function KioskCheckout({
  attendeeUid,
  kioskKey,
  choice = null,
  printPhotoUids,
}: {
  attendeeUid: string;
  /** The kiosk's private key (`pvId` / `privateId` of the link); no desk form without it. */
  kioskKey: string | null;
  /**
   * The page's photo choice (`usePhotoChoice`): the same rule as the phone album — the QR
   * checkout prices and buys the chosen photos, and the desk prints them.
   */
  choice?: PhotoChoice | null;
  /** Photos to print at the desk; by default the chosen ones. */
  printPhotoUids?: readonly string[];
}) {
  const toPrint = printPhotoUids ?? (choice?.choosing ? choice.chosen : []);
  const squareDevice = squareDeviceOfLink();
  const session = useKiosk();
  // The employee unlock code is staff-only: shown once the kiosk's staff controls are open.
  const staff = session?.staff ?? false;
  // The kiosk's own ways to pay (the same query as the reader's, with the kiosk's key).
  const kioskMethods = usePricingButtons(
    attendeeUid,
    squareDevice !== null && kioskKey !== null,
    null,
    kioskKey,
  ).data?.methods;
  // Paying at the kiosk itself: a paired card reader the event's kiosks offer.
  const paysHere = squareDevice !== null && (kioskMethods?.includes('square') ?? false);
  // "QR code at kiosk checkout" (qrAtKioskCheckout): a kiosk that takes the payment itself shows
  // the QR code for the guest's phone only when the event says so; one that cannot, always.
  const showQr = !paysHere || (session?.qrAtCheckout ?? false);
  return (
    <div className="albums-kiosk-checkout">
      {squareDevice && (
        <SquareReaderCheckout
          attendeeUid={attendeeUid}
          kioskKey={kioskKey}
          deviceId={squareDevice}
          choice={choice}
        />
      )}
      {kioskKey && (
        <TerminalCheckout attendeeUid={attendeeUid} kioskKey={kioskKey} choice={choice} />
      )}
      {kioskKey && (
        <ShopifyCheckout
          attendeeUid={attendeeUid}
          kioskKey={kioskKey}
          staff={staff}
          choice={choice}
        />
      )}
      {showQr && <PaidAlbumPanel attendeeUid={attendeeUid} choice={choice} kiosk />}
      {kioskKey && staff && (
        <DeskUnlockForm attendeeUid={attendeeUid} kioskKey={kioskKey} printPhotoUids={toPrint} />
      )}
    </div>
  );
}

function DeskUnlockForm({
  attendeeUid,
  kioskKey,
  printPhotoUids,
}: {
  attendeeUid: string;
  kioskKey: string;
  printPhotoUids: readonly string[];
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const kiosk = useKiosk();
  const inputId = useId();
  const messageId = useId();
  const [code, setCode] = useState('');
  const [state, setState] = useState<DeskState>({ kind: 'idle' });
  // One id per print attempt: a double tap or a retry after a lost answer prints once.
  const printRequest = useRef<string | null>(null);

  const send = (print: boolean) => {
    const given = code.trim();
    if (!given) {
      setState({ kind: 'failed', text: errorText('invalid_unlock_code') });
      return;
    }
    setState({ kind: 'sending' });
    printRequest.current ??= crypto.randomUUID();
    // On a kiosk the desk's call goes through its outbox: offline it waits (kept across a reload)
    // and is sent once the network is back, under one client request id.
    const outbox = kiosk?.outbox;
    const viaOutbox: Promise<number | null> | null = !outbox
      ? null
      : print
        ? enqueueKioskAction<'unlock-print', UnlockPrintResult>(outbox, 'unlock-print', {
            kioskKey,
            attendeeId: attendeeUid,
            code: given,
            photoUids: [...printPhotoUids],
          }).then((result) => result.photo_count)
        : enqueueKioskAction(outbox, 'unlock', {
            kioskKey,
            attendeeId: attendeeUid,
            code: given,
          }).then(() => null);
    const call: Promise<number | null> =
      viaOutbox ??
      (print
        ? unlockAndPrintAtDesk(
            kioskKey,
            attendeeUid,
            given,
            [...printPhotoUids],
            printRequest.current,
          ).then((result) => result.photo_count)
        : unlockAtDesk(kioskKey, attendeeUid, given).then(() => null));
    call.then(
      (printed) => {
        printRequest.current = null;
        setCode('');
        setState({ kind: 'done', printed });
        void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
      },
      (error: unknown) => {
        // A refusal (4xx) stored nothing: the next try is a new request. A lost answer or a
        // server error keeps the id, so trying again cannot print twice.
        if (isApiError(error) && error.status !== undefined && error.status < 500)
          printRequest.current = null;
        setState({ kind: 'failed', text: errorText(errorKeyOf(error)) });
      },
    );
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    send(false);
  };

  return (
    <form
      className="albums-desk-unlock"
      onSubmit={submit}
      noValidate
      aria-label={t('albums.desk.title')}
    >
      <label htmlFor={inputId}>{t('albums.desk.codeLabel')}</label>
      <input
        id={inputId}
        type="password"
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        maxLength={20}
        value={code}
        onChange={(event) => setCode(event.target.value)}
        aria-invalid={state.kind === 'failed'}
        aria-describedby={messageId}
      />
      <button type="submit" disabled={state.kind === 'sending'}>
        {t('albums.desk.unlock')}
      </button>
      {printPhotoUids.length > 0 && (
        <button type="button" disabled={state.kind === 'sending'} onClick={() => send(true)}>
          {t('albums.desk.unlockAndPrint', { count: printPhotoUids.length })}
        </button>
      )}
      <p id={messageId} className="albums-form-message" aria-live="polite">
        {state.kind === 'done' &&
          (state.printed === null
            ? t('albums.desk.unlocked')
            : t('albums.desk.printing', { count: state.printed }))}
        {state.kind === 'failed' && <span role="alert">{state.text}</span>}
      </p>
    </form>
  );
}
