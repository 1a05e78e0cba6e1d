import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import {
  cancelSquareSale,
  checkSquareSale,
  startSquareSale,
  usePricingButtons,
} from '../../../shared/api/album-payments.ts';
import type { PhotoChoice } from './paid-album-panel.tsx';

/** How often the kiosk asks the server (which asks Square) about the reader's sale. */

type State =
  | { kind: 'choose'; errorKey: string | null }
  | { kind: 'starting' }
  | { kind: 'waiting'; paymentId: string; amount: number; cancelling: boolean }
  | { kind: 'ended'; outcome: 'declined' | 'timedOut' | 'cancelled' }
  | { kind: 'paid' };

/**
 * Paying on the kiosk's Square card reader (albums spec §7.3): the kiosk link's
 * `sqDeviceId` names the reader paired in the console. A pricing button starts a Terminal checkout
 * on it (initiate-square-payment); the screen waits for the card while it asks the server about
 * the sale (check-square-checkout-status: the server reads it from Square), and the guest or staff
 * can cancel it. Declined, timed out and cancelled end with the buttons offered again; paid
 * reloads the album — only on the server's word.
 */
export function SquareReaderCheckout({
  attendeeUid,
  kioskKey,
  deviceId,
  choice = null,
}: {
  attendeeUid: string;
  kioskKey: string | null;
  deviceId: string;
  choice?: PhotoChoice | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  const choosing = choice?.choosing ?? false;
  const chosenCount = choice?.chosen.length ?? 0;
  const buttons = usePricingButtons(
    attendeeUid,
    true,
    choosing ? (chosenCount > 0 ? chosenCount : null) : null,
    // The kiosk's ways to pay decide whether the reader is offered (not the album page's).
    kioskKey,
  );
  const [state, setState] = useState<State>({ kind: 'choose', errorKey: null });

  const waitingFor = state.kind === 'waiting' ? state.paymentId : null;
  useEffect(() => {
    if (!waitingFor) return;
    let stopped = false;
    const timer = setInterval(() => {
      checkSquareSale(kioskKey, attendeeUid, waitingFor).then(
        (result) => {
          if (stopped || result.status === 'pending') return;
          stopped = true;
          clearInterval(timer);
          if (result.status === 'paid') {
            setState({ kind: 'paid' });
            void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
            return;
          }
          setState({
            kind: 'ended',
            outcome:
              result.status === 'expired'
                ? 'timedOut'
                : result.status === 'failed'
                  ? 'declined'
                  : 'cancelled',
          });
        },
        () => undefined, // a missed poll is retried on the next tick
      );
    }, pollTiming.squareMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [attendeeUid, kioskKey, waitingFor, queryClient]);

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  // The operator may not offer the reader for this event (the server refuses it then).
  if (!(list.methods?.includes('square') ?? true)) return null;

  const start = (index: number) => {
    setState({ kind: 'starting' });
    startSquareSale(
      kioskKey,
      attendeeUid,
      deviceId,
      index,
      crypto.randomUUID(),
      choosing ? choice!.chosen : null,
    ).then(
      (sale) =>
        setState({
          kind: 'waiting',
          paymentId: sale.payment_id,
          amount: sale.amount,
          cancelling: false,
        }),
      (error: unknown) => setState({ kind: 'choose', errorKey: errorKeyOf(error) }),
    );
  };

  const cancel = (paymentId: string, amount: number) => {
    setState({ kind: 'waiting', paymentId, amount, cancelling: true });
    cancelSquareSale(kioskKey, attendeeUid, paymentId).then(
      (result) => {
        if (result.status === 'paid') {
          // The buyer paid before the cancel reached the reader: the sale stands.
          setState({ kind: 'paid' });
          void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
        } else if (result.status !== 'pending') setState({ kind: 'ended', outcome: 'cancelled' });
        else setState({ kind: 'waiting', paymentId, amount, cancelling: false });
      },
      () => setState({ kind: 'waiting', paymentId, amount, cancelling: false }),
    );
  };

  return (
    <section className="albums-paid albums-square" aria-label={t('albums.square.title')}>
      <h2>{t('albums.square.title')}</h2>
      {state.kind === 'waiting' ? (
        <div role="status" className="albums-square-waiting">
          <p className="albums-square-amount">{formatMoney(state.amount, list.currency)}</p>
          <p>{t('albums.square.waiting')}</p>
          <button
            type="button"
            disabled={state.cancelling}
            onClick={() => cancel(state.paymentId, state.amount)}
          >
            {state.cancelling ? t('albums.square.cancelling') : t('albums.square.cancel')}
          </button>
        </div>
      ) : state.kind === 'paid' ? (
        <p role="status">{t('albums.square.paid')}</p>
      ) : (
        <>
          {state.kind === 'ended' && <p role="alert">{t(`albums.square.${state.outcome}`)}</p>}
          {state.kind === 'choose' && state.errorKey && (
            <p role="alert">{errorText(state.errorKey)}</p>
          )}
          <div className="albums-paid-buttons">
            {list.buttons.map((button) => (
              <button
                key={button.index}
                type="button"
                disabled={state.kind === 'starting' || (choosing && chosenCount === 0)}
                onClick={() => start(button.index)}
              >
                {button.amount === null || (choosing && chosenCount === 0)
                  ? t('albums.square.buttonNoAmount', { text: button.button_text })
                  : t('albums.square.button', {
                      text: button.button_text,
                      amount: formatMoney(button.amount, list.currency),
                    })}
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
