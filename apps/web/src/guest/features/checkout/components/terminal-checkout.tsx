import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  cancelTerminalSale,
  checkTerminalSale,
  startTerminalSale,
  usePricingButtons,
} from '../../../shared/api/album-payments.ts';
import { pollTiming } from '../../../shared/utils/poll-timing.ts';
import type { PhotoChoice } from './paid-album-panel.tsx';

type State =
  | { kind: 'choose'; errorKey: string | null }
  | { kind: 'starting' }
  | {
      kind: 'waiting';
      paymentId: string;
      amount: number;
      cancelling: boolean;
      /** The last status check's own text ("Status check failed", "Error code - …"). */
      note: string | null;
    }
  | { kind: 'ended'; text: string }
  | { kind: 'paid' };

/**
 * Paying on the venue's payment terminal at the kiosk (albums spec §7.3, its texts §8): a pricing
 * button starts the sale on the terminal (`/payment/terminal/pay`); the screen waits while it
 * asks the server about the sale (`/payment/terminal/check-status`), showing the terminal's own
 * text when a check fails — offline or refused — and asking again; the guest or staff can cancel
 * it. Paid reloads the album, only on the server's word. Offered when the event's kiosk may take
 * the terminal and the kiosk link carries its key.
 */
export function TerminalCheckout({
  attendeeUid,
  kioskKey,
  choice = null,
}: {
  attendeeUid: string;
  kioskKey: string;
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
    kioskKey,
  );
  const [state, setState] = useState<State>({ kind: 'choose', errorKey: null });

  const waitingFor = state.kind === 'waiting' ? state.paymentId : null;
  useEffect(() => {
    if (!waitingFor) return;
    let stopped = false;
    const note = (text: string | null) =>
      setState((current) =>
        current.kind === 'waiting' && current.paymentId === waitingFor
          ? { ...current, note: text }
          : current,
      );
    const timer = setInterval(() => {
      checkTerminalSale(kioskKey, waitingFor).then(
        (result) => {
          if (stopped) return;
          if (result.status === 'pending') {
            note(result.error_message);
            return;
          }
          stopped = true;
          clearInterval(timer);
          if (result.status === 'paid') {
            setState({ kind: 'paid' });
            void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
            return;
          }
          setState({
            kind: 'ended',
            text:
              result.error_message ??
              t(
                result.status === 'expired'
                  ? 'albums.terminal.timedOut'
                  : result.status === 'failed'
                    ? 'albums.terminal.declined'
                    : 'albums.terminal.cancelled',
              ),
          });
        },
        // No answer (the kiosk or the server offline): said, and asked again on the next tick.
        () => {
          if (!stopped) note(t('albums.terminal.checkFailed'));
        },
      );
    }, pollTiming.terminalMs);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [attendeeUid, kioskKey, waitingFor, queryClient, t]);

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  if (!(list.methods?.includes('terminal') ?? false)) return null;

  const start = (index: number) => {
    setState({ kind: 'starting' });
    startTerminalSale(
      kioskKey,
      attendeeUid,
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
          note: null,
        }),
      (error: unknown) => setState({ kind: 'choose', errorKey: errorKeyOf(error) }),
    );
  };

  const cancel = (waiting: Extract<State, { kind: 'waiting' }>) => {
    setState({ ...waiting, cancelling: true });
    cancelTerminalSale(kioskKey, waiting.paymentId).then(
      (result) => {
        if (result.status === 'paid') {
          // The terminal approved the card before the cancel reached it: the sale stands.
          setState({ kind: 'paid' });
          void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
        } else if (result.status !== 'pending')
          setState({ kind: 'ended', text: t('albums.terminal.cancelled') });
        else setState({ ...waiting, cancelling: false });
      },
      (error: unknown) =>
        setState({ ...waiting, cancelling: false, note: errorText(errorKeyOf(error)) }),
    );
  };

  return (
    <section className="albums-paid albums-square" aria-label={t('albums.terminal.title')}>
      <h2>{t('albums.terminal.title')}</h2>
      {state.kind === 'waiting' ? (
        <div role="status" className="albums-square-waiting">
          <p className="albums-square-amount">{formatMoney(state.amount, list.currency)}</p>
          <p>{t('albums.terminal.waiting')}</p>
          {state.note && (
            <p className="albums-note" data-terminal-note>
              {state.note}
            </p>
          )}
          <button type="button" disabled={state.cancelling} onClick={() => cancel(state)}>
            {state.cancelling ? t('albums.terminal.cancelling') : t('albums.terminal.cancel')}
          </button>
        </div>
      ) : state.kind === 'paid' ? (
        <p role="status">{t('albums.terminal.paid')}</p>
      ) : (
        <>
          {state.kind === 'ended' && <p role="alert">{state.text}</p>}
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
                  ? t('albums.terminal.buttonNoAmount', { text: button.button_text })
                  : t('albums.terminal.button', {
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
