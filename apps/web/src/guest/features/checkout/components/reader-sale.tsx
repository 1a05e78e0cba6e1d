import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatMoney, type PaymentStatusName } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import { useChoicePricing, type PhotoChoice } from '../hooks/use-choice-pricing.ts';

/** The texts every device has, under its own translation group. */
type ReaderText =
  | 'title'
  | 'waiting'
  | 'paid'
  | 'cancel'
  | 'cancelling'
  | 'cancelled'
  | 'timedOut'
  | 'declined'
  | 'button'
  | 'buttonNoAmount';

/**
 * What differs between the kiosk's card devices (the venue's payment terminal, a paired Square
 * reader): their calls, their texts, and whether the screen passes on the device's own words.
 */
export interface ReaderSaleAdapter {
  /** The kiosk payment method that offers the device (the pricing list's `methods`). */
  readonly method: 'terminal' | 'square';
  /** Offered when the server's pricing list names no methods at all. */
  readonly offeredWithoutMethods: boolean;
  /** The translation group of the device's texts (`title`, `waiting`, `paid`, …). */
  readonly texts: 'albums.terminal' | 'albums.square';
  /**
   * When set, the screen shows why a status check or a cancel failed (the device's own text, or
   * this text when no answer came); when null, a missed check is just asked again.
   */
  readonly explainsFailures: { readonly checkFailed: 'albums.terminal.checkFailed' } | null;
  /** Milliseconds between two status checks (read when the wait starts). */
  pollMs(): number;
  start(
    buttonIndex: number,
    requestId: string,
    photoUids: readonly string[] | null,
  ): Promise<{ payment_id: string; amount: number }>;
  check(paymentId: string): Promise<{ status: PaymentStatusName; note: string | null }>;
  cancel(paymentId: string): Promise<{ status: PaymentStatusName }>;
}

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

const outcomeOf = (status: PaymentStatusName) =>
  status === 'expired' ? 'timedOut' : status === 'failed' ? 'declined' : 'cancelled';

/**
 * A sale on a card device at the kiosk (albums spec §7.3, its texts §8): a pricing button starts
 * the sale on the device; the screen waits while it asks the server about the sale (the server
 * asks the provider), and the guest or staff can cancel it. Declined, timed out and cancelled end
 * with the buttons offered again; paid reloads the album — only on the server's word. Shown when
 * the event's kiosk offers the device's method.
 */
export function ReaderSale({
  adapter,
  attendeeUid,
  kioskKey,
  choice = null,
}: {
  adapter: ReaderSaleAdapter;
  attendeeUid: string;
  kioskKey: string | null;
  choice?: PhotoChoice | null;
}) {
  const { t } = useTranslation();
  const errorText = useErrorText();
  const queryClient = useQueryClient();
  // The kiosk's ways to pay decide whether the device is offered (not the album page's).
  const { choosing, chosenCount, buttons } = useChoicePricing(attendeeUid, choice, kioskKey);
  const [state, setState] = useState<State>({ kind: 'choose', errorKey: null });
  const text = (key: ReaderText) => t(`${adapter.texts}.${key}` as const);

  const paid = () => {
    setState({ kind: 'paid' });
    void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
  };

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
      adapter.check(waitingFor).then(
        (result) => {
          if (stopped) return;
          if (result.status === 'pending') {
            if (adapter.explainsFailures) note(result.note);
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
              (adapter.explainsFailures ? result.note : null) ??
              t(`${adapter.texts}.${outcomeOf(result.status)}` as const),
          });
        },
        // No answer (the kiosk or the server offline): asked again on the next tick.
        () => {
          if (!stopped && adapter.explainsFailures) note(t(adapter.explainsFailures.checkFailed));
        },
      );
    }, adapter.pollMs());
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [adapter, attendeeUid, waitingFor, queryClient, t]);

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  // The operator may not offer the device for this event (the server refuses it then).
  if (!(list.methods?.includes(adapter.method) ?? adapter.offeredWithoutMethods)) return null;

  const start = (index: number) => {
    setState({ kind: 'starting' });
    adapter.start(index, crypto.randomUUID(), choosing ? choice!.chosen : null).then(
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
    adapter.cancel(waiting.paymentId).then(
      (result) => {
        // The card was taken before the cancel reached the device: the sale stands.
        if (result.status === 'paid') paid();
        else if (result.status !== 'pending') setState({ kind: 'ended', text: text('cancelled') });
        else setState({ ...waiting, cancelling: false });
      },
      (error: unknown) =>
        setState({
          ...waiting,
          cancelling: false,
          note: adapter.explainsFailures ? errorText(errorKeyOf(error)) : waiting.note,
        }),
    );
  };

  return (
    <section className="albums-paid albums-square" aria-label={text('title')}>
      <h2>{text('title')}</h2>
      {state.kind === 'waiting' ? (
        <div role="status" className="albums-square-waiting">
          <p className="albums-square-amount">{formatMoney(state.amount, list.currency)}</p>
          <p>{text('waiting')}</p>
          {state.note && (
            <p className="albums-note" data-terminal-note>
              {state.note}
            </p>
          )}
          <button type="button" disabled={state.cancelling} onClick={() => cancel(state)}>
            {state.cancelling ? text('cancelling') : text('cancel')}
          </button>
        </div>
      ) : state.kind === 'paid' ? (
        <p role="status">{text('paid')}</p>
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
                  ? t(`${adapter.texts}.buttonNoAmount` as const, { text: button.button_text })
                  : t(`${adapter.texts}.button` as const, {
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
