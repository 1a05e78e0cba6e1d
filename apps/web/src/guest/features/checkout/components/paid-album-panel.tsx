import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatCents } from '@flashbulb/shared';
import { errorKeyOf } from '../../../../lib/api-client.ts';
import { useErrorText } from '../../../../lib/error-text.ts';
import {
  checkQrPayment,
  startQrPayment,
  usePayPalSettings,
  usePricingButtons,
  type QrPayment,
} from '../../../shared/api/album-payments.ts';
import { AlbumLinkQr } from '../../../shared/components/album-link-qr.tsx';
import { PayPalCardCheckout } from './paypal-card-checkout.tsx';

/** How often the page asks whether the payment went through. */
export const PAYMENT_POLL_MS = 2000;

type State =
  | { kind: 'choose'; errorKey: string | null }
  | { kind: 'starting' }
  /** PayPal's card form for a button (when the event's album offers it). */
  | { kind: 'card'; index: number; amount: number | null }
  | { kind: 'paying'; payment: QrPayment }
  | { kind: 'failed'; status: string };

/** Buying the whole album, or photos the guest taps in the grid (the page holds the choice). */
export interface PhotoChoice {
  choosing: boolean;
  chosen: readonly string[];
  setChoosing: (choosing: boolean) => void;
}

/**
 * A paid album's checkout: the event's pricing buttons with their prices (unless
 * the event hides them), for the whole album or for the photos the guest chose (the server prices
 * the count with the button's formula); a button starts a payment whose checkout page opens by QR
 * code on a phone or by the link; the page polls its status, and once a provider confirmed it the
 * album reloads its attendee and photos — originals appear without a reload of the page. Nothing
 * unlocks on this page's word: only the server's `paid`.
 */
export function PaidAlbumPanel({
  attendeeUid,
  choice = null,
  cardCheckout = false,
}: {
  attendeeUid: string;
  choice?: PhotoChoice | null;
  /** The album page (not a kiosk): PayPal's card checkout when the event's album offers it. */
  cardCheckout?: boolean;
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
  );
  // The whole album's count for its scope button (cached: the same query as before choosing).
  const album = usePricingButtons(attendeeUid, choice !== null);
  const [state, setState] = useState<State>({ kind: 'choose', errorKey: null });
  const paypal = usePayPalSettings(attendeeUid, cardCheckout);
  const cardScript =
    cardCheckout && paypal.data?.enabled === 1 && paypal.data.script_url
      ? paypal.data.script_url
      : null;

  const paymentId = state.kind === 'paying' ? state.payment.payment_id : null;
  useEffect(() => {
    if (!paymentId) return;
    let stopped = false;
    const timer = setInterval(() => {
      checkQrPayment(attendeeUid, paymentId).then(
        (result) => {
          if (stopped || result.status === 'pending') return;
          stopped = true;
          clearInterval(timer);
          if (result.status === 'paid')
            void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] });
          else setState({ kind: 'failed', status: result.status });
        },
        () => undefined, // a missed poll is retried on the next tick
      );
    }, PAYMENT_POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [attendeeUid, paymentId, queryClient]);

  const list = buttons.data;
  if (!list || list.is_free === 1 || list.buttons.length === 0) return null;
  // The ways to pay the operator offers here (the server refuses the others).
  const qrOffered = list.methods?.includes('qr') ?? true;
  if (!qrOffered && !cardScript) return null;

  const start = (index: number) => {
    setState({ kind: 'starting' });
    startQrPayment(attendeeUid, index, crypto.randomUUID(), choosing ? choice!.chosen : null).then(
      (payment) => setState({ kind: 'paying', payment }),
      (error: unknown) => setState({ kind: 'choose', errorKey: errorKeyOf(error) }),
    );
  };

  const choose = (index: number, amount: number | null) =>
    cardScript ? setState({ kind: 'card', index, amount }) : start(index);

  return (
    <section className="albums-paid" aria-label={t('albums.paid.title')}>
      {state.kind === 'card' && cardScript ? (
        <div className="albums-paid-method">
          <h2>
            {state.amount === null
              ? t('albums.paid.card.titleNoAmount')
              : t('albums.paid.card.title', { amount: formatCents(state.amount) })}
          </h2>
          <PayPalCardCheckout
            key={state.index}
            attendeeUid={attendeeUid}
            scriptUrl={cardScript}
            buttonIndex={state.index}
            photoUids={choosing ? choice!.chosen : null}
            onPaid={() =>
              void queryClient.invalidateQueries({ queryKey: ['albums', 'attendee', attendeeUid] })
            }
          />
          <div className="albums-paid-alt">
            {qrOffered && (
              <button type="button" onClick={() => start(state.index)}>
                {t('albums.paid.card.qrInstead')}
              </button>
            )}
            <button type="button" onClick={() => setState({ kind: 'choose', errorKey: null })}>
              {t('albums.paid.card.back')}
            </button>
          </div>
        </div>
      ) : state.kind === 'paying' ? (
        <div role="status" className="albums-paid-qr">
          <p>{t('albums.paid.scan', { amount: formatCents(state.payment.amount) })}</p>
          <AlbumLinkQr url={state.payment.checkout_url} alt={t('albums.paid.qrAlt')} />
          <p>
            <a href={state.payment.checkout_url}>{t('albums.paid.payHere')}</a>
          </p>
        </div>
      ) : (
        <>
          <h2>{t('albums.paid.title')}</h2>
          <p>{t('albums.paid.intro')}</p>
          {choice && (
            <div className="albums-paid-scope" role="group" aria-label={t('albums.paid.scope')}>
              <button
                type="button"
                aria-pressed={!choosing}
                onClick={() => choice.setChoosing(false)}
              >
                {t('albums.paid.wholeAlbum', {
                  count: album.data?.photo_count ?? list.photo_count,
                })}
              </button>
              <button
                type="button"
                aria-pressed={choosing}
                onClick={() => choice.setChoosing(true)}
              >
                {t('albums.paid.choosePhotos')}
              </button>
            </div>
          )}
          {choosing && (
            <p className="albums-note" role="status">
              {chosenCount === 0
                ? t('albums.paid.chooseHint')
                : t('albums.paid.chosen', { count: chosenCount })}
            </p>
          )}
          {state.kind === 'failed' && (
            <p role="alert">
              {t(`albums.paid.ended.${state.status === 'failed' ? 'failed' : 'closed'}`)}
            </p>
          )}
          {state.kind === 'choose' && state.errorKey && (
            <p role="alert">{errorText(state.errorKey)}</p>
          )}
          <div className="albums-paid-buttons">
            {list.buttons.map((button) => (
              <button
                key={button.index}
                type="button"
                disabled={
                  state.kind === 'starting' ||
                  (choosing && chosenCount === 0) ||
                  // Which ways to pay the album offers is known first.
                  paypal.isLoading
                }
                onClick={() => choose(button.index, button.amount)}
              >
                {button.amount === null || (choosing && chosenCount === 0)
                  ? button.button_text
                  : t('albums.paid.button', {
                      text: button.button_text,
                      amount: formatCents(button.amount),
                    })}
              </button>
            ))}
          </div>
        </>
      )}
    </section>
  );
}
